import Foundation

/// The settings a request actually runs with, shared by all its callbacks (spec §6 [D]).
open class AVCaptureResolvedPhotoSettings: NSObject, @unchecked Sendable {
    /// The request's `uniqueID`.
    public let uniqueID: Int64
    /// The processed photo size; zero for RAW only.
    public let photoDimensions: CMVideoDimensions
    /// The RAW size; zero without RAW.
    public let rawPhotoDimensions: CMVideoDimensions
    /// Zero unless a preview format was requested; else the delivered preview's size (spec §6 [D]).
    public let previewDimensions: CMVideoDimensions
    /// Zero unless a thumbnail was requested; else the thumbnail's size (spec §6 [D]).
    public let embeddedThumbnailDimensions: CMVideoDimensions
    /// Zero unless a RAW photo's embedded preview was requested; else its size.
    public let rawEmbeddedThumbnailDimensions: CMVideoDimensions
    /// The portrait effects matte's size; zero unless the settings asked for one.
    public let portraitEffectsMatteDimensions: CMVideoDimensions
    /// The asked semantic segmentation mattes' sizes.
    private let semanticSegmentationMatteDimensions: [AVSemanticSegmentationMatte.MatteType: CMVideoDimensions]
    /// Zero without a Live Photo.
    public let livePhotoMovieDimensions: CMVideoDimensions
    /// Whether the flash fires (`.auto` decided from the scene; false while it is unavailable).
    public let isFlashEnabled: Bool
    /// Whether red-eye reduction runs.
    public let isRedEyeReductionEnabled: Bool
    /// Whether constituents are fused.
    public let isVirtualDeviceFusionEnabled: Bool
    /// Whether content-aware distortion correction runs.
    public let isContentAwareDistortionCorrectionEnabled: Bool
    /// How many times `didFinishProcessingPhoto` will be called (spec §6 formula).
    public let expectedPhotoCount: Int
    /// When processing is expected to finish.
    public let photoProcessingTimeRange: CMTimeRange
    /// The size of the semantic segmentation mattes of a type; zero unless the settings asked for it.
    public func dimensionsForSemanticSegmentationMatte(
        ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType
    ) -> CMVideoDimensions {
        semanticSegmentationMatteDimensions[semanticSegmentationMatteType] ?? CMVideoDimensions()
    }
    /// Deprecated; always false.
    public let isStillImageStabilizationEnabled = false
    /// Deprecated; mirrors `isVirtualDeviceFusionEnabled`.
    public var isDualCameraFusionEnabled: Bool { isVirtualDeviceFusionEnabled }

    init(
        uniqueID: Int64, photoDimensions: CMVideoDimensions, previewDimensions: CMVideoDimensions = CMVideoDimensions(),
        embeddedThumbnailDimensions: CMVideoDimensions = CMVideoDimensions(), rawPhotoDimensions: CMVideoDimensions,
        rawEmbeddedThumbnailDimensions: CMVideoDimensions = CMVideoDimensions(),
        isFlashEnabled: Bool, isRedEyeReductionEnabled: Bool, isVirtualDeviceFusionEnabled: Bool,
        isContentAwareDistortionCorrectionEnabled: Bool, expectedPhotoCount: Int,
        photoProcessingTimeRange: CMTimeRange, livePhotoMovieDimensions: CMVideoDimensions = CMVideoDimensions(),
        portraitEffectsMatteDimensions: CMVideoDimensions = CMVideoDimensions(),
        semanticSegmentationMatteDimensions: [AVSemanticSegmentationMatte.MatteType: CMVideoDimensions] = [:]
    ) {
        self.uniqueID = uniqueID
        self.photoDimensions = photoDimensions
        self.rawPhotoDimensions = rawPhotoDimensions
        self.previewDimensions = previewDimensions
        self.embeddedThumbnailDimensions = embeddedThumbnailDimensions
        self.rawEmbeddedThumbnailDimensions = rawEmbeddedThumbnailDimensions
        self.portraitEffectsMatteDimensions = portraitEffectsMatteDimensions
        self.semanticSegmentationMatteDimensions = semanticSegmentationMatteDimensions
        self.livePhotoMovieDimensions = livePhotoMovieDimensions
        self.isFlashEnabled = isFlashEnabled
        self.isRedEyeReductionEnabled = isRedEyeReductionEnabled
        self.isVirtualDeviceFusionEnabled = isVirtualDeviceFusionEnabled
        self.isContentAwareDistortionCorrectionEnabled = isContentAwareDistortionCorrectionEnabled
        self.expectedPhotoCount = expectedPhotoCount
        self.photoProcessingTimeRange = photoProcessingTimeRange
    }

    /// spec §6 [D][O]: groups × (RAW? + processed?), with groups = bracket count × constituent count,
    /// overwritten by 2 for Constant Color with fallback.
    static func expectedPhotoCount(
        bracketCount: Int, constituentCount: Int, constantColorWithFallback: Bool, hasRaw: Bool, hasProcessed: Bool
    ) -> Int {
        var groups = bracketCount > 0 ? bracketCount : 1
        if constituentCount > 0 { groups *= constituentCount }
        if constantColorWithFallback { groups = 2 }
        let perGroup = (hasRaw ? 1 : 0) + (hasProcessed ? 1 : 0)
        return groups * perGroup
    }
}

extension CMVideoDimensions {
    /// The size of a preview or thumbnail; zero for none.
    init(_ image: PreviewImage?) {
        self.init(width: Int32(image?.width ?? 0), height: Int32(image?.height ?? 0))
    }
}
