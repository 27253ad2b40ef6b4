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
/// - `scaleFactor`, the size developed (box-averaged), and `orientation`, the file's unless set;
/// - `neutralLocation`, the white read off a grey at a point of the picture;
/// - `shadowBias`, subtracted from the linear values, and `boostShadowAmount`, the tone curve's shadows
///   (`DNGDevelopment.Tone`);
/// - `linearSpaceFilter`, a filter given the linear picture (exposed and in the working space, before the tone step,
///   the native orientation);
/// - `isLensCorrectionEnabled`, whether the lens shading the phone corrects (the file's gain map) is put back;
/// - `isGamutMappingEnabled`, whether colours outside sRGB's gamut are desaturated into it at their luminance
///   (`DNGDevelopment.mappedIntoGamut`) or left with negative channels;
/// - `extendedDynamicRangeAmount`, 0 … 2: the tone curve's white at 2^amount instead of 1, so that highlights the
///   file holds above the processed photo's white keep values above 1 (our choice of scale: Apple's header says
///   only that 1 is the default extended range and 2 the most).
///
/// It opens the DNG a RAW photo's `fileDataRepresentation()` gives, and the photo's Bayer `pixelBuffer` with its
/// `metadata` (`init(cvPixelBuffer:properties:)`), which develop alike.
///
/// The adjustments Apple's engine offers for some cameras only (noise reduction, sharpness, contrast, detail, moiré
/// reduction, local tone mapping) say so: their `is…Supported` is false, as for a file Apple's engine has no such
/// adjustment for, and their amounts change nothing. Draft mode is a speed hint this developer, which always
/// develops in one pass, needs no different pass for.
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
    private var developed: (settings: DNGDevelopment.Settings, scale: Double, image: CIImage)?
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
    /// Subtracted from the linear values before the tone curve, 1 the white; values below it go to black. Default 0.
    public var shadowBias: Float = 0
    /// How the tone curve treats the shadows, 0 … 2: above 1 lightens them, below 1 darkens them; no effect where
    /// `boostAmount` is 0. Default 1.
    public var boostShadowAmount: Float = 1
    /// A filter applied to the picture while it is linear: its input image is the development before the tone step,
    /// and its output goes on to the tone step. Nil to begin with.
    public var linearSpaceFilter: CIFilter?
    /// Whether a faster, rougher development may be used. Default false; the development is the same either way.
    public var isDraftModeEnabled = false
    /// The decoder the development follows; one of `supportedDecoderVersions`, else `outputImage` is nil.
    public var decoderVersion = CIRAWDecoderVersion.version8DNG
    /// The decoders this file can be developed by: the DNG decoder alone.
    public var supportedDecoderVersions: [CIRAWDecoderVersion] { [.version8DNG] }
    /// Whether the file carries a lens correction this filter can apply: the gain map of the lens's shading
    /// (OpcodeList2) that a phone's DNG holds.
    public var isLensCorrectionSupported: Bool { development.hasLensShadingCorrection }
    /// Whether the lens correction is applied; true to begin with where the file has one. Off, the corners keep the
    /// lens's fall-off as the sensor recorded it.
    public var isLensCorrectionEnabled: Bool
    /// Whether colours outside sRGB's gamut are brought into it (see the type; Capture rules §5). Default true.
    public var isGamutMappingEnabled = true
    /// How far above 1 the development may reach, 0 … 2 (see the type; Capture rules §5); values outside are held
    /// at the ends.
    /// Default 0: a standard picture, the white at 1.
    public var extendedDynamicRangeAmount: Float = 0

    /// The cameras whose RAW files this filter develops: those of the emulated devices that take Bayer RAW photos, by
    /// the UniqueCameraModel their DNGs carry (Capture rules §5). It also develops other DNGs laid out the same way.
    public class var supportedCameraModels: [String] { RawCameraModels.all }

    /// A point of the picture whose colour is taken for the white, as a grey picker sets it: Core Image
    /// coordinates (origin at the bottom left) in the native picture, before scaling and orientation (our choice;
    /// Apple's page says only "pixel coordinates in the image"). The camera neutral is the mean of the samples
    /// within 8 pixels (`DNGDevelopment.neutral(atColumn:row:radius:)`); where that reads no neutral (a clipped,
    /// black or edge spot, or a colour the calibration cannot place) the white stays as it was.
    public var neutralLocation: CGPoint = .zero {
        didSet {
            let (x, y) = (Double(neutralLocation.x), Double(nativeSize.height) - 1 - Double(neutralLocation.y))
            guard x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9,
                let neutral = development.neutral(atColumn: Int(x.rounded()), row: Int(y.rounded())),
                let white = development.white(ofNeutral: neutral)
            else { return }
            neutralChromaticity = CGPoint(x: white.x, y: white.y)
        }
    }

    /// Not offered for this developer's files (see the type); the amount changes nothing.
    public var isLuminanceNoiseReductionSupported: Bool { false }
    public var luminanceNoiseReductionAmount: Float = 0
    /// Not offered for this developer's files (see the type); the amount changes nothing.
    public var isColorNoiseReductionSupported: Bool { false }
    public var colorNoiseReductionAmount: Float = 0
    /// Not offered for this developer's files (see the type); the amount changes nothing.
    public var isSharpnessSupported: Bool { false }
    public var sharpnessAmount: Float = 0
    /// Not offered for this developer's files (see the type); the amount changes nothing.
    public var isContrastSupported: Bool { false }
    public var contrastAmount: Float = 0
    /// Not offered for this developer's files (see the type); the amount changes nothing.
    public var isDetailSupported: Bool { false }
    public var detailAmount: Float = 0
    /// Not offered for this developer's files (see the type); the amount changes nothing.
    public var isMoireReductionSupported: Bool { false }
    public var moireReductionAmount: Float = 0
    /// Not offered for this developer's files (see the type); the amount changes nothing.
    public var isLocalToneMapSupported: Bool { false }
    public var localToneMapAmount: Float = 0

    /// The mattes a file may carry beside the picture. A phone's Bayer RAW DNG carries none, so all are nil.
    public var portraitEffectsMatte: CIImage? { nil }
    public var semanticSegmentationSkinMatte: CIImage? { nil }
    public var semanticSegmentationHairMatte: CIImage? { nil }
    public var semanticSegmentationGlassesMatte: CIImage? { nil }
    public var semanticSegmentationSkyMatte: CIImage? { nil }
    public var semanticSegmentationTeethMatte: CIImage? { nil }

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

    /// A filter for a Bayer RAW pixel buffer (`kCVPixelFormatType_14Bayer_…`: one sensor value per photosite in
    /// 16 bits) and the properties that describe it, as a RAW photo's `pixelBuffer` and `metadata` give them: the
    /// `{DNG}` dictionary's levels and colour calibration and the picture's `Orientation`
    /// (`DNGFile.init(mosaic:width:height:cfaPattern:properties:)`). It develops as the photo's DNG does. Nil for
    /// another pixel format, or properties without the levels, ColorMatrix1 or AsShotNeutral (Capture rules §5).
    public convenience init?(cvPixelBuffer buffer: CVPixelBuffer, properties: [AnyHashable: Any]) {
        let patterns: [OSType: [UInt8]] = [
            kCVPixelFormatType_14Bayer_RGGB: [0, 1, 1, 2], kCVPixelFormatType_14Bayer_GRBG: [1, 0, 2, 1],
            kCVPixelFormatType_14Bayer_BGGR: [2, 1, 1, 0], kCVPixelFormatType_14Bayer_GBRG: [1, 2, 0, 1],
        ]
        guard let pattern = patterns[buffer.pixelFormat], let plane = buffer.planes.first else { return nil }
        let (width, height) = (buffer.width, buffer.height)
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = plane.base.advanced(by: y * plane.bytesPerRow).assumingMemoryBound(to: UInt16.self)
            for x in 0..<width { samples[y * width + x] = row[x] }
        }
        var named: [String: Any] = [:]
        for (key, value) in properties { if let key = key.base as? String { named[key] = value } }
        guard
            let file = try? DNGFile(
                mosaic: samples, width: width, height: height, cfaPattern: pattern, properties: named)
        else { return nil }
        self.init(file: file, properties: named)
    }

    /// A filter for `file`, read from `bytes`.
    convenience init?(file: DNGFile, bytes: [UInt8]) {
        self.init(file: file, properties: file.properties(bytes: bytes))
    }

    /// A filter for `file`, whose metadata `properties` reports.
    init?(file: DNGFile, properties: [String: Any]) {
        let development = DNGDevelopment(file: file)
        guard let white = development.white() else { return nil }
        self.development = development
        asShotWhite = white
        neutralChromaticity = CGPoint(x: white.x, y: white.y)
        baselineExposure = Float(file.baselineExposure)
        orientation = CGImagePropertyOrientation(rawValue: UInt32(file.exif.orientation)) ?? .up
        isLensCorrectionEnabled = development.hasLensShadingCorrection
        fileProperties = properties
        super.init()
    }

    private var white: Chromaticity { Chromaticity(x: Double(neutralChromaticity.x), y: Double(neutralChromaticity.y)) }

    private func setWhite(cct: Double, duv: Double) {
        let c = CCT.chromaticity(cct: min(max(cct, 1000), 100_000), duv: min(max(duv, -0.05), 0.05))
        neutralChromaticity = CGPoint(x: c.x, y: c.y)
    }

    /// The developed picture, turned and scaled as set; developed again only when an adjustment changed.
    open override var outputImage: CIImage? {
        guard supportedDecoderVersions.contains(decoderVersion) else { return nil }
        let scale = Double(min(max(scaleFactor, 1e-3), 1))
        // A baseline changed by the app replaces the file's.
        let offset = Double(baselineExposure) - development.file.baselineExposure
        let settings = DNGDevelopment.Settings(
            exposure: Double(exposure) + offset, white: white == asShotWhite ? nil : white, boost: Double(boostAmount),
            correctsLensShading: isLensCorrectionEnabled && isLensCorrectionSupported, shadowBias: Double(shadowBias),
            shadowBoost: Double(boostShadowAmount), mapsGamut: isGamutMappingEnabled,
            headroom: pow(2, Double(extendedDynamicRangeAmount.isFinite ? min(max(extendedDynamicRangeAmount, 0), 2) : 0)))
        guard let filter = linearSpaceFilter else { return developed(settings, scale: scale)?.oriented(orientation) }
        // The linear development goes through the app's filter, then through the tone step.
        var linear = settings
        (linear.boost, linear.shadowBias, linear.shadowBoost) = (0, 0, 1)
        guard let picture = developed(linear, scale: scale) else { return nil }
        filter.setValue(picture, forKey: kCIInputImageKey)
        guard let filtered = filter.outputImage else { return nil }
        let tone = development.tone(settings)
        return filtered.applying(.map { v in SIMD4(tone.apply(SIMD3(v.x, v.y, v.z)), v.w) }).oriented(orientation)
    }

    /// The development at `settings` and `scale`, unturned: the last one again where the settings are the same.
    private func developed(_ settings: DNGDevelopment.Settings, scale: Double) -> CIImage? {
        if let cached = developedLock.withLock({ developed }), cached.settings == settings, cached.scale == scale {
            return cached.image
        }
        guard let picture = development.develop(settings, scale: scale) else { return nil }
        let image = CIImage(
            recipe: BitmapRecipe(
                width: picture.width, height: picture.height, storage: .floats(picture.pixels), encoding: .linear,
                isOpaque: true))
        developedLock.withLock { developed = (settings, scale, image) }
        return image
    }
}

/// The version of a RAW decoder a `CIRAWFilter` develops by. The raw values are our choice; Apple's names are the
/// static members.
public struct CIRAWDecoderVersion: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let none = CIRAWDecoderVersion(rawValue: "none")
    public static let version8 = CIRAWDecoderVersion(rawValue: "8")
    public static let version8DNG = CIRAWDecoderVersion(rawValue: "8.dng")
    public static let version7 = CIRAWDecoderVersion(rawValue: "7")
    public static let version7DNG = CIRAWDecoderVersion(rawValue: "7.dng")
    public static let version6 = CIRAWDecoderVersion(rawValue: "6")
    public static let version6DNG = CIRAWDecoderVersion(rawValue: "6.dng")
}
