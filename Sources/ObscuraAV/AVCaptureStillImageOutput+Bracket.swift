import CaptureRules
import Foundation

// The still-image output's brackets (iOS 8, deprecated with the output in iOS 10), as Apple's BracketStripes sample
// takes them: an array of auto-exposure (bias) or manual (duration and ISO) settings, one picture each, handed to
// the app one by one. Each bracket is a bracketed request of the photo output behind this one (Capture rules
// §1.2).

extension AVCaptureStillImageOutput {
    /// The most pictures one bracket may take: the photo output's `maxBracketedCapturePhotoCount`.
    public var maxBracketedCaptureStillImageCount: Int { engine.maxBracketedCapturePhotoCount }

    /// Whether the lens is held still across a bracket: no emulated camera offers it.
    public var isLensStabilizationDuringBracketedCaptureSupported: Bool {
        engine.isLensStabilizationDuringBracketedCaptureSupported
    }

    /// Stays false: setting it where unsupported changes nothing.
    public var isLensStabilizationDuringBracketedCaptureEnabled: Bool {
        get { false }
        set {}
    }

    /// Readies a bracket: `handler` hears true, or false with `AVError.maximumStillImageCaptureRequestsExceeded`
    /// when the array holds more than `maxBracketedCaptureStillImageCount` settings. Settings of two kinds, or a
    /// connection that is not this output's active one, raise `NSInvalidArgumentException`, as Apple documents.
    public func prepareToCaptureStillImageBracket(
        from connection: AVCaptureConnection, withSettingsArray settings: [AVCaptureBracketedStillImageSettings],
        completionHandler handler: @escaping (Bool, Error?) -> Void
    ) {
        let method =
            "-[AVCaptureStillImageOutput prepareToCaptureStillImageBracketFromConnection:withSettingsArray:"
            + "completionHandler:]"
        checkBracket(connection, settings, method: method)
        let tooMany = settings.count > maxBracketedCaptureStillImageCount
        let call = UncheckedSendable(handler)
        DispatchQueue.global().async {
            call.value(!tooMany, tooMany ? AVError(.maximumStillImageCaptureRequestsExceeded) : nil)
        }
    }

    /// Takes one picture for each of `settings`, in order, and calls `handler` with each: its sample buffer (as
    /// `captureStillImageAsynchronously` gives one) and the settings it was taken with, the app's own object. More
    /// settings than `maxBracketedCaptureStillImageCount` give one call with no buffer and
    /// `AVError.maximumStillImageCaptureRequestsExceeded`. The flash does not fire during a bracket, and a bias
    /// beyond the device's range is held at its end.
    public func captureStillImageBracketAsynchronously(
        from connection: AVCaptureConnection, withSettingsArray settings: [AVCaptureBracketedStillImageSettings],
        completionHandler handler: @escaping (CMSampleBuffer?, AVCaptureBracketedStillImageSettings?, Error?) -> Void
    ) {
        let method =
            "-[AVCaptureStillImageOutput captureStillImageBracketAsynchronouslyFromConnection:withSettingsArray:"
            + "completionHandler:]"
        checkBracket(connection, settings, method: method)
        let call = UncheckedSendable(handler)
        guard !settings.isEmpty else { return }
        guard settings.count <= maxBracketedCaptureStillImageCount else {
            DispatchQueue.global().async { call.value(nil, nil, AVError(.maximumStillImageCaptureRequestsExceeded)) }
            return
        }
        let device = connection.deviceInput?.device
        let taken = settings.map { Self.heldInRange($0, device: device) }
        let photoSettings = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: processedFormat, bracketedSettings: taken)
        photoSettings.flashMode = .off
        photoSettings.isHighResolutionPhotoEnabled = isHighResolutionStillImageOutputEnabled
        setCapturing(+1)
        let receiver = StillImageBracketReceiver(taken: taken, asked: settings, handler: call) { [weak self] in
            self?.setCapturing(-1)
        }
        engine.capturePhoto(with: photoSettings, delegate: receiver)
    }

    /// The checks Apple documents for both bracket calls: this output's active, enabled connection, and settings of
    /// one kind.
    private func checkBracket(
        _ connection: AVCaptureConnection, _ settings: [AVCaptureBracketedStillImageSettings], method: String
    ) {
        checkConnection(connection, method: method)
        let autos = settings.filter { $0 is AVCaptureAutoExposureBracketedStillImageSettings }.count
        guard autos == 0 || autos == settings.count else {
            Violation.invalidArgument(
                method, "All settings must be of the same AVCaptureBracketedStillImageSettings subclass",
                CaptureRule("§1.2", .documented, "a still-image bracket's settings are all of one kind")
            ).raise()
        }
    }

    /// An auto-exposure element with its bias held within the device's range (a new object where it was outside);
    /// other elements as they are.
    private static func heldInRange(
        _ element: AVCaptureBracketedStillImageSettings, device: AVCaptureDevice?
    ) -> AVCaptureBracketedStillImageSettings {
        guard let auto = element as? AVCaptureAutoExposureBracketedStillImageSettings, let device,
            auto.exposureTargetBias != AVCaptureDevice.currentExposureTargetBias
        else { return element }
        let held = min(max(auto.exposureTargetBias, device.minExposureTargetBias), device.maxExposureTargetBias)
        guard held != auto.exposureTargetBias else { return element }
        return AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: held)
    }
}

/// Receives a still-image bracket's photos and hands each to the app's handler with the settings it asked for.
private final class StillImageBracketReceiver: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let taken: [AVCaptureBracketedStillImageSettings]
    let asked: [AVCaptureBracketedStillImageSettings]
    let handler: UncheckedSendable<(CMSampleBuffer?, AVCaptureBracketedStillImageSettings?, Error?) -> Void>
    let finished: () -> Void
    private var delivered = 0
    /// The output holds its delegates weakly; the request keeps its receiver until it is over.
    private var keepAlive: StillImageBracketReceiver?

    init(
        taken: [AVCaptureBracketedStillImageSettings], asked: [AVCaptureBracketedStillImageSettings],
        handler: UncheckedSendable<(CMSampleBuffer?, AVCaptureBracketedStillImageSettings?, Error?) -> Void>,
        finished: @escaping () -> Void
    ) {
        self.taken = taken
        self.asked = asked
        self.handler = handler
        self.finished = finished
        super.init()
        keepAlive = self
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        // Photos arrive one at a time on the output's serial delegate queue.
        delivered += 1
        let index = taken.firstIndex { $0 === photo.bracketSettings }
        // The last handler is the capture's last word: the output is no longer capturing.
        if delivered == taken.count { finished() }
        handler.value(photo.photoSampleBuffer(), index.map { asked[$0] } ?? photo.bracketSettings, error)
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        keepAlive = nil
    }
}
