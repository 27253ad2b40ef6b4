#!/usr/bin/env python3
"""Generates the catalogue in DeviceProfiles/ from the compact device descriptions below.

Usage: python3 tools/generate_device_profiles.py   (writes DeviceProfiles/<id>.yaml)

Why a script: lens-distortion lookup tables and their inverses are 42-entry numeric tables that
must be exact inverses of each other, and intrinsics must follow from focal length and pixel
pitch. Computing them here keeps the YAML consistent; edit this file, then re-run it.

Provenance of the figures:
- documented: Apple's published technical specifications for each model (35 mm-equivalent focal
  lengths, f-numbers, megapixels, flash type, camera set) and Apple API facts restated in the
  project's capture spec (depth sizes and rates from WWDC17-507 / WWDC18-503, device types,
  constituent order, Constant Color hardware).
- measured: per-format facts that real devices report in their `AVCaptureDevice.formats` lists,
  read from public dumps of those lists (binning, video HDR, photo sizes, depth sizes; the sources
  are named in LIDAR_SOURCES below and in each format's provenance).
- modelled: everything else (physical focal lengths derived from crop factors, pixel pitches,
  lens positions, distortion, sensitivities, noise, LED choices and intensities), chosen to be
  plausible and marked as such in each file. Formats that state no binning, field of view,
  stabilisation modes, video HDR or intrinsic reference get them derived from the camera by the
  emulator (DeviceProfiles/README.md).
Licence: the generated data is original to this project.
"""
import math
import os

N_TABLE = 42  # entries per distortion table (radius 0 … farthest corner)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "DeviceProfiles")


def fmt(x, digits=6):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    s = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


def flow(v):
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, str):
        return f'"{v}"' if (":" in v or v in ("on", "off", "yes", "no")) else v
    return fmt(v)


# --- distortion ------------------------------------------------------------------------------

def distortion_tables(k1, k2):
    """Forward table L(s) = k1 s^2 + k2 s^4 over the normalised undistorted radius s in [0, 1]
    (barrel when k1 < 0), and the inverse table on the distorted radius, solved by bisection so
    that inverse(forward(r)) = r up to the linear interpolation between table entries."""
    fwd = [k1 * s * s + k2 * s ** 4 for s in (i / (N_TABLE - 1) for i in range(N_TABLE))]

    def rd(s):
        return s * (1 + k1 * s * s + k2 * s ** 4)

    inv = [0.0]
    for i in range(1, N_TABLE):
        target = i / (N_TABLE - 1)
        lo, hi = 0.0, 2.0
        for _ in range(80):
            mid = (lo + hi) / 2
            if rd(mid) < target:
                lo = mid
            else:
                hi = mid
        inv.append((lo + hi) / 2 / target - 1)
    inv[0] = 0.0  # radius 0: no elongation
    return fwd, inv


# --- devices ---------------------------------------------------------------------------------

D = "documented"
M = "modelled"


def physical(cid, ctype, position, f35, fnum, mp_dims, pixel_um, crop, translation, k1, k2, qe_shift,
             full_well, read_noise, base_iso, spec_note, formats, presets, flash_modes, features,
             rotation=None, reference="back-wide", min_focus=None):
    w, h = mp_dims
    # Physical focal length from the 35 mm equivalent: f = f35 / crop factor, where the crop
    # factor is the 35 mm diagonal (43.27 mm) over the sensor diagonal (pixel pitch × pixels).
    diag_mm = math.hypot(w, h) * pixel_um / 1000
    f_mm = f35 * diag_mm / 43.27
    fx = f_mm * 1000 / pixel_um
    cx, cy = w / 2 + 3.5, h / 2 - 2.0  # a few pixels of lens decentre
    fwd, inv = distortion_tables(k1, k2)
    out = {
        "id": cid, "type": ctype, "position": position,
        "optics": {
            "focal_length_mm": round(f_mm, 3), "focal_length_35mm_equiv_mm": f35, "f_number": fnum,
            "pixel_size_um": pixel_um, "sensor_px": [w, h],
            "provenance": {"default": M, "focal_length_35mm_equiv_mm": f"{D}: {spec_note}",
                           "f_number": f"{D}: {spec_note}", "sensor_px": f"{D}: {spec_note} (megapixels)",
                           "focal_length_mm": f"{M}: 35 mm equivalent / crop factor"},
        },
        "intrinsics": {"fx_px": round(fx, 2), "fy_px": round(fx, 2), "cx_px": cx, "cy_px": cy,
                       "reference_px": [w, h], "provenance": f"{M}: fx = focal length / pixel pitch"},
        "extrinsics": {"reference": reference if cid != reference else cid,
                       "rotation": rotation or [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                       "translation_mm": translation,
                       "provenance": f"{M}: lens positions from product photos"},
        "distortion": {"center_px": [cx + 1.5, cy - 1.0], "lookup_table": fwd, "inverse_lookup_table": inv,
                       "provenance": f"{M}: radial polynomial k1={k1}, k2={k2} on r/r_max (tools/generate_device_profiles.py)"},
        "sensitivities": {
            "model": "gaussian-mixture",
            "red": [{"peak_nm": 600 + qe_shift, "sigma_nm": 30, "peak_qe": 0.52},
                    {"peak_nm": 450, "sigma_nm": 20, "peak_qe": 0.03}],
            "green": [{"peak_nm": 535 + qe_shift, "sigma_nm": 36, "peak_qe": 0.60}],
            "blue": [{"peak_nm": 462 + qe_shift, "sigma_nm": 24, "peak_qe": 0.48}],
            "provenance": f"{M}: Gaussian CFA x silicon QE, colour-science spec §3.3 shapes",
        },
        "noise": {"full_well_e": full_well, "read_noise_e": read_noise, "prnu_percent": 0.7, "dsnu_e": 1.0,
                  "dark_current_e_per_s": 2.0, "adc_bits": 10, "black_level_dn": 64, "white_level_dn": 1023,
                  "base_iso": base_iso,
                  "provenance": {"default": f"{M}: colour-science spec §3.2 ranges",
                                 "prnu_percent": f"{M}: IMX363 value, colour-science spec §3.2"}},
        "formats": formats, "presets": presets, "flash_modes": flash_modes, "features": features,
    }
    if min_focus:
        # The nearest focus, `minimumFocusDistance`, with its source: (millimetres, provenance).
        mm, note = min_focus
        optics = out["optics"]
        provenance = optics.pop("provenance")
        optics["minimum_focus_distance_mm"] = mm
        provenance["minimum_focus_distance_mm"] = note
        optics["provenance"] = provenance
    shade = shading(f35)
    if shade:
        # Insert after the distortion section, where a reader of the optics looks for it.
        keys = list(out)
        at = keys.index("distortion") + 1
        out = dict(list(out.items())[:at] + [("shading", shade)] + list(out.items())[at:])
    return out


# --- lens shading ----------------------------------------------------------------------------

HALF_DIAGONAL_35MM = 43.27 / 2


def shading(f35):
    """The natural cos^4 fall-off at the camera's own field of view (tan theta = image height / f),
    for lenses whose half-diagonal field is at most 45 degrees: there the law alone gives 28-86 %
    at the corner, the range phone lenses show. Wider lenses (13-14 mm equivalent, 57-59 degrees)
    would fall to 7-9 % under the law; real ultra-wide lenses stay far brighter through their barrel
    distortion and pupil design, and with no published curve to stand on they get no shading."""
    half_field = math.degrees(math.atan(HALF_DIAGONAL_35MM / f35))
    if half_field > 45:
        return None
    corner = math.cos(math.radians(half_field)) ** 4
    return {"natural": "cos4", "correction": SHADING_CORRECTION,
            "provenance": {"default": f"{M}: natural cos^4 law at the camera's field of view "
                                      f"({half_field:.1f} degrees to the corner, {corner:.2f} there); no measured curve",
                           "correction": f"{M}: {SHADING_CORRECTION_NOTE}"}}


# The share of the lens's lost light the ISP puts back (gain 1 + f (1/R - 1)). Phone ISP tunings leave
# some fall-off so that the corners' noise is not amplified by the full 1/R: Qualcomm's Chromatix tuning
# exposes the rolloff correction as a percentage, set to 75-90 % for low light according to a tuning
# write-up; 0.8 is our choice inside that range, no Apple figure being published.
SHADING_CORRECTION = 0.8
SHADING_CORRECTION_NOTE = ("our choice inside the 75-90 % rolloff correction percentage of Qualcomm Chromatix "
                           "low-light tuning (blog.csdn.net/qq_36037216/article/details/117196767); no Apple figure")


# --- readout per format ------------------------------------------------------------------------

def readout_of(fmt, sensor, noise):
    """How the sensor is read for a format's video (FormatReadout): binned when the profile says so or,
    with nothing stated, when the sensor is at least twice the format's size in its limiting direction
    (the emulator's isVideoBinned rule); full when the format has the sensor's pixels; scaled (averaged
    from the full readout) otherwise. A photo larger than the binned readout is read in full whatever
    the format says. Returns the keys and their provenance."""
    w, h = sensor
    vw, vh = fmt["video_px"]
    ratio = min(w / vw, h / vh)
    stated = fmt.get("binned")
    if stated is True or (stated is None and ratio >= 2):
        keys = {"readout": "binned", "binned_full_well_e": 4 * noise["full_well_e"],
                "binned_read_noise_e": noise["read_noise_e"]}
        why = ("the format's stated binning" if stated else
               f"the sensor is {ratio:.2f}x the format's size in its limiting direction, room for 2x2 binning")
        return keys, {"readout": f"{M}: {why}",
                      "binned_full_well_e": f"{M}: 2x2 charge binning sums four photosites' charge, four full wells",
                      "binned_read_noise_e": f"{M}: the summed charge is read once, with the photosite's read noise"}
    mode = "full" if ratio < 1.005 else "scaled"
    why = ("the format has the sensor's pixels" if mode == "full" else
           f"the sensor is {ratio:.2f}x the format's size, too little for 2x2 binning; the ISP averages the "
           "full readout down" if stated is None else "the format is stated unbinned; the ISP averages the full "
           "readout down")
    return {"readout": mode}, {"readout": f"{M}: {why}"}


def add_readouts(profile):
    """Adds each format's readout, from the sensor of the camera that renders it (itself, the camera
    whose sensor it shares, or its wide constituent)."""
    cams = {c["id"]: c for c in profile["cameras"]}

    def physical_of(cam):
        for _ in range(4):
            if "optics" in cam:
                return cam
            if cam.get("constituents"):
                members = [cams[i] for i in cam["constituents"]]
                wide = [m for m in members if m["type"] == "builtInWideAngleCamera"]
                cam = (wide or members)[0]
            else:
                cam = cams[cam["shares_sensor_with"]]
        raise ValueError(cam["id"])

    for cam in profile["cameras"]:
        phys = physical_of(cam)
        formats = []
        for fmt in cam["formats"]:
            keys, prov = readout_of(fmt, phys["optics"]["sensor_px"], phys["noise"])
            out = {k: v for k, v in fmt.items() if k != "provenance"}
            out.update(keys)
            old = fmt["provenance"]
            merged = dict(old) if isinstance(old, dict) else {"default": old}
            merged.update(prov)
            out["provenance"] = merged
            formats.append(out)
        cam["formats"] = formats
    return profile


FACT_KEYS = ("binned", "field_of_view_deg", "stabilization_modes", "video_hdr", "intrinsic_reference_px")


def fmt_entry(fid, video, pixfmt, fps, spaces, photo, hq=False, depth=None, prov=None, cc=None, facts=None):
    """One format. `facts` holds what a real device reports for it (FACT_KEYS); a key left out is
    derived from the camera by the emulator."""
    e = {"id": fid, "video_px": list(video), "pixel_format": pixfmt, "fps_ranges": fps, "color_spaces": spaces,
         "photo_px": photo}
    if hq:
        e["highest_photo_quality"] = True
    if depth:
        e["depth"] = depth
    if cc is not None:
        e["constant_color"] = cc
    for key, value in (facts or {}).items():
        assert key in FACT_KEYS, key
        e[key] = value
    e["provenance"] = prov or f"{M}: typical iPhone format list"
    return e


ALL_DEPTH = ["hdis", "fdis", "hdep", "fdep"]


def depth_list(sizes, max_fps):
    return [{"size_px": list(s), "pixel_formats": ALL_DEPTH, "max_fps": max_fps} for s in sizes]


# The small formats behind the presets `.medium` (480x360), `.low` (192x144), `.cif352x288` and
# `.iFrame960x540`. Public iOS format lists show 192x144, 352x288 and 480x360 420v formats beside 640x480
# (an iPod touch's back camera, for instance); the 960x540 size is the one the iFrame preset names.
SMALL_SOURCE = (f"{M}: as the format lists iOS devices publish (192x144, 352x288 and 480x360 beside 640x480, "
                "e.g. an iPod touch's back camera: mcmap.net/q/1218351); 960x540 the iFrame preset's size")


def small_formats():
    return [fmt_entry(f"{w}x{h}-420v", (w, h), "420v", [[1, 30]], ["sRGB"], [[w, h]], prov=SMALL_SOURCE)
            for (w, h) in ((480, 360), (352, 288), (192, 144), (960, 540))]


SMALL_PRESETS = {"medium": "480x360-420v", "low": "192x144-420v", "cif352x288": "352x288-420v",
                 "iFrame960x540": "960x540-420v"}


def back_formats(photo_dims, hi_fps=60, k4_fps=30, depth43=None, depth169=None, depth_note=None, dual=False,
                 ten_bit=None):
    """The usual back-camera list: photo (4:3, 1440x1080 preview), 1080p, 720p, VGA, 4K."""
    p169 = [[1920, 1080]]
    prov_depth = {"default": M, "depth": f"{D}: {depth_note}"} if depth_note else None
    out = [
        fmt_entry("1440x1080-420f", (1440, 1080), "420f", [[1, 30]], ["sRGB", "P3_D65"], photo_dims, hq=True,
                  depth=depth43, prov=prov_depth),
        fmt_entry("1920x1080-420f", (1920, 1080), "420f", [[1, 30 if dual else hi_fps]], ["sRGB", "P3_D65"], p169,
                  depth=depth169, prov=prov_depth),
        fmt_entry("1280x720-420v", (1280, 720), "420v", [[1, hi_fps]], ["sRGB"], [[1280, 720]]),
        fmt_entry("640x480-420v", (640, 480), "420v", [[1, 30]], ["sRGB"], [[640, 480]]),
        *small_formats(),
        fmt_entry("3840x2160-420v", (3840, 2160), "420v", [[1, k4_fps]], ["sRGB"], [[3840, 2160]]),
    ]
    if ten_bit:
        out.append(fmt_entry("3840x2160-x420", (3840, 2160), "x420", [[1, k4_fps]], ten_bit, [[3840, 2160]]))
    return out


BACK_PRESETS = {"photo": "1440x1080-420f", "high": "1920x1080-420f", "hd1920x1080": "1920x1080-420f",
                "hd1280x720": "1280x720-420v", "vga640x480": "640x480-420v", "hd4K3840x2160": "3840x2160-420v",
                "iFrame1280x720": "1280x720-420v", **SMALL_PRESETS}
FRONT_PRESETS = {k: v for k, v in BACK_PRESETS.items()}


# Mattes with photos (DeviceProfiles/README.md): the portrait effects matte on the depth cameras of
# iPhone X and later; semantic segmentation mattes on the later phones modelled here. Half the photo's
# size on each side is our choice.
PORTRAIT_MATTE = {"portrait_effects": True, "scale": 0.5}
ALL_MATTES = {"portrait_effects": True, "semantic_segmentation": ["hair", "skin", "teeth", "glasses"], "scale": 0.5}


def features(cc=False, constituents=False, intrinsic=True, note="", autofocus=None, mattes=None):
    f = {"constant_color": cc, "constituent_photo_delivery": constituents,
         "calibration_data_delivery": constituents, "intrinsic_matrix_delivery": intrinsic,
         "max_photo_quality_prioritization": "quality"}
    if mattes:
        f["mattes"] = mattes
    if autofocus:
        f["autofocus"] = autofocus  # absent: phase detection (DeviceProfiles/README.md)
    f["provenance"] = ({"default": M, "constant_color": f"{D}: {note}"} if note else M)
    return f


def virtual(cid, ctype, constituents, formats, presets, flash_modes, feats, depth):
    return {"id": cid, "type": ctype, "position": "back", "constituents": constituents, "formats": formats,
            "presets": presets, "flash_modes": flash_modes, "features": feats, "depth": depth}


def depth_cam(cid, ctype, position, shares, formats, presets, flash_modes, feats, depth):
    return {"id": cid, "type": ctype, "position": position, "shares_sensor_with": shares, "formats": formats,
            "presets": presets, "flash_modes": flash_modes, "features": feats, "depth": depth}


DISPARITY_ERROR_NOTE = (
    "modelled: 3 cm at 1 m is 0.075 px of disparity on a 320-wide map of this baseline, within the 1/20 to 1/10 px that block matching reaches on textured patches (Delon & Sabater 2011, SIAM J. Imaging Sci. 4(4)); Intel's D400 papers use the same law, error = Z^2 x subpixel / (f x B)")


def disparity(baseline, note):
    return {"technology": "dual-camera-disparity", "accuracy": "relative", "baseline_mm": baseline,
            "min_range_m": 0.3, "max_range_m": 5.0, "relative_error_at_1m": 0.03,
            "holes": "occlusion-and-textureless",
            "provenance": {"default": M, "technology": f"{D}: {note}", "accuracy": f"{D}: spec §9, dual is relative",
                           "baseline_mm": f"{M}: distance between the constituents' extrinsics",
                           "relative_error_at_1m": DISPARITY_ERROR_NOTE}}


TRUEDEPTH = {"technology": "structured-light", "accuracy": "absolute", "min_range_m": 0.15, "max_range_m": 1.5,
             "relative_error_at_1m": 0.01, "holes": "projector-shadow-and-sunlight",
             "provenance": {"default": M, "technology": f"{D}: spec §2.1", "accuracy": f"{D}: spec §2.1, §9"}}
LIDAR = {"technology": "time-of-flight", "accuracy": "absolute", "min_range_m": 0.25, "max_range_m": 5.0,
         "relative_error_at_1m": 0.01, "holes": "low-return-and-range",
         "provenance": {"default": M, "technology": f"{D}: spec §2.1", "accuracy": f"{D}: spec §2.1, §9"}}


def truedepth_formats(max_photo):
    note = "WWDC18-503, spec §7: TrueDepth 640x480 (4:3) and 640x360 (16:9)"
    prov = {"default": M, "depth": f"{D}: {note}"}
    return [
        fmt_entry("1440x1080-420f", (1440, 1080), "420f", [[1, 30]], ["sRGB", "P3_D65"], [max_photo], hq=True,
                  depth=depth_list([(640, 480), (320, 240)], 30), prov=prov),
        fmt_entry("1920x1080-420f", (1920, 1080), "420f", [[1, 30]], ["sRGB", "P3_D65"], [[1920, 1080]],
                  depth=depth_list([(640, 360)], 30), prov=prov),
        fmt_entry("1280x720-420v", (1280, 720), "420v", [[1, 30]], ["sRGB"], [[1280, 720]],
                  depth=depth_list([(640, 360)], 30), prov=prov),
        fmt_entry("640x480-420v", (640, 480), "420v", [[1, 30]], ["sRGB"], [[640, 480]],
                  depth=depth_list([(640, 480), (320, 240)], 30), prov=prov),
        *small_formats(),
    ]


# The TrueDepth camera takes the presets of its formats: Apple's TrueDepth samples run it at 1280x720.
TRUEDEPTH_PRESETS = {"photo": "1440x1080-420f", "high": "1920x1080-420f", "hd1920x1080": "1920x1080-420f",
                     "hd1280x720": "1280x720-420v", "iFrame1280x720": "1280x720-420v", "vga640x480": "640x480-420v",
                     **SMALL_PRESETS}


def front_formats(max_photo, k4=False):
    out = back_formats([max_photo], hi_fps=60)
    if not k4:
        out = [f for f in out if not f["id"].startswith("3840")]
    return out


def front_presets(k4=False):
    return {k: v for k, v in FRONT_PRESETS.items() if k4 or not v.startswith("3840")}


# Where the LiDAR camera's 1920x1440 formats come from. Apple's sample looks for the last
# 1920-wide, full-range (420f), unbinned format with depth and then its last DepthFloat16 depth
# format, and stops with a fatal error without them: the format exists on every device the sample
# supports (iPhone 12 Pro or later, iPad Pro 11-inch 3rd generation or later). That it filters out
# binned formats says a binned 1920-wide depth format exists beside it. A public iPhone 15 Pro format
# dump shows the pair on the wide sensor: 1920x1440 binned with 2016x1512 photos and no video HDR,
# and 1920x1440 unbinned with 4032x3024 photos and video HDR. A study that streams the iPhone 15 Pro
# Max LiDAR through AVFoundation reports 320x240 depth maps; photos get 768x576 from that
# (DepthResolution.photo). No public dump of the LiDAR camera's own list was found.
LIDAR_SOURCES = {
    "sample": "Apple sample Capturing depth using the LiDAR camera (developer.apple.com/documentation/avfoundation/"
              "capturing-depth-using-the-lidar-camera) requires a 1920-wide unbinned 420f format with hdep depth",
    "dump": "iPhone 15 Pro back-camera format list, github.com/margelo/react-native-vision-camera/issues/2642: "
            "1920x1440 binned with 2016x1512 photos and no video HDR, unbinned with 4032x3024 photos and video HDR",
    "depth": "arXiv 2508.20250 streams the iPhone 15 Pro Max LiDAR through AVFoundation at 320x240 "
             "(the same scanner)",
    "binned_depth": "the sample filters out binned formats, so a binned 1920-wide depth format exists; "
                    "depth size as the unbinned format",
    "fps": "LiDAR depth at 30 fps, video no faster",
}


def lidar_formats(measured):
    """The LiDAR camera's formats. `measured`: the device is the one the public dumps come from
    (iPhone 15 Pro); otherwise the same facts are carried over and marked modelled."""
    prov = f"{M}: LiDAR depth sizes are not in the spec"
    src = LIDAR_SOURCES
    if measured:
        dump = f"measured: {src['dump']}"
        depth_size = f"measured: {src['depth']}"
    else:
        dump = f"{M}: as on iPhone 15 Pro, no public format list of this device; {src['dump']}"
        depth_size = f"{M}: as on iPhone 15 Pro Max, no public figure for this device; {src['depth']}"
    fps = f"{M}: {src['fps']}"
    spaces = f"{M}: typical iPhone format list"
    binned_prov = {"default": dump, "depth": f"{M}: {src['binned_depth']}", "fps_ranges": fps, "color_spaces": spaces}
    unbinned_prov = {"default": f"{D}: {src['sample']}", "binned": dump, "video_hdr": dump, "photo_px": dump,
                     "depth": depth_size, "fps_ranges": fps, "color_spaces": spaces}
    return [
        fmt_entry("1440x1080-420f", (1440, 1080), "420f", [[1, 30]], ["sRGB", "P3_D65"], [[4032, 3024]], hq=True,
                  depth=depth_list([(320, 240)], 30), prov=prov),
        fmt_entry("1920x1080-420f", (1920, 1080), "420f", [[1, 30]], ["sRGB", "P3_D65"], [[1920, 1080]],
                  depth=depth_list([(320, 180)], 30), prov=prov),
        fmt_entry("1920x1440-420f-binned", (1920, 1440), "420f", [[1, 30]], ["sRGB", "P3_D65"],
                  [[1920, 1440], [2016, 1512]], depth=depth_list([(320, 240)], 30), prov=binned_prov,
                  facts={"binned": True, "video_hdr": False}),
        fmt_entry("1920x1440-420f", (1920, 1440), "420f", [[1, 30]], ["sRGB", "P3_D65"],
                  [[1920, 1440], [4032, 3024]], depth=depth_list([(320, 240)], 30), prov=unbinned_prov,
                  facts={"binned": False, "video_hdr": True}),
    ]


def led_module(mid, led, cd, beam, pos):
    return {"id": mid, "spectrum": {"cie_led": led}, "intensity_cd": cd, "beam_angle_deg": beam, "position_mm": pos}


def calibrated(module, shift, ratio):
    return {"module": module["id"], "spectrum": {"cie_led": module["spectrum"]["cie_led"], "peak_shift_nm": shift},
            "intensity_cd": round(module["intensity_cd"] * ratio, 1)}


def flash(kind, modules, note, shifts):
    return {"kind": kind, "modules": modules,
            "calibration": [calibrated(m, s, r) for m, (s, r) in zip(modules, shifts)],
            "provenance": {"default": f"{M}: CIE 15:2018 pc-LED tables, ~100 cd per LED (colour-science spec §1.6, §3.4)",
                           "kind": f"{D}: {note}"},
            "calibration_provenance": f"{M}: factory calibration of this unit, within 1-2 nm and 1-3 % of the truth"}


# The physical errors of a unit against its nominal calibration, for Constant Color (CaptureErrors in Swift; the
# "How the physics works" article). Each value carries the source it comes from.
CAPTURE_ERRORS = {'iphone-14': {'enabled': True,
               'flash_intensity_tolerance_percent': 10,
               'flash_power_w': 3.5,
               'flash_thermal_resistance_k_per_w': 9,
               'led_peak_shift_nm_per_k': 0.04,
               'mains_frequency_hz': 60,
               'percent_flicker': 9.6,
               'readout_time_s': 0.02,
               'hand_angular_speed_deg_per_s': 1.7,
               'stabilisation_stops': 3,
               'sensitivity_tolerance_percent': 2,
               'sensitivity_calibrated': True,
               'provenance': {'default': 'modelled',
                              'flash_intensity_tolerance_percent': 'documented: Samsung SPFCW04311BL high-power '
                                                                   "flash LED datasheet (2013): the maker's tester "
                                                                   'holds +-10 % on flux, the bound of what a '
                                                                   'calibration knows of one LED; a 1 A flash LED '
                                                                   'of the class of each True Tone module',
                              'flash_power_w': 'documented: Samsung SPFCW04311BL datasheet: forward voltage 3.5 V '
                                               'typical at the 1000 mA flash current',
                              'flash_thermal_resistance_k_per_w': 'documented: Samsung SPFCW04311BL datasheet: '
                                                                  'junction-to-solder thermal resistance 9 K/W',
                              'led_peak_shift_nm_per_k': 'modelled: heat lowers the InGaN band gap and red-shifts '
                                                         "the blue pump (Luminus Devices, 'How and why does the "
                                                         "wavelength shift'); 0.04 nm/K as Lumileds LUXEON colour "
                                                         'datasheets tabulate for InGaN',
                              'mains_frequency_hz': 'modelled: a laboratory on the 60 Hz North American grid '
                                                    "(Apple's, WWDC24 session 10162), lamps flickering at 120 Hz",
                              'percent_flicker': 'documented: IEEE Std 1789-2015 low-risk bound, percent flicker '
                                                 '0.08 x frequency = 9.6 % at 120 Hz: a lamp that just meets the '
                                                 'recommended practice',
                              'readout_time_s': 'modelled: a rolling shutter starting its rows over 20 ms, our '
                                                'choice (no published figure for this sensor)',
                              'hand_angular_speed_deg_per_s': 'modelled: the reciprocal rule of hand-held '
                                                              'photography (1/f s keeps the 0.03 mm circle of '
                                                              'confusion of 35 mm film) implies 0.03 rad/s, 1.7 '
                                                              'deg/s',
                              'stabilisation_stops': 'modelled: sensor-shift OIS on the Main camera (documented: '
                                                     'Apple iPhone 14 technical specifications), 3 stops, the low '
                                                     'end of the 3-5 stops stabilisers are rated at under CIPA '
                                                     'DC-011',
                              'sensitivity_tolerance_percent': 'modelled: quantum-efficiency curves of one sensor '
                                                               'type hold within +-2 % from unit to unit '
                                                               '(siril-spcc-database, relative QE issue)',
                              'sensitivity_calibrated': 'documented: per-module production-line calibration, at '
                                                        "least of white balance, is the camera industry's practice "
                                                        "(Walowit, 'Best practices for production line camera "
                                                        "color calibration', IS&T Color and Imaging Conference "
                                                        "2019); the measurement's field is our choice"}},
 'iphone-15-pro': {'enabled': True,
                   'flash_intensity_tolerance_percent': 10,
                   'flash_power_w': 3.5,
                   'flash_thermal_resistance_k_per_w': 9,
                   'led_peak_shift_nm_per_k': 0.04,
                   'mains_frequency_hz': 60,
                   'percent_flicker': 9.6,
                   'readout_time_s': 0.02,
                   'hand_angular_speed_deg_per_s': 1.7,
                   'stabilisation_stops': 3,
                   'sensitivity_tolerance_percent': 2,
                   'sensitivity_calibrated': True,
                   'provenance': {'default': 'modelled',
                                  'flash_intensity_tolerance_percent': 'documented: Samsung SPFCW04311BL '
                                                                       'high-power flash LED datasheet (2013): the '
                                                                       "maker's tester holds +-10 % on flux, the "
                                                                       'bound of what a calibration knows of one '
                                                                       'LED',
                                  'flash_power_w': 'documented: Samsung SPFCW04311BL datasheet: forward voltage '
                                                   '3.5 V typical at the 1000 mA flash current',
                                  'flash_thermal_resistance_k_per_w': 'documented: Samsung SPFCW04311BL datasheet: '
                                                                      'junction-to-solder thermal resistance 9 K/W',
                                  'led_peak_shift_nm_per_k': 'modelled: heat lowers the InGaN band gap and '
                                                             "red-shifts the blue pump (Luminus Devices, 'How and "
                                                             "why does the wavelength shift'); 0.04 nm/K as "
                                                             'Lumileds LUXEON colour datasheets tabulate for InGaN',
                                  'mains_frequency_hz': 'modelled: a laboratory on the 60 Hz North American grid '
                                                        "(Apple's, WWDC24 session 10162), lamps flickering at 120 "
                                                        'Hz',
                                  'percent_flicker': 'documented: IEEE Std 1789-2015 low-risk bound, percent '
                                                     'flicker 0.08 x frequency = 9.6 % at 120 Hz: a lamp that just '
                                                     'meets the recommended practice',
                                  'readout_time_s': 'modelled: a rolling shutter starting its rows over 20 ms, our '
                                                    'choice (no published figure for this sensor)',
                                  'hand_angular_speed_deg_per_s': 'modelled: the reciprocal rule of hand-held '
                                                                  'photography (1/f s keeps the 0.03 mm circle of '
                                                                  'confusion of 35 mm film) implies 0.03 rad/s, '
                                                                  '1.7 deg/s',
                                  'stabilisation_stops': 'modelled: sensor-shift OIS (documented: Apple iPhone 15 '
                                                         'Pro technical specifications), 3 stops, the low end of '
                                                         'the 3-5 stops stabilisers are rated at under CIPA DC-011',
                                  'sensitivity_tolerance_percent': 'modelled: quantum-efficiency curves of one '
                                                                   'sensor type hold within +-2 % from unit to '
                                                                   'unit (siril-spcc-database, relative QE issue)',
                                  'sensitivity_calibrated': 'documented: per-module production-line calibration, '
                                                            "at least of white balance, is the camera industry's "
                                                            "practice (Walowit, 'Best practices for production "
                                                            "line camera color calibration', IS&T Color and "
                                                            "Imaging Conference 2019); the measurement's field is "
                                                            'our choice'}},
 'ipad-pro-m4': {'enabled': True,
                 'flash_intensity_tolerance_percent': 10,
                 'flash_power_w': 3.5,
                 'flash_thermal_resistance_k_per_w': 9,
                 'led_peak_shift_nm_per_k': 0.04,
                 'mains_frequency_hz': 60,
                 'percent_flicker': 9.6,
                 'readout_time_s': 0.02,
                 'hand_angular_speed_deg_per_s': 1.7,
                 'stabilisation_stops': 0,
                 'sensitivity_tolerance_percent': 2,
                 'sensitivity_calibrated': True,
                 'provenance': {'default': 'modelled',
                                'flash_intensity_tolerance_percent': 'documented: Samsung SPFCW04311BL high-power '
                                                                     "flash LED datasheet (2013): the maker's "
                                                                     'tester holds +-10 % on flux, the bound of '
                                                                     'what a calibration knows of one LED',
                                'flash_power_w': 'documented: Samsung SPFCW04311BL datasheet: forward voltage 3.5 '
                                                 'V typical at the 1000 mA flash current',
                                'flash_thermal_resistance_k_per_w': 'documented: Samsung SPFCW04311BL datasheet: '
                                                                    'junction-to-solder thermal resistance 9 K/W',
                                'led_peak_shift_nm_per_k': 'modelled: heat lowers the InGaN band gap and '
                                                           "red-shifts the blue pump (Luminus Devices, 'How and "
                                                           "why does the wavelength shift'); 0.04 nm/K as Lumileds "
                                                           'LUXEON colour datasheets tabulate for InGaN',
                                'mains_frequency_hz': 'modelled: a laboratory on the 60 Hz North American grid '
                                                      "(Apple's, WWDC24 session 10162), lamps flickering at 120 Hz",
                                'percent_flicker': 'documented: IEEE Std 1789-2015 low-risk bound, percent flicker '
                                                   '0.08 x frequency = 9.6 % at 120 Hz: a lamp that just meets the '
                                                   'recommended practice',
                                'readout_time_s': 'modelled: a rolling shutter starting its rows over 20 ms, our '
                                                  'choice (no published figure for this sensor)',
                                'hand_angular_speed_deg_per_s': 'modelled: the reciprocal rule of hand-held '
                                                                'photography (1/f s keeps the 0.03 mm circle of '
                                                                'confusion of 35 mm film) implies 0.03 rad/s, 1.7 '
                                                                'deg/s; a tablet held in both hands is taken to '
                                                                'move no less (our choice)',
                                'stabilisation_stops': "modelled: no optical stabilisation; the Wide camera's "
                                                       'specifications list none, only the automatic stabilisation '
                                                       'done in processing, which does not turn the camera between '
                                                       'two frames (Apple iPad Pro (M4) technical specifications)',
                                'sensitivity_tolerance_percent': 'modelled: quantum-efficiency curves of one '
                                                                 'sensor type hold within +-2 % from unit to unit '
                                                                 '(siril-spcc-database, relative QE issue)',
                                'sensitivity_calibrated': 'documented: per-module production-line calibration, at '
                                                          "least of white balance, is the camera industry's "
                                                          "practice (Walowit, 'Best practices for production line "
                                                          "camera color calibration', IS&T Color and Imaging "
                                                          "Conference 2019); the measurement's field is our "
                                                          'choice'}}}


# Minimum focus distances. Apple gave figures for the iPhone X in WWDC21's capture session (wide 10 cm, telephoto
# 40 cm); for the iPhone 14 Pro, Halide's readout of the camera (reported in the press, September 2022).
WWDC21_FOCUS = "documented: Apple WWDC21 session 10047, What's new in camera capture"
PRO_FOCUS_NOTE = "in the Halide app's readout of the iPhone 14 Pro, as the press reported it"

CAL = [(1.0, 0.98), (-1.0, 1.02), (0.5, 1.015), (-0.5, 0.985), (1.2, 0.99), (-0.8, 1.01), (0.7, 0.98),
       (-1.1, 1.02), (0.9, 1.0)]


def iphone_7_plus():
    spec = "Apple iPhone 7 Plus technical specifications"
    dual_note = "WWDC17-507, spec §7: 1440x1080 -> 320x240/160x120, 1920x1080 -> 320x180/160x90, 24 fps"
    wide = physical("back-wide", "builtInWideAngleCamera", "back", 28, 1.8, (4032, 3024), 1.22, None, [0, 0, 0],
                    -0.025, 0.004, 0, 6000, 2.5, 20, spec, back_formats([[4032, 3024]]), BACK_PRESETS,
                    ["off", "on", "auto"], features())
    tele = physical("back-tele", "builtInTelephotoCamera", "back", 56, 2.8, (4032, 3024), 1.0, None,
                    [9.98, 0.12, 0], -0.006, 0.001, 2, 4500, 3.0, 25, spec, back_formats([[4032, 3024]]),
                    BACK_PRESETS, ["off", "on", "auto"], features())
    dual = virtual("back-dual", "builtInDualCamera", ["back-wide", "back-tele"],
                   back_formats([[4032, 3024]], dual=True, depth43=depth_list([(320, 240), (160, 120)], 24),
                                depth169=depth_list([(320, 180), (160, 90)], 24), depth_note=dual_note),
                   BACK_PRESETS, ["off", "on", "auto"], features(constituents=True, intrinsic=False),
                   disparity(10.0, "spec §2.1, dual = disparity between wide and tele"))
    front = physical("front-wide", "builtInWideAngleCamera", "front", 32, 2.2, (3088, 2320), 1.0, None,
                     [0, 0, 0], -0.02, 0.003, 1, 4500, 3.0, 25, spec, front_formats([3088, 2320]),
                     front_presets(), ["off"], features(autofocus="none"), reference="front-wide")
    modules = [led_module("cool-1", "LED-B5", 110, 70, [-9.0, 2.0, 0]), led_module("cool-2", "LED-B5", 110, 70, [-9.0, -2.0, 0]),
               led_module("warm-1", "LED-B1", 90, 70, [-13.0, 2.0, 0]), led_module("warm-2", "LED-B1", 90, 70, [-13.0, -2.0, 0])]
    return {"id": "iphone-7-plus", "name": "iPhone 7 Plus", "family": "iPhone",
            "cameras": [wide, tele, dual, front],
            "flash": flash("quad-true-tone", modules, f"{spec}: Quad-LED True Tone flash", CAL)}


def iphone_x():
    spec = "Apple iPhone X technical specifications"
    dual_note = "WWDC17-507, spec §7 (dual-camera depth sizes as on iPhone 7 Plus)"
    wide = physical("back-wide", "builtInWideAngleCamera", "back", 28, 1.8, (4032, 3024), 1.22, None, [0, 0, 0],
                    -0.024, 0.004, 0, 6000, 2.5, 20, spec, back_formats([[4032, 3024]], k4_fps=60), BACK_PRESETS,
                    ["off", "on", "auto"], features(), min_focus=(100, WWDC21_FOCUS))
    tele = physical("back-tele", "builtInTelephotoCamera", "back", 52, 2.4, (4032, 3024), 1.0, None,
                    [0.1, -10.3, 0], -0.006, 0.001, 2, 4500, 3.0, 25, spec, back_formats([[4032, 3024]]),
                    BACK_PRESETS, ["off", "on", "auto"], features(), min_focus=(400, WWDC21_FOCUS))
    dual = virtual("back-dual", "builtInDualCamera", ["back-wide", "back-tele"],
                   back_formats([[4032, 3024]], dual=True, depth43=depth_list([(320, 240), (160, 120)], 24),
                                depth169=depth_list([(320, 180), (160, 90)], 24), depth_note=dual_note),
                   BACK_PRESETS, ["off", "on", "auto"], features(constituents=True, intrinsic=False, mattes=PORTRAIT_MATTE),
                   disparity(10.3, "spec §2.1"))
    front = physical("front-wide", "builtInWideAngleCamera", "front", 32, 2.2, (3088, 2320), 1.0, None,
                     [0, 0, 0], -0.02, 0.003, 1, 4500, 3.0, 25, spec, front_formats([3088, 2320]),
                     front_presets(), ["off"], features(autofocus="none"), reference="front-wide")
    td = depth_cam("front-truedepth", "builtInTrueDepthCamera", "front", "front-wide",
                   truedepth_formats([3088, 2320]), TRUEDEPTH_PRESETS,
                   ["off"], features(autofocus="none", mattes=PORTRAIT_MATTE), TRUEDEPTH)
    modules = [led_module("cool-1", "LED-B5", 110, 70, [-7.0, -5.0, 0]), led_module("cool-2", "LED-B5", 110, 70, [-3.0, -5.0, 0]),
               led_module("warm-1", "LED-B1", 90, 70, [-7.0, -9.0, 0]), led_module("warm-2", "LED-B1", 90, 70, [-3.0, -9.0, 0])]
    return {"id": "iphone-x", "name": "iPhone X", "family": "iPhone", "cameras": [wide, tele, dual, front, td],
            "flash": flash("quad-true-tone", modules, f"{spec}: Quad-LED True Tone flash", CAL)}


def iphone_14():
    spec = "Apple iPhone 14 technical specifications"
    cc_note = "spec §11: Constant Color on iPhone 14 and later, wide and dual-wide cameras"
    wide = physical("back-wide", "builtInWideAngleCamera", "back", 26, 1.5, (4032, 3024), 1.9, None, [0, 0, 0],
                    -0.022, 0.003, 0, 11000, 2.0, 40, spec, back_formats([[4032, 3024]], k4_fps=60,
                                                                           ten_bit=["sRGB", "P3_D65", "HLG_BT2020"]),
                    BACK_PRESETS, ["off", "on", "auto"], features(cc=True, note=cc_note))
    ultra = physical("back-ultra-wide", "builtInUltraWideCamera", "back", 13, 2.4, (4032, 3024), 1.0, None,
                     [-8.5, 8.5, 0], -0.11, 0.02, -2, 4500, 3.0, 25, spec, back_formats([[4032, 3024]]),
                     BACK_PRESETS, ["off", "on", "auto"], features())
    dual_wide = virtual("back-dual-wide", "builtInDualWideCamera", ["back-ultra-wide", "back-wide"],
                        back_formats([[4032, 3024]], dual=True, depth43=depth_list([(320, 240), (160, 120)], 30),
                                     depth169=depth_list([(320, 180), (160, 90)], 30)),
                        BACK_PRESETS, ["off", "on", "auto"], features(cc=True, constituents=True, intrinsic=False, note=cc_note, mattes=ALL_MATTES),
                        disparity(12.02, "spec §2.1, dual-wide = disparity between ultra-wide and wide"))
    front = physical("front-wide", "builtInWideAngleCamera", "front", 23, 1.9, (4032, 3024), 1.0, None,
                     [0, 0, 0], -0.03, 0.005, 1, 4500, 3.0, 25, spec, front_formats([4032, 3024], k4=True),
                     front_presets(k4=True), ["off"], features(), reference="front-wide")
    td = depth_cam("front-truedepth", "builtInTrueDepthCamera", "front", "front-wide", truedepth_formats([4032, 3024]),
                   TRUEDEPTH_PRESETS,
                   ["off"], features(mattes=ALL_MATTES), TRUEDEPTH)
    modules = [led_module("cool", "LED-B5", 150, 75, [-10.0, 0.0, 0]), led_module("warm", "LED-B1", 130, 75, [-10.0, -4.0, 0])]
    return {"id": "iphone-14", "name": "iPhone 14", "family": "iPhone", "multicam": True, "cameras": [wide, ultra, dual_wide, front, td],
            "flash": flash("true-tone", modules, f"{spec}: True Tone flash", CAL),
            "capture_errors": CAPTURE_ERRORS["iphone-14"]}


def iphone_15_pro():
    spec = "Apple iPhone 15 Pro technical specifications"
    cc_note = "spec §11: Constant Color on iPhone 14 and later, wide and dual-wide cameras"
    ten = ["sRGB", "P3_D65", "HLG_BT2020", "appleLog"]
    wide = physical("back-wide", "builtInWideAngleCamera", "back", 24, 1.78, (8064, 6048), 1.22, None, [0, 0, 0],
                    -0.021, 0.003, 0, 6500, 2.2, 50, spec,
                    back_formats([[4032, 3024], [8064, 6048]], k4_fps=60, ten_bit=ten), BACK_PRESETS,
                    ["off", "on", "auto"], features(cc=True, note=cc_note),
                    min_focus=(200, f"{M}: the 48 MP f/1.78 main camera's 20 cm {PRO_FOCUS_NOTE}"))
    ultra = physical("back-ultra-wide", "builtInUltraWideCamera", "back", 13, 2.2, (4032, 3024), 1.4, None,
                     [-11.0, 6.5, 0], -0.12, 0.02, -2, 7000, 2.5, 32, spec, back_formats([[4032, 3024]], k4_fps=60),
                     BACK_PRESETS, ["off", "on", "auto"], features(),
                     min_focus=(20, f"{M}: the macro ultra wide camera's 2 cm {PRO_FOCUS_NOTE}"))
    tele = physical("back-tele", "builtInTelephotoCamera", "back", 77, 2.8, (4032, 3024), 1.0, None,
                    [-11.0, -6.5, 0], -0.005, 0.001, 2, 4500, 3.0, 32, spec, back_formats([[4032, 3024]], k4_fps=60),
                    BACK_PRESETS, ["off", "on", "auto"], features())
    d43 = depth_list([(320, 240), (160, 120)], 30)
    d169 = depth_list([(320, 180), (160, 90)], 30)
    dual_wide = virtual("back-dual-wide", "builtInDualWideCamera", ["back-ultra-wide", "back-wide"],
                        back_formats([[4032, 3024]], dual=True, depth43=d43, depth169=d169),
                        BACK_PRESETS, ["off", "on", "auto"],
                        features(cc=True, constituents=True, intrinsic=False, note=cc_note, mattes=ALL_MATTES),
                        disparity(12.78, "spec §2.1"))
    triple = virtual("back-triple", "builtInTripleCamera", ["back-ultra-wide", "back-wide", "back-tele"],
                     back_formats([[4032, 3024]], dual=True, depth43=d43, depth169=d169),
                     BACK_PRESETS, ["off", "on", "auto"], features(constituents=True, intrinsic=False, mattes=ALL_MATTES),
                     disparity(12.78, "spec §2.1 [O]: triple cameras report depth formats"))
    lidar = depth_cam("back-lidar", "builtInLiDARDepthCamera", "back", "back-wide", lidar_formats(measured=True),
                      {"photo": "1440x1080-420f", "high": "1920x1080-420f"}, ["off", "on", "auto"], features(mattes=ALL_MATTES), LIDAR)
    front = physical("front-wide", "builtInWideAngleCamera", "front", 23, 1.9, (4032, 3024), 1.0, None,
                     [0, 0, 0], -0.03, 0.005, 1, 4500, 3.0, 25, spec, front_formats([4032, 3024], k4=True),
                     front_presets(k4=True), ["off"], features(), reference="front-wide")
    td = depth_cam("front-truedepth", "builtInTrueDepthCamera", "front", "front-wide", truedepth_formats([4032, 3024]),
                   TRUEDEPTH_PRESETS,
                   ["off"], features(mattes=ALL_MATTES), TRUEDEPTH)
    # Adaptive True Tone: a 3x3 LED array whose beam follows the focal length; modelled as nine
    # modules alternating cool and warm, the centre ones narrower.
    modules = []
    for r in range(3):
        for c in range(3):
            i = r * 3 + c
            led = "LED-B5" if i % 2 == 0 else "LED-B2"
            beam = 50 if (r, c) == (1, 1) else 80
            modules.append(led_module(f"led-{i + 1}", led, 45 if i % 2 == 0 else 38, beam,
                                      [-21.0 + 1.6 * c, 1.6 * (1 - r), 0]))
    return {"id": "iphone-15-pro", "name": "iPhone 15 Pro", "family": "iPhone", "multicam": True,
            "cameras": [wide, ultra, tele, dual_wide, triple, lidar, front, td],
            "flash": flash("adaptive-true-tone", modules, f"{spec}: Adaptive True Tone flash", CAL),
            "capture_errors": CAPTURE_ERRORS["iphone-15-pro"]}


def ipad_pro_m4():
    spec = "Apple iPad Pro (M4) technical specifications"
    cc_note = "spec §11: Constant Color on iPad Pro (M4)"
    wide = physical("back-wide", "builtInWideAngleCamera", "back", 28, 1.8, (4032, 3024), 1.22, None, [0, 0, 0],
                    -0.02, 0.003, 0, 6000, 2.5, 25, spec, back_formats([[4032, 3024]], k4_fps=60), BACK_PRESETS,
                    ["off", "on", "auto"], features(cc=True, note=cc_note))
    lidar = depth_cam("back-lidar", "builtInLiDARDepthCamera", "back", "back-wide", lidar_formats(measured=False),
                      {"photo": "1440x1080-420f", "high": "1920x1080-420f"}, ["off", "on", "auto"], features(), LIDAR)
    front = physical("front-wide", "builtInWideAngleCamera", "front", 14, 2.4, (4032, 3024), 1.0, None,
                     [0, 0, 0], -0.08, 0.015, 1, 4500, 3.0, 25, spec, front_formats([4032, 3024], k4=True),
                     front_presets(k4=True), ["off"], features(), reference="front-wide")
    td = depth_cam("front-truedepth", "builtInTrueDepthCamera", "front", "front-wide", truedepth_formats([4032, 3024]),
                   TRUEDEPTH_PRESETS,
                   ["off"], features(), TRUEDEPTH)
    modules = []
    for i in range(6):
        led = "LED-B5" if i % 2 == 0 else "LED-B2"
        modules.append(led_module(f"led-{i + 1}", led, 55 if i % 2 == 0 else 45, 80, [-12.0 + 1.6 * (i % 3), -1.6 * (i // 3), 0]))
    return {"id": "ipad-pro-m4", "name": "iPad Pro (M4)", "family": "iPad", "multicam": True, "cameras": [wide, lidar, front, td],
            "flash": flash("adaptive-true-tone", modules, f"{spec}: Adaptive True Tone flash", CAL),
            "capture_errors": CAPTURE_ERRORS["ipad-pro-m4"]}


def ipad_10th_gen():
    spec = "Apple iPad (10th generation) technical specifications (no rear flash)"
    wide = physical("back-wide", "builtInWideAngleCamera", "back", 28, 1.8, (4032, 3024), 1.22, None, [0, 0, 0],
                    -0.02, 0.003, 0, 6000, 3.0, 25, spec, back_formats([[4032, 3024]]), BACK_PRESETS,
                    ["off"], features())
    front = physical("front-ultra-wide", "builtInUltraWideCamera", "front", 14, 2.4, (4032, 3024), 1.0, None,
                     [0, 0, 0], -0.08, 0.015, 1, 4500, 3.0, 25, spec, front_formats([4032, 3024]),
                     front_presets(), ["off"], features(), reference="front-ultra-wide")
    return {"id": "ipad-10th-gen", "name": "iPad (10th generation)", "family": "iPad", "cameras": [wide, front]}


# --- YAML emission ---------------------------------------------------------------------------

INLINE = {"provenance", "sensor_px", "reference_px", "translation_mm", "center_px", "video_px", "fps_ranges",
          "color_spaces", "photo_px", "flash_modes", "constituents", "spectrum", "position_mm", "pixel_formats",
          "size_px", "calibration_provenance", "stabilization_modes", "intrinsic_reference_px"}


def emit(obj, indent=0, key=None):
    pad = "  " * indent
    lines = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, dict) and len(f"{pad}{k}: {flow(v)}") > 110:
                lines.append(f"{pad}{k}:")
                lines.extend(emit(v, indent + 1, k))
            elif k in INLINE or not isinstance(v, (dict, list)) or k in ("rotation",):
                lines.append(f"{pad}{k}: {flow(v)}")
            elif k in ("lookup_table", "inverse_lookup_table"):
                vals = [fmt(x, 7) for x in v]
                lines.append(f"{pad}{k}: [")
                for i in range(0, len(vals), 8):
                    lines.append(f"{pad}  " + ", ".join(vals[i:i + 8]) + ("," if i + 8 < len(vals) else ""))
                lines.append(f"{pad}]")
            elif isinstance(v, list) and v and all(isinstance(x, dict) and len(x) <= 3 and k in ("red", "green", "blue") for x in v):
                lines.append(f"{pad}{k}: {flow(v)}")
            else:
                lines.append(f"{pad}{k}:")
                lines.extend(emit(v, indent + 1, k))
    elif isinstance(obj, list):
        for item in obj:
            if isinstance(item, dict):
                sub = emit(item, indent + 1)
                first = sub[0].lstrip()
                lines.append(f"{pad}- {first}")
                lines.extend(sub[1:])
            else:
                lines.append(f"{pad}- {flow(item)}")
    return lines


HEADER = """# {name} ({id}): a virtual device profile for Obscura.
# Schema: DeviceProfiles/README.md. Generated by tools/generate_device_profiles.py; edit the
# script and re-run it rather than editing this file by hand.
"""


def main():
    os.makedirs(OUT, exist_ok=True)
    for make in (iphone_7_plus, iphone_x, iphone_14, iphone_15_pro, ipad_pro_m4, ipad_10th_gen):
        profile = add_readouts(make())
        text = HEADER.format(**profile) + "\n".join(emit(profile)) + "\n"
        with open(os.path.join(OUT, profile["id"] + ".yaml"), "w") as f:
            f.write(text)
        print("wrote", profile["id"])


if __name__ == "__main__":
    main()
