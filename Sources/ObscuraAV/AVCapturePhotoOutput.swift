import CaptureRules
import Devices
import Foundation
import Imaging

/// Captures still photos (spec §3).
///
/// Capabilities (`is…Supported`, formats, flash modes) follow the connected device, its active
/// format and the session preset; they are recomputed whenever the session resolves its graph.
/// When a capability turns false, its `is…Enabled` reverts to false (spec §3.1 [D]).
open class AVCapturePhotoOutput: AVCaptureOutput, @unchecked Sendable {
    /// Speed versus quality (spec §3.1 [D]: speed = 1, balanced = 2, quality = 3).
    public enum QualityPrioritization: Int, Sendable, Hashable, Comparable {
        case speed = 1
        case balanced = 2
        case quality = 3
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    struct Capabilities {
        var device: AVCaptureDevice?
        var depth = false
        /// The mattes the camera delivers once depth delivery is on; nil for none.
        var mattes: MatteSupport?
        var constituentPhotos = false
        var constantColor = false
        var livePhoto = false
        var flashModes: [AVCaptureDevice.FlashMode] = []
        var photoDimensions: [CMVideoDimensions] = []
    }

    struct Inner {
        var caps = Capabilities()
        var depthEnabled = false
        var portraitMatteEnabled = false
        var semanticMatteTypesEnabled: [AVSemanticSegmentationMatte.MatteType] = []
        var constituentEnabled = false
        var constantColorEnabled = false
        var livePhotoEnabled = false
        var livePhotoSuspended = false
        var preservesLivePhotoSuspension = false
        var livePhotoAutoTrimming = true
        var highResolutionEnabled = false
        var contentAwareEnabled = false
        var maxQuality = QualityPrioritization.balanced
        var maxDimensions = CMVideoDimensions()
        /// spec §3.2 rule 3 [O]: the largest uniqueID accepted so far.
        var lastUniqueID: Int64 = 0
        /// Requests accepted so far; the n-th one's noise seed mixes in n (see `Emulation.seed`).
        var captureCount: UInt64 = 0
        /// Zero shutter lag; on by default where supported (spec §3.1 [D]: apps linked on iOS 17).
        var zeroShutterLagEnabled = true
        var responsiveCaptureEnabled = false
        var fastCapturePrioritizationEnabled = false
        /// Requests between `capturePhoto` and `didFinishCapture`, by uniqueID, in acceptance order.
        var inFlight: [(id: Int64, phase: CapturePhase)] = []
        /// The readiness key-value observers last heard of (spec §3.3 [D]: `captureReadiness` is observable).
        var reportedReadiness = CaptureReadiness.sessionNotRunning
    }

    /// Where an accepted request is: exposing the sensor, or being processed into photos.
    enum CapturePhase: Equatable {
        case capturing
        case processing
    }

    /// Serialises readiness reports (`readinessMayHaveChanged`).
    let readinessReportLock = NSRecursiveLock()
    let lock = NSLock()
    var inner = Inner()
    /// The one serial queue every delegate callback of this output runs on (spec §6 [D]).
    let delegateQueue = DispatchQueue(label: "com.apple.avfoundation.photooutput.delegate")
    let clock = VirtualClock()
    /// The dual camera whose zoom this output holds at 2× while it delivers depth (spec §2.2).
    weak var depthZoomDevice: AVCaptureDevice?
    /// The readiness coordinators watching this output (spec §3.3).
    let readinessCoordinators = WeakObjects<AVCapturePhotoOutputReadinessCoordinator>()
    /// `setPreparedPhotoSettingsArray`'s state (`AVCapturePhotoOutput+Preparation.swift`).
    let preparation = PhotoPreparation()
    /// `photoSettingsForSceneMonitoring` (`AVCapturePhotoOutput+SceneMonitoring.swift`).
    let sceneMonitoring = Locked<AVCapturePhotoSettings?>(nil)
    /// Where processing runs when responsive capture lets captures overlap (spec §3.3).
    let processingQueue = DispatchQueue(label: "com.apple.avfoundation.photooutput.processing")

    public override init() { super.init() }

    // MARK: Capabilities (spec §3.1)

    /// Depth with photos: a depth-capable device and format (KVO).
    public var isDepthDataDeliverySupported: Bool { lock.withLock { inner.caps.depth } }
    /// Opt-in for depth (default false).
    public var isDepthDataDeliveryEnabled: Bool {
        get { lock.withLock { inner.depthEnabled } }
        set {
            let before = matteAvailability
            setEnabled(
                \.depthEnabled, newValue, supported: \.caps.depth, "setDepthDataDeliveryEnabled:", "Depth data delivery"
            )
            updateDepthZoomLock()
            reportMatteAvailability(since: before)
        }
    }
    /// Portrait effects matte delivery (KVO): true once depth delivery is enabled on a camera whose
    /// profile delivers the matte (spec §3.1 [D]: the matte needs depth). It turns false, and its
    /// opt-in with it, when depth delivery is turned off or the camera or format loses depth.
    public var isPortraitEffectsMatteDeliverySupported: Bool {
        lock.withLock { inner.depthEnabled && inner.caps.mattes?.portraitEffects == true }
    }
    /// Opt-in for the portrait matte (default false). Setting it true while unsupported raises
    /// `NSInvalidArgumentException` (spec §3.1 [O]).
    public var isPortraitEffectsMatteDeliveryEnabled: Bool {
        get { lock.withLock { inner.portraitMatteEnabled } }
        set {
            if newValue && !isPortraitEffectsMatteDeliverySupported {
                Violation.photoOutputUnsupported(
                    "setPortraitEffectsMatteDeliveryEnabled:", "Portrait effects matte delivery"
                ).raise()
            }
            lock.withLock { inner.portraitMatteEnabled = newValue }
        }
    }
    /// The semantic segmentation mattes photos can carry now (KVO): the camera profile's types once
    /// depth delivery is enabled, empty otherwise (spec §3.1 [I]: like the portrait matte, they are
    /// made beside depth). When it changes, `enabledSemanticSegmentationMatteTypes` reverts to empty [D].
    public var availableSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] {
        lock.withLock { Self.availableMatteTypes(inner) }
    }
    /// The semantic segmentation mattes this output prepares for (default empty). Every type must be
    /// one of `availableSemanticSegmentationMatteTypes`, or `NSInvalidArgumentException` is raised
    /// (spec §3.1 [D]; text [I]).
    public var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] {
        get { lock.withLock { inner.semanticMatteTypesEnabled } }
        set {
            let violation = lock.withLock { () -> Violation? in
                let available = Self.availableMatteTypes(inner)
                guard newValue.allSatisfy(available.contains) else { return .unavailableSemanticMatteTypes() }
                inner.semanticMatteTypesEnabled = newValue
                return nil
            }
            raiseIfNeeded(violation)
            observers.didChange(\AVCapturePhotoOutput.enabledSemanticSegmentationMatteTypes)
        }
    }

    private static func availableMatteTypes(_ inner: Inner) -> [AVSemanticSegmentationMatte.MatteType] {
        guard inner.depthEnabled, let mattes = inner.caps.mattes else { return [] }
        return mattes.semanticSegmentation.map(AVSemanticSegmentationMatte.MatteType.init)
    }

    /// Matte support and availability as observers see them.
    private var matteAvailability: (Bool, [AVSemanticSegmentationMatte.MatteType]) {
        (isPortraitEffectsMatteDeliverySupported, availableSemanticSegmentationMatteTypes)
    }

    /// spec §3.1 [D]: when matte support changes, the opt-ins that no longer fit revert, and
    /// observers hear of every value that moved.
    func reportMatteAvailability(since before: (Bool, [AVSemanticSegmentationMatte.MatteType])) {
        let (portraitReverted, typesReverted) = lock.withLock { () -> (Bool, Bool) in
            let supported = inner.depthEnabled && inner.caps.mattes?.portraitEffects == true
            let portrait = inner.portraitMatteEnabled && !supported
            if portrait { inner.portraitMatteEnabled = false }
            let types = Self.availableMatteTypes(inner) != before.1 && !inner.semanticMatteTypesEnabled.isEmpty
            if types { inner.semanticMatteTypesEnabled = [] }
            return (portrait, types)
        }
        let after = matteAvailability
        if after.0 != before.0 { observers.didChange(\AVCapturePhotoOutput.isPortraitEffectsMatteDeliverySupported) }
        if after.1 != before.1 { observers.didChange(\AVCapturePhotoOutput.availableSemanticSegmentationMatteTypes) }
        if portraitReverted { observers.didChange(\AVCapturePhotoOutput.isPortraitEffectsMatteDeliveryEnabled) }
        if typesReverted { observers.didChange(\AVCapturePhotoOutput.enabledSemanticSegmentationMatteTypes) }
    }
    /// Constituent photos of a virtual device (KVO).
    public var isVirtualDeviceConstituentPhotoDeliverySupported: Bool { lock.withLock { inner.caps.constituentPhotos } }
    /// Opt-in for constituent photos (default false).
    public var isVirtualDeviceConstituentPhotoDeliveryEnabled: Bool {
        get { lock.withLock { inner.constituentEnabled } }
        set {
            setEnabled(
                \.constituentEnabled, newValue, supported: \.caps.constituentPhotos,
                "setVirtualDeviceConstituentPhotoDeliveryEnabled:", "Virtual device constituent photo delivery")
        }
    }
    /// The name constituent delivery had before iOS 13, when only the dual camera (wide and telephoto) offered it:
    /// supported while the connected camera is a dual camera whose constituent photos are supported (spec §3.1 [D]).
    @available(iOS, deprecated: 13.0, renamed: "isVirtualDeviceConstituentPhotoDeliverySupported")
    public var isDualCameraDualPhotoDeliverySupported: Bool {
        lock.withLock { inner.caps.constituentPhotos && inner.caps.device?.deviceType == .builtInDualCamera }
    }
    /// The opt-in under its name of before iOS 13: the same switch as `isVirtualDeviceConstituentPhotoDeliveryEnabled`.
    /// Setting it true where `isDualCameraDualPhotoDeliverySupported` is false raises `NSInvalidArgumentException`.
    @available(iOS, deprecated: 13.0, renamed: "isVirtualDeviceConstituentPhotoDeliveryEnabled")
    public var isDualCameraDualPhotoDeliveryEnabled: Bool {
        get { isVirtualDeviceConstituentPhotoDeliveryEnabled }
        set {
            if newValue && !isDualCameraDualPhotoDeliverySupported {
                let selector = "setDualCameraDualPhotoDeliveryEnabled:"
                Violation.photoOutputUnsupported(selector, "Dual camera dual photo delivery").raise()
            }
            isVirtualDeviceConstituentPhotoDeliveryEnabled = newValue
        }
    }
    /// Whether the connected camera can fuse its constituents' pictures into one photo: false, as no emulated
    /// virtual device fuses (each photo is rendered by the one constituent its zoom selects), so every request
    /// resolves `isVirtualDeviceFusionEnabled` false, as Apple documents for an unsupported configuration
    /// (spec §3.1 [D]; false our choice).
    public var isVirtualDeviceFusionSupported: Bool { false }
    /// Fusion under its name of before iOS 13, when only the dual camera offered it: false, as
    /// `isVirtualDeviceFusionSupported` is (spec §3.1 [D]).
    @available(iOS, deprecated: 13.0, renamed: "isVirtualDeviceFusionSupported")
    public var isDualCameraFusionSupported: Bool { isVirtualDeviceFusionSupported }
    /// Calibration data needs constituent delivery on and no distortion correction (spec §3.1 [D]).
    public var isCameraCalibrationDataDeliverySupported: Bool {
        lock.withLock {
            inner.constituentEnabled && !inner.contentAwareEnabled
                && (inner.caps.device?.camera.features.calibrationDataDelivery ?? false)
        }
    }
    /// Constant Color (spec §11; KVO): true only for a wide-angle or dual-wide camera with a flash
    /// whose profile (camera, or active format) supports it [D cc-docs, T? W24, I]. It follows the
    /// camera and its active format, so it can change when either is switched.
    public var isConstantColorSupported: Bool { lock.withLock { inner.caps.constantColor } }
    /// Opt-in for Constant Color (default false; spec §11). Setting it true while unsupported
    /// raises `NSInvalidArgumentException` [D; text I]. Enabling it needs a lengthy reconfiguration
    /// of the render pipeline [D]: set it before `startRunning()`, or inside begin/commit on a
    /// running session; set on a running session outside a configuration block, the session
    /// reconfigures at once (the trace says so). It reverts to false when support disappears.
    public var isConstantColorEnabled: Bool {
        get { lock.withLock { inner.constantColorEnabled } }
        set {
            let before = isConstantColorEnabled
            setEnabled(
                \.constantColorEnabled, newValue, supported: \.caps.constantColor, "setConstantColorEnabled:",
                "Constant color")
            guard before != newValue else { return }
            if let session, session.isRunning, !session.isInsideConfiguration {
                Emulation.shared.record(
                    TraceEntry(
                        section: "§11", rule: nil, outcome: .decided,
                        sentence: "isConstantColorEnabled changed while running outside begin/commit: the render "
                            + "pipeline reconfigures now, interrupting preview (set it before startRunning instead)."))
            }
            observers.didChange(\AVCapturePhotoOutput.isConstantColorEnabled)
        }
    }
    /// Live Photos: false with a movie file output (spec §3.1 [D]); false everywhere until Obscura
    /// records the movie a Live Photo needs (spec §3.1 [I]).
    public var isLivePhotoCaptureSupported: Bool { lock.withLock { inner.caps.livePhoto } }
    /// Opt-in for Live Photos (default false).
    public var isLivePhotoCaptureEnabled: Bool {
        get { lock.withLock { inner.livePhotoEnabled } }
        set {
            setEnabled(
                \.livePhotoEnabled, newValue, supported: \.caps.livePhoto, "setLivePhotoCaptureEnabled:",
                "Live Photo capture")
        }
    }
    /// Whether the app has suspended Live Photo capture (default false): while true, photos come without their
    /// movie. A session that stops clears it unless `preservesLivePhotoCaptureSuspendedOnSessionStop`.
    public var isLivePhotoCaptureSuspended: Bool {
        get { lock.withLock { inner.livePhotoSuspended } }
        set { lock.withLock { inner.livePhotoSuspended = newValue } }
    }
    /// Whether stopping the session keeps `isLivePhotoCaptureSuspended` (default false).
    public var preservesLivePhotoCaptureSuspendedOnSessionStop: Bool {
        get { lock.withLock { inner.preservesLivePhotoSuspension } }
        set { lock.withLock { inner.preservesLivePhotoSuspension = newValue } }
    }
    /// Whether Live Photo movies are trimmed of motion that is not the subject's, such as the phone being raised
    /// or lowered (default true). Obscura's movies hold no such motion, so there is nothing to trim either way.
    public var isLivePhotoAutoTrimmingEnabled: Bool {
        get { lock.withLock { inner.livePhotoAutoTrimming } }
        set { lock.withLock { inner.livePhotoAutoTrimming = newValue } }
    }
    /// Whether multi-frame still-image stabilisation can be used (deprecated in iOS 13): false, as no emulated camera
    /// merges frames against shake; `settings.isAutoStillImageStabilizationEnabled` then changes nothing.
    public var isStillImageStabilizationSupported: Bool { false }
    /// Whether the scene in view would be stabilised (deprecated in iOS 13): false, as stabilisation is not supported.
    public var isStillImageStabilizationScene: Bool { false }
    /// Deprecated opt-in for high-resolution stills (default false).
    public var isHighResolutionCaptureEnabled: Bool {
        get { lock.withLock { inner.highResolutionEnabled } }
        set { lock.withLock { inner.highResolutionEnabled = newValue } }
    }
    /// Content-aware distortion correction; not emulated [I].
    public var isContentAwareDistortionCorrectionSupported: Bool { false }
    /// Opt-in (default false).
    public var isContentAwareDistortionCorrectionEnabled: Bool {
        get { lock.withLock { inner.contentAwareEnabled } }
        set {
            if newValue {
                Violation.photoOutputUnsupported(
                    "setContentAwareDistortionCorrectionEnabled:", "Content aware distortion correction"
                ).raise()
            }
            lock.withLock { inner.contentAwareEnabled = false }
        }
    }
    /// ProRAW; not emulated [I].
    public var isAppleProRAWSupported: Bool { false }
    /// Shutter-sound suppression; not offered [I].
    public var isShutterSoundSuppressionSupported: Bool { false }
    /// Automatic deferred delivery; not offered [I].
    public var isAutoDeferredPhotoDeliverySupported: Bool { false }
    /// Opt-in (default false).
    public var isAutoDeferredPhotoDeliveryEnabled: Bool {
        get { false }
        set {
            if newValue {
                Violation.photoOutputUnsupported("setAutoDeferredPhotoDeliveryEnabled:", "Auto deferred photo delivery")
                    .raise()
            }
        }
    }
    /// Lens stabilization during brackets; not offered [I].
    public var isLensStabilizationDuringBracketedCaptureSupported: Bool { false }

    /// Flash modes valid now; `[.off]` for a flashless camera; empty without a device (spec §3.1; KVO).
    public var supportedFlashModes: [AVCaptureDevice.FlashMode] { lock.withLock { inner.caps.flashModes } }

    /// `supportedFlashModes` as Objective-C's array of numbers (each mode's raw value), the name Swift code reached
    /// for before the Swift array existed.
    public var __supportedFlashModes: [NSNumber] { supportedFlashModes.map { NSNumber(value: $0.rawValue) } }

    /// Uncompressed formats; empty until the output has a video source (spec §3.1 [D]).
    public var availablePhotoPixelFormatTypes: [OSType] {
        hasSource
            ? [
                kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
                kCVPixelFormatType_32BGRA,
            ] : []
    }
    /// Codecs; empty until the output has a video source. HEVC only where libheif and its HEVC
    /// encoder load, as a phone without the hardware encoder offers JPEG alone (spec §3.1 [I]):
    /// a codec is never offered and then not delivered.
    public var availablePhotoCodecTypes: [AVVideoCodecType] {
        hasSource ? (HEIF.isAvailable ? [.hevc, .jpeg] : [.jpeg]) : []
    }
    /// File types; empty until the output has a video source; HEIC only with HEVC (spec §3.1 [I]).
    public var availablePhotoFileTypes: [AVFileType] {
        hasSource ? (HEIF.isAvailable ? [.heic, .jpg, .tif] : [.jpg, .tif]) : []
    }
    /// Bayer RAW formats: `kCVPixelFormatType_14Bayer_RGGB` on back cameras, physical or virtual;
    /// empty for front cameras and without a source (spec §3.1 [D]). Device profiles carry no RAW
    /// flag, so which cameras offer RAW is our choice [I]: Apple offers Bayer RAW on the back
    /// cameras of the phones we model and not on the front (TrueDepth) camera. ProRAW is not offered.
    public var availableRawPhotoPixelFormatTypes: [OSType] { offersBayerRaw ? [kCVPixelFormatType_14Bayer_RGGB] : [] }
    /// Whether a pixel format is a Bayer RAW one: the four 14-bit mosaics (`kCVPixelFormatType_14Bayer_…`).
    public class func isBayerRAWPixelFormat(_ pixelFormat: OSType) -> Bool {
        [kCVPixelFormatType_14Bayer_RGGB, kCVPixelFormatType_14Bayer_GRBG, kCVPixelFormatType_14Bayer_BGGR,
         kCVPixelFormatType_14Bayer_GBRG].contains(pixelFormat)
    }

    /// Whether a pixel format is Apple ProRAW's (`kCVPixelFormatType_64RGBALE`); none of the RAW formats offered
    /// here is, since ProRAW is not offered.
    public class func isAppleProRAWPixelFormat(_ pixelFormat: OSType) -> Bool {
        pixelFormat == kCVPixelFormatType_64RGBALE
    }

    /// RAW file types: `[.dng]` wherever RAW formats are offered (spec §3.1 [D]); a RAW photo's file data is a
    /// DNG of the mosaic (see `AVCapturePhoto.fileDataRepresentation()`).
    public var availableRawPhotoFileTypes: [AVFileType] { offersBayerRaw ? [.dng] : [] }

    private var offersBayerRaw: Bool { lock.withLock { inner.caps.device?.position == .back } }

    private var hasSource: Bool { lock.withLock { inner.caps.device != nil } }

    /// The highest quality prioritization allowed (default `.balanced`; spec §3.1 [D]).
    public var maxPhotoQualityPrioritization: QualityPrioritization {
        get { lock.withLock { inner.maxQuality } }
        set { lock.withLock { inner.maxQuality = newValue } }
    }

    /// The largest photo size; one of the active format's `supportedMaxPhotoDimensions` (spec §3.1 [D]).
    /// Defaults to the smallest of them [I].
    public var maxPhotoDimensions: CMVideoDimensions {
        get { lock.withLock { inner.maxDimensions } }
        set {
            let violation = lock.withLock { () -> Violation? in
                guard inner.caps.photoDimensions.contains(where: { $0.same(as: newValue) }) else {
                    return .unsupportedMaxPhotoDimensions()
                }
                inner.maxDimensions = newValue
                return nil
            }
            raiseIfNeeded(violation)
        }
    }

    /// Photos per bracket; 0 without a source [I: 3 with one].
    public var maxBracketedCapturePhotoCount: Int { hasSource ? 3 : 0 }

    private func setEnabled(
        _ key: WritableKeyPath<Inner, Bool>, _ value: Bool, supported: KeyPath<Inner, Bool>, _ selector: String,
        _ feature: String
    ) {
        let violation = lock.withLock { () -> Violation? in
            if value && !inner[keyPath: supported] { return .photoOutputUnsupported(selector, feature) }  // spec §3.1 [O]
            inner[keyPath: key] = value
            return nil
        }
        raiseIfNeeded(violation)
    }

    // MARK: Graph resolution

    override func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {
        let connected = connections.contains { $0.deviceInput != nil } ? device : nil
        var caps = Capabilities()
        if let device = connected {
            let format = device.activeFormat
            caps.device = device
            caps.depth = device.camera.deviceType.canDeliverDepth && !format.supportedDepthDataFormats.isEmpty
            caps.mattes = caps.depth ? device.camera.features.mattes : nil
            caps.constituentPhotos = device.isVirtualDevice && device.camera.features.constituentPhotoDelivery
            // spec §11 [D][I]: a wide or dual-wide camera, with a flash, whose profile supports it
            // for the active format.
            caps.constantColor =
                [.builtInWideAngleCamera, .builtInDualWideCamera].contains(device.deviceType)
                && device.camera.supportsConstantColor(with: format.profile) && device.hasFlash
            // spec §3.1 [D] rules Live Photo out with a movie file output; supported means delivered,
            // so it also needs movies to be writable here (spec §20 rule 12 [I]).
            caps.livePhoto = Self.livePhotoSupported(preset: preset, session: session)
            caps.flashModes = device.camera.flashModes.map(AVCaptureDevice.FlashMode.init)
            caps.photoDimensions = format.supportedMaxPhotoDimensions
        }
        let mattesBefore = matteAvailability
        let (changed, ccSupportChanged, ccReverted) = lock.withLock { () -> (Bool, Bool, Bool) in
            let before = inner.caps.flashModes
            let ccBefore = (inner.caps.constantColor, inner.constantColorEnabled)
            inner.caps = caps
            // spec §3.1 [D]: a capability that turns false turns its opt-in off.
            if !caps.depth { inner.depthEnabled = false }
            if !caps.constituentPhotos { inner.constituentEnabled = false }
            if !caps.constantColor { inner.constantColorEnabled = false }  // spec §11 [D]
            if !caps.livePhoto { inner.livePhotoEnabled = false }
            if !caps.photoDimensions.contains(where: { $0.same(as: inner.maxDimensions) }) {
                inner.maxDimensions = caps.photoDimensions.first ?? CMVideoDimensions()
            }
            return (
                before != caps.flashModes, ccBefore.0 != caps.constantColor,
                ccBefore.1 && !inner.constantColorEnabled
            )
        }
        updateDepthZoomLock()
        reportMatteAvailability(since: mattesBefore)
        if changed { observers.didChange(\AVCapturePhotoOutput.supportedFlashModes) }
        if ccSupportChanged { observers.didChange(\AVCapturePhotoOutput.isConstantColorSupported) }
        if ccReverted {
            Emulation.shared.record(
                TraceEntry(
                    section: "§11", rule: nil, outcome: .decided,
                    sentence: "Constant Color is not supported by the new camera or format: "
                        + "isConstantColorEnabled reverted to false and must be set again."))
            observers.didChange(\AVCapturePhotoOutput.isConstantColorEnabled)
        }
        // Joining or leaving a running session changes readiness too (spec §3.3 [D]).
        readinessMayHaveChanged()
    }

    /// The video connection photos come from.
    var videoConnection: AVCaptureConnection? { connection(with: .video) }
}
