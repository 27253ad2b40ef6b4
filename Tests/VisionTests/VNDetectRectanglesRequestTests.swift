import CoreImage
import CoreMedia
import CoreVideo
import Foundation
import Testing
import Vision

/// Rectangle detection as apps ask for it, on images drawn with known corners.
@Suite struct VNDetectRectanglesRequestTests {
    /// A print seen in perspective (top edge shorter than the bottom, slightly turned) in a 400 × 300 frame.
    static let print: [SIMD2<Double>] = [
        SIMD2(131.3, 62.7), SIMD2(281.9, 71.4), SIMD2(318.2, 241.6), SIMD2(88.5, 228.1),
    ]

    /// The range scanner apps set: anything from a long strip to a square.
    static func scannerRequest(_ handler: VNRequestCompletionHandler? = nil) -> VNDetectRectanglesRequest {
        let request = VNDetectRectanglesRequest(completionHandler: handler)
        request.minimumAspectRatio = 0.3
        request.maximumAspectRatio = 1.0
        return request
    }

    static func rectangles(_ request: VNRequest) -> [VNRectangleObservation] {
        request.results as? [VNRectangleObservation] ?? []
    }

    @Test func defaultsAreApples() {
        let request = VNDetectRectanglesRequest()
        #expect(request.minimumAspectRatio == 0.5 && request.maximumAspectRatio == 0.5)
        #expect(request.quadratureTolerance == 30)
        #expect(request.minimumSize == 0.2)
        #expect(request.minimumConfidence == 0)
        #expect(request.maximumObservations == 1)
        #expect(request.regionOfInterest == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(request.revision == VNDetectRectanglesRequestRevision1)
        #expect(VNDetectRectanglesRequest.supportedRevisions == IndexSet(integer: 1))
        #expect(request.results == nil)
    }

    @Test func cornersOfAPrintInAPixelBufferWithinOnePercent() throws {
        let drawing = Drawing(width: 400, height: 300, shapes: [Self.print])
        var calls = 0
        let request = Self.scannerRequest { request, error in
            calls += 1
            #expect(error == nil)
            #expect(Self.rectangles(request).count == 1, "results are set before the handler runs")
        }
        try VNImageRequestHandler(cvPixelBuffer: drawing.pixelBuffer(), options: [:]).perform([request])
        #expect(calls == 1)
        let found = try #require(Self.rectangles(request).first)
        let truth = Self.print.map { Drawing.normalised($0, width: 400, height: 300) }
        expectNear(found.topLeft, truth[0], 0.01, "top left")
        expectNear(found.topRight, truth[1], 0.01, "top right")
        expectNear(found.bottomRight, truth[2], 0.01, "bottom right")
        expectNear(found.bottomLeft, truth[3], 0.01, "bottom left")
        // The bounding box is the corners' extent, in the same coordinates.
        let xs = truth.map(\.x), ys = truth.map(\.y)
        expectNear(found.boundingBox.origin, CGPoint(x: xs.min() ?? 0, y: ys.min() ?? 0), 0.01, "box origin")
        #expect(abs(found.boundingBox.width - ((xs.max() ?? 0) - (xs.min() ?? 0))) < 0.01)
        #expect(abs(found.boundingBox.height - ((ys.max() ?? 0) - (ys.min() ?? 0))) < 0.01)
        #expect(found.confidence > 0.5 && found.confidence <= 1)
    }

    /// A frame as a video data output hands it over: a handler made from the sample buffer sees its image, turned
    /// as the orientation says.
    @Test func aSampleBufferIsItsImage() throws {
        let drawing = Drawing(width: 400, height: 300, shapes: [Self.print])
        let buffer = try drawing.pixelBuffer()
        var description: CMFormatDescription?
        _ = CMVideoFormatDescriptionCreateForImageBuffer(
            allocator: kCFAllocatorDefault, imageBuffer: buffer, formatDescriptionOut: &description)
        var timing = CMSampleTimingInfo(
            duration: CMTimeMake(value: 1, timescale: 30), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var sampleBuffer: CMSampleBuffer?
        _ = CMSampleBufferCreateReadyWithImageBuffer(
            allocator: kCFAllocatorDefault, imageBuffer: buffer, formatDescription: try #require(description),
            sampleTiming: &timing, sampleBufferOut: &sampleBuffer)
        let sample = try #require(sampleBuffer)
        for orientation in [CGImagePropertyOrientation.up, .right] {
            let fromSample = Self.scannerRequest(), fromBuffer = Self.scannerRequest()
            try VNImageRequestHandler(cmSampleBuffer: sample, orientation: orientation, options: [:]).perform([fromSample])
            try VNImageRequestHandler(cvPixelBuffer: buffer, orientation: orientation, options: [:]).perform([fromBuffer])
            let a = try #require(Self.rectangles(fromSample).first), b = try #require(Self.rectangles(fromBuffer).first)
            #expect(a.topLeft == b.topLeft && a.bottomRight == b.bottomRight, "\(orientation)")
        }
        let upright = Self.scannerRequest()
        try VNImageRequestHandler(cmSampleBuffer: sample, options: [:]).perform([upright])
        let found = try #require(Self.rectangles(upright).first)
        expectNear(found.topLeft, Drawing.normalised(Self.print[0], width: 400, height: 300), 0.01, "top left")

    }

    /// An image file's data or URL is its picture: a PNG of the drawing gives the drawing's corners, and data that
    /// is no image fails the requests with `invalidImage`.
    @Test func anImageFileIsItsPicture() throws {
        let drawing = Drawing(width: 400, height: 300, shapes: [Self.print])
        let png = try #require(CIContext().pngRepresentation(
            of: CIImage(cgImage: drawing.cgImage()), format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("print-\(getpid()).png")
        try png.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let truth = Drawing.normalised(Self.print[0], width: 400, height: 300)
        for handler in [
            VNImageRequestHandler(data: png, options: [:]), VNImageRequestHandler(url: url, options: [:]),
            VNImageRequestHandler(data: png, orientation: .up, options: [:]),
        ] {
            let request = Self.scannerRequest()
            try handler.perform([request])
            let found = try #require(Self.rectangles(request).first)
            expectNear(found.topLeft, truth, 0.01, "top left")
        }
        let request = Self.scannerRequest()
        #expect(throws: (any Error).self) { try VNImageRequestHandler(data: Data([1, 2, 3]), options: [:]).perform([request]) }
        #expect(request.results == nil)
    }

    @Test func aCGImageAndAYCbCrBufferGiveTheSameCorners() throws {
        let drawing = Drawing(width: 400, height: 300, shapes: [Self.print])
        let truth = Self.print.map { Drawing.normalised($0, width: 400, height: 300) }
        let fromImage = Self.scannerRequest()
        try VNImageRequestHandler(cgImage: drawing.cgImage()).perform([fromImage])
        // A camera frame's layout: full-range 4:2:0 Y'CbCr, the luma written with BT.601's weights.
        var made: CVPixelBuffer?
        let status = CVPixelBufferCreate(nil, 400, 300, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, &made)
        #expect(status == kCVReturnSuccess)
        let frame = try #require(made)
        CVPixelBufferLockBaseAddress(frame, [])
        let luma = try #require(CVPixelBufferGetBaseAddressOfPlane(frame, 0))
        let stride = CVPixelBufferGetBytesPerRowOfPlane(frame, 0)
        for y in 0..<300 {
            for x in 0..<400 {
                let (r, g, b) = drawing.rgb(x, y)
                let value = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
                luma.storeBytes(of: UInt8(value.rounded()), toByteOffset: y * stride + x, as: UInt8.self)
            }
        }
        CVPixelBufferUnlockBaseAddress(frame, [])
        let fromFrame = Self.scannerRequest()
        try VNImageRequestHandler(cvPixelBuffer: frame).perform([fromFrame])
        for request in [fromImage, fromFrame] {
            let found = try #require(Self.rectangles(request).first)
            for (got, want) in zip([found.topLeft, found.topRight, found.bottomRight, found.bottomLeft], truth) {
                expectNear(got, want)
            }
        }
    }

    /// An upright 200 × 160 card: aspect ratio 0.8.
    static let card = Drawing(
        width: 400, height: 300, shapes: [[SIMD2(100, 70), SIMD2(300, 70), SIMD2(300, 230), SIMD2(100, 230)]])

    @Test func aspectRatioLimitsKeepOnlyRectanglesBetweenThem() throws {
        let buffer = try Self.card.pixelBuffer()
        func found(_ minimum: Float, _ maximum: Float) throws -> Int {
            let request = VNDetectRectanglesRequest()
            request.minimumAspectRatio = minimum
            request.maximumAspectRatio = maximum
            try VNImageRequestHandler(cvPixelBuffer: buffer).perform([request])
            return Self.rectangles(request).count
        }
        #expect(try found(0.7, 0.9) == 1)
        #expect(try found(0.3, 0.6) == 0, "too square for the range")
        #expect(try found(0.85, 1.0) == 0, "too long for the range")
        // Left at Apple's defaults (0.5 to 0.5), only rectangles twice as long as wide are asked for.
        #expect(try found(0.5, 0.5) == 0)
    }

    @Test func minimumSizeDropsSmallRectangles() throws {
        // 50 × 40 px in a 300 px tall frame: its shorter side is 0.133 of the frame's.
        let small = Drawing(
            width: 400, height: 300, shapes: [[SIMD2(150, 120), SIMD2(200, 120), SIMD2(200, 160), SIMD2(150, 160)]])
        let buffer = try small.pixelBuffer()
        let request = Self.scannerRequest()
        try VNImageRequestHandler(cvPixelBuffer: buffer).perform([request])
        #expect(Self.rectangles(request).isEmpty, "below the default 0.2")
        request.minimumSize = 0.1
        try VNImageRequestHandler(cvPixelBuffer: buffer).perform([request])
        let found = try #require(Self.rectangles(request).first)
        expectNear(found.topLeft, Drawing.normalised(SIMD2(150, 120), width: 400, height: 300))
    }

    @Test func quadratureToleranceDropsSkewedQuadrilaterals() throws {
        // A parallelogram whose slanted sides rise at atan(140 / 50) = 70.3°: its corners are 19.7° off square.
        let skewed = Drawing(
            width: 400, height: 300, shapes: [[SIMD2(100, 80), SIMD2(280, 80), SIMD2(330, 220), SIMD2(150, 220)]])
        let buffer = try skewed.pixelBuffer()
        let request = Self.scannerRequest()
        try VNImageRequestHandler(cvPixelBuffer: buffer).perform([request])
        #expect(Self.rectangles(request).count == 1, "within the default 30°")
        request.quadratureTolerance = 25
        try VNImageRequestHandler(cvPixelBuffer: buffer).perform([request])
        #expect(Self.rectangles(request).count == 1)
        request.quadratureTolerance = 15
        try VNImageRequestHandler(cvPixelBuffer: buffer).perform([request])
        #expect(Self.rectangles(request).isEmpty)
    }

    @Test func maximumObservationsLimitsTheResultsMostConfidentFirst() throws {
        let boxes: [(Double, Double, Double, Double)] = [(40, 40, 200, 160), (260, 60, 380, 200), (430, 220, 560, 340)]
        let drawing = Drawing(
            width: 600, height: 400,
            shapes: boxes.map { [SIMD2($0.0, $0.1), SIMD2($0.2, $0.1), SIMD2($0.2, $0.3), SIMD2($0.0, $0.3)] })
        let buffer = try drawing.pixelBuffer()
        let truth = boxes.map { Drawing.normalised(SIMD2($0.0, $0.1), width: 600, height: 400) }
        for (limit, expected) in [(1, 1), (2, 2), (0, 3), (5, 3)] {
            let request = Self.scannerRequest()
            request.maximumObservations = limit
            try VNImageRequestHandler(cvPixelBuffer: buffer).perform([request])
            let found = Self.rectangles(request)
            #expect(found.count == expected, "maximumObservations \(limit)")
            // Each is one of the drawn boxes, none twice, in order of confidence.
            let matched = found.compactMap { o in
                truth.firstIndex { abs($0.x - o.topLeft.x) < 0.01 && abs($0.y - o.topLeft.y) < 0.01 }
            }
            #expect(matched.count == found.count && Set(matched).count == matched.count)
            #expect(zip(found, found.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
        }
    }

    /// Where a stored point (x, y) of a `w × h` image lies in the upright picture, for each EXIF orientation (the
    /// `Orientation` tag's meanings: where row 0 and column 0 belong when shown), in continuous pixel coordinates.
    static func upright(
        _ p: SIMD2<Double>, _ orientation: CGImagePropertyOrientation, w: Double, h: Double
    ) -> SIMD2<Double> {
        switch orientation {
        case .up: return SIMD2(p.x, p.y)
        case .upMirrored: return SIMD2(w - p.x, p.y)
        case .down: return SIMD2(w - p.x, h - p.y)
        case .downMirrored: return SIMD2(p.x, h - p.y)
        case .leftMirrored: return SIMD2(p.y, p.x)
        case .right: return SIMD2(h - p.y, p.x)
        case .rightMirrored: return SIMD2(h - p.y, w - p.x)
        case .left: return SIMD2(p.y, w - p.x)
        }
    }

    @Test(arguments: CGImagePropertyOrientation.allCases)
    func orientationReportsTheUprightPicture(_ orientation: CGImagePropertyOrientation) throws {
        // Drawn in the top-left of a 400 × 300 buffer; the request sees the picture the orientation shows.
        let stored: [SIMD2<Double>] = [SIMD2(60, 40), SIMD2(200, 50), SIMD2(190, 150), SIMD2(70, 140)]
        let buffer = try Drawing(width: 400, height: 300, shapes: [stored]).pixelBuffer()
        let request = Self.scannerRequest()
        try VNImageRequestHandler(cvPixelBuffer: buffer, orientation: orientation, options: [:]).perform([request])
        let found = try #require(Self.rectangles(request).first)
        let turns = [.leftMirrored, .right, .rightMirrored, .left].contains(orientation)
        let (w, h) = turns ? (300, 400) : (400, 300)
        let upright = stored.map { Self.upright($0, orientation, w: 400, h: 300) }
        let truth = upright.map { Drawing.normalised($0, width: w, height: h) }
        let corners = [found.topLeft, found.topRight, found.bottomRight, found.bottomLeft]
        for corner in corners {
            let nearest = truth.min {
                hypot($0.x - corner.x, $0.y - corner.y) < hypot($1.x - corner.x, $1.y - corner.y)
            }
            expectNear(corner, nearest ?? .zero, 0.01, "\(orientation)")
        }
        // The top-left corner is the one nearest the upright picture's top-left, and the others follow clockwise on
        // screen: a negative shoelace area with y pointing up.
        let topLeft = upright.min { $0.x + $0.y < $1.x + $1.y } ?? .zero
        expectNear(found.topLeft, Drawing.normalised(topLeft, width: w, height: h), 0.01, "\(orientation) top left")
        let area = zip(corners, corners.dropFirst() + [corners[0]]).reduce(0.0) {
            $0 + Double($1.0.x * $1.1.y - $1.1.x * $1.0.y)
        }
        #expect(area < 0, "\(orientation): corners not clockwise on screen")
    }

    @Test func regionOfInterestLimitsTheSearchAndNormalisesToItself() throws {
        // One card in each half of the frame; the request looks at the right half only.
        let left: [SIMD2<Double>] = [SIMD2(40, 150), SIMD2(160, 150), SIMD2(160, 260), SIMD2(40, 260)]
        let right: [SIMD2<Double>] = [SIMD2(240, 40), SIMD2(360, 40), SIMD2(360, 140), SIMD2(240, 140)]
        let buffer = try Drawing(width: 400, height: 300, shapes: [left, right]).pixelBuffer()
        let request = Self.scannerRequest()
        request.maximumObservations = 0
        request.regionOfInterest = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        try VNImageRequestHandler(cvPixelBuffer: buffer).perform([request])
        let found = Self.rectangles(request)
        #expect(found.count == 1)
        let box = try #require(found.first).boundingBox
        // Pixels with the origin at the bottom left: x 240…360, y 300 - 140 … 300 - 40.
        let pixels = VNImageRectForNormalizedRectUsingRegionOfInterest(box, 400, 300, request.regionOfInterest)
        #expect(abs(pixels.minX - 240) < 4 && abs(pixels.maxX - 360) < 4, "\(pixels)")
        #expect(abs(pixels.minY - 160) < 4 && abs(pixels.maxY - 260) < 4, "\(pixels)")
    }

    @Test func severalRequestsShareOnePerform() throws {
        let buffer = try Self.card.pixelBuffer()
        let wide = Self.scannerRequest()
        let narrow = VNDetectRectanglesRequest()
        narrow.minimumAspectRatio = 0.9
        narrow.maximumAspectRatio = 1
        try VNImageRequestHandler(cvPixelBuffer: buffer).perform([wide, narrow])
        #expect(Self.rectangles(wide).count == 1)
        #expect(narrow.results?.isEmpty == true)
    }
}
