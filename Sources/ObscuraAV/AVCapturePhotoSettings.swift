import Foundation

/// The settings of one photo request (spec §4). Setters only store values; `capturePhoto`
/// checks them (spec §3.2). A settings object may be used for one capture only (rule 3); copy it
/// with `init(from:)` to reuse a configuration.
open class AVCapturePhotoSettings: NSObject, @unchecked Sendable {
    private static let counter = UniqueIDCounter()

    /// Unique for the life of the process, increasing in creation order (spec §4 [D][O]).
    public let uniqueID: Int64
    /// The processed format dictionary (`AVVideoCodecKey` or `kCVPixelBufferPixelFormatTypeKey`); nil for RAW only.
    public let format: [String: Any]?
    /// The processed file type.
    public let processedFileType: AVFileType?
    /// The RAW pixel format; 0 for no RAW.
    public let rawPhotoPixelFormatType: OSType
    /// The RAW file type.
    public let rawFileType: AVFileType?

    /// The flash mode (default `.off`; checked by rule 11).
    public var flashMode: AVCaptureDevice.FlashMode = .off
    /// Speed versus quality (default `.balanced`; must not exceed the output's maximum, rule 10).
    public var photoQualityPrioritization: AVCapturePhotoOutput.QualityPrioritization = .balanced {
        didSet { qualityPrioritizationWasSet = true }
    }
    /// Whether the client set `photoQualityPrioritization` (rule 10 checks only then [O]).
    var qualityPrioritizationWasSet = false
    /// Red-eye reduction where supported: true by default, false for a bracket or RAW without a processed photo, as
    /// Apple documents (spec §4 [D]).
    public var isAutoRedEyeReductionEnabled = true
    /// Fusion of the constituents of a virtual device: true by default, false for RAW and brackets, as Apple
    /// documents (a RAW photo is unprocessed; spec §4 [D]). No emulated camera fuses
    /// (`AVCapturePhotoOutput.isVirtualDeviceFusionSupported`).
    public var isAutoVirtualDeviceFusionEnabled = true
    /// Fusion under its name of before iOS 13: the same switch as `isAutoVirtualDeviceFusionEnabled` (spec §4 [D]).
    @available(iOS, deprecated: 13.0, renamed: "isAutoVirtualDeviceFusionEnabled")
    public var isAutoDualCameraFusionEnabled: Bool {
        get { isAutoVirtualDeviceFusionEnabled }
        set { isAutoVirtualDeviceFusionEnabled = newValue }
    }
    /// Deprecated stabilisation flag: true by default, false for settings with RAW, as Apple documents (a RAW photo
    /// is unprocessed). No emulated camera stabilises (`AVCapturePhotoOutput.isStillImageStabilizationSupported`).
    public var isAutoStillImageStabilizationEnabled = true
    /// A photo per listed constituent device (default empty; spec §4, rules 21–22).
    public var virtualDeviceConstituentPhotoDeliveryEnabledDevices: [AVCaptureDevice] = []
    /// Constituent delivery under its name of before iOS 13 (default false): on a dual camera, a photo from each of
    /// its two cameras, as listing both in `virtualDeviceConstituentPhotoDeliveryEnabledDevices` asks (spec §4).
    public var isDualCameraDualPhotoDeliveryEnabled = false
    /// Deliver depth with the photo (default false; rules 17–18).
    public var isDepthDataDeliveryEnabled = false
    /// Embed depth in the file (default true).
    public var embedsDepthDataInPhoto = true
    /// Fill holes in the depth (default true).
    public var isDepthDataFiltered = true
    /// Deliver calibration data (default false; rule 22).
    public var isCameraCalibrationDataDeliveryEnabled = false
    /// Deliver a portrait effects matte (default false; rule 19: needs the output's opt-in and depth).
    public var isPortraitEffectsMatteDeliveryEnabled = false
    /// Embed the matte in the photo's file (default true; only with depth embedded, rule 19).
    public var embedsPortraitEffectsMatteInPhoto = true
    /// The semantic segmentation mattes to deliver (default empty; rule 20: each must be one of the
    /// output's `enabledSemanticSegmentationMatteTypes`).
    public var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] = []
    /// Embed semantic mattes in the photo's file (default true).
    public var embedsSemanticSegmentationMattesInPhoto = true
    /// Deprecated high-resolution flag (default false; rule 13).
    public var isHighResolutionPhotoEnabled = false
    /// The largest photo size; zero means "the smallest of the active format's sizes" (spec §4 [D]).
    public var maxPhotoDimensions = CMVideoDimensions()
    /// Constant Color (default false; spec §11).
    public var isConstantColorEnabled = false
    /// Also deliver the ambient fallback photo (default false; spec §11).
    public var isConstantColorFallbackPhotoDeliveryEnabled = false
    /// ImageIO metadata to add (default empty).
    public var metadata: [String: Any] = [:]
    /// A preview image format (default nil).
    public var previewPhotoFormat: [String: Any]?
    /// An embedded thumbnail format (default nil).
    public var embeddedThumbnailPhotoFormat: [String: Any]?
    /// The format of the preview a RAW photo's DNG embeds (default nil: none; spec §4).
    public var rawEmbeddedThumbnailPhotoFormat: [String: Any]?
    /// Where a Live Photo movie goes (default nil; rule 12).
    public var livePhotoMovieFileURL: URL?
    /// Metadata items the Live Photo movie carries (default empty; setting nil empties it). The movie always carries
    /// a content identifier (`.quickTimeMetadataContentIdentifier`): the one listed here, or a new one, which the
    /// photo's `{MakerApple}` metadata repeats (spec §20 rule 12 [D]).
    public var livePhotoMovieMetadata: [AVMetadataItem]! {
        get { livePhotoMovieItems }
        set { livePhotoMovieItems = newValue ?? [] }
    }
    private var livePhotoMovieItems: [AVMetadataItem] = []
    /// The codec of the Live Photo movie: H.264 by default, as Apple documents; one of the output's
    /// `availableLivePhotoVideoCodecTypes` (spec §20 rule 12).
    public var livePhotoVideoCodecType: AVVideoCodecType = .h264
    /// Silence the shutter (default false; rule 14).
    public var isShutterSoundSuppressionEnabled = false
    /// Content-aware distortion correction (default false; rule 15).
    public var isAutoContentAwareDistortionCorrectionEnabled = false

    /// JPEG in a JPEG file, `.balanced` (spec §4 [D]).
    public override convenience init() {
        self.init(
            rawPixelFormatType: 0, rawFileType: nil, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
            processedFileType: .jpg)
    }

    /// A processed format, e.g. `[AVVideoCodecKey: AVVideoCodecType.hevc]` or
    /// `[kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]`.
    public convenience init(format: [String: Any]?) {
        self.init(rawPixelFormatType: 0, rawFileType: nil, processedFormat: format, processedFileType: nil)
    }

    /// RAW only.
    public convenience init(rawPixelFormatType: OSType) {
        self.init(
            rawPixelFormatType: rawPixelFormatType, rawFileType: nil, processedFormat: nil, processedFileType: nil)
    }

    /// RAW plus a processed format; pass 0 for no RAW.
    public convenience init(rawPixelFormatType: OSType, processedFormat: [String: Any]?) {
        self.init(
            rawPixelFormatType: rawPixelFormatType, rawFileType: nil, processedFormat: processedFormat,
            processedFileType: nil)
    }

    /// Every format and file type.
    public init(
        rawPixelFormatType: OSType, rawFileType: AVFileType?, processedFormat: [String: Any]?,
        processedFileType: AVFileType?
    ) {
        uniqueID = AVCapturePhotoSettings.counter.next()
        self.rawPhotoPixelFormatType = rawPixelFormatType
        self.rawFileType = rawFileType
        self.format = processedFormat
        self.processedFileType = processedFileType
        super.init()
        applyRawDefaults()
    }

    /// A copy of every value except `uniqueID`, which is new (spec §4 [D]).
    public convenience init(from photoSettings: AVCapturePhotoSettings) {
        self.init(
            rawPixelFormatType: photoSettings.rawPhotoPixelFormatType, rawFileType: photoSettings.rawFileType,
            processedFormat: photoSettings.format, processedFileType: photoSettings.processedFileType)
        copyValues(from: photoSettings)
    }

    func copyValues(from s: AVCapturePhotoSettings) {
        flashMode = s.flashMode
        photoQualityPrioritization = s.photoQualityPrioritization
        qualityPrioritizationWasSet = s.qualityPrioritizationWasSet
        isAutoRedEyeReductionEnabled = s.isAutoRedEyeReductionEnabled
        isAutoVirtualDeviceFusionEnabled = s.isAutoVirtualDeviceFusionEnabled
        isAutoStillImageStabilizationEnabled = s.isAutoStillImageStabilizationEnabled
        virtualDeviceConstituentPhotoDeliveryEnabledDevices = s.virtualDeviceConstituentPhotoDeliveryEnabledDevices
        isDualCameraDualPhotoDeliveryEnabled = s.isDualCameraDualPhotoDeliveryEnabled
        isDepthDataDeliveryEnabled = s.isDepthDataDeliveryEnabled
        embedsDepthDataInPhoto = s.embedsDepthDataInPhoto
        isDepthDataFiltered = s.isDepthDataFiltered
        isCameraCalibrationDataDeliveryEnabled = s.isCameraCalibrationDataDeliveryEnabled
        isPortraitEffectsMatteDeliveryEnabled = s.isPortraitEffectsMatteDeliveryEnabled
        embedsPortraitEffectsMatteInPhoto = s.embedsPortraitEffectsMatteInPhoto
        embedsSemanticSegmentationMattesInPhoto = s.embedsSemanticSegmentationMattesInPhoto
        enabledSemanticSegmentationMatteTypes = s.enabledSemanticSegmentationMatteTypes
        isHighResolutionPhotoEnabled = s.isHighResolutionPhotoEnabled
        maxPhotoDimensions = s.maxPhotoDimensions
        isConstantColorEnabled = s.isConstantColorEnabled
        isConstantColorFallbackPhotoDeliveryEnabled = s.isConstantColorFallbackPhotoDeliveryEnabled
        metadata = s.metadata
        previewPhotoFormat = s.previewPhotoFormat
        embeddedThumbnailPhotoFormat = s.embeddedThumbnailPhotoFormat
        rawEmbeddedThumbnailPhotoFormat = s.rawEmbeddedThumbnailPhotoFormat
        livePhotoMovieFileURL = s.livePhotoMovieFileURL
        livePhotoVideoCodecType = s.livePhotoVideoCodecType
        livePhotoMovieItems = s.livePhotoMovieItems
        isShutterSoundSuppressionEnabled = s.isShutterSoundSuppressionEnabled
        isAutoContentAwareDistortionCorrectionEnabled = s.isAutoContentAwareDistortionCorrectionEnabled
    }

    /// The frozen copy `capturePhoto` keeps (spec §3.2 [D]: later mutation has no effect).
    func frozenCopy() -> AVCapturePhotoSettings {
        let copy = AVCapturePhotoSettings(
            rawPixelFormatType: rawPhotoPixelFormatType, rawFileType: rawFileType, processedFormat: format,
            processedFileType: processedFileType, uniqueID: uniqueID)
        copy.copyValues(from: self)
        return copy
    }

    init(
        rawPixelFormatType: OSType, rawFileType: AVFileType?, processedFormat: [String: Any]?,
        processedFileType: AVFileType?, uniqueID: Int64
    ) {
        self.uniqueID = uniqueID
        self.rawPhotoPixelFormatType = rawPixelFormatType
        self.rawFileType = rawFileType
        self.format = processedFormat
        self.processedFileType = processedFileType
        super.init()
        applyRawDefaults()
    }

    /// The processing switches Apple documents as off by default for RAW (a RAW photo is unprocessed): stabilisation
    /// and fusion with any RAW, red-eye reduction with RAW alone (spec §4 [D]).
    private func applyRawDefaults() {
        guard rawPhotoPixelFormatType != 0 else { return }
        isAutoStillImageStabilizationEnabled = false
        isAutoVirtualDeviceFusionEnabled = false
        if format == nil { isAutoRedEyeReductionEnabled = false }
    }

    /// The bracket elements; empty for a single photo.
    var bracketElements: [AVCaptureBracketedStillImageSettings] { [] }

    /// The processed codec, if the format names one.
    var codec: AVVideoCodecType? {
        if let c = format?[AVVideoCodecKey] as? AVVideoCodecType { return c }
        if let s = format?[AVVideoCodecKey] as? String { return AVVideoCodecType(rawValue: s) }
        return nil
    }

    /// The uncompressed pixel format, if the format names one.
    var processedPixelFormat: OSType? {
        if let v = format?[kCVPixelBufferPixelFormatTypeKey] as? OSType { return v }
        if let v = format?[kCVPixelBufferPixelFormatTypeKey] as? Int { return OSType(truncatingIfNeeded: v) }
        if let v = format?[kCVPixelBufferPixelFormatTypeKey] as? NSNumber { return v.uint32Value }
        return nil
    }
}

/// Hands out increasing unique ids from 1.
final class UniqueIDCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var last: Int64 = 0
    func next() -> Int64 {
        lock.withLock {
            last += 1
            return last
        }
    }
}
