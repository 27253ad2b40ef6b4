import Devices
import Foundation
import ISP
import Imaging
import Sensor

/// One delivered photo (spec §5): created for each `didFinishProcessingPhoto` call.
///
/// Pixels are rendered on first use, so that requests that never look at them stay cheap.
open class AVCapturePhoto: NSObject, @unchecked Sendable {
    /// Capture time on the session clock.
    public let timestamp: CMTime
    /// Whether this is the RAW half of a RAW + processed request.
    public let isRawPhoto: Bool
    /// The request's resolved settings; never nil.
    public let resolvedSettings: AVCaptureResolvedPhotoSettings
    /// 1-based index among `resolvedSettings.expectedPhotoCount`.
    public let photoCount: Int
    /// The source device's type.
    public let sourceDeviceType: AVCaptureDevice.DeviceType?
    /// The bracket element, for bracketed captures.
    public let bracketSettings: AVCaptureBracketedStillImageSettings?
    /// 1-based sequence number among the bracket's photos.
    public let sequenceCount: Int
    /// Whether this is the ambient photo of a Constant Color capture with fallback (spec §11).
    public let isConstantColorFallbackPhoto: Bool

    /// How the lens was stabilised during a bracketed capture (`AVCapturePhoto.LensStabilizationStatus`).
    public enum LensStabilizationStatus: Int, Sendable {
        case unsupported = 0
        case off = 1
        case active = 2
        case outOfRange = 3
        case unavailable = 4
    }

    /// `.unsupported`: no emulated photo output stabilises the lens during brackets (spec §5).
    public var lensStabilizationStatus: LensStabilizationStatus { .unsupported }

    let pending: PendingRender
    let extras: PhotoExtras
    /// 0 for the request's main photo, 1 for the Constant Color fallback.
    let renderIndex: Int
    let uncompressedFormat: OSType?
    private let lock = NSLock()
    private var buffer: CVPixelBuffer?
    private var mapBuffer: CVPixelBuffer?
    private var previewBuffer: CVPixelBuffer?
    /// The preview the settings asked for (spec §4).
    let preview: PreviewImage?

    init(
        timestamp: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, photoCount: Int, isRawPhoto: Bool = false,
        sourceDeviceType: AVCaptureDevice.DeviceType?, bracketSettings: AVCaptureBracketedStillImageSettings?,
        sequenceCount: Int, pending: PendingRender, renderIndex: Int, uncompressedFormat: OSType?,
        extras: PhotoExtras = PhotoExtras(), preview: PreviewImage? = nil
    ) {
        self.extras = extras
        // Every photo of the request carries the preview asked for, the RAW one included (Capture rules §5).
        self.preview = preview
        self.timestamp = timestamp
        self.isRawPhoto = isRawPhoto
        self.resolvedSettings = resolvedSettings
        self.photoCount = photoCount
        self.sourceDeviceType = sourceDeviceType
        self.bracketSettings = bracketSettings
        self.sequenceCount = sequenceCount
        isConstantColorFallbackPhoto = pending.request.constantColor && renderIndex == 1
        self.pending = pending
        self.renderIndex = renderIndex
        self.uncompressedFormat = uncompressedFormat
    }

    /// The rendered pixels; rendered on first use, shared with the request's other photo.
    var rendered: RenderedPhoto? { pending.photo(renderIndex) }

    private var isConstantColorPhoto: Bool { pending.request.constantColor && renderIndex == 0 }

    /// Centre-weighted mean of the confidence map, 0…1, for a Constant Color photo; 0 otherwise,
    /// including fallback photos (spec §5, §11 [D]). Centre pixels weigh more: a Gaussian of the
    /// distance from the centre with σ a quarter of the diagonal [I].
    public var constantColorCenterWeightedMeanConfidenceLevel: Float {
        guard isConstantColorPhoto, let r = rendered else { return 0 }
        return Float(r.confidenceLevel)
    }

    /// A Constant Color photo's per-region confidence: a `kCVPixelFormatType_OneComponent8` buffer,
    /// 255 = full confidence (spec §11 [D] values). Its size is our choice [I]: one pixel per
    /// 8 × 8-pixel tile of the photo (rounded up), so it keeps the photo's aspect ratio at an eighth
    /// of its resolution per side. Nil for ordinary and fallback photos.
    public var constantColorConfidenceMap: CVPixelBuffer? {
        guard isConstantColorPhoto else { return nil }
        if let existing = lock.withLock({ mapBuffer }) { return existing }
        guard let map = rendered?.confidenceMap, let made = PixelBufferFilling.oneComponent8(map) else { return nil }
        return lock.withLock {
            mapBuffer = mapBuffer ?? made
            return mapBuffer
        }
    }

    /// The pixels, for uncompressed formats (`kCVPixelBufferPixelFormatTypeKey`); nil for compressed ones (spec §5).
    /// On a RAW photo: the sensor's RGGB mosaic as a `kCVPixelFormatType_14Bayer_RGGB` buffer of the
    /// sensor's DNs, black level included (`metadata["{DNG}"]` gives the black and white levels).
    public var pixelBuffer: CVPixelBuffer? {
        guard isRawPhoto || uncompressedFormat != nil else { return nil }
        if let existing = lock.withLock({ buffer }) { return existing }
        let made: CVPixelBuffer?
        if isRawPhoto {
            made = rendered?.mosaic.flatMap(PixelBufferFilling.bayer)
        } else if let format = uncompressedFormat, let pixels = rendered?.pixels {
            made = PixelBufferFilling.make(from: pixels, format: format)
        } else {
            made = nil
        }
        guard let made else { return nil }
        return lock.withLock {
            buffer = buffer ?? made
            return buffer
        }
    }

    /// The preview image asked for with `previewPhotoFormat`: the photo scaled to the preview's
    /// size (aspect ratio kept) in the asked pixel format; nil when no preview was asked (spec §5 [D]).
    public var previewPixelBuffer: CVPixelBuffer? {
        guard let preview, let format = preview.pixelFormat else { return nil }
        if let existing = lock.withLock({ previewBuffer }) { return existing }
        guard let pixels = previewPixels(preview), let made = PixelBufferFilling.make(from: pixels, format: format)
        else { return nil }
        return lock.withLock {
            previewBuffer = previewBuffer ?? made
            return previewBuffer
        }
    }

    /// The photo's encoded RGB scaled to a preview's size.
    func previewPixels(_ preview: PreviewImage) -> PixelPlane<UInt8>? {
        guard let pixels = rendered?.pixels else { return nil }
        return PreviewImage.scaled(pixels, width: preview.width, height: preview.height)
    }

    /// The camera matrix of the processed photo's pixels (the file's `Obscura.Intrinsics`); nil for failed renders.
    package var pixelIntrinsics: PinholeIntrinsics? { rendered?.intrinsics }

    /// The processed photo's encoded RGB and its colour space; nil for RAW photos and failed renders.
    var processedPixels: (pixels: PixelPlane<UInt8>, encoding: PhotoEncoding)? {
        guard !isRawPhoto, let r = rendered else { return nil }
        return (r.pixels, r.encoding)
    }
    /// The depth captured with the photo: nil unless the settings asked for depth on an output
    /// that delivers it (spec §5 [D]), or on a device without depth (spec §13 N17). Its size is
    /// `DepthResolution.photo` of the active streaming depth size, its type the active depth
    /// format's, filtered when `isDepthDataFiltered` was set; it carries the calibration of the
    /// camera whose image it belongs to.
    public var depthData: AVDepthData? {
        guard let map = extras.depth?.map else { return nil }
        return AVDepthData(map: map, isShell: false)
    }

    /// The portrait effects matte made with the photo: only when the settings asked for it (with
    /// depth, rule 19), on the processed photo, and only when a person is in view; nil otherwise
    /// (spec §5 [D]; "a person in view" is any scene object with a `person` part that the photo
    /// sees [I]). Half the photo's width and height on the emulated phones (their profiles' matte
    /// scale), in the sensor's orientation like `depthData`: turn it with the photo's
    /// `metadata["Orientation"]` through `applyingExifOrientation(_:)`.
    public var portraitEffectsMatte: AVPortraitEffectsMatte? {
        guard !isRawPhoto, let plane = extras.mattes?.portraitPlane else { return nil }
        return AVPortraitEffectsMatte(plane: plane)
    }

    /// The semantic segmentation matte of a type made with the photo: only for types the settings
    /// asked for, on the processed photo, and only when a person is in view (an all-zero matte when
    /// the person shows none of that part, such as teeth behind closed lips); nil otherwise
    /// (spec §5 [D]). Size and orientation as `portraitEffectsMatte`.
    public func semanticSegmentationMatte(
        for semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType
    ) -> AVSemanticSegmentationMatte? {
        guard !isRawPhoto, let plane = extras.mattes?.semanticPlane(semanticSegmentationMatteType) else { return nil }
        return AVSemanticSegmentationMatte(matteType: semanticSegmentationMatteType, plane: plane)
    }

    /// The calibration of the constituent camera that took this photo: only on constituent photos
    /// with `isCameraCalibrationDataDeliveryEnabled` (spec §5 [D]).
    public var cameraCalibrationData: AVCameraCalibrationData? {
        extras.calibration.map(AVCameraCalibrationData.init)
    }

    /// On a constituent photo, the rectangle (pixels, origin top-left) that lies inside the preview
    /// of the zoomed virtual device; the rest is black. Apple reports it as the clean aperture.
    package var cleanAperture: CGRect? {
        guard let fraction = extras.visibleFraction, let r = rendered else { return nil }
        return PhotoCleanAperture.rect(width: r.pixels.width, height: r.pixels.height, fraction: fraction).cgRect
    }

    /// The ImageIO-style metadata (`kCGImageProperty…` keys), as the photo's file carries it (`ImageProperties`):
    /// pixel size, orientation, the colour profile's name, `{TIFF}` (make, model, orientation, software) and
    /// `{Exif}` (exposure time, f-number, ISO, focal lengths, flash, colour space, size), every number an
    /// `NSNumber` as on iOS; empty when the photo could not be rendered. The exposure time is the exposure's own,
    /// which the file's rational rounds.
    public var metadata: [String: Any] {
        guard let r = rendered else { return [:] }
        var metadata = ImageProperties.exif(tiff: exif(r).tiff)
        metadata[ImageProperties.pixelWidth] = NSNumber(value: r.pixels.width)
        metadata[ImageProperties.pixelHeight] = NSNumber(value: r.pixels.height)
        metadata[ImageProperties.orientation] = NSNumber(value: extras.orientation)
        metadata[ImageProperties.profileName] = r.encoding.name
        var exifValues = metadata[ImageProperties.exifDictionary] as? [String: Any] ?? [:]
        exifValues[kCGImagePropertyExifExposureTime] = NSNumber(value: r.exposureDurationSeconds)
        metadata[ImageProperties.exifDictionary] = exifValues
        if isRawPhoto, let m = r.mosaic {
            // What the DNG's tags say of the mosaic, under ImageIO's DNG dictionary keys (kCGImagePropertyDNG…), so
            // that the pixel buffer and this metadata develop as the file does (`CIRAWFilter(cvPixelBuffer:…)`,
            // spec §5).
            // CFA pattern 0 1 1 2 is RGGB in TIFF/EP CFAPattern notation (ISO 12234-2).
            metadata[kCGImagePropertyDNGDictionary] = DNGFile.dngDictionary(
                blackLevel: m.blackLevel, whiteLevel: m.whiteLevel, cfaPattern: [0, 1, 1, 2],
                asShotNeutral: m.colour.asShotNeutral, xyzToCamera: m.colour.xyzToCamera, calibrationIlluminant1: 21,
                secondCalibration: m.colour.xyzToCameraUnderA.map { (illuminant: 17, xyzToCamera: $0) },
                baselineExposure: Self.baselineExposure(neutral: m.colour.asShotNeutral),
                uniqueCameraModel: RawCameraModels.name(profile: pending.request.profile, camera: pending.request.camera),
                gainMaps: m.colour.shading.map { [$0] } ?? [])
            metadata[ImageProperties.profileName] = nil
        }
        if let identifier = extras.livePhotoContentIdentifier {
            // Apple's maker note keeps a Live Photo's content identifier under its key 17 (spec §20 rule 12 [D]).
            metadata[kCGImagePropertyMakerAppleDictionary] = ["17": identifier]
        }
        if let c = cleanAperture {
            metadata["CleanAperture"] = [
                "X": Int(c.origin.x), "Y": Int(c.origin.y), "Width": Int(c.width), "Height": Int(c.height),
            ].mapValues { NSNumber(value: $0) }
        }
        return metadata
    }

    /// The photo's file bytes in the settings' codec (spec §5): JPEG for `.jpeg`, HEIC for `.hevc`,
    /// each with Exif and an ICC profile (sRGB or Display P3, after `activeColorSpace`; Constant
    /// Color photos are always Display P3). With depth and `embedsDepthDataInPhoto`, the depth
    /// rides along as Apple's files carry it: a second MPF image in JPEG, an auxiliary depth image
    /// in HEIC (see `DepthImageCoding`). An uncompressed format (`kCVPixelBufferPixelFormatTypeKey`)
    /// gives PNG with text metadata, and its depth in a private `obDP` chunk (see `PNGDepthChunk`);
    /// a RAW photo gives a DNG, as a phone's does (see `dngFileData`). `AVDepthData(fromFileData:)` reads the
    /// depth back from the first three. Nil when the photo could not be rendered (the trace says why).
    open func fileDataRepresentation() -> Data? {
        guard let r = rendered else { return nil }
        if isRawPhoto { return dngFileData() }
        switch extras.fileFormat {
        case .png: return pngFileDataRepresentation()
        case .jpeg(let quality): return jpegFileData(r, quality: quality)
        case .heic(let quality): return heicFileData(r, quality: quality)
        }
    }

    /// The processed photo's file in `format`, whatever codec its settings named: the files a scenario's
    /// `save:` asks for. A RAW photo has only its PNG mosaic there, lossless and read by the same measures. Nil
    /// when the photo could not be rendered or encoded (HEIC without libheif's HEVC encoder).
    package func fileDataRepresentation(as format: PhotoFileFormat) -> Data? {
        guard let r = rendered, !isRawPhoto else { return pngFileDataRepresentation() }
        switch format {
        case .png: return pngFileDataRepresentation()
        case .jpeg(let quality): return jpegFileData(r, quality: quality)
        case .heic(let quality): return heicFileData(r, quality: quality)
        }
    }

    /// The photo as PNG whatever the codec: the lossless file scenario runs measure and save. `depth` replaces the
    /// depth the settings embed (`fileDataRepresentation(with:)`).
    package func pngFileDataRepresentation() -> Data? { pngFileData(depth: extras.embedsDepth ? depthData : nil) }

    func pngFileData(depth: AVDepthData?) -> Data? {
        guard let r = rendered else { return nil }
        let request = pending.request
        // The keys every Obscura photo file carries (ISP `PhotoMetadata`, shared with `obscura render`).
        var text = PhotoMetadata(
            software: "Obscura", scene: request.scene.reference, device: request.profile.id,
            deviceName: request.profile.name, camera: request.camera.id,
            deviceType: sourceDeviceType?.rawValue ?? "none", width: r.pixels.width, height: r.pixels.height,
            colorSpace: r.encoding.name,
            exposure: Exposure(time: r.exposureDurationSeconds, iso: r.iso, flash: r.flashFired, seed: request.seed),
            flashFired: r.flashFired, seed: request.seed, intrinsics: r.intrinsics
        ).pngText
        if isRawPhoto {
            return rawFileData(r, text: text)
        }
        if isConstantColorPhoto {
            text.append(PNGText(key: "Obscura.ConstantColorConfidence", value: String(r.confidenceLevel)))
        }
        if isConstantColorFallbackPhoto { text.append(PNGText(key: "Obscura.ConstantColorFallback", value: "yes")) }
        guard let encoded = try? PNG.encode(PNGImage(pixels: r.pixels, colorSpace: r.encoding.png, text: text)) else {
            return nil
        }
        let file = Data(encoded)
        guard let depth else { return file }
        return PNGDepthChunk.embedding(depth, in: file) ?? file
    }
}

extension AVCapturePhoto {
    /// A RAW photo's file, as `fileDataRepresentation()` gives it: a DNG (`DNGFile`) of the sensor's DNs unchanged,
    /// with the black and white levels, the camera's colour matrices under D65 and Standard light A, the white the
    /// photo was balanced for, its BaselineExposure, the lens shading as a gain map, and the Exif of a processed
    /// photo. Apps write it to a `.dng` file, as `availableRawPhotoFileTypes` says.
    ///
    /// The embedded preview is the developed photo scaled to `previewSize`, or where none is given to the
    /// settings' `rawEmbeddedThumbnailPhotoFormat`; none when neither names a size.
    func dngFileData(previewSize: (width: Int, height: Int)? = nil) -> Data? {
        guard isRawPhoto, let r = rendered, let m = r.mosaic else { return nil }
        var exif = exif(r)
        exif.pixelWidth = m.plane.width
        exif.pixelHeight = m.plane.height
        let request = pending.request
        let asked = resolvedSettings.rawEmbeddedThumbnailDimensions
        let (width, height) = previewSize ?? (Int(asked.width), Int(asked.height))
        let preview: (jpeg: [UInt8], width: Int, height: Int)? =
            width > 0 && height > 0 && r.pixels.channels == 3
            ? (try? JPEG.encode(PreviewImage.scaled(r.pixels, width: width, height: height), quality: 85, segments: []))
                .map { ($0, width, height) }
            : nil
        let file = DNGFile(
            exif: exif, width: m.plane.width, height: m.plane.height, samples: m.plane.packedElements,
            blackLevel: m.blackLevel, whiteLevel: m.whiteLevel, xyzToCamera: m.colour.xyzToCamera,
            asShotNeutral: m.colour.asShotNeutral,
            uniqueCameraModel: RawCameraModels.name(profile: request.profile, camera: request.camera),
            baselineExposure: Self.baselineExposure(neutral: m.colour.asShotNeutral),
            secondCalibration: m.colour.xyzToCameraUnderA.map { (illuminant: 17, xyzToCamera: $0) },
            gainMaps: m.colour.shading.map { [$0] } ?? [], preview: preview)
        return Data(file.bytes)
    }

    /// The DNG's BaselineExposure: the stops the processed photo adds to the sensor's values, whose auto-exposure puts
    /// mid-grey at `AutoExposure.midGreyFraction` of the white level and whose development maps it to 0.18
    /// (`BasicDevelop.Settings.exposureScale`), so that a raw developer's picture is as bright as the photo. The
    /// photo's white balance holds green's level; a DNG developer scales so that the neutral's largest channel
    /// reaches the white level, so where red or blue is the larger (a very warm or very blue light) the difference
    /// comes off here.
    static func baselineExposure(neutral: SIMD3<Double>) -> Double {
        log2(BasicDevelop.Settings().exposureScale) + log2(neutral.y / max(neutral.max(), 1e-12))
    }

    /// The RAW photo's PNG, for the files scenario runs measure and save: a 16-bit grey PNG, untagged
    /// (it is not an image in any colour space), holding the sensor's DNs unchanged, with the text
    /// metadata of a processed photo plus the CFA pattern and the black and white levels.
    fileprivate func rawFileData(_ r: RenderedPhoto, text: [PNGText]) -> Data? {
        guard let m = r.mosaic else { return nil }
        var text = text.filter { $0.key != "Obscura.ColorSpace" }
        text.append(contentsOf: [
            PNGText(key: "Obscura.RawFormat", value: "Bayer RGGB mosaic, sensor DN"),
            PNGText(key: "Obscura.CFAPattern", value: "RGGB"),
            PNGText(key: "Obscura.BlackLevel", value: String(m.blackLevel)),
            PNGText(key: "Obscura.WhiteLevel", value: String(m.whiteLevel)),
        ])
        guard let encoded = try? PNG.encode(PNGImage(pixels: m.plane, colorSpace: .untagged, text: text)) else {
            return nil
        }
        return Data(encoded)
    }
}

/// What a photo carries beside its pixels: depth, calibration, and the preview share of a
/// constituent photo.
struct PhotoExtras {
    var fileFormat = PhotoFileFormat.png
    var depth: PendingDepth?
    var embedsDepth = false
    /// The portrait effects and semantic segmentation mattes asked for; nil when none were.
    var mattes: PendingMattes?
    var embedsPortraitMatte = false
    var embedsSemanticMattes = false
    var calibration: CameraCalibration?
    /// Constituent photos only: the centred share of the photo inside the preview (1 = all).
    var visibleFraction: Double?
    /// The Exif orientation (TIFF tag 274, 1…8) the photo connection's rotation and mirroring give when the
    /// request is made: the pixels stay as the sensor saw them and viewers turn them (spec §5 [D]).
    var orientation = 1
    /// With a Live Photo movie, the content identifier the movie carries, repeated in the photo's `{MakerApple}`
    /// metadata so that the two can be paired (spec §20 rule 12 [D]).
    var livePhotoContentIdentifier: String?
}

/// The proxy of a photo whose processing the system finishes later, handed to PhotoKit (iOS 17). The emulator never
/// offers deferred delivery (`isAutoDeferredPhotoDeliverySupported` is false, as there is no PhotoKit to finish
/// the photo), so no proxy is ever made; the class is here so that a delegate that handles proxies, as Apple's
/// AVCam's does, compiles (spec §6).
open class AVCaptureDeferredPhotoProxy: AVCapturePhoto, @unchecked Sendable {}
