import AVFoundation
import ExternalTools
import Foundation
import Testing

/// A RAW camera as Apple's RAW capture article writes one: the back camera at the photo preset, a Bayer RAW format
/// picked with `isBayerRAWPixelFormat`, a JPEG companion, a preview embedded in the RAW file at the photo's full
/// size, and the RAW photo's file data written to a `.dng` file for the photo library. Apple's names only, so it
/// would build for iOS unchanged.
final class RawCameraProgram: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()
    private let lock = NSLock()
    private var rawData: Data?
    private var processedData: Data?
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
        guard error == nil else { return }
        let data = photo.fileDataRepresentation()
        lock.withLock {
            if photo.isRawPhoto { rawData = data } else { processedData = data }
        }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        finished.signal()
    }

    /// Takes one RAW + JPEG photo and writes the RAW file where the app would hand it to the photo library.
    func run(writingRawTo url: URL) throws -> (raw: Data, processed: Data)? {
        session.startRunning()
        defer { session.stopRunning() }
        guard let rawFormat = photoOutput.availableRawPhotoPixelFormatTypes.first(where: {
            AVCapturePhotoOutput.isBayerRAWPixelFormat($0)
        }) else { return nil }
        let settings = AVCapturePhotoSettings(
            rawPixelFormatType: rawFormat, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        // Bayer RAW is taken at speed (the prioritization's documentation).
        settings.photoQualityPrioritization = .speed
        // A preview in the DNG, at the photo's full size, for the photo library to show.
        guard let thumbnailCodec = settings.availableRawEmbeddedThumbnailPhotoCodecTypes.first else { return nil }
        let dimensions = settings.maxPhotoDimensions
        settings.rawEmbeddedThumbnailPhotoFormat = [
            AVVideoCodecKey: thumbnailCodec, AVVideoWidthKey: dimensions.width, AVVideoHeightKey: dimensions.height,
        ]
        photoOutput.capturePhoto(with: settings, delegate: self)
        guard finished.wait(timeout: .now() + 120) == .success else { return nil }
        guard let files = lock.withLock({ rawData.flatMap { raw in processedData.map { (raw, $0) } } }) else {
            return nil
        }
        try files.0.write(to: url)
        return files
    }
}

extension DropIn {
    /// The RAW photo's file is the DNG the output's `availableRawPhotoFileTypes` names: a TIFF file that exiftool
    /// reads as a DNG with the preview asked for, beside the processed photo's JPEG.
    @Suite struct RawCameraProgramTests {
        @Test(.needs(.exiftool)) func theRawFileIsADNG() throws {
            let program = RawCameraProgram()
            try program.configure()
            #expect(program.photoOutput.availableRawPhotoFileTypes == [.dng])
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString).dng")
            defer { try? FileManager.default.removeItem(at: url) }
            let files = try #require(try program.run(writingRawTo: url))
            #expect(Array(files.processed.prefix(2)) == [0xFF, 0xD8])
            #expect(Array(files.raw.prefix(4)) == [0x4D, 0x4D, 0x00, 0x2A])
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try ExternalTool.exiftool.require())
            process.arguments = ["-s3", "-FileType", "-Make", "-PreviewImageLength", url.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let lines = output.split(separator: "\n")
            #expect(lines.prefix(2) == ["DNG", "Apple"])
            #expect(lines.count == 3 && Int(lines[2]).map { $0 > 1000 } == true, "\(lines)")
        }
    }
}
