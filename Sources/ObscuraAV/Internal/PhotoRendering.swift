import CaptureRules
import Devices
import Foundation
import Imaging

/// Everything the pixels of one request depend on, resolved from the API state.
struct PhotoRenderRequest: Sendable {
    /// A fixed exposure: the device's custom mode.
    struct FixedExposure: Sendable, Hashable {
        let duration: Double
        let iso: Double
    }

    let profile: DeviceProfile
    let camera: CameraProfile
    let scene: ChosenScene
    let flashFired: Bool
    let dimensions: Dimensions
    let colorSpace: AVCaptureColorSpace
    /// The noise seed (see `Emulation.seed`).
    let seed: UInt64
    /// The device's custom exposure; nil meters the scene.
    var fixedExposure: FixedExposure?
    /// A Constant Color request (spec §11), and whether it delivers the fallback photo.
    let constantColor: Bool
    let fallback: Bool
    /// Whether a Constant Color capture carries the profile's error sources (`Emulation.modelsDeviceErrors`).
    var deviceErrors = true
    /// The share of the width and height, centred, that lies inside the preview; 1 for all of it.
    /// A zoomed constituent capture blacks out the rest (spec §2.2, constituent photos [T W17]).
    var visibleFraction: Double = 1
    /// The zoom factor the photo is taken at (`videoZoomFactor`): the camera's focal length is
    /// multiplied by it about the principal point, so the photo keeps its pixel count and shows
    /// 1/zoom of the field of view (our choice [I]: rendering through the scaled intrinsics
    /// rather than upscaling a centre crop, so a zoomed photo is as sharp as the scene model).
    var zoom: Double = 1
    /// Whether the sensor's Bayer mosaic is kept for a RAW photo (spec §5).
    var keepsMosaic = false
    /// The torch's level while the photo is exposed (`AVCaptureDevice.torchLevel`, 0 when off): the
    /// flash hardware burning at that share of its intensity through the whole exposure. A photo
    /// whose flash fires is lit by the flash alone.
    var torchLevel: Double = 0
    /// The distance the lens is focused at when the photo is exposed, metres (`.infinity` at its far end); nil for a
    /// camera without autofocus, sharp at every depth. What lies nearer or farther is blurred by its circle of
    /// confusion (`LensFocus`), as in the stream.
    var focusDistance: Double? = nil
    /// How the active format reads the sensor, which sets the photo's noise; nil for a full readout.
    var readout: FormatReadout? = nil
    /// The longest exposure auto-exposure may choose, seconds: the device's
    /// `activeMaxExposureDuration`; nil for auto-exposure's default. A fixed exposure ignores it.
    var maximumExposureDuration: Double? = nil
    /// The device's `exposureTargetBias`, EV: auto-exposure aims at mid-grey times 2^bias for photos as for
    /// the stream (spec §2.4). A fixed exposure ignores it.
    var exposureBias: Double = 0
}

/// One rendered photo of a request: encoded 8-bit RGB plus what was decided.
struct RenderedPhoto: Sendable {
    let pixels: PixelPlane<UInt8>
    /// The colour space the pixels are encoded in.
    let encoding: PhotoEncoding
    let exposureDurationSeconds: Double
    let iso: Double
    let flashFired: Bool
    /// Constant Color photos only: the confidence map (one byte per tile) and its centre-weighted mean.
    let confidenceMap: PixelPlane<UInt8>?
    let confidenceLevel: Double
    /// The sensor's RGGB mosaic, when the request keeps it for a RAW photo.
    var mosaic: BayerMosaic?
    /// The camera matrix the pixels were rendered through (zoom included), for the file's metadata.
    var intrinsics: PinholeIntrinsics?
}

/// The still-image encodings Obscura writes.
enum PhotoEncoding: Sendable {
    case sRGB
    case displayP3

    /// Photos follow `activeColorSpace` (spec §2.6, §12): sRGB stays sRGB; P3, HLG BT.2020 and Apple
    /// Log video spaces all give Display P3 stills, the widest still space Obscura encodes [I].
    init(_ space: AVCaptureColorSpace) {
        self = space == .sRGB ? .sRGB : .displayP3
    }

    var name: String { self == .sRGB ? "sRGB" : "Display P3" }
    var png: PNGColorSpace { self == .sRGB ? .sRGB : .displayP3 }
}

/// Why `.auto` flash did or did not fire.
struct FlashMetering: Sendable {
    /// Whether the scene is dark enough for the flash.
    let needsFlash: Bool
    /// The ISO the metered scene would need at the hand-held limit of 1/15 s.
    let isoAtHandHeldLimit: Double
}

/// Photo pixels: Sensor (scene × camera × light → raw frame) and ISP (ordinary or Constant Color
/// pipeline). ObscuraAV holds API semantics only (STYLE.md rule 1); this is where it asks.
protocol PhotoRendering: Sendable {
    /// Meters the scene without flash for the `.auto` decision (spec §6 [D]).
    func meterForFlash(_ request: PhotoRenderRequest) -> FlashMetering?
    /// The request's photos: one, or the Constant Color photo and its fallback.
    func render(_ request: PhotoRenderRequest) -> Result<[RenderedPhoto], PhotoRenderingError>
}

/// Why a photo could not be rendered (a profile camera without a sensor model, for example).
struct PhotoRenderingError: Error, CustomStringConvertible, Sendable {
    let description: String
}

/// The renderer photos use.
enum PhotoRenderers {
    static let current: any PhotoRendering = SensorPhotoRenderer.shared
}

/// The photos of one request, rendered once on first use and shared by its `AVCapturePhoto`s.
final class PendingRender: @unchecked Sendable {
    let request: PhotoRenderRequest
    private let lock = NSLock()
    private var result: Result<[RenderedPhoto], PhotoRenderingError>?

    init(_ request: PhotoRenderRequest) { self.request = request }

    /// Renders now, so that later reads are immediate (processing ahead of delivery).
    func prepare() { _ = photo(0) }

    /// The photo at `index` (0 = primary, 1 = Constant Color fallback); nil if rendering failed.
    func photo(_ index: Int) -> RenderedPhoto? {
        let r = lock.withLock { () -> Result<[RenderedPhoto], PhotoRenderingError> in
            if let result { return result }
            let made = PhotoRenderers.current.render(request)
            result = made
            if case .failure(let error) = made {
                Emulation.shared.record(
                    TraceEntry(section: "§5", rule: nil, outcome: .decided, sentence: "No pixels: \(error)"))
            }
            return made
        }
        guard case .success(let photos) = r, photos.indices.contains(index) else { return nil }
        return photos[index]
    }
}
