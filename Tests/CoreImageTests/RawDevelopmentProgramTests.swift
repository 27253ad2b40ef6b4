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
    private(set) var processed: Data?
    /// The RAW photo's mosaic and metadata, as an app hands them to `CIRAWFilter(cvPixelBuffer:properties:)`.
    private(set) var buffer: CVPixelBuffer?
    private(set) var metadata: [String: Any] = [:]

    /// A Bayer RAW photo's file; with `withJPEG`, a JPEG companion too (`processed`).
    func take(withJPEG: Bool = false) throws -> Data {
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
        let settings = withJPEG
            ? AVCapturePhotoSettings(
                rawPixelFormatType: format, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
            : AVCapturePhotoSettings(rawPixelFormatType: format)
        output.capturePhoto(with: settings, delegate: self)
        guard done.wait(timeout: .now() + 120) == .success, let data else { throw CocoaError(.fileReadUnknown) }
        return data
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        if photo.isRawPhoto {
            data = photo.fileDataRepresentation()
            buffer = photo.pixelBuffer
            metadata = photo.metadata
        } else {
            processed = photo.fileDataRepresentation()
        }
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
    static let tungstenScene = URL(fileURLWithPath: scene).deletingLastPathComponent()
        .appendingPathComponent("chart-under-tungsten.yaml").path
    static let blueLEDScene = URL(fileURLWithPath: scene).deletingLastPathComponent()
        .appendingPathComponent("toys-under-blue-led.yaml").path

    /// The mean working-space RGB of a square `side` pixels wide centred at (x, y) from the top-left.
    static func mean(_ image: CIImage, x: Double, y: Double, side: Int = 24, context: CIContext = Fixture.raw)
        -> SIMD3<Double>
    {
        let height = Double(image.extent.height)
        let rect = CGRect(x: x.rounded() - Double(side / 2), y: height - y.rounded() - Double(side / 2), width: Double(side), height: Double(side))
        let rows = Fixture.pixels(image, rect, context)
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

    /// The chart in daylight and under tungsten: the development shows each patch as the chart's colorimetry under
    /// the light, carried to D65 (Bradford), as a balanced photo shows it. Under tungsten the DNG's second
    /// calibration (Standard light A) carries the colour; with its D65 matrix alone the reds go wrong by over ΔE00 10.
    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.scene))
    func theDevelopedChartShowsItsColours() throws { try Self.developChart(tungsten: false) }

    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.tungstenScene))
    func theDevelopedChartShowsItsColoursUnderTungsten() throws { try Self.developChart(tungsten: true) }

    static func developChart(tungsten: Bool) throws {
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
        let light = tungsten ? Illuminants.a : Illuminants.d65
        let lightWhite = Colorimetry.whitePoint(of: light)
        let toD65 = ChromaticAdaptation.matrix(from: XYZ(lightWhite.vector / lightWhite.Y), to: XYZ(white.vector / white.Y))
        let toXYZ = RGBColorSpace.linearSRGB.toXYZ
        var errors: [Double] = []
        for n in 1...24 {
            let (x, y) = Self.patchCentre(n, width: Double(size.width), height: Double(size.height), fieldOfView: fov)
            let xyz = toXYZ * Self.mean(image, x: x, y: y)
            let patch = try #require(ColorChecker.patch(n))
            let truth = XYZ(toD65 * Colorimetry.xyz(reflectance: patch.reflectance, illuminant: light).vector)
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
        raw.boostAmount = 1
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

    /// What an editing app's other controls do: the lens correction switch, the grey picker, the decoder version,
    /// and the adjustments this developer does not offer, which say so and change nothing.
    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.scene))
    func lensCorrectionGreyPickerAndUnofferedAdjustments() throws {
        let data = try RawPhotoTaker().take()
        let raw = try #require(CIRAWFilter(imageData: data, identifierHint: nil))
        raw.orientation = .up
        raw.boostAmount = 0
        let size = raw.nativeSize
        let (width, height) = (Double(size.width), Double(size.height))
        let centre = (x: width / 2, y: height / 2), corner = (x: width * 0.04, y: height * 0.04)
        // The phone's DNG carries the lens shading its ISP corrects; switched off, the corner keeps the lens's
        // fall-off (the profile's relative illumination there is about a third of the centre's, the photo puts
        // back most of it), and the centre, where the correction is 1, stays as it was.
        #expect(raw.isLensCorrectionSupported && raw.isLensCorrectionEnabled)
        let corrected = try #require(raw.outputImage)
        raw.isLensCorrectionEnabled = false
        let uncorrected = try #require(raw.outputImage)
        let cornerRatio = Self.mean(uncorrected, x: corner.x, y: corner.y).sum()
            / Self.mean(corrected, x: corner.x, y: corner.y).sum()
        let centreRatio = Self.mean(uncorrected, x: centre.x, y: centre.y).sum()
            / Self.mean(corrected, x: centre.x, y: centre.y).sum()
        #expect(cornerRatio < 0.7, "corner without/with correction \(cornerRatio)")
        #expect(abs(centreRatio - 1) < 0.01, "centre without/with correction \(centreRatio)")
        raw.isLensCorrectionEnabled = true
        // The grey picker: told the light was a 3000 K lamp, then shown the daylit grey wall (Core Image
        // coordinates, from the bottom), the developer takes the wall's colour for white again.
        let asShot = raw.neutralTemperature
        raw.neutralTemperature = 3000
        let wall = (x: width * 0.1, y: height * 0.1)
        #expect(Self.mean(try #require(raw.outputImage), x: wall.x, y: wall.y).z > 1.5 * Self.mean(corrected, x: wall.x, y: wall.y).z)
        raw.neutralLocation = CGPoint(x: wall.x, y: height - 1 - wall.y)
        let picked = Self.mean(try #require(raw.outputImage), x: wall.x, y: wall.y)
        #expect(abs(picked.z / picked.x - 1) < 0.05 && abs(picked.y / picked.x - 1) < 0.05, "\(picked)")
        #expect(abs(raw.neutralTemperature - asShot) < 400, "picked \(raw.neutralTemperature) K, as shot \(asShot) K")
        // A point off the picture reads nothing: the white stays.
        let before = raw.neutralChromaticity
        raw.neutralLocation = CGPoint(x: -50, y: -50)
        #expect(raw.neutralChromaticity == before)
        // Adjustments offered for some cameras only: not for this file, and their amounts change nothing.
        #expect(!raw.isLuminanceNoiseReductionSupported && !raw.isColorNoiseReductionSupported)
        #expect(!raw.isSharpnessSupported && !raw.isContrastSupported && !raw.isDetailSupported)
        #expect(!raw.isMoireReductionSupported && !raw.isLocalToneMapSupported)
        let plain = Self.mean(try #require(raw.outputImage), x: centre.x, y: centre.y)
        raw.sharpnessAmount = 1
        raw.luminanceNoiseReductionAmount = 1
        raw.isDraftModeEnabled = true
        #expect(Self.mean(try #require(raw.outputImage), x: centre.x, y: centre.y) == plain)
        #expect(raw.portraitEffectsMatte == nil && raw.semanticSegmentationSkyMatte == nil)
        raw.sharpnessAmount = 0
        raw.luminanceNoiseReductionAmount = 0
        // A filter in linear space sees the linear development and hands its output to the tone step: an exposure
        // filter of +1 EV doubles the linear values, and one of 0 EV leaves the toned picture as it was. Read on
        // the chart's white patch, a stop brighter, so that the shoulder bends it.
        raw.exposure = 1
        raw.boostAmount = 1
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let white = Self.patchCentre(19, width: width, height: height, fieldOfView: Double(camera.activeFormat.videoFieldOfView))
        let toned = Self.mean(try #require(raw.outputImage), x: white.0, y: white.1)
        let exposure = try #require(CIFilter(name: "CIExposureAdjust"))
        exposure.setValue(0.0, forKey: kCIInputEVKey)
        raw.linearSpaceFilter = exposure
        let through = Self.mean(try #require(raw.outputImage), x: white.0, y: white.1)
        for c in 0..<3 { #expect(abs(through[c] / toned[c] - 1) < 1e-4, "\(through) against \(toned)") }
        raw.boostAmount = 0
        let linearWhite = Self.mean(try #require(raw.outputImage), x: white.0, y: white.1)
        #expect(linearWhite.max() > 0.7 && (linearWhite - toned).max() > 0.02, "\(linearWhite) toned \(toned)")
        exposure.setValue(1.0, forKey: kCIInputEVKey)
        let doubled = Self.mean(try #require(raw.outputImage), x: white.0, y: white.1)
        for c in 0..<3 { #expect(abs(doubled[c] / linearWhite[c] - 2) < 1e-3, "\(doubled) against \(linearWhite)") }
        raw.linearSpaceFilter = nil
        raw.exposure = 0
        // The shadow bias is taken off the linear values.
        raw.boostAmount = 0
        let linear = Self.mean(try #require(raw.outputImage), x: centre.x, y: centre.y)
        raw.shadowBias = 0.01
        let biased = Self.mean(try #require(raw.outputImage), x: centre.x, y: centre.y)
        for c in 0..<3 { #expect(abs(biased[c] - (linear[c] - 0.01)) < 1e-4, "\(biased) against \(linear)") }
        raw.shadowBias = 0
        // A decoder version the file does not list gives no picture, as Apple's header says.
        #expect(raw.supportedDecoderVersions.contains(raw.decoderVersion))
        raw.decoderVersion = .version6
        #expect(raw.outputImage == nil)
        raw.decoderVersion = .version8DNG
        #expect(raw.outputImage != nil)
    }

    /// At zero exposure the development has the processed photo's brightness, from the centre to the corners:
    /// BaselineExposure carries the photo's exposure lift, the tone curve is the photo's, and the DNG's gain map
    /// (OpcodeList2) puts back the share of the lens's fall-off the photo's ISP puts back. Read on the chart's
    /// middle greys (patches 20 to 23) and on the grey wall near each corner, both pictures rendered by a
    /// colour-managed context into its linear working space, whatever the JPEG's colour space. Without the gain map
    /// the corners would be over 40 % darker (R = 0.30 at the corner against 0.86 after the photo's correction).
    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.scene))
    func theDevelopmentHasTheProcessedPhotosBrightness() throws {
        let taker = RawPhotoTaker()
        let data = try taker.take(withJPEG: true)
        let raw = try #require(CIRAWFilter(imageData: data, identifierHint: nil))
        raw.orientation = .up
        let developed = try #require(raw.outputImage)
        let jpeg = try #require(taker.processed)
        let photo = try #require(CIImage(data: jpeg, options: [.applyOrientationProperty: false]))
        #expect(photo.extent.size == developed.extent.size)
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let fov = Double(camera.activeFormat.videoFieldOfView)
        let (width, height) = (Double(developed.extent.width), Double(developed.extent.height))
        var places = (20...23).map { Self.patchCentre($0, width: width, height: height, fieldOfView: fov) }
        places += [(0.06, 0.06), (0.94, 0.06), (0.06, 0.94), (0.94, 0.94)].map { (width * $0.0, height * $0.1) }
        for (x, y) in places {
            let managed = Fixture.managed
            let (a, b) = (Self.mean(developed, x: x, y: y, context: managed), Self.mean(photo, x: x, y: y, context: managed))
            #expect(abs(a.sum() / b.sum() - 1) < 0.03, "at (\(Int(x)), \(Int(y))): developed \(a), processed \(b)")
        }
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

    /// The RAW photo's Bayer pixel buffer and metadata develop as its DNG does (the metadata's `{DNG}` dictionary
    /// carries the file's levels, calibrations and gain map); the camera is among those the filter lists; another
    /// pixel format, or metadata without the calibration, gives no filter.
    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.scene))
    func thePixelBufferDevelopsAsTheFile() throws {
        let taker = RawPhotoTaker()
        let data = try taker.take()
        let buffer = try #require(taker.buffer)
        let fromFile = try #require(CIRAWFilter(imageData: data, identifierHint: nil))
        let fromBuffer = try #require(CIRAWFilter(cvPixelBuffer: buffer, properties: taker.metadata))
        #expect(fromBuffer.nativeSize == fromFile.nativeSize)
        #expect(fromBuffer.orientation == fromFile.orientation)
        // The file holds its numbers as rationals, the metadata as they are: the two differ in the fifth digit.
        #expect(fromBuffer.isLensCorrectionSupported && abs(fromBuffer.baselineExposure - fromFile.baselineExposure) < 1e-3)
        #expect(abs(fromBuffer.neutralTemperature - fromFile.neutralTemperature) < 5)
        for filter in [fromFile, fromBuffer] { filter.scaleFactor = 0.25 }
        let (a, b) = (try #require(fromFile.outputImage), try #require(fromBuffer.outputImage))
        #expect(a.extent == b.extent)
        let (pa, pb) = (Fixture.pixels(a, a.extent), Fixture.pixels(b, b.extent))
        var largest: Float = 0
        for (ra, rb) in zip(pa, pb) { for (u, v) in zip(ra, rb) { for c in 0..<4 { largest = max(largest, abs(u[c] - v[c])) } } }
        #expect(largest < 2e-3, "largest difference \(largest)")
        let dng = try #require(taker.metadata[kCGImagePropertyDNGDictionary as String] as? [String: Any])
        let model = try #require(dng["UniqueCameraModel"] as? String)
        #expect(CIRAWFilter.supportedCameraModels.contains(model), "\(model) not in \(CIRAWFilter.supportedCameraModels)")
        #expect(CIRAWFilter.supportedCameraModels.allSatisfy { !$0.contains(" front ") })
        // Not a Bayer buffer, or no calibration to develop it by.
        var bgra: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_32BGRA, nil, &bgra) == kCVReturnSuccess)
        #expect(CIRAWFilter(cvPixelBuffer: try #require(bgra), properties: taker.metadata) == nil)
        var bare = taker.metadata
        bare[kCGImagePropertyDNGDictionary as String] = dng.filter { $0.key != "ColorMatrix1" }
        #expect(CIRAWFilter(cvPixelBuffer: buffer, properties: bare) == nil)
    }

    /// Gamut mapping: toys under a blue LED, whose light sRGB's primaries cannot make, develop linearly (no tone
    /// curve, which would clip a negative channel at 0 channel by channel) with no negative channel when mapped (the
    /// default) and with negative ones when not; with the tone curve, the mapped picture is the one that differs.
    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.blueLEDScene))
    func gamutMappingBringsColoursIntoSRGB() throws {
        let data = try RawPhotoTaker().take()
        let raw = try #require(CIRAWFilter(imageData: data, identifierHint: nil))
        raw.scaleFactor = 0.5
        #expect(raw.isGamutMappingEnabled)
        func pixels() throws -> [SIMD4<Float>] {
            let image = try #require(raw.outputImage)
            return Array(Fixture.pixels(image, image.extent).joined())
        }
        func lowest(_ p: [SIMD4<Float>]) -> Float { p.reduce(Float.infinity) { min($0, $1.x, $1.y, $1.z) } }
        let toned = try pixels()
        raw.boostAmount = 0
        #expect(lowest(try pixels()) >= -1e-6)
        raw.isGamutMappingEnabled = false
        let unmapped = try pixels()
        #expect(lowest(unmapped) < -0.01)
        let outside = unmapped.filter { min($0.x, $0.y, $0.z) < -0.01 }.count
        raw.boostAmount = 1
        let clipped = try pixels()
        let changed = zip(toned, clipped).filter { abs($0.0.x - $0.1.x) + abs($0.0.y - $0.1.y) + abs($0.0.z - $0.1.z) > 1e-3 }
        #expect(changed.count >= outside / 2, "\(changed.count) pixels changed, \(outside) outside sRGB")
    }

    /// Extended dynamic range: with the exposure raised so that the white patch passes the processed photo's white,
    /// a standard development holds it at 1 and an extended one (amount 1, a white at 2) keeps it above 1, while
    /// the mid-grey below the knee is the same in both.
    @Test(.obscura(device: "iphone-15-pro", scene: RawDevelopmentProgramTests.scene))
    func extendedRangeKeepsTheWhiteAboveOne() throws {
        let data = try RawPhotoTaker().take()
        let raw = try #require(CIRAWFilter(imageData: data, identifierHint: nil))
        raw.orientation = .up
        raw.scaleFactor = 0.5
        #expect(raw.extendedDynamicRangeAmount == 0)
        let size = try #require(raw.outputImage).extent.size
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let fov = Double(camera.activeFormat.videoFieldOfView)
        let (wx, wy) = Self.patchCentre(19, width: Double(size.width), height: Double(size.height), fieldOfView: fov)
        let (gx, gy) = Self.patchCentre(22, width: Double(size.width), height: Double(size.height), fieldOfView: fov)
        raw.exposure = 1.5
        let standard = try #require(raw.outputImage)
        raw.extendedDynamicRangeAmount = 1
        let extended = try #require(raw.outputImage)
        let (white, whiteEDR) = (Self.mean(standard, x: wx, y: wy, side: 8), Self.mean(extended, x: wx, y: wy, side: 8))
        #expect(white.max() <= 1 + 1e-6 && whiteEDR.min() > 1.05, "white patch: standard \(white), extended \(whiteEDR)")
        let (grey, greyEDR) = (Self.mean(standard, x: gx, y: gy, side: 8), Self.mean(extended, x: gx, y: gy, side: 8))
        #expect(grey.max() < 0.55 && (0..<3).allSatisfy { abs(grey[$0] - greyEDR[$0]) < 1e-5 }, "grey patch: \(grey), \(greyEDR)")
    }
}
