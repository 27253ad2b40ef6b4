import Foundation
import ObscuraAV

/// One photo request as its delegate saw it: the callbacks in order, and the photos.
final class CaptureRecord: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    /// A delegate callback, with the virtual time of the photo it carries when there is one.
    struct Event: Sendable, Codable {
        let name: String
        let photoCount: Int?
        let seconds: Double?

        enum CodingKeys: String, CodingKey { case name, photoCount = "photo_count", seconds }
    }

    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var eventList: [Event] = []
    private var photoList: [AVCapturePhoto] = []
    private(set) var resolved: AVCaptureResolvedPhotoSettings?

    var events: [Event] { lock.withLock { eventList } }
    var photos: [AVCapturePhoto] { lock.withLock { photoList } }

    private func add(_ name: String, _ photo: AVCapturePhoto? = nil, resolved: AVCaptureResolvedPhotoSettings) {
        lock.withLock {
            self.resolved = resolved
            eventList.append(Event(name: name, photoCount: photo?.photoCount, seconds: photo?.timestamp.seconds))
            if let photo { photoList.append(photo) }
        }
    }

    /// Waits for `didFinishCapture`; false when it did not come in time.
    func waitUntilFinished(seconds: Double) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        add("willBeginCapture", resolved: resolvedSettings)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        add("willCapturePhoto", resolved: resolvedSettings)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        add("didCapturePhoto", resolved: resolvedSettings)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        add("didFinishProcessingPhoto", photo, resolved: photo.resolvedSettings)
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        add("didFinishCapture", resolved: resolvedSettings)
        finished.signal()
    }
}
