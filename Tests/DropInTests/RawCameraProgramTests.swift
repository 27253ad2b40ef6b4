import AVFoundation
import ExternalTools
import Foundation
import ImageIO
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
            process.arguments = [
                "-s3", "-FileType", "-Make", "-PreviewImageLength", "-CalibrationIlluminant1", "-CalibrationIlluminant2",
                "-OpcodeList2", "-DNGBackwardVersion", url.path,
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let lines = output.split(separator: "\n")
            #expect(lines.prefix(2) == ["DNG", "Apple"])
            #expect(lines.count == 7 && Int(lines[2]).map { $0 > 1000 } == true, "\(lines)")
            // Read by exiftool, not by this package: the two calibrations, the lens shading as a gain map, and the
            // DNG version a reader needs to apply it.
            #expect(lines.dropFirst(3) == ["D65", "Standard Light A", "GainMap", "1.3.0.0"], "\(lines)")
        }

        /// ImageIO opens the DNG as a photo library or a file browser does: its type, its properties beside the
        /// processed photo's, its development, and its embedded preview as the thumbnail.
        @Test func theRawFileOpensInImageIO() throws {
            let program = RawCameraProgram()
            try program.configure()
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString).dng")
            defer { try? FileManager.default.removeItem(at: url) }
            let files = try #require(try program.run(writingRawTo: url))
            let raw = try #require(CGImageSourceCreateWithURL(url as CFURL, nil))
            let processed = try #require(CGImageSourceCreateWithData(files.processed as CFData, nil))
            #expect(CGImageSourceGetType(raw) as String? == "com.adobe.raw-image")
            #expect(CGImageSourceGetCount(raw) == 1)
            let properties = try #require(CGImageSourceCopyPropertiesAtIndex(raw, 0, nil) as? [String: Any])
            let jpeg = try #require(CGImageSourceCopyPropertiesAtIndex(processed, 0, nil) as? [String: Any])
            for key in [kCGImagePropertyPixelWidth, kCGImagePropertyPixelHeight, kCGImagePropertyOrientation] {
                #expect(properties[key as String] as? NSNumber == jpeg[key as String] as? NSNumber, "\(key)")
            }
            let exif = try #require(properties[kCGImagePropertyExifDictionary as String] as? [String: Any])
            let jpegExif = try #require(jpeg[kCGImagePropertyExifDictionary as String] as? [String: Any])
            #expect(
                exif[kCGImagePropertyExifExposureTime as String] as? NSNumber
                    == jpegExif[kCGImagePropertyExifExposureTime as String] as? NSNumber)
            let dng = try #require(properties[kCGImagePropertyDNGDictionary as String] as? [String: Any])
            let black = try #require(dng["BlackLevel"] as? NSNumber), white = try #require(dng["WhiteLevel"] as? NSNumber)
            #expect(black.intValue < white.intValue)
            // The development is as stored, unturned, at the processed photo's size (its brightness and colour are
            // checked in Core Image's RAW tests, where the two pictures share a working space).
            let developed = try #require(CGImageSourceCreateImageAtIndex(raw, 0, nil))
            let photo = try #require(CGImageSourceCreateImageAtIndex(processed, 0, nil))
            #expect(developed.width == photo.width && developed.height == photo.height)
            // The thumbnail is the embedded preview (the processed photo), fitted to the size asked for.
            let options = [kCGImageSourceThumbnailMaxPixelSize: 320] as CFDictionary
            let thumbnail = try #require(CGImageSourceCreateThumbnailAtIndex(raw, 0, options))
            #expect(max(thumbnail.width, thumbnail.height) == 320)
            // Data of no format ImageIO reads has no type.
            let other = try #require(CGImageSourceCreateWithData(Data("MM\u{0}*not a DNG".utf8) as CFData, nil))
            #expect(CGImageSourceGetType(other) == nil && CGImageSourceGetCount(other) == 0)
        }
    }
}
