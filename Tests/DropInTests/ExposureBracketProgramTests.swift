import AVFoundation
import Foundation
import Testing

/// An exposure-bracketing camera as HDR and bracketing apps write it: the back camera, a photo output, and an
/// auto-exposure bracket of −2, 0 and +2 EV taken in BGRA so the app can merge the frames itself. Apple's names
/// only, so it would build for iOS unchanged.
final class ExposureBracketProgram: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()
    private let lock = NSLock()
    private var _brightness: [(bias: Float, mean: Double)] = []
    private let finished = DispatchSemaphore(value: 0)

    func configure() throws {
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
            throw CocoaError(.featureUnsupported)
        }
        session.beginConfiguration()
        session.sessionPreset = .photo
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(photoOutput) { session.addOutput(photoOutput) }
        session.commitConfiguration()
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        guard error == nil, let buffer = photo.pixelBuffer,
            let element = photo.bracketSettings as? AVCaptureAutoExposureBracketedStillImageSettings
        else { return }
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        guard let base = CVPixelBufferGetBaseAddress(buffer)?.assumingMemoryBound(to: UInt8.self) else { return }
        var sum = 0.0
        for y in 0..<height {
            for x in 0..<width { sum += Double(base[y * stride + 4 * x + 1]) }  // green of BGRA
        }
        lock.withLock { _brightness.append((element.exposureTargetBias, sum / Double(width * height))) }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        finished.signal()
    }

    /// Takes the bracket and returns each photo's bias and mean green code, in delivery order.
    func run() -> [(bias: Float, mean: Double)]? {
        session.startRunning()
        defer { session.stopRunning() }
        let biases: [Float] = [-2, 0, 2]
        let settings = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA],
            bracketedSettings: biases.map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0) })
        guard biases.count <= photoOutput.maxBracketedCapturePhotoCount else { return nil }
        photoOutput.capturePhoto(with: settings, delegate: self)
        guard finished.wait(timeout: .now() + 120) == .success else { return nil }
        return lock.withLock { _brightness }
    }
}

extension DropIn {
    /// Each photo of an auto-exposure bracket is exposed at its own bias: the −2 EV frame is darker and the +2 EV
    /// frame brighter than the 0 EV one, as an HDR merge needs.
    @Suite struct ExposureBracketProgramTests {
        @Test func bracketFramesStepInBrightness() throws {
            let program = ExposureBracketProgram()
            try program.configure()
            let shots = try #require(program.run())
            #expect(shots.map(\.bias) == [-2, 0, 2])
            try #require(shots.count == 3)
            #expect(shots[0].mean < 0.7 * shots[1].mean, "−2 EV mean \(shots[0].mean) against \(shots[1].mean)")
            #expect(shots[2].mean > 1.2 * shots[1].mean, "+2 EV mean \(shots[2].mean) against \(shots[1].mean)")
        }
    }
}
