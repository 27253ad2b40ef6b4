import AVFoundation
import Foundation

/// Photo-file encoding cost, measured the way an app gets file bytes: no Obscura call. The
/// device comes from `OBSCURA_DEVICE` (the script sets the iPhone 15 Pro); its back wide camera
/// takes a 12 MP photo (the largest photo size of at most 12.2 MP) per codec the output offers,
/// plus an uncompressed request for the PNG. Rendering happens on first use of the photo, so the
/// program reads `metadata` first (which renders) and then times `fileDataRepresentation()` alone.
final class Collector: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var line = ""

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        let start = Date()
        let width = photo.metadata["PixelWidth"] as? Int ?? 0
        let height = photo.metadata["PixelHeight"] as? Int ?? 0
        let rendered = Date()
        let data = photo.fileDataRepresentation()
        let encoded = Date()
        line = String(
            format: "%dx%d render %.2f s, fileDataRepresentation %.2f s, %.2f MB", width, height,
            rendered.timeIntervalSince(start), encoded.timeIntervalSince(rendered),
            Double(data?.count ?? 0) / 1_000_000)
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        done.signal()
    }
}

guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
    print("error: no back wide-angle camera")
    exit(1)
}
let session = AVCaptureSession()
let output = AVCapturePhotoOutput()
do {
    session.beginConfiguration()
    session.sessionPreset = .photo
    session.addInput(try AVCaptureDeviceInput(device: camera))
    session.addOutput(output)
    session.commitConfiguration()
} catch {
    print("error: \(error)")
    exit(1)
}
let sizes = camera.activeFormat.supportedMaxPhotoDimensions.filter { Int($0.width) * Int($0.height) <= 12_200_000 }
guard let twelve = sizes.max(by: { Int($0.width) * Int($0.height) < Int($1.width) * Int($1.height) }) else {
    print("error: no photo size up to 12 MP")
    exit(1)
}
output.maxPhotoDimensions = twelve
session.startRunning()
var requests: [(String, [String: Any])] = output.availablePhotoCodecTypes.map {
    ($0 == .jpeg ? "JPEG" : $0 == .hevc ? "HEIC" : $0.rawValue, [AVVideoCodecKey: $0])
}
requests.append(("PNG (uncompressed request)", [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]))
print("codecs offered: \(output.availablePhotoCodecTypes.map(\.rawValue))")
for (name, format) in requests {
    let settings = AVCapturePhotoSettings(format: format)
    settings.maxPhotoDimensions = twelve
    let collector = Collector()
    output.capturePhoto(with: settings, delegate: collector)
    guard collector.done.wait(timeout: .now() + 600) == .success else {
        print("\(name): timed out")
        exit(1)
    }
    print("\(name): \(collector.line)")
}
session.stopRunning()
