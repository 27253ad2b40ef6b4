import Devices
import Foundation
import Imaging
import Scenes
import Sensor

/// The irradiance the calibrated flash delivers to the surface each pixel sees, from the capture's
/// depth (color-science spec §3.4, the renderer's point-source law seen from the other side).
///
/// A module at L with on-axis intensity I (cd) and a cos^m α beam lights a surface point P with
/// normal n with E = I · cos^m α · cos θ / d² (lux), d = |P − L|, α the angle between P − L and the
/// beam axis, θ the angle between n and L − P. Across a flat chart filling the frame E falls to a
/// fifth in the corners (beam and obliquity), and between surfaces by the square of their distance:
/// dividing the flash-only signal by E turns it into reflectance, which no global exposure can.
///
/// Where it comes from:
/// - P = z · (x_u, y_u, 1), z the depth along the optical axis at the pixel (distorted like the
///   image, as `RawFrame.depth`), (x_u, y_u) the pixel's undistorted normalised coordinates;
/// - n from the depth map's gradient: the tangents are the differences between the points half a
///   cell (`cell` / 2 pixels) to either side and above and below, central where the two sides agree,
///   or the one-sided difference with the smaller depth step where they differ by more than a
///   factor 2 (a depth edge, or the crease where a wall meets a desk), so a surface's normal is
///   never taken across the edge of another. The normal thus spans one cell (8 pixels in the
///   pipeline): enough for the renderer's depth, whose noise is Float rounding; a noisy depth map
///   (a dual camera's disparity) would need its depth smoothed over a few cells first;
/// - the modules' positions and beams from the profile's flash geometry, their intensities from
///   its factory calibration (`FlashCalibration`);
/// - cos θ is held at least `minimumCosine`: at grazing incidence a few degrees of normal error
///   change it by more than itself, and the surface's confidence is low there anyway.
///
/// The beam factor Σ I cos^m α varies slowly across the picture, so it is computed per cell (each
/// cell's point its mean depth on the ray through its centre) and interpolated; the distance and the
/// obliquity, which jump at depth edges and creases, are the pixel's own (all modules at their
/// intensity-weighted centroid: the modules lie within a few millimetres, a relative error of order
/// (spread / d)²). Lens shading is not part of E: the camera's relative
/// illumination (its cos⁴ and vignetting) is corrected before, by `LensShadingCorrection`.
///
/// Where a pixel has no depth (NaN: nothing hit, or a hole of the depth map) its irradiance is that
/// of the nearest cells that have depth (each cell's normal from its neighbours' points), filled ring
/// by ring outwards, as the fill's ambient ratio is; a picture with no depth at all has no map, and
/// the pipeline keeps its single exposure.
public struct FlashIrradiance: Sendable, Hashable {
    /// One flash module as the phone believes it is.
    public struct Source: Sendable, Hashable {
        /// Position relative to the camera's optical centre, metres, camera frame (+X right, +Y down,
        /// +Z along the optical axis).
        public var positionInCamera: Vector3
        /// Unit beam axis, camera frame.
        public var axisInCamera: Vector3
        /// m of the cos^m α beam.
        public var beamExponent: Double
        /// On-axis luminous intensity, cd.
        public var intensityCandela: Double

        /// A module.
        public init(
            positionInCamera: Vector3, axisInCamera: Vector3 = Vector3(0, 0, 1), beamExponent: Double,
            intensityCandela: Double
        ) {
            self.positionInCamera = positionInCamera
            self.axisInCamera = axisInCamera.normalized
            self.beamExponent = beamExponent
            self.intensityCandela = intensityCandela
        }

        /// Its irradiance, lux, at `p` (camera frame, metres) on a surface with unit normal `n`, cos θ
        /// held at least `minimumCosine` (and the back of the beam dark).
        public func irradiance(at p: Vector3, normal n: Vector3) -> Double {
            let v = p - positionInCamera
            let d2 = v.dot(v)
            guard d2 > 0 else { return 0 }
            let d = d2.squareRoot()
            let cosAlpha = v.dot(axisInCamera) / d
            guard cosAlpha > 0 else { return 0 }
            let cosTheta = max(-n.dot(v) / d, FlashIrradiance.minimumCosine)
            return intensityCandela * pow(cosAlpha, beamExponent) * cosTheta / d2
        }
    }

    /// The least cos θ used (our choice: 0.25, 75.5° from the normal).
    public static let minimumCosine = 0.25

    /// The modules.
    public let sources: [Source]

    /// The flash of `sources`.
    public init(sources: [Source]) { self.sources = sources }

    /// The flash's geometry with the calibration's total intensity shared as the true modules share
    /// theirs: for a pipeline built from values, which has no per-module calibration.
    public init(flash: FlashModel, calibration: FlashCalibration) {
        let total = flash.modules.reduce(0) { $0 + $1.intensityCandela }
        let scale = total > 0 ? calibration.intensityCandela / total : 0
        self.init(
            sources: flash.modules.map {
                Source(
                    positionInCamera: $0.positionInCamera, axisInCamera: $0.axisInCamera,
                    beamExponent: $0.beamExponent, intensityCandela: $0.intensityCandela * scale)
            })
    }

    /// The flash of a profile for one camera: each module where the profile puts it (the positions
    /// of `FlashModel(device:camera:)`, in the camera's frame), with its beam, and the on-axis
    /// intensity of its factory calibration entry (the true one when the calibration lists none).
    public init?(device: DeviceProfile, camera: CameraProfile) {
        guard let flash = FlashModel(device: device, camera: camera), let hardware = device.flash,
            hardware.modules.count == flash.modules.count
        else { return nil }
        self.init(
            sources: zip(hardware.modules, flash.modules).map { entry, module in
                let calibrated = hardware.calibration.first { $0.module == entry.id }?.intensityCD
                return Source(
                    positionInCamera: module.positionInCamera, axisInCamera: module.axisInCamera,
                    beamExponent: module.beamExponent, intensityCandela: calibrated ?? module.intensityCandela)
            })
    }

    /// The irradiance, lux, at `p` on a surface with unit normal `n` (facing the camera).
    public func irradiance(at p: Vector3, normal n: Vector3) -> Double {
        sources.reduce(0) { $0 + $1.irradiance(at: p, normal: n) }
    }

    /// The beam factor Σ I cos^m α · d_c² / d² at `p`, cd: the intensity the modules send towards it,
    /// each module's own distance d folded in relative to the distance d_c from `centre`.
    func beam(at p: Vector3, centre: Vector3) -> Double {
        let dc2 = (p - centre).dot(p - centre)
        return sources.reduce(0) { sum, s in
            let v = p - s.positionInCamera
            let d2 = v.dot(v)
            guard d2 > 0 else { return sum }
            let c = v.dot(s.axisInCamera) / d2.squareRoot()
            return c > 0 ? sum + s.intensityCandela * pow(c, s.beamExponent) * dc2 / d2 : sum
        }
    }

    /// The irradiance of every pixel of a picture from its depth (`RawFrame.depth`, metres along the
    /// optical axis, NaN where unknown); nil when no pixel has a depth. `measuredWidth` is how many samples across
    /// the depth was measured at before it was brought to the picture's size (nil: at every pixel); a coarser
    /// measurement is evaluated at fewer points and interpolated (`Map.Sampling`).
    public func map(camera: CameraModel, depth: [Float], cell: Int, measuredWidth: Int? = nil) -> Map? {
        let sampling = Map.Sampling.step(
            pictureWidth: camera.width, depthWidth: measuredWidth ?? camera.width, cell: max(1, cell), focal: camera.fx)
        return Map(irradiance: self, camera: camera, depth: depth, cell: max(1, cell), sampling: sampling)
    }
}
