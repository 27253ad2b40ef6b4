import Imaging
import Scenes
import Sensor
import Spectra

extension ConstantColorValidation {
    /// What Constant Color is compared with. Apple compares with "normal photos" without saying how they were
    /// exposed or balanced (color-science spec §0); our reading, the default, is the photo a phone takes of the same
    /// scene by the room light alone: its own auto exposure (`PhotoPipeline`, as `obscura render` takes it) and
    /// auto white balance. The variance reduction rests as much on the baseline's variance as on Constant Color's,
    /// so the choice and the share of the light's cast the baseline keeps are the user's to change
    /// (`validate constant-color --baseline`, `--warmth`):
    /// - the same normal photo white-balanced for the room light's true spectrum shows what an ideal auto white
    ///   balance would leave (only the cast it keeps on purpose);
    /// - the capture's own fallback photo is developed from its ambient frame, which is exposed for the flash pair,
    ///   not for the room: in a dim room it is several stops under and brought up by the fallback gain, so its
    ///   noise and the black level's rounding colour the dark patches.
    ///
    /// In a 10 lux room even the normal photo is noisy (a high ISO, and no noise reduction in the ordinary pipeline):
    /// the tone curve and the 8-bit floor, applied pixel by pixel, bend that noise into a shift of a patch's mean
    /// colour of several units, most in the channel the light gives least.
    public enum Baseline: String, Sendable, Hashable, CaseIterable {
        /// A normal photo by the room light, auto-exposed, with the auto white balance (`AutoWhiteBalance`).
        case autoWhiteBalance = "auto-white-balance"
        /// A normal photo by the room light, auto-exposed, white-balanced for the light's true spectrum.
        case knownLight = "known-light"
        /// The Constant Color capture's fallback photo: its ambient frame at the fallback gain, auto white balance.
        case fallback

        /// A sentence for reports, with the share of the cast kept (0…1).
        public func summary(warmth: Double) -> String {
            let kept = "keeping \(Int((warmth * 100).rounded())) % of its cast"
            switch self {
            case .autoWhiteBalance:
                return "a normal photo by the room light (auto exposure, no flash, auto white balance), \(kept)"
            case .knownLight:
                return "a normal photo by the room light (auto exposure, no flash), balanced for the true light, "
                    + kept
            case .fallback:
                return "the capture's fallback photo (its ambient frame at the fallback gain, auto white balance), "
                    + kept
            }
        }

        /// The baseline photo (Display P3, as the Constant Color photo) beside a Constant Color capture `result` of
        /// `scene`, whose room light is its only light: `warmth` is the share of the light's cast kept, `seed` the
        /// normal photo's noise.
        public func photo(
            of result: ConstantColorResult, scene: Scene, camera: CameraModel, warmth: Double, seed: UInt64
        ) -> PixelPlane<UInt8> {
            let balance: PhotoPipeline.WhiteBalanceChoice
            switch self {
            case .fallback:
                let ambient = result.diagnostics.ambientFrame
                return PhotoPipeline.develop(
                    ambient, camera: camera, whiteBalance: WhiteBalance.auto(ambient, camera: camera),
                    outputSpace: .displayP3, warmth: warmth, gain: result.diagnostics.plan.fallbackGain)
            case .autoWhiteBalance: balance = .auto
            case .knownLight: balance = .knownLights
            }
            // The component means tell the known-lights balance what lights the frame (`WhiteBalance.knownLights`).
            let renderer = Renderer(
                scene: scene, camera: camera, flash: nil,
                options: RenderOptions(keepsComponents: false, keepsComponentMeans: true))
            let pipeline = PhotoPipeline(renderer: renderer, meteringRenderer: nil, flashHardware: nil)
            return pipeline.run(.init(outputSpace: .displayP3, whiteBalance: balance, warmth: warmth, seed: seed))
                .pixels
        }
    }
}
