import Devices
import Foundation
import ISP
import Imaging
import Scenes
import Sensor

/// The device settings a streamed frame depends on beyond format, scene and colour space: zoom,
/// torch, exposure and white balance. Part of every stream cache key, so a changed setting renders
/// anew and an unchanged one reuses the cached picture.
struct StreamLook: Hashable, Sendable {
    /// `videoZoomFactor`: fx and fy are multiplied by it about the principal point, which is a
    /// centre crop of 1/zoom of the field of view shown at full size (spec §2.2 [I]).
    var zoom: Double = 1
    /// The torch's share of the flash hardware's power; 0 when off.
    var torchLevel: Double = 0
    /// `exposureTargetBias` in EV: the auto-exposure target is multiplied by 2^bias.
    var exposureBias: Double = 0
    /// The longest exposure auto-exposure may choose, seconds (`activeMaxExposureDuration`); nil for
    /// auto-exposure's default.
    var maximumExposure: Double?
    /// A held exposure (custom or locked mode); nil meters every picture.
    var fixedExposure: PhotoRenderRequest.FixedExposure?
    /// Locked device white-balance gains (red, green, blue); nil balances by auto white balance,
    /// as photos do.
    var whiteBalanceGains: SIMD3<Double>?
    /// Where the 3A loop's exposure stands while it moves towards the metered one (`StreamAdaptation`);
    /// nil once settled.
    var adaptingExposure: PhotoRenderRequest.FixedExposure?
    /// Where the 3A loop's white balance stands, a colour temperature in kelvin, while it moves towards
    /// the auto estimate; nil once settled.
    var adaptingLight: Double?
    /// The distance the lens is focused at, metres (`.infinity` at its far end), for a camera with autofocus:
    /// what lies nearer or farther is blurred by its circle of confusion (`LensFocus`). Nil for a camera without
    /// autofocus, whose pictures are sharp at every depth [our choice: a fixed-focus lens is set for the
    /// distances it serves].
    var focusDistance: Double?

    static let neutral = StreamLook()

    /// Whether the picture is one step of a 3A loop on its way: it is not kept in the stream cache,
    /// since the next frame moves on.
    var isTransient: Bool { adaptingExposure != nil || adaptingLight != nil }

    /// The look's part of a cache key.
    var key: String {
        var parts = ["z\(zoom)", "t\(torchLevel)", "b\(exposureBias)"]
        if let m = maximumExposure { parts.append("m\(m)") }
        if let e = fixedExposure { parts.append("e\(e.duration)@\(e.iso)") }
        if let g = whiteBalanceGains { parts.append("w\(g.x),\(g.y),\(g.z)") }
        if let e = adaptingExposure { parts.append("ae\(e.duration)@\(e.iso)") }
        if let k = adaptingLight { parts.append("awb\(k)") }
        if let d = focusDistance { parts.append("f\(d)") }
        return parts.joined(separator: "/")
    }
}

/// What auto-exposure and auto white balance decided for one streamed picture, which the device
/// reports (`exposureDuration`, `iso`, `exposureTargetOffset`, `deviceWhiteBalanceGains`). Small,
/// so cached pictures keep it and not the raw frame.
struct LookSummary: Sendable {
    /// The exposure the picture was taken with.
    let exposure: Exposure
    /// The exposure auto-exposure chose at the biased target, whether or not it was used.
    let metered: Exposure
    /// The gains (red, green, blue; green 1) that the grey-world balance of the picture asks for.
    let greyWorldGains: SIMD3<Double>
    /// The gains (red, green, blue; green 1) auto white balance chose for the picture, whether or not
    /// they were used.
    let autoGains: SIMD3<Double>
    /// The colour temperature of the light auto white balance chose, kelvin; nil when the picture had
    /// nothing to estimate from.
    let autoCCT: Double?
}

/// One streamed picture rendered through a look: the look's settings mapped onto `PhotoPipeline`
/// (the same policy as photos), the developed picture and the decisions behind it.
struct LookedFrame {
    let frame: RawFrame
    let model: CameraModel
    /// The developed picture, at the model's size.
    let pixels: PixelPlane<UInt8>
    let summary: LookSummary

    /// Renders the scene through `model` as `look` asks, encoded in `space`.
    ///
    /// The torch is the flash hardware burning continuously at `torchLevel` of its intensity (each
    /// module's candela scaled, spectrum and beam unchanged), so it lights every exposure in full.
    /// The picture is small, so it is its own metering frame; the noise seed is fixed, as frames of
    /// a static scene do not differ (see `StreamRendering`).
    init(
        scene: Scene, device: DeviceProfileRef, model unzoomed: CameraModel, look: StreamLook,
        space: BasicDevelop.OutputSpace = .sRGB
    ) {
        var model = unzoomed
        if look.zoom > 0, look.zoom != 1 {
            model.fx *= look.zoom
            model.fy *= look.zoom
        }
        let flash =
            look.torchLevel > 0
            ? TorchLight.flash(device: device.profile, camera: device.camera, level: look.torchLevel) : nil
        let focus = AutoFocus.lens(of: device.camera, focusedAt: look.focusDistance)
        let renderer = Renderer(
            scene: scene, camera: model, flash: flash,
            options: RenderOptions(softShadowSamples: 1, keepsComponents: false), focus: focus)
        let pipeline = PhotoPipeline(renderer: renderer, meteringRenderer: nil, flashHardware: device.profile.flash)
        let torchOn = flash != nil
        let seed: UInt64 = 1
        let metered = pipeline.meteredExposure(
            bias: look.exposureBias, flash: torchOn, seed: seed, maximumTime: look.maximumExposure)
        let held = look.fixedExposure ?? look.adaptingExposure
        let exposure = held.map { Exposure(time: $0.duration, iso: $0.iso, flash: torchOn, seed: seed) } ?? metered
        // Locked gains make the camera neutral 1/gains; otherwise the photos' auto white balance, so a
        // frame and a photo of one scene agree in colour, or where the 3A loop stands on its way there.
        let balance: PhotoPipeline.WhiteBalanceChoice =
            look.whiteBalanceGains.map { .lockedGains($0) } ?? look.adaptingLight.map { .light(cct: $0) } ?? .auto
        let photo = pipeline.run(
            .init(outputSpace: space, whiteBalance: balance, flash: torchOn, seed: seed), exposure: exposure,
            metered: metered)
        frame = photo.frame
        pixels = photo.pixels
        self.model = model
        let auto = AutoWhiteBalance().estimate(photo.frame, camera: model)
        summary = LookSummary(
            exposure: exposure, metered: metered,
            greyWorldGains: pipeline.whiteBalance(photo.frame, .greyWorld).gains, autoGains: auto.whiteBalance.gains,
            autoCCT: auto.cct)
    }
}

/// The profile and camera a look renders, named together.
struct DeviceProfileRef {
    let profile: Devices.DeviceProfile
    let camera: Devices.CameraProfile
}

/// The torch as the renderer sees it: the flash hardware at a share of its intensity.
enum TorchLight {
    /// The device's flash with every module's candela scaled by `level` (spectrum and beam
    /// unchanged); the full flash when `level` is 0, as photos whose flash fires use it.
    static func flash(device: DeviceProfile, camera: CameraProfile, level: Double) -> FlashModel? {
        guard var flash = FlashModel(device: device, camera: camera) else { return nil }
        if level > 0 {
            for i in flash.modules.indices { flash.modules[i].intensityCandela *= level }
        }
        return flash
    }
}

extension PhotoRenderRequest {
    /// Whether the photo's light source fires: the flash, or the torch in its place.
    var lit: Bool { flashFired || torchLevel > 0 }
}
