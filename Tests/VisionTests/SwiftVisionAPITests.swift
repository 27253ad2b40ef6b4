import AVFoundation
import CoreImage
import CoreVideo
import ExternalTools
import Foundation
import Obscura
import ObscuraTesting
import Testing
import Vision

/// Vision's Swift interface (iOS 18) as modern apps write it: a request value, `try await request.perform(on:)` or an
/// `ImageRequestHandler`, and observations with normalised geometry (Capture rules §22.10). What the requests find is
/// checked against the drawing or the scene, and against the `VN…` request of the same detector.
@Suite struct SwiftVisionAPITests {
    /// Normalised geometry against hand-worked values: a 400 × 300 image.
    @Test func normalisedRectanglesAndPointsTurnIntoPixels() {
        let size = CGSize(width: 400, height: 300)
        let rect = NormalizedRect(x: 0.25, y: 0.1, width: 0.5, height: 0.2)
        #expect(rect.toImageCoordinates(size) == CGRect(x: 100, y: 30, width: 200, height: 60))
        // From the top: the rectangle's top edge, 0.3 up from the bottom, lies 0.7 of the height down.
        #expect(rect.toImageCoordinates(size, origin: .upperLeft) == CGRect(x: 100, y: 210, width: 200, height: 60))
        #expect(rect.verticallyFlipped() == NormalizedRect(x: 0.25, y: 0.7, width: 0.5, height: 0.2))
        #expect(NormalizedRect(imageRect: CGRect(x: 100, y: 30, width: 200, height: 60), in: size) == rect)
        #expect(NormalizedRect.fullImage.cgRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        // Normalised to the right half: its lower-left quarter is the image's (0.5, 0)–(0.75, 0.5).
        let right = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let quarter = NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5)
        #expect(
            quarter.toImageCoordinates(from: right, imageSize: size) == CGRect(x: 200, y: 0, width: 100, height: 150))
        #expect(
            NormalizedRect(imageRect: CGRect(x: 200, y: 0, width: 100, height: 150), in: size, normalizedTo: right)
                == quarter)

        let point = NormalizedPoint(x: 0.25, y: 0.75)
        #expect(point.toImageCoordinates(size) == CGPoint(x: 100, y: 225))
        #expect(point.toImageCoordinates(size, origin: .upperLeft) == CGPoint(x: 100, y: 75))
        #expect(point.toImageCoordinates(from: right, imageSize: size) == CGPoint(x: 250, y: 225))
        #expect(NormalizedPoint(imagePoint: CGPoint(x: 250, y: 225), in: size, normalizedTo: right) == point)
        #expect(point.verticallyFlipped() == NormalizedPoint(x: 0.25, y: 0.25) && NormalizedPoint.zero.cgPoint == .zero)
    }

    // A document scanner of iOS 18: a configured request value performed on the picture, the corners where the print
    // was drawn, and the bounding box their extent.
    @Test func aScannerFindsThePrintsCorners() async throws {
        let drawing = Drawing(width: 400, height: 300, shapes: [VNDetectRectanglesRequestTests.print])
        var request = DetectRectanglesRequest()
        #expect(
            request.maximumAspectRatio == 1 && request.minimumAspectRatio == 0.5 && request.maximumObservations == 1)
        request.minimumAspectRatio = 0.3
        let rectangles = try await request.perform(on: try drawing.cgImage())
        let found = try #require(rectangles.first)
        #expect(rectangles.count == 1)
        let truth = VNDetectRectanglesRequestTests.print.map { Drawing.normalised($0, width: 400, height: 300) }
        for (corner, want) in zip([found.topLeft, found.topRight, found.bottomRight, found.bottomLeft], truth) {
            #expect(hypot(corner.x - want.x, corner.y - want.y) < 0.01, "\(corner) against \(want)")
        }
        let xs = truth.map(\.x)
        #expect(abs(found.boundingBox.origin.x - (xs.min() ?? 0)) < 0.01)
        #expect(abs(found.boundingBox.width - ((xs.max() ?? 0) - (xs.min() ?? 0))) < 0.01)
        #expect(found.originatingRequestDescriptor == .detectRectanglesRequest(.revision1))
        #expect(found.confidence > 0 && found.confidence <= 1)
        // A narrower aspect range than the print's keeps nothing.
        request.minimumAspectRatio = 0.95
        #expect(try await request.perform(on: try drawing.cgImage()).isEmpty)
    }

    // The picture stored on its side, with the orientation that turns it upright: the same corners as upright.
    @Test func anOrientedPixelBufferIsSeenUpright() async throws {
        let upright = Drawing(width: 400, height: 300, shapes: [VNDetectRectanglesRequestTests.print])
        var request = DetectRectanglesRequest()
        request.minimumAspectRatio = 0.3
        let want = try #require(try await request.perform(on: try upright.cgImage()).first)
        let stored = Sideways(upright: upright)
        let got = try #require(try await request.perform(on: try stored.pixelBuffer(), orientation: .right).first)
        #expect(hypot(got.topLeft.x - want.topLeft.x, got.topLeft.y - want.topLeft.y) < 0.01, "\(got) vs \(want)")
    }

    // Failures are `VisionError`s: data that holds no picture, and a region of interest outside the image.
    @Test func failuresAreVisionErrors() async throws {
        let drawing = Drawing(width: 64, height: 48, shapes: [])
        var request = DetectRectanglesRequest()
        request.regionOfInterest = NormalizedRect(x: 0.5, y: 0.5, width: 1, height: 1)
        await #expect {
            _ = try await request.perform(on: try drawing.cgImage())
        } throws: { error in
            if case .invalidArgument = error as? VisionError { return true }
            return false
        }
        await #expect {
            _ = try await DetectRectanglesRequest().perform(on: Data("not an image".utf8))
        } throws: { error in
            if case .invalidImage = error as? VisionError { return true }
            return false
        }
    }

    // Several requests on one handler: the tuple form waits for all, `performAll` hands each result over as it
    // comes, a failing request as `.error`.
    @Test func oneHandlerManyRequests() async throws {
        let drawing = Drawing(width: 400, height: 300, shapes: [VNDetectRectanglesRequestTests.print])
        let handler = ImageRequestHandler(try drawing.cgImage())
        var rectangles = DetectRectanglesRequest()
        rectangles.minimumAspectRatio = 0.3
        var small = DetectRectanglesRequest()
        small.minimumSize = 0.9
        let (found, none) = try await handler.perform(rectangles, small)
        #expect(found.count == 1 && none.isEmpty)

        var outside = DetectRectanglesRequest()
        outside.regionOfInterest = NormalizedRect(x: -1, y: 0, width: 1, height: 1)
        var kinds: [String] = []
        for await result in handler.performAll([rectangles, outside] as [any VisionRequest]) {
            switch result {
            case let .detectRectangles(_, observations): kinds.append("rectangles \(observations.count)")
            case let .error(_, error): kinds.append(error is VisionError ? "error" : "other")
            default: kinds.append("unexpected")
            }
        }
        #expect(kinds == ["rectangles 1", "error"])
    }
}

/// Saliency through the Swift interface: the map an auto-crop reads, as the `VN…` request makes it.
@Suite struct SwiftVisionSaliencyTests {
    // One dark square on a light wall, right of centre: the objectness map is hottest on it, its one salient object
    // covers it, and the map's values are the `VN…` request's, pixel for pixel.
    @Test func aSquaresHeatMapAndBox() async throws {
        let square = VNSaliencyRequestTests.square(220, 90, 90)
        let drawing = Drawing(width: 400, height: 300, shapes: [square])
        let observation = try await GenerateObjectnessBasedSaliencyImageRequest().perform(on: try drawing.pixelBuffer())
        let map = observation.heatMap
        #expect(map.size == CGSize(width: 68, height: 68) && map.pixelFormat == kCVPixelFormatType_OneComponent32Float)
        // The square spans x 220–310 of 400 and y 90–180 of 300 from the top: normalised from the bottom, its
        // centre is (0.6625, 0.55).
        let centre = NormalizedPoint(x: 0.6625, y: 0.55)
        #expect(map.pixel(at: centre) > 0.5 && map.pixel(at: NormalizedPoint(x: 0.05, y: 0.05)) < 0.1)
        let box = try #require(observation.salientObjects.first).boundingBox.cgRect
        #expect(box.contains(centre.cgPoint) && observation.salientObjects.count == 1)

        let classic = try VNSaliencyRequestTests.observation(
            VNGenerateObjectnessBasedSaliencyImageRequest(), on: drawing)
        let values = VNSaliencyRequestTests.heat(classic).values
        // Row 20 from the top, column 45: the same pixel through `pixel(at:)` (its centre, normalised from the bottom).
        #expect(map.pixel(at: NormalizedPoint(x: 45.5 / 68, y: 1 - 20.5 / 68)) == values[20 * 68 + 45])
        #expect(try map.cgImage.width == 68)
        let attention = try await GenerateAttentionBasedSaliencyImageRequest().perform(on: try drawing.cgImage())
        #expect(attention.salientObjects.count <= 1 && attention.heatMap.size.width == 68)
        #expect(attention.originatingRequestDescriptor == .generateAttentionBasedSaliencyImageRequest(.revision2))
    }
}

/// Faces through the Swift interface: the box the `VN…` request finds, at the place OpenCV finds the drawn face.
@Suite(.needs(.faceCascade)) struct SwiftVisionFaceTests {
    @Test func aSelfiesFace() async throws {
        let buffer = try VNDetectFaceRectanglesRequestTests.single.pixelBuffer()
        let faces = try await DetectFaceRectanglesRequest().perform(on: buffer)
        let face = try #require(faces.first)
        #expect(faces.count == 1)
        VNDetectFaceRectanglesRequestTests.expectBox(
            face.boundingBox.cgRect,
            VNDetectFaceRectanglesRequestTests.normalised(VNDetectFaceRectanglesRequestTests.openCVSingle[0]))
        #expect(face.confidence > 0.9 && abs(face.roll.converted(to: .degrees).value) < 1)
        #expect(face.yaw.value == 0 && face.pitch.value == 0)
        #expect(face.originatingRequestDescriptor == .detectFaceRectanglesRequest(.revision3))
        #expect(DetectFaceRectanglesRequest.supportedRevisions == [.revision3])
        // Drawn in the upper-left convention, the box's top edge lies as far down as the face's top.
        let size = CGSize(width: 640, height: 480)
        let drawn = face.boundingBox.toImageCoordinates(size, origin: .upperLeft)
        #expect(abs(drawn.minY - VNDetectFaceRectanglesRequestTests.openCVSingle[0].1) < 3)
    }
}

/// Codes and text from photos taken through the capture API, read by the Swift requests as the `VN…` ones read them.
@Suite struct SwiftVisionCaptureTests {
    @Test(.needs(.zxing), .obscura(device: "iphone-15-pro", scene: "qr-on-desk"))
    func aQRCodeIsReadWithItsCorners() async throws {
        let photo = try CodePhoto.take()
        var request = DetectBarcodesRequest()
        #expect(request.symbologies == BarcodeSymbology.allCases)
        #expect(request.supportedSymbologies.contains(.qr) && !request.supportedSymbologies.contains(.msiPlessey))
        request.symbologies = [.qr]
        let codes = try await request.perform(on: photo.image)
        let qr = try #require(codes.first)
        #expect(codes.count == 1 && qr.symbology == .qr && qr.payloadString == "https://example.com")
        #expect(qr.payloadData == Data("https://example.com".utf8))
        let classic = VNDetectBarcodesRequest()
        try VNImageRequestHandler(cgImage: photo.image, options: [:]).perform([classic])
        let same = try #require(classic.results?.first { $0.symbology == .qr })
        #expect(qr.topLeft.cgPoint == same.topLeft && qr.bottomRight.cgPoint == same.bottomRight)
        #expect(qr.boundingBox.cgRect == same.boundingBox)
        // Looking for linear codes only, the QR code is not reported.
        request.symbologies = [.ean13, .code128]
        #expect(try await request.perform(on: photo.image).isEmpty)
    }

    @Test(.needs(.tesseract), .obscura(device: "iphone-15-pro", scene: "phone-number-card"))
    func aCardsLinesAreRead() async throws {
        let photo = try VNRecognizeTextRequestTests.takePhoto()
        var request = RecognizeTextRequest()
        #expect(request.recognitionLanguages == [Locale.Language(identifier: "en-US")])
        #expect(request.supportedRecognitionLanguages.contains(Locale.Language(identifier: "en-US")))
        request.recognitionLevel = .accurate
        let lines = try await request.perform(on: photo.image)
        let strings = lines.compactMap { $0.topCandidates(1).first?.string }
        #expect(strings.first == "Harbour Lights Cafe", "read: \(strings)")
        let number = try #require(
            lines.compactMap { $0.topCandidates(1).first }.first { $0.string.contains("415-555-0134") })
        let range = try #require(number.string.range(of: "415-555-0134"))
        // The number's box starts where it is printed, 6 mm in from the card's left edge.
        let box = try #require(number.boundingBox(for: range)).boundingBox
        let left = VNRecognizeTextRequestTests.projected(photo, mmFromLeft: 6, mmFromTop: 42)
        #expect(abs(box.origin.x - left.x) < 0.005)
        let other = "a longer string than the line"
        #expect(number.boundingBox(for: other.startIndex..<other.endIndex) == nil)
        // A language without trained data fails, as a request for an unsupported language does.
        request.recognitionLanguages = [Locale.Language(identifier: "xx-XX")]
        await #expect(throws: VisionError.self) { try await request.perform(on: photo.image) }
    }
}
