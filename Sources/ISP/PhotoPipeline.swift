import Devices
import Foundation
import Imaging
import Scenes
import Sensor

/// The ordinary photo, from scene to developed pixels: metering, auto-exposure, the raw frame,
/// auto white balance, the develop step and the share of the room's cast that is kept.
///
/// Every ordinary picture Obscura makes goes through here: photos taken through the capture API,
/// streamed video frames (at their own size), `obscura render`, and the fallback photo of a
/// Constant Color capture. The policy lives here once; callers only say what the settings are.
///
/// The renderers are passed in, not built here, because their geometry pass is the expensive
/// part and callers keep them across captures of an unchanged scene. A renderer carries the
/// scene, the camera (at the picture's size) and the lights (the flash or torch, if any).
public struct PhotoPipeline: Sendable {
    /// Share of the room light's cast an ordinary photo keeps: a phone keeps part of a warm
    /// room's cast; a fifth of the way from D65 towards the light is our choice, not a measured
    /// figure. It agrees with the incomplete adaptation of CIECAM02 (CIE 159:2004): its degree of
    /// adaptation D = 1 − (1/3.6)·exp(−(L_A + 42)/92) is about 0.8 to 0.85 at the adapting luminances
    /// of a lit room (5 to 20 cd/m²), so an observer keeps some 15 to 20 % of the light's colour.
    public static let warmth = 0.2
    /// Width of the metering frame, pixels: enough for a centre-weighted mean, cheap to render.
    public static let meteringWidth = 64
    /// The `.auto` flash threshold: the flash fires when the scene metered without flash would need
    /// more than ISO 400 at 1/15 s, the slowest hand-held time we allow (our choice; ISO 400 at
    /// 1/15 s and f/1.8 is about EV100 3.6, a room of some 30 lux on an 18 % grey).
    public static let autoFlashISO = 400.0
    /// The slowest hand-held exposure time the `.auto` flash rule allows, seconds.
    public static let handHeldLimit = 1.0 / 15

    /// How the exposure is chosen.
    public enum ExposureChoice: Sendable, Hashable {
        /// Auto-exposure at the ISO 12232 mid-grey target times 2^bias (bias in EV).
        case auto(bias: Double)
        /// A held exposure (the device's custom or locked mode).
        case fixed(time: Double, iso: Double)
    }

    /// How the white is chosen.
    public enum WhiteBalanceChoice: Sendable, Hashable {
        /// The phone's auto white balance: the light estimated from the frame and the camera's
        /// sensitivities alone (`AutoWhiteBalance`). What photos and every streamed output use.
        case auto
        /// The scene's known lights, ambient and flash mixed as each contributes (the flash part
        /// from the factory calibration, as a phone's ISP would know it).
        case knownLights
        /// Grey world over the frame.
        case greyWorld
        /// Locked device gains (red, green, blue): the camera neutral is 1/gains, and the matrix is
        /// fitted for the Planckian or daylight source nearest to it.
        case lockedGains(SIMD3<Double>)
        /// A light on the locus at a colour temperature, kelvin (Planckian below 5,000 K, CIE
        /// daylight from it): where a video stream's white-balance loop stands while it moves
        /// towards the auto estimate.
        case light(cct: Double)
    }

    /// What a caller decides.
    public struct Settings: Sendable, Hashable {
        /// The encoding of the pixels.
        public var outputSpace: BasicDevelop.OutputSpace
        /// Auto or held exposure.
        public var exposure: ExposureChoice
        /// Where the white comes from.
        public var whiteBalance: WhiteBalanceChoice
        /// Share of the light's cast kept, 0…1; nil for the pipeline's choice (`warmth(for:)`).
        public var warmth: Double?
        /// The longest exposure time auto-exposure may choose, seconds (a capture device's
        /// `activeMaxExposureDuration`); nil for `AutoExposure.defaultMaximumTime`. A held exposure
        /// ignores it.
        public var maximumExposureTime: Double?
        /// Whether the renderer's flash (or torch) lights the exposure.
        public var flash: Bool
        /// The noise seed.
        public var seed: UInt64
        /// Workers for the develop step; nil uses every processor the process may use.
        public var threads: Int?

        /// Settings; the defaults are an ordinary photo's.
        public init(
            outputSpace: BasicDevelop.OutputSpace = .sRGB, exposure: ExposureChoice = .auto(bias: 0),
            whiteBalance: WhiteBalanceChoice = .auto, warmth: Double? = nil, maximumExposureTime: Double? = nil,
            flash: Bool = false, seed: UInt64 = 0, threads: Int? = nil
        ) {
            self.outputSpace = outputSpace
            self.exposure = exposure
            self.maximumExposureTime = maximumExposureTime
            self.whiteBalance = whiteBalance
            self.warmth = warmth
            self.flash = flash
            self.seed = seed
            self.threads = threads
        }
    }

    /// A developed photo and what was decided for it.
    public struct Output: Sendable {
        /// 8-bit RGB in `settings.outputSpace`.
        public let pixels: PixelPlane<UInt8>
        /// The raw frame the pixels were developed from.
        public let frame: RawFrame
        /// The exposure used.
        public let exposure: Exposure
        /// What auto-exposure chose at the biased target; nil for a held exposure.
        public let metered: Exposure?
        /// The white balance applied.
        public let whiteBalance: WhiteBalance
    }

    /// Renders the picture.
    public let renderer: Renderer
    /// Renders the metering frame; nil meters on `renderer` itself (a picture already small).
    public let meteringRenderer: Renderer?
    /// The device's flash hardware and its calibration, for the known-lights white balance.
    public let flashHardware: FlashHardware?

    /// A pipeline over prepared renderers.
    public init(renderer: Renderer, meteringRenderer: Renderer?, flashHardware: FlashHardware?) {
        self.renderer = renderer
        self.meteringRenderer = meteringRenderer
        self.flashHardware = flashHardware
    }

    /// The metering frame's size for a picture: `meteringWidth` wide (or the picture's width if
    /// smaller) at the picture's aspect ratio.
    public static func meteringSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let w = min(meteringWidth, width)
        return (w, max(1, Int((Double(w) * Double(height) / Double(width)).rounded())))
    }

    /// The photo.
    public func run(_ settings: Settings) -> Output {
        expose(settings).develop()
    }

    /// A photo exposed and white-balanced but not yet developed: what `run(_:)` does before the
    /// develop step. A caller that holds the only reference to the renderer can release it (and its
    /// geometry, the largest buffers of a picture) before `develop()` allocates the picture.
    public struct Exposed: Sendable {
        /// The raw frame.
        public let frame: RawFrame
        /// The exposure used.
        public let exposure: Exposure
        /// What auto-exposure chose at the biased target; nil for a held exposure.
        public let metered: Exposure?
        /// The white balance chosen.
        public let whiteBalance: WhiteBalance
        let camera: CameraModel
        let settings: Settings

        /// The develop step: the photo `PhotoPipeline.run(_:)` delivers.
        public func develop() -> Output {
            let pixels = PhotoPipeline.develop(
                frame, camera: camera, whiteBalance: whiteBalance, outputSpace: settings.outputSpace,
                warmth: settings.warmth ?? PhotoPipeline.warmth(for: settings.whiteBalance), threads: settings.threads)
            return Output(
                pixels: pixels, frame: frame, exposure: exposure, metered: metered, whiteBalance: whiteBalance)
        }
    }

    /// The frame and white balance of the photo, metered as `run(_:)` meters it.
    public func expose(_ settings: Settings) -> Exposed {
        switch settings.exposure {
        case let .fixed(time, iso):
            return expose(
                settings, exposure: Exposure(time: time, iso: iso, flash: settings.flash, seed: settings.seed),
                metered: nil)
        case let .auto(bias):
            let chosen = meteredExposure(
                bias: bias, flash: settings.flash, seed: settings.seed, maximumTime: settings.maximumExposureTime)
            return expose(settings, exposure: chosen, metered: chosen)
        }
    }

    /// What auto-exposure chooses at the mid-grey target times 2^bias, metered on the metering
    /// renderer (or the picture's own when there is none), with exposure times up to `maximumTime`
    /// (nil: `AutoExposure.defaultMaximumTime`).
    public func meteredExposure(bias: Double, flash: Bool, seed: UInt64, maximumTime: Double? = nil) -> Exposure {
        var ae = AutoExposure(noise: renderer.camera.noise)
        if bias != 0 { ae.target *= pow(2, bias) }
        if let maximumTime { ae.maximumTime = max(maximumTime, ae.minimumTime) }
        return ae.solve(meteringRenderer: meteringRenderer ?? renderer, flash: flash, seed: seed)
    }

    /// The photo at an exposure already chosen; `metered` is only reported back.
    public func run(_ settings: Settings, exposure: Exposure, metered: Exposure?) -> Output {
        expose(settings, exposure: exposure, metered: metered).develop()
    }

    /// The frame and white balance of the photo at an exposure already chosen.
    public func expose(_ settings: Settings, exposure: Exposure, metered: Exposure?) -> Exposed {
        let frame = renderer.render(exposure)
        let balance = whiteBalance(frame, settings.whiteBalance)
        return Exposed(
            frame: frame, exposure: exposure, metered: metered, whiteBalance: balance, camera: renderer.camera,
            settings: settings)
    }

    /// The share of the light's cast kept when the caller does not say: `warmth` when the light is
    /// known or estimated, none for grey world and locked gains (they say where neutral is, not what
    /// the light was, so there is no cast to keep; our choice).
    public static func warmth(for choice: WhiteBalanceChoice) -> Double {
        switch choice {
        case .auto, .knownLights, .light: return warmth
        case .greyWorld, .lockedGains: return 0
        }
    }

    /// The develop step of an ordinary photo for a frame already exposed: `BasicDevelop` with the
    /// auto-exposure mid-grey mapped to 0.18, times `gain` (a frame exposed shorter than its photo
    /// is meant to look, as a Constant Color ambient frame is).
    public static func develop(
        _ frame: RawFrame, camera: CameraModel, whiteBalance: WhiteBalance, outputSpace: BasicDevelop.OutputSpace,
        warmth: Double = PhotoPipeline.warmth, gain: Double = 1, threads: Int? = nil
    ) -> PixelPlane<UInt8> {
        BasicDevelop(
            camera: camera, whiteBalance: whiteBalance,
            settings: .init(
                outputSpace: outputSpace, warmthRetention: warmth,
                exposureScale: 0.18 / AutoExposure.midGreyFraction * gain)
        ).developBytes(frame, threads: threads)
    }

    /// The white balance a choice gives for a frame.
    public func whiteBalance(_ frame: RawFrame, _ choice: WhiteBalanceChoice) -> WhiteBalance {
        let camera = renderer.camera
        switch choice {
        case .auto:
            return WhiteBalance.auto(frame, camera: camera)
        case .knownLights:
            return WhiteBalance.knownLights(frame, scene: renderer.scene, flash: flashHardware, camera: camera)
        case .greyWorld:
            return WhiteBalance.greyWorld(frame, camera: camera)
        case let .lockedGains(g):
            guard g.x > 0, g.y > 0, g.z > 0 else { return WhiteBalance.greyWorld(frame, camera: camera) }
            return WhiteBalance(nearestTo: SIMD3(1 / g.x, 1 / g.y, 1 / g.z), camera: camera)
        case let .light(cct):
            return WhiteBalance(locusCCT: cct, camera: camera)
        }
    }

    /// Why the `.auto` flash did or did not fire.
    public struct FlashDecision: Sendable, Hashable {
        /// Whether the scene is dark enough for the flash.
        public let fires: Bool
        /// The ISO the metered scene would need at the hand-held limit.
        public let isoAtHandHeldLimit: Double
    }

    /// The `.auto` flash rule: meters the scene without flash and fires when the ISO needed at
    /// `handHeldLimit` exceeds `autoFlashISO`. Auto-exposure fixes time × ISO for a metered rate
    /// (see `AutoExposure`), so the ISO at the limit is that product over the limit.
    public func autoFlash(seed: UInt64) -> FlashDecision {
        let metering = meteringRenderer ?? renderer
        let noise = metering.camera.noise
        let frame = metering.render(Exposure(time: 0.01, iso: noise.baseISO, flash: false, seed: seed))
        let rate = AutoExposure.meteredRate(frame, camera: metering.camera)
        let ae = AutoExposure(noise: noise)
        let iso = rate > 0 ? ae.target * noise.fullWellElectrons * noise.baseISO / rate / Self.handHeldLimit : .infinity
        return FlashDecision(fires: iso > Self.autoFlashISO, isoAtHandHeldLimit: iso)
    }
}
