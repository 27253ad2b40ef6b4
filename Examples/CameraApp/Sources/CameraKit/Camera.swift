import AVFoundation

/// A camera as an iOS app writes one: a session configured inside begin/commit with a photo output
/// and a video data output, frames counted as they arrive, photos taken with a completion handler.
/// Nothing here knows it runs on Linux.
public final class Camera: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCapturePhotoCaptureDelegate,
    @unchecked Sendable
{
    public enum CameraError: Error {
        case noCamera
        case notAuthorized
        case cannotAddInput
    }

    public let session = AVCaptureSession()
    public let photoOutput = AVCapturePhotoOutput()
    public let videoOutput = AVCaptureVideoDataOutput()
    private let videoQueue = DispatchQueue(label: "camera.video")
    private let lock = NSLock()
    private var frameCount = 0
    private var frameWaiters: [(count: Int, semaphore: DispatchSemaphore)] = []
    private var completions: [Int64: (AVCapturePhoto?) -> Void] = [:]
    private var photos: [Int64: AVCapturePhoto] = [:]

    private var lastFrame: CVPixelBuffer?

    /// The frames delivered so far.
    public var framesDelivered: Int { lock.withLock { frameCount } }

    /// The newest frame's pixels, for the scanner.
    public var latestFrame: CVPixelBuffer? { lock.withLock { lastFrame } }

    public override init() { super.init() }

    /// Configures the back camera for photos with Constant Color where the device offers it.
    public func configure() throws {
        guard AVCaptureDevice.authorizationStatus(for: .video) == .authorized else { throw CameraError.notAuthorized }
        guard let camera = AVCaptureDevice.default(for: .video) else { throw CameraError.noCamera }
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = .photo
        let input = try AVCaptureDeviceInput(device: camera)
        guard session.canAddInput(input) else { throw CameraError.cannotAddInput }
        session.addInput(input)
        if session.canAddOutput(photoOutput) {
            session.addOutput(photoOutput)
            photoOutput.maxPhotoQualityPrioritization = .quality
            photoOutput.isConstantColorEnabled = photoOutput.isConstantColorSupported
            if let largest = camera.activeFormat.supportedMaxPhotoDimensions.last {
                photoOutput.maxPhotoDimensions = largest
            }
        }
        videoOutput.alwaysDiscardsLateVideoFrames = true
        videoOutput.setSampleBufferDelegate(self, queue: videoQueue)
        if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
    }

    public func start() { session.startRunning() }
    public func stop() { session.stopRunning() }

    /// Waits until `count` frames have arrived; false after `timeout` seconds.
    public func waitForFrames(_ count: Int, timeout: Double = 30) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let done = lock.withLock { () -> Bool in
            if frameCount >= count { return true }
            frameWaiters.append((count, semaphore))
            return false
        }
        return done || semaphore.wait(timeout: .now() + timeout) == .success
    }

    /// Takes a photo with the flash on auto (Constant Color needs the flash) and hands it over.
    public func takePhoto(completion: @escaping (AVCapturePhoto?) -> Void) {
        let settings = AVCapturePhotoSettings()
        if photoOutput.supportedFlashModes.contains(.auto) { settings.flashMode = .auto }
        settings.isConstantColorEnabled = photoOutput.isConstantColorEnabled
        lock.withLock { completions[settings.uniqueID] = completion }
        photoOutput.capturePhoto(with: settings, delegate: self)
    }

    public func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        let pixels = CMSampleBufferGetImageBuffer(sampleBuffer)
        let ready = lock.withLock { () -> [DispatchSemaphore] in
            frameCount += 1
            lastFrame = pixels ?? lastFrame
            let due = frameWaiters.filter { $0.count <= frameCount }
            frameWaiters.removeAll { $0.count <= frameCount }
            return due.map(\.semaphore)
        }
        for semaphore in ready { semaphore.signal() }
    }

    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        lock.withLock { photos[photo.resolvedSettings.uniqueID] = error == nil ? photo : nil }
    }

    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        let (completion, photo) = lock.withLock {
            (completions.removeValue(forKey: resolvedSettings.uniqueID), photos.removeValue(forKey: resolvedSettings.uniqueID))
        }
        completion?(photo)
    }
}
