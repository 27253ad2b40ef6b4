import AVFoundation
import Foundation

/// An ordinary 12 MP photo through the capture API, timed the way an app sees it: from
/// `capturePhoto(with:delegate:)` to the bytes of `fileDataRepresentation()`. No Obscura call: the
/// device and scene come from `OBSCURA_DEVICE` and `OBSCURA_SCENE` (the script sets the iPhone 15
/// Pro and violets-warm-room). The first photo of a process builds the scene's geometry; later ones
/// reuse it. Prints each photo's wall time and the process's CPU time, and the peak resident memory.
///
/// `--constant-color` takes a Constant Color capture with fallback instead (flash on, both photos' file bytes):
/// the time runs until the delegate has the bytes of both. `--save DIR` writes each photo's file bytes there
/// (`photo-N-K`, K counting the photos of capture N), so that two builds' outputs can be compared byte for byte.
/// `--refocus` locks the lens at another position before each photo (0.2, 0.4, 0.6, 0.8, then again), as an app
/// that taps to focus does.
final class Catcher: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var bytes = 0
    var photos = 0
    /// Where each photo's bytes go (`--save`), with the capture's index.
    var save: (folder: String, capture: Int)?

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        let data = photo.fileDataRepresentation()
        bytes += data?.count ?? 0
        photos += 1
        if let save, let data {
            FileManager.default.createFile(atPath: "\(save.folder)/photo-\(save.capture)-\(photos)", contents: data)
        }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        done.signal()
    }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

let arguments = CommandLine.arguments.dropFirst()
let constantColor = arguments.contains("--constant-color")
let refocus = arguments.contains("--refocus")
let photos = arguments.compactMap { Int($0) }.first.map { max(1, $0) } ?? 1
let saveFolder = arguments.firstIndex(of: "--save").flatMap { i in
    arguments.index(after: i) < arguments.endIndex ? arguments[arguments.index(after: i)] : nil
}
guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
    print("error: no back wide camera")
    exit(1)
}
let session = AVCaptureSession()
let output = AVCapturePhotoOutput()
do {
    session.beginConfiguration()
    session.sessionPreset = .photo
    session.addInput(try AVCaptureDeviceInput(device: camera))
    session.addOutput(output)
    let sizes = camera.activeFormat.supportedMaxPhotoDimensions
    if let twelve = sizes.first(where: { Int($0.width) * Int($0.height) == 4032 * 3024 }) ?? sizes.last {
        output.maxPhotoDimensions = twelve
    }
    session.commitConfiguration()
    if constantColor {
        guard output.isConstantColorSupported else {
            print("error: this device's photo output does not support Constant Color")
            exit(1)
        }
        output.isConstantColorEnabled = true
    }
} catch {
    print("error: \(error)")
    exit(1)
}
session.startRunning()
for index in 0..<photos {
    let settings = AVCapturePhotoSettings()
    settings.maxPhotoDimensions = output.maxPhotoDimensions
    if constantColor {
        settings.flashMode = .on
        settings.isConstantColorEnabled = true
        settings.isConstantColorFallbackPhotoDeliveryEnabled = true
    }
    if refocus {
        do {
            try camera.lockForConfiguration()
            camera.setFocusModeLocked(lensPosition: 0.2 * Float(index % 4 + 1), completionHandler: nil)
            camera.unlockForConfiguration()
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }
    let catcher = Catcher()
    catcher.save = saveFolder.map { ($0, index + 1) }
    let (wall0, cpu0) = (Date(), cpuSeconds())
    output.capturePhoto(with: settings, delegate: catcher)
    catcher.done.wait()
    let wall = Date().timeIntervalSince(wall0), cpu = cpuSeconds() - cpu0
    let d = output.maxPhotoDimensions
    print(
        String(
            format: "photo %d: %dx%d, %d file(s), %d bytes, %.3f s wall, %.3f s CPU", index + 1, Int(d.width),
            Int(d.height), catcher.photos, catcher.bytes, wall, cpu))
}
session.stopRunning()
if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM") })
{
    print(line.replacingOccurrences(of: "\t", with: " "))
}
