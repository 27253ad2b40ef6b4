import Foundation
import ISP
import Imaging
import ObscuraAV
import Spectra

/// Core Image's RAW developer: a Digital Negative's colour filter array demosaiced, balanced, mapped to colour,
/// exposed and toned (`DNGDevelopment`), as a RAW camera app previews and edits the DNG a RAW capture gives.
///
/// It reads the DNGs `AVCapturePhoto.fileDataRepresentation()` writes for a RAW photo, and others laid out the same
/// way (`DNGFile.init(bytes:)`); for any other data the initialisers answer nil (our choice: Apple's engine also
/// opens the camera makers' own RAW formats and some processed ones, which this one does not). The adjustments it
/// honours:
/// - `exposure`, stops on top of `baselineExposure` (the file's BaselineExposure, which brings the development to the
///   brightness of the phone's processed photo);
/// - the white: `neutralTemperature` and `neutralTint`, or `neutralChromaticity`, start at the white the photo was
///   shot for (the file's AsShotNeutral) and move together;
/// - `boostAmount`, how much of the tone curve applies: 1 the processed photo's highlight shoulder, 0 linear values;
/// - `scaleFactor`, the size developed (box-averaged), and `orientation`, the file's unless set.
///
/// The tint's scale (our choice, as raw converters scale it): 3000 × the white's Duv, the signed distance from the
/// Planckian locus in CIE 1960 uv, so that a positive tint is a greener light, which the development corrects towards
/// magenta. The picture is linear sRGB with extended range, Core Image's working space.
open class CIRAWFilter: CIFilter, @unchecked Sendable {
    let development: DNGDevelopment
    /// The file's metadata, as `properties` gives it.
    let fileProperties: [String: Any]
    private let asShotWhite: Chromaticity
    /// The last development and the settings it was made with; the lock keeps concurrent readers of
    /// `outputImage` from racing on it.
    private var developed: (key: [Double], image: CIImage)?
    private let developedLock = NSLock()

    /// Stops added to `baselineExposure`. Default 0.
    public var exposure: Float = 0
    /// The file's BaselineExposure in stops (0 where it has none).
    public var baselineExposure: Float
    /// How much of the tone curve applies, 0…1. Default 1.
    public var boostAmount: Float = 1
    /// The size developed, a share of the full size in (0, 1]. Default 1.
    public var scaleFactor: Float = 1
    /// How the picture is turned; the file's Orientation to begin with.
    public var orientation: CGImagePropertyOrientation
    /// The white the picture is balanced for, as a CIE 1931 xy chromaticity.
    public var neutralChromaticity: CGPoint

    /// The white's correlated colour temperature, kelvin.
    public var neutralTemperature: Float {
        get { Float(CCT.cctAndDuv(of: white).cct) }
        set { setWhite(cct: Double(newValue), duv: CCT.cctAndDuv(of: white).duv) }
    }

    /// The white's tint: 3000 × its Duv (see the type).
    public var neutralTint: Float {
        get { Float(CCT.cctAndDuv(of: white).duv * 3000) }
        set { setWhite(cct: CCT.cctAndDuv(of: white).cct, duv: Double(newValue) / 3000) }
    }

    /// The full size of the picture before scaling and orientation: the sensor image's.
    public var nativeSize: CGSize { CGSize(width: development.file.width, height: development.file.height) }

    /// The file's metadata: `{TIFF}`, `{Exif}`, `Orientation` and the picture's size.
    public var properties: [AnyHashable: Any] {
        Dictionary(uniqueKeysWithValues: fileProperties.map { (AnyHashable($0.key), $0.value) })
    }

    /// The file's embedded preview, the processed photo scaled; nil where it has none.
    public var previewImage: CIImage? {
        guard let preview = development.file.preview else { return nil }
        return CIImage(data: Data(preview.jpeg))
    }

    /// A filter for a DNG file's bytes; nil when they are not a DNG this filter reads. The hint is not needed: the
    /// bytes say what they are.
    public convenience init?(imageData: Data, identifierHint: String?) {
        guard let file = try? DNGFile(bytes: [UInt8](imageData)) else { return nil }
        self.init(file: file, bytes: [UInt8](imageData))
    }

    /// A filter for the DNG file at `url`; nil when it cannot be read or is not a DNG this filter reads.
    public convenience init?(imageURL url: URL) {
        guard let data = try? Data(contentsOf: url) else { return nil }
        self.init(imageData: data, identifierHint: nil)
    }

    /// A filter for `file`, read from `bytes`.
    init?(file: DNGFile, bytes: [UInt8]) {
        let development = DNGDevelopment(file: file)
        guard let white = development.white() else { return nil }
        self.development = development
        asShotWhite = white
        neutralChromaticity = CGPoint(x: white.x, y: white.y)
        baselineExposure = Float(file.baselineExposure)
        orientation = CGImagePropertyOrientation(rawValue: UInt32(file.exif.orientation)) ?? .up
        fileProperties = file.properties(bytes: bytes)
        super.init()
    }

    private var white: Chromaticity { Chromaticity(x: Double(neutralChromaticity.x), y: Double(neutralChromaticity.y)) }

    private func setWhite(cct: Double, duv: Double) {
        let c = CCT.chromaticity(cct: min(max(cct, 1000), 100_000), duv: min(max(duv, -0.05), 0.05))
        neutralChromaticity = CGPoint(x: c.x, y: c.y)
    }

    /// The developed picture, turned and scaled as set; developed again only when an adjustment changed.
    open override var outputImage: CIImage? {
        let scale = Double(min(max(scaleFactor, 1e-3), 1))
        let key = [Double(exposure), Double(baselineExposure), Double(boostAmount), scale, white.x, white.y]
        let image: CIImage
        if let cached = developedLock.withLock({ developed }), cached.key == key {
            image = cached.image
        } else {
            // A baseline changed by the app replaces the file's.
            let offset = Double(baselineExposure) - development.file.baselineExposure
            let settings = DNGDevelopment.Settings(
                exposure: Double(exposure) + offset, white: white == asShotWhite ? nil : white,
                boost: Double(boostAmount))
            guard let picture = development.develop(settings, scale: scale) else { return nil }
            image = CIImage(
                recipe: BitmapRecipe(
                    width: picture.width, height: picture.height, storage: .floats(picture.pixels), encoding: .linear,
                    isOpaque: true))
            developedLock.withLock { developed = (key, image) }
        }
        return image.oriented(orientation)
    }
}
