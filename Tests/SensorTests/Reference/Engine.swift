import Scenes
import Sensor
import Spectra

/// The two renderers, so physics tests that state a closed form can hold both to it.
enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `Renderer`: cached geometry, single-precision planes, vector paths.
    case fast
    /// `ReferenceRenderer`: the plain statement of the model; its frames are noise-free.
    case reference

    var description: String { rawValue }

    /// A frame whose noise-free components (`ambientElectrons`, `flashElectrons`), depth and ids
    /// come from this renderer.
    func render(_ scene: Scene, camera: CameraModel, flash: FlashModel? = nil, exposure: Exposure) -> RawFrame {
        switch self {
        case .fast: return Renderer(scene: scene, camera: camera, flash: flash).render(exposure)
        case .reference:
            return ReferenceRenderer(scene: scene, camera: camera, flash: flash).noiseFreeFrame(exposure)
        }
    }
}
