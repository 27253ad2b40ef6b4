import Devices
import Foundation

extension AVCapturePhotoOutput {
    /// Starts a photo request. Validation runs synchronously in spec §3.2's order and raises
    /// `NSInvalidArgumentException` at the first failure; the settings are copied (spec §3.2 [D]).
    /// Callbacks then arrive on the output's delegate queue in the order of spec §6.
    public func capturePhoto(with settings: AVCapturePhotoSettings, delegate: AVCapturePhotoCaptureDelegate) {
        // Validate against a snapshot, without the lock: rules read the output's public properties.
        let check = PhotoSettingsValidation(
            output: self, settings: settings, delegate: delegate, state: lock.withLock { inner })
        raiseIfNeeded(check.firstViolation())
        // spec §3.2 rule 3: claim the uniqueID atomically, so two racing captures cannot both pass.
        let reused = lock.withLock { () -> Bool in
            guard settings.uniqueID > inner.lastUniqueID else { return true }
            inner.lastUniqueID = settings.uniqueID
            return false
        }
        if reused { Violation.capturePhoto(3, .observed, "Settings may not be re-used").raise() }
        let request = resolve(settings)
        deliver(request, to: delegate)
    }

    struct CaptureRequest {
        let resolved: AVCaptureResolvedPhotoSettings
        let render: PhotoRenderRequest
        let bracket: [AVCaptureBracketedStillImageSettings]
        let uncompressedFormat: OSType?
        let sourceType: AVCaptureDevice.DeviceType
    }

    /// Resolves flash, dimensions and the photo count (spec §6).
    private func resolve(_ original: AVCapturePhotoSettings) -> CaptureRequest {
        let settings = original.frozenCopy()
        let state = lock.withLock { inner }
        // Validation rule 2 guarantees a connected device.
        guard let device = state.caps.device else { preconditionFailure("capture validated without a device") }
        let requested = settings.maxPhotoDimensions
        let dims =
            requested.width != 0 ? requested : (state.caps.photoDimensions.first ?? device.activeFormat.dimensions)
        let render0 = PhotoRenderRequest(
            profile: device.deviceProfile, camera: device.camera, format: device.activeFormat.profile,
            scene: Emulator.shared.scene, flashFired: false,
            dimensions: Dimensions(width: Int(dims.width), height: Int(dims.height)),
            colorSpace: device.activeColorSpace, seed: UInt64(settings.uniqueID), photoIndex: 1)
        // spec §2.7 [D], §6 [D]: .on fires unless the flash is unavailable; .auto asks the scene.
        let flash: Bool
        switch settings.flashMode {
        case .off: flash = false
        case .on: flash = device.isFlashAvailable
        case .auto: flash = device.isFlashAvailable && PhotoRenderers.current.autoFlashFires(render0)
        }
        let render = PhotoRenderRequest(
            profile: render0.profile, camera: render0.camera, format: render0.format, scene: render0.scene,
            flashFired: flash, dimensions: render0.dimensions, colorSpace: render0.colorSpace, seed: render0.seed,
            photoIndex: 1)
        let bracket = original.bracketElements
        let count = AVCaptureResolvedPhotoSettings.expectedPhotoCount(
            bracketCount: bracket.count,
            constituentCount: settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices.count,
            constantColorWithFallback: settings.isConstantColorEnabled
                && settings.isConstantColorFallbackPhotoDeliveryEnabled,
            hasRaw: settings.rawPhotoPixelFormatType != 0, hasProcessed: settings.format != nil)
        let now = clock.now
        let resolved = AVCaptureResolvedPhotoSettings(
            uniqueID: settings.uniqueID, photoDimensions: settings.format == nil ? CMVideoDimensions() : dims,
            rawPhotoDimensions: CMVideoDimensions(), isFlashEnabled: flash,
            isRedEyeReductionEnabled: flash && settings.isAutoRedEyeReductionEnabled,
            isVirtualDeviceFusionEnabled: device.isVirtualDevice && settings.isAutoVirtualDeviceFusionEnabled,
            isContentAwareDistortionCorrectionEnabled: false, expectedPhotoCount: count,
            photoProcessingTimeRange: CMTimeRange(start: now, duration: CMTime(value: 1, timescale: 2)))
        return CaptureRequest(
            resolved: resolved, render: render, bracket: bracket, uncompressedFormat: settings.processedPixelFormat,
            sourceType: device.deviceType)
    }

    /// Delivers the callbacks: willBegin, willCapture, didCapture, didFinishProcessingPhoto ×
    /// expectedPhotoCount, didFinishCapture (spec §6 [D] + emulator order [I]). In realtime mode
    /// the steps are paced by the exposure and processing times.
    private func deliver(_ request: CaptureRequest, to delegate: AVCapturePhotoCaptureDelegate) {
        let weakDelegate = WeakDelegate(delegate)
        let realtime = Emulator.shared.clockMode == .realtime
        let work = UncheckedSendable((self, request))
        delegateQueue.async {
            let (output, request) = work.value
            func call(_ body: (AVCapturePhotoCaptureDelegate) -> Void) {
                if let d = weakDelegate.value { body(d) }
            }
            func pause(_ seconds: Double) { if realtime { Thread.sleep(forTimeInterval: seconds) } }
            let resolved = request.resolved
            call { $0.photoOutput(output, willBeginCaptureFor: resolved) }
            pause(0.01)
            call { $0.photoOutput(output, willCapturePhotoFor: resolved) }
            let exposure = 1.0 / 60
            pause(exposure)
            let timestamp = output.clock.advance(by: exposure)
            call { $0.photoOutput(output, didCapturePhotoFor: resolved) }
            for index in 0..<resolved.expectedPhotoCount {
                pause(0.05)
                let element = request.bracket.isEmpty ? nil : request.bracket[index % request.bracket.count]
                let photo = AVCapturePhoto(
                    timestamp: timestamp, resolvedSettings: resolved, photoCount: index + 1,
                    sourceDeviceType: request.sourceType, bracketSettings: element,
                    sequenceCount: request.bracket.isEmpty ? 1 : index + 1, request: request.render,
                    uncompressedFormat: request.uncompressedFormat)
                call { $0.photoOutput(output, didFinishProcessingPhoto: photo, error: nil) }
            }
            call { $0.photoOutput(output, didFinishCaptureFor: resolved, error: nil) }
        }
    }
}

/// The output holds its delegate weakly, as Apple's does [O: sample code keeps delegates alive itself].
final class WeakDelegate: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ delegate: AVCapturePhotoCaptureDelegate) { object = delegate }
    var value: AVCapturePhotoCaptureDelegate? { object as? AVCapturePhotoCaptureDelegate }
}
