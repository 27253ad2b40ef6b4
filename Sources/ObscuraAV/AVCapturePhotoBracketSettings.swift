import CaptureRules
import Foundation

/// One element of a bracketed capture (`AVCaptureBracketedStillImageSettings`).
open class AVCaptureBracketedStillImageSettings: NSObject, @unchecked Sendable {}

/// A bracket element with an exposure bias in EV (`AVCaptureAutoExposureBracketedStillImageSettings`).
open class AVCaptureAutoExposureBracketedStillImageSettings: AVCaptureBracketedStillImageSettings,
    @unchecked Sendable
{
    /// The bias in EV.
    public let exposureTargetBias: Float
    init(bias: Float) { exposureTargetBias = bias }
    /// An element with a bias.
    public class func autoExposureSettings(exposureTargetBias: Float)
        -> AVCaptureAutoExposureBracketedStillImageSettings
    {
        AVCaptureAutoExposureBracketedStillImageSettings(bias: exposureTargetBias)
    }
}

/// A bracket element with a manual duration and ISO (`AVCaptureManualExposureBracketedStillImageSettings`).
open class AVCaptureManualExposureBracketedStillImageSettings: AVCaptureBracketedStillImageSettings,
    @unchecked Sendable
{
    public let exposureDuration: CMTime
    public let iso: Float
    init(duration: CMTime, iso: Float) {
        exposureDuration = duration
        self.iso = iso
    }
    /// An element with a duration and ISO.
    public class func manualExposureSettings(exposureDuration: CMTime, iso: Float)
        -> AVCaptureManualExposureBracketedStillImageSettings
    {
        AVCaptureManualExposureBracketedStillImageSettings(duration: exposureDuration, iso: iso)
    }
}

/// Settings for a bracketed capture (spec §4 [D]): one photo per element.
open class AVCapturePhotoBracketSettings: AVCapturePhotoSettings, @unchecked Sendable {
    /// The elements, all auto-exposure or all manual.
    public let bracketedSettings: [AVCaptureBracketedStillImageSettings]
    /// Lens stabilization during the bracket (default false).
    public var isLensStabilizationEnabled = false

    /// A bracket. An empty array or mixed element kinds raise `NSInvalidArgumentException` (spec §4 [D]).
    public init(
        rawPixelFormatType: OSType, processedFormat: [String: Any]?,
        bracketedSettings: [AVCaptureBracketedStillImageSettings]
    ) {
        let autos = bracketedSettings.filter { $0 is AVCaptureAutoExposureBracketedStillImageSettings }.count
        if bracketedSettings.isEmpty || (autos != 0 && autos != bracketedSettings.count) {
            Violation.invalidArgument(
                "+[AVCapturePhotoBracketSettings photoBracketSettingsWithRawPixelFormatType:processedFormat:"
                    + "bracketedSettings:]",
                bracketedSettings.isEmpty
                    ? "bracketedSettings may not be nil or empty"
                    : "bracketedSettings must contain only one kind of AVCaptureBracketedStillImageSettings",
                CaptureRule("§4", .documented, "bracket elements are all auto-exposure or all manual")
            ).raise()
        }
        self.bracketedSettings = bracketedSettings
        super.init(
            rawPixelFormatType: rawPixelFormatType, rawFileType: nil, processedFormat: processedFormat,
            processedFileType: nil)
        // A bracket is neither fused nor red-eye corrected unless the app asks, as Apple documents (spec §4 [D]).
        isAutoVirtualDeviceFusionEnabled = false
        isAutoRedEyeReductionEnabled = false
    }

    override var bracketElements: [AVCaptureBracketedStillImageSettings] { bracketedSettings }
}
