import AVFoundation
import CoreImage
import Foundation
import Testing

/// A photo's metadata as apps read it: through ImageIO's keys on `AVCapturePhoto.metadata`, and from the photo's
/// file through `CIImage(data:)`'s `properties`, with `.applyOrientationProperty` standing a portrait photo upright.
final class PortraitPhotoTaker: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCapturePhotoOutput()
    private let done = DispatchSemaphore(value: 0)
    private(set) var photo: AVCapturePhoto?

    /// A VGA session on the back camera, its photos taken with the phone held upright (the photo connection
    /// turned a quarter turn clockwise, as a rotation coordinator sets it).
    init(angle: CGFloat = 90) throws {
        super.init()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let input = try AVCaptureDeviceInput(device: device)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(output) { session.addOutput(output) }
        session.commitConfiguration()
        let connection = try #require(output.connection(with: .video))
        if connection.isVideoRotationAngleSupported(angle) { connection.videoRotationAngle = angle }
    }

    func capture(_ codec: AVVideoCodecType) throws -> AVCapturePhoto {
        session.startRunning()
        defer { session.stopRunning() }
        output.capturePhoto(with: AVCapturePhotoSettings(format: [AVVideoCodecKey: codec]), delegate: self)
        guard done.wait(timeout: .now() + 60) == .success, let photo else { throw CocoaError(.fileReadUnknown) }
        return photo
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        self.photo = photo
        done.signal()
    }
}

@Suite struct PhotoPropertiesTests {
    // ImageIO documents each key's string; code that builds the keys itself, or reads files written elsewhere,
    // relies on them.
    @Test func keysHaveImageIOsNames() {
        #expect(kCGImagePropertyOrientation == "Orientation")
        #expect(kCGImagePropertyPixelWidth == "PixelWidth" && kCGImagePropertyPixelHeight == "PixelHeight")
        #expect(kCGImagePropertyExifDictionary == "{Exif}" && kCGImagePropertyTIFFDictionary == "{TIFF}")
        #expect(kCGImagePropertyExifExposureTime == "ExposureTime" && kCGImagePropertyExifFNumber == "FNumber")
        #expect(kCGImagePropertyExifISOSpeedRatings == "ISOSpeedRatings")
        #expect(kCGImagePropertyExifFocalLenIn35mmFilm == "FocalLenIn35mmFilm")
        #expect(kCGImagePropertyTIFFMake == "Make" && kCGImagePropertyTIFFModel == "Model")
    }

    // The idioms of public capture code: the orientation read as whichever integer type the code expects (on
    // iOS the value is an NSNumber, which gives any of them), and the Exif and TIFF dictionaries.
    @Test func metadataReadsAsIOSCodeReadsIt() throws {
        let taker = try PortraitPhotoTaker()
        let photo = try taker.capture(.jpeg)
        let metadata = photo.metadata
        #expect(metadata[kCGImagePropertyOrientation as String] as? UInt32 == 6)
        #expect(metadata[String(kCGImagePropertyOrientation)] as? Int32 == 6)
        #expect((metadata[kCGImagePropertyOrientation as String] as? NSNumber)?.intValue == 6)
        let orientation = try #require(metadata[kCGImagePropertyOrientation as String] as? UInt32)
        #expect(CGImagePropertyOrientation(rawValue: orientation) == .right)
        let tiff = try #require(metadata[kCGImagePropertyTIFFDictionary as String] as? [String: Any])
        #expect(tiff[kCGImagePropertyTIFFMake as String] as? String == "Apple")
        #expect(tiff[kCGImagePropertyTIFFOrientation as String] as? Int == 6)
        let exif = try #require(metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])
        let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let fNumber = try #require(exif[kCGImagePropertyExifFNumber as String] as? Double)
        #expect(abs(fNumber - Double(device.lensAperture)) < 0.01)
        let iso = try #require((exif[kCGImagePropertyExifISOSpeedRatings as String] as? [Int])?.first)
        #expect(iso > 0)
        #expect(exif[kCGImagePropertyExifPixelXDimension as String] as? Int == metadata[kCGImagePropertyPixelWidth as String] as? Int)
        #expect(exif[kCGImagePropertyExifVersion as String] as? [Int] == [2, 3, 2])
        let time = try #require(exif[kCGImagePropertyExifExposureTime as String] as? Double)
        #expect(time > 0 && time < 1)
    }

    // The file's metadata comes back with its image: the stored picture (landscape, as the sensor reads it) with
    // its orientation, the photo's Exif and its colour profile's name.
    @Test(arguments: [AVVideoCodecType.jpeg, .hevc])
    func fileCarriesThePhotosProperties(codec: AVVideoCodecType) throws {
        let taker = try PortraitPhotoTaker()
        let photo = try taker.capture(codec)
        let data = try #require(photo.fileDataRepresentation())
        let image = try #require(CIImage(data: data))
        #expect(image.extent.size == CGSize(width: 640, height: 480))
        let properties = image.properties
        #expect(properties[kCGImagePropertyOrientation as String] as? Int32 == 6)
        #expect(properties[kCGImagePropertyPixelWidth as String] as? Int == 640)
        #expect(properties[kCGImagePropertyPixelHeight as String] as? Int == 480)
        #expect(properties[kCGImagePropertyProfileName as String] as? String
            == photo.metadata[kCGImagePropertyProfileName as String] as? String)
        let tiff = try #require(properties[kCGImagePropertyTIFFDictionary as String] as? [String: Any])
        let photoTIFF = try #require(photo.metadata[kCGImagePropertyTIFFDictionary as String] as? [String: Any])
        #expect(tiff[kCGImagePropertyTIFFModel as String] as? String == photoTIFF[kCGImagePropertyTIFFModel as String] as? String)
        let exif = try #require(properties[kCGImagePropertyExifDictionary as String] as? [String: Any])
        let photoExif = try #require(photo.metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])
        let written = try #require(exif[kCGImagePropertyExifExposureTime as String] as? Double)
        let taken = try #require(photoExif[kCGImagePropertyExifExposureTime as String] as? Double)
        #expect(abs(written / taken - 1) < 1e-3, "file \(written) s, photo \(taken) s")
        #expect(exif[kCGImagePropertyExifISOSpeedRatings as String] as? [Int]
            == photoExif[kCGImagePropertyExifISOSpeedRatings as String] as? [Int])
    }

    // With `.applyOrientationProperty` the portrait photo stands upright: orientation 6 (TIFF 6.0: the stored
    // row 0 is the displayed right-hand column, the stored column 0 the displayed top row), so the displayed
    // pixel at row i, column j is the stored one at row 479 − j, column i.
    @Test func applyingTheOrientationStandsThePhotoUpright() throws {
        let taker = try PortraitPhotoTaker()
        let data = try #require(taker.capture(.jpeg).fileDataRepresentation())
        let stored = try #require(CIImage(data: data))
        let upright = try #require(CIImage(data: data, options: [.applyOrientationProperty: true]))
        #expect(upright.extent == CGRect(x: 0, y: 0, width: 480, height: 640))
        let context = CIContext()
        let a = try #require(context.createCGImage(stored, from: stored.extent))
        let b = try #require(context.createCGImage(upright, from: upright.extent))
        let storedBytes = Fixture.bytes(a), uprightBytes = Fixture.bytes(b)
        var worst = 0
        for i in stride(from: 0, to: 640, by: 7) {
            for j in stride(from: 0, to: 480, by: 5) {
                for c in 0..<3 {
                    let shown = Int(uprightBytes[b.bytesPerRow * i + 4 * j + c])
                    let kept = Int(storedBytes[a.bytesPerRow * (479 - j) + 4 * i + c])
                    worst = max(worst, abs(shown - kept))
                }
            }
        }
        #expect(worst <= 1, "upright pixels differ from the stored ones by up to \(worst)")
    }

    // `.properties` replaces the file's; `NSNull` leaves none (Core Image's documented options).
    @Test func propertiesOptionReplacesTheFiles() throws {
        let taker = try PortraitPhotoTaker()
        let data = try #require(taker.capture(.jpeg).fileDataRepresentation())
        #expect(try #require(CIImage(data: data, options: [.properties: NSNull()])).properties.isEmpty)
        let given = try #require(CIImage(data: data, options: [.properties: ["Note": "mine"]]))
        #expect(given.properties.count == 1 && given.properties["Note"] as? String == "mine")
    }

    // The auxiliary depth turns with its photo.
    @Test func auxiliaryDepthTurnsWithThePhoto() throws {
        let taker = DepthPhotoTaker()
        try taker.configure()
        let connection = try #require(taker.output.connection(with: .video))
        connection.videoRotationAngle = 90
        let data = try #require(try taker.capture().fileDataRepresentation())
        let depth = try #require(CIImage(data: data, options: [.auxiliaryDepth: true]))
        let upright = try #require(CIImage(data: data, options: [.auxiliaryDepth: true, .applyOrientationProperty: true]))
        #expect(upright.extent.width == depth.extent.height && upright.extent.height == depth.extent.width)
        #expect(depth.extent.width > depth.extent.height)
    }
}
