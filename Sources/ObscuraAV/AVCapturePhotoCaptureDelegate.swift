import Foundation

/// Receives a photo request's progress (spec §6). Every method is optional: the protocol
/// extension supplies empty defaults, as Objective-C's `@optional`.
///
/// Order (spec §6 [D], emulator choice [I]): willBeginCapture, willCapturePhoto, didCapturePhoto,
/// didFinishProcessingPhoto × `expectedPhotoCount`, didFinishCapture — each on the output's
/// serial delegate queue.
///
/// A delegate written for iOS 10 may implement the sample-buffer callbacks instead:
/// `photoOutput(_:didFinishProcessingPhoto:previewPhoto:resolvedSettings:bracketSettings:error:)` for each
/// processed photo and `photoOutput(_:didFinishProcessingRawPhoto:previewPhoto:resolvedSettings:bracketSettings:error:)`
/// for each RAW one. They are called when the delegate does not implement
/// `photoOutput(_:didFinishProcessingPhoto:error:)`; a delegate that implements both hears only the
/// newer one, as Apple documents.
public protocol AVCapturePhotoCaptureDelegate: NSObjectProtocol {
    func photoOutput(
        _ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    func photoOutput(
        _ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    func photoOutput(
        _ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?)
    /// The iOS 10 callback (deprecated since iOS 11): the processed photo as a sample buffer (JPEG
    /// or HEIC bytes as its data buffer, or an uncompressed image buffer) and the preview, if asked.
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?)
    /// The iOS 10 RAW callback (deprecated since iOS 11): the RAW photo as a sample buffer (its Bayer pixel buffer,
    /// the photo's metadata as attachments), which `AVCapturePhotoOutput.dngPhotoDataRepresentation` turns into a
    /// DNG, and the preview, if asked.
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingRawPhoto rawSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?)
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: AVCaptureResolvedPhotoSettings)
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL,
        duration: CMTime, photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?)
    /// A deferred photo's proxy (iOS 17): never called here, as deferred delivery is never offered (spec §6).
    func photoOutput(
        _ output: AVCapturePhotoOutput,
        didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: Error?)
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?)
}

extension AVCapturePhotoCaptureDelegate {
    public func photoOutput(
        _ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?
    ) {
        // Left out by the delegate: the output then offers the iOS 10 callback.
        DefaultCallbackProbe.current?.defaultRan = true
    }
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingRawPhoto rawSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL,
        duration: CMTime, photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput,
        didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: Error?
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {}
}
