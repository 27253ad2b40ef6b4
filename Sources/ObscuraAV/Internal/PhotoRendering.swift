import Devices
import Imaging

/// Everything the pixels of one photo depend on, resolved from the API state.
struct PhotoRenderRequest: Sendable {
    let profile: DeviceProfile
    let camera: CameraProfile
    let format: CaptureFormat
    /// The scene reference given to `Emulator.use(scene:)`.
    let scene: String
    let flashFired: Bool
    let dimensions: Dimensions
    let colorSpace: AVCaptureColorSpace
    /// Derived from the request's uniqueID so that the same request renders the same bytes.
    let seed: UInt64
    /// 1-based index of the photo within the request.
    let photoIndex: Int
}

/// A rendered photo: output-referred RGB in the request's colour space, plus what was decided.
struct RenderedPhoto: Sendable {
    /// Three channels, 0…1, already encoded with the colour space's transfer function.
    let encodedRGB: PixelPlane<Float>
    let exposureDurationSeconds: Double
    let iso: Double
    /// Which renderer produced the pixels, written into the file's metadata.
    let renderer: String
}

/// The integration point for photo pixels: Sensor (scene × camera × light → raw frame) followed
/// by ISP's ordinary pipeline (auto exposure, white balance, colour correction, tone curve,
/// encoding) plug in here. ObscuraAV holds API semantics only (STYLE.md rule 1).
protocol PhotoRendering: Sendable {
    /// Whether `.auto` flash fires: the scene's metered brightness decides (spec §6 [D]).
    func autoFlashFires(_ request: PhotoRenderRequest) -> Bool
    /// The photo's pixels.
    func render(_ request: PhotoRenderRequest) -> RenderedPhoto
}

/// The renderer used until Sensor and ISP land: it renders **no scene**. Every pixel is the
/// sRGB-encoded value of a linear 0.18 grey, auto flash never fires, and exposure metadata are
/// fixed placeholders. Files say `Renderer: placeholder (no scene)`. Nothing may test these
/// pixel values as if they were physics.
struct PlaceholderPhotoRenderer: PhotoRendering {
    func autoFlashFires(_ request: PhotoRenderRequest) -> Bool { false }

    func render(_ request: PhotoRenderRequest) -> RenderedPhoto {
        // IEC 61966-2-1 encoding of 0.18 (Display P3 uses the same transfer function).
        let grey = Float(1.055 * Foundation.pow(0.18, 1 / 2.4) - 0.055)
        let plane = PixelPlane<Float>(
            width: request.dimensions.width, height: request.dimensions.height, channels: 3, repeating: grey)
        return RenderedPhoto(
            encodedRGB: plane, exposureDurationSeconds: 1.0 / 60, iso: 100, renderer: "placeholder (no scene)")
    }
}

import Foundation

/// The renderer photos use. Replaced by the Sensor + ISP renderer when those targets exist.
enum PhotoRenderers {
    static let current: any PhotoRendering = PlaceholderPhotoRenderer()
}
