import AVFoundation
import CoreImage
import Foundation
import ObscuraTesting
import Spectra
import Testing

/// A RAW camera app's editing step, as iOS code writes it: a Bayer RAW photo taken through `AVCapturePhotoOutput`,
/// its DNG handed to `CIRAWFilter(imageData:identifierHint:)`, adjusted and rendered by a `CIContext`.
final class RawPhotoTaker: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCapturePhotoOutput()
    private let done = DispatchSemaphore(value: 0)
    private(set) var data: Data?

    func take() throws -> Data {
        session.beginConfiguration()
        session.sessionPreset = .photo
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(output) { session.addOutput(output) }
        session.commitConfiguration()
        session.startRunning()
        defer { session.stopRunning() }
        let format = try #require(output.availableRawPhotoPixelFormatTypes.first {
            AVCapturePhotoOutput.isBayerRAWPixelFormat($0)
        })
        output.capturePhoto(with: AVCapturePhotoSettings(rawPixelFormatType: format), delegate: self)
        guard done.wait(timeout: .now() + 120) == .success, let data else { throw CocoaError(.fileReadUnknown) }
        return data
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        if photo.isRawPhoto { data = photo.fileDataRepresentation() }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        done.signal()
    }
}

@Suite(.serialized) struct RawDevelopmentProgramTests {
    static let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("OwnScenes/chart-in-daylight.yaml").path

    /// The mean working-space RGB of a square `side` pixels wide centred at (x, y) from the top-left.
    static func mean(_ image: CIImage, x: Double, y: Double, side: Int = 24) -> SIMD3<Double> {
        let height = Double(image.extent.height)
        let rect = CGRect(x: x.rounded() - Double(side / 2), y: height - y.rounded() - Double(side / 2), width: Double(side), height: Double(side))
        let rows = Fixture.pixels(image, rect)
        var sum = SIMD3<Double>(0, 0, 0)
        for row in rows { for p in row { sum += SIMD3(Double(p.x), Double(p.y), Double(p.z)) } }
        return sum / Double(side * side)
    }

    /// Where the centre of ColorChecker patch n (1…24, reading order) lies in the sensor's picture: the chart is
    /// 0.2794 × 0.1905 m, square to the axis at 0.5 m, so a point (X, Y) on it is at f·X/0.5 from the centre, f the
    /// focal length in pixels that the horizontal field of view gives.
    static func patchCentre(_ n: Int, width: Double, height: Double, fieldOfView: Double) -> (Double, Double) {
        let f = width / 2 / tan(fieldOfView * .pi / 360)
        let (column, row) = (Double((n - 1) % 6), Double((n - 1) / 6))
        let (x, y) = (-0.2794 / 2 + (column + 0.5) * 0.2794 / 6, 0.1905 / 2 - (row + 0.5) * 0.1905 / 4)
        return (width / 2 + f * x / 0.5, height / 2 - f * y / 0.5)
    }

    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.scene))
    func theDevelopedChartShowsItsColours() throws {
        let data = try RawPhotoTaker().take()
        let raw = try #require(CIRAWFilter(imageData: data, identifierHint: "com.adobe.raw-image"))
        // The sensor's own orientation, so that the chart's geometry holds.
        raw.orientation = .up
        let image = try #require(raw.outputImage)
        let size = raw.nativeSize
        #expect(image.extent.size == size)
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let fov = Double(camera.activeFormat.videoFieldOfView)
        let white = Colorimetry.whitePoint(of: Illuminants.d65)
        let toXYZ = RGBColorSpace.linearSRGB.toXYZ
        var errors: [Double] = []
        for n in 1...24 {
            let (x, y) = Self.patchCentre(n, width: Double(size.width), height: Double(size.height), fieldOfView: fov)
            let xyz = toXYZ * Self.mean(image, x: x, y: y)
            let patch = try #require(ColorChecker.patch(n))
            let truth = Colorimetry.xyz(reflectance: patch.reflectance, illuminant: Illuminants.d65)
            // Lightness matched: the light's fall-off and the lens's shading across the chart are exposure, not
            // colour.
            let matched = xyz * (truth.Y / 100 / max(xyz.y, 1e-9))
            let e = DeltaE.ciede2000(Lab(XYZ(matched * 100), white: white), Lab(truth, white: white))
            errors.append(e)
            if (19...24).contains(n) {
                // The greys stay grey: the file's white is the daylight's.
                let lab = Lab(XYZ(matched * 100), white: white)
                #expect((lab.a * lab.a + lab.b * lab.b).squareRoot() < 3, "grey patch \(n): a* \(lab.a), b* \(lab.b)")
            }
        }
        // A 3 × 3 colour matrix on a camera whose sensitivities are not the eye's: a few ΔE00 on average, none wild.
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 4, "mean ΔE00 \(mean): \(errors.map { String(format: "%.1f", $0) })")
        #expect(errors.max()! < 10, "\(errors.map { String(format: "%.1f", $0) })")
    }

    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.scene))
    func adjustmentsDoWhatTheirNamesSay() throws {
        let data = try RawPhotoTaker().take()
        let raw = try #require(CIRAWFilter(imageData: data, identifierHint: nil))
        raw.orientation = .up
        let size = raw.nativeSize
        let (x, y) = (Double(size.width) / 2, Double(size.height) / 2)
        // The file's white is the daylight the phone balanced for, near 6500 K.
        #expect(abs(raw.neutralTemperature - 6500) < 1000, "as shot \(raw.neutralTemperature) K")
        raw.boostAmount = 0
        let linear = Self.mean(try #require(raw.outputImage), x: x, y: y)
        raw.exposure = 1
        let brighter = Self.mean(try #require(raw.outputImage), x: x, y: y)
        for c in 0..<3 { #expect(abs(brighter[c] / linear[c] - 2) < 0.01) }
        raw.exposure = 0
        // Told the light was a 3000 K lamp, the developer cools the daylit grey wall: blue well above red.
        let asShot = raw.neutralTemperature
        raw.neutralTemperature = 3000
        #expect(abs(raw.neutralTemperature - 3000) < 1)
        let wall = (x: Double(size.width) * 0.1, y: Double(size.height) * 0.1)
        let cooled = Self.mean(try #require(raw.outputImage), x: wall.x, y: wall.y)
        #expect(cooled.z > 1.5 * cooled.x, "\(cooled)")
        raw.neutralTemperature = asShot
        let neutral = Self.mean(try #require(raw.outputImage), x: wall.x, y: wall.y)
        #expect(abs(neutral.z / neutral.x - 1) < 0.1, "\(neutral)")
        // Half the scale, half the size; the file's orientation turns the picture.
        raw.scaleFactor = 0.5
        let half = try #require(raw.outputImage)
        #expect(half.extent.width == (size.width / 2).rounded() && half.extent.height == (size.height / 2).rounded())
        #expect(raw.properties[kCGImagePropertyPixelWidth as String] as? NSNumber == NSNumber(value: Int(size.width)))
    }

    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.scene))
    func aDNGOpensAsAnImageAndOtherDataDoesNot() throws {
        let data = try RawPhotoTaker().take()
        let image = try #require(CIImage(data: data))
        let raw = try #require(CIRAWFilter(imageData: data, identifierHint: nil))
        #expect(image.extent.size == raw.nativeSize)
        #expect(image.properties[kCGImagePropertyOrientation as String] != nil)
        #expect(CIRAWFilter(imageData: Data([0xFF, 0xD8, 0xFF, 0xD9]), identifierHint: nil) == nil)
        #expect(CIRAWFilter(imageData: Data("not a picture".utf8), identifierHint: nil) == nil)
    }
}
