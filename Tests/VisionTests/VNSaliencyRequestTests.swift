import CoreImage
import CoreVideo
import Foundation
import Testing
import Vision

/// Saliency as apps ask for it: a heat map to draw over the picture, and boxes to crop to.
@Suite struct VNSaliencyRequestTests {
    /// A square of `side` pixels with its top-left corner at (x, y), clockwise on screen.
    static func square(_ x: Double, _ y: Double, _ side: Double) -> [SIMD2<Double>] {
        [SIMD2(x, y), SIMD2(x + side, y), SIMD2(x + side, y + side), SIMD2(x, y + side)]
    }

    /// Performs `request` on `drawing` and returns its one observation.
    static func observation(_ request: VNImageBasedRequest, on drawing: Drawing) throws -> VNSaliencyImageObservation {
        try VNImageRequestHandler(cvPixelBuffer: drawing.pixelBuffer(), options: [:]).perform([request])
        let results = try #require(request.results as? [VNSaliencyImageObservation])
        #expect(results.count == 1)
        return try #require(results.first)
    }

    /// The heat map's values, row by row, top row first, read through Core Video as an app reads them.
    static func heat(_ observation: VNSaliencyImageObservation) -> (width: Int, height: Int, values: [Float]) {
        let buffer = observation.pixelBuffer
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let (width, height) = (CVPixelBufferGetWidth(buffer), CVPixelBufferGetHeight(buffer))
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return (width, height, []) }
        var values: [Float] = []
        for y in 0..<height {
            let row = base.advanced(by: y * stride).assumingMemoryBound(to: Float.self)
            for x in 0..<width { values.append(row[x]) }
        }
        return (width, height, values)
    }

    /// How much of `box` lies inside `outer` (both normalised).
    static func share(of box: CGRect, inside outer: CGRect) -> Double {
        let i = box.intersection(outer)
        return i.isNull ? 0 : Double(i.width * i.height / (box.width * box.height))
    }

    @Test func requestsStartAsApplesDo() {
        let attention = VNGenerateAttentionBasedSaliencyImageRequest()
        #expect(VNGenerateAttentionBasedSaliencyImageRequest.supportedRevisions == IndexSet([1, 2]))
        #expect(attention.revision == VNGenerateAttentionBasedSaliencyImageRequestRevision2)
        #expect(attention.regionOfInterest == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(attention.results == nil)
        let objectness = VNGenerateObjectnessBasedSaliencyImageRequest()
        #expect(VNGenerateObjectnessBasedSaliencyImageRequest.supportedRevisions == IndexSet([1, 2]))
        #expect(objectness.revision == VNGenerateObjectnessBasedSaliencyImageRequestRevision2)
    }

    @Test func theHeatMapIsA68SquareOfFloatsFromNothingToOne() throws {
        let drawing = Drawing(width: 400, height: 300, shapes: [Self.square(220, 90, 90)])
        for request in [
            VNGenerateAttentionBasedSaliencyImageRequest(), VNGenerateObjectnessBasedSaliencyImageRequest(),
        ]
            as [VNImageBasedRequest]
        {
            let observation = try Self.observation(request, on: drawing)
            #expect(CVPixelBufferGetPixelFormatType(observation.pixelBuffer) == kCVPixelFormatType_OneComponent32Float)
            let map = Self.heat(observation)
            #expect(map.width == 68 && map.height == 68)
            #expect(map.values.min()! >= 0 && map.values.max() == 1)
            // The hottest pixel lies on the square (x 220…310 of 400, y 90…180 of 300, top row first), give or take
            // a pixel of the map.
            let hottest = map.values.indices.max { map.values[$0] < map.values[$1] }!
            let (x, y) = (Double(hottest % 68) + 0.5, Double(hottest / 68) + 0.5)
            let columns: ClosedRange<Double> = (220.0 / 400 * 68 - 1)...(310.0 / 400 * 68 + 1)
            let rows: ClosedRange<Double> = (90.0 / 300 * 68 - 1)...(180.0 / 300 * 68 + 1)
            #expect(columns.contains(x) && rows.contains(y), "hottest at \(x), \(y)")
            #expect(observation.featureName == nil)
        }
    }

    @Test func theSalientObjectIsWhereTheSquareIs() throws {
        let drawing = Drawing(width: 400, height: 300, shapes: [Self.square(220, 90, 90)])
        // The square in Vision's coordinates (origin at the bottom left), widened by two map pixels.
        let slack = 2.0 / 68
        let truth = CGRect(x: 220 / 400.0, y: 1 - 180 / 300.0, width: 90 / 400.0, height: 90 / 300.0)
        let around = truth.insetBy(dx: -slack, dy: -slack)
        for request in [
            VNGenerateAttentionBasedSaliencyImageRequest(), VNGenerateObjectnessBasedSaliencyImageRequest(),
        ]
            as [VNImageBasedRequest]
        {
            let objects = try #require(try Self.observation(request, on: drawing).salientObjects)
            #expect(objects.count == 1)
            let box = try #require(objects.first).boundingBox
            #expect(Self.share(of: box, inside: around) > 0.95, "\(box)")
            #expect(Self.share(of: truth, inside: box) > 0.6, "\(box) covers little of \(truth)")
            let object = try #require(objects.first)
            #expect(object.topLeft.y > object.bottomLeft.y && object.topRight.x > object.topLeft.x)
            #expect((0...1).contains(object.confidence))
        }
    }

    @Test func objectnessBoxesEachObjectAndAttentionOne() throws {
        let drawing = Drawing(
            width: 480, height: 320, shapes: [Self.square(60, 50, 80), Self.square(320, 170, 100)])
        let objects = try #require(
            try Self.observation(VNGenerateObjectnessBasedSaliencyImageRequest(), on: drawing).salientObjects)
        #expect(objects.count == 2)
        for (x, y) in [(100.0, 90.0), (370.0, 220.0)] {
            let centre = CGPoint(x: x / 480, y: 1 - y / 320)
            #expect(objects.contains { $0.boundingBox.contains(centre) }, "no box holds \(centre)")
        }
        let attention = try Self.observation(VNGenerateAttentionBasedSaliencyImageRequest(), on: drawing)
        #expect(attention.salientObjects?.count == 1)
    }

    @Test func aBlankPictureHasNoSalientObjects() throws {
        let drawing = Drawing(width: 320, height: 240, shapes: [])
        for request in [
            VNGenerateAttentionBasedSaliencyImageRequest(), VNGenerateObjectnessBasedSaliencyImageRequest(),
        ]
            as [VNImageBasedRequest]
        {
            let observation = try Self.observation(request, on: drawing)
            #expect(observation.salientObjects?.isEmpty == true)
            #expect(Self.heat(observation).values.allSatisfy { $0 == 0 })
        }
    }

    @Test func boxesAreNormalisedToTheRegionOfInterest() throws {
        // The square is centred at (330, 150) of 440 × 300; the region is the right half, so its centre is at
        // (330 − 220) / 220 = 0.5 of the region's width.
        let drawing = Drawing(width: 440, height: 300, shapes: [Self.square(290, 110, 80)])
        let request = VNGenerateObjectnessBasedSaliencyImageRequest()
        request.regionOfInterest = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let box = try #require(try Self.observation(request, on: drawing).salientObjects?.first).boundingBox
        #expect(abs(box.midX - 0.5) < 0.03 && abs(box.midY - 0.5) < 0.03, "\(box)")
        // The left half has nothing in it.
        request.regionOfInterest = CGRect(x: 0, y: 0, width: 0.5, height: 1)
        #expect(try Self.observation(request, on: drawing).salientObjects?.isEmpty == true)
    }

    /// A red disc on green of the same BT.601 luma (0.299 R + 0.587 G + 0.114 B): only its colour sets it apart.
    struct RedOnGreen: DrawnPicture {
        let width = 320, height = 240
        func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
            let inside = hypot(Double(x) + 0.5 - 200, Double(y) + 0.5 - 110) < 30
            // Luma 0.299 · 204 + 0.587 · 51 + 0.114 · 51 = 96.75 against 0.299 · 51 + 0.587 · 132 + 0.114 · 51 = 98.5.
            return inside ? (204, 51, 51) : (51, 132, 51)
        }
    }

    @Test func aDiscOfAnotherColourButTheSameLumaIsSalientInEveryKindOfImage() throws {
        let picture = RedOnGreen()
        let centre = CGPoint(x: 200.0 / 320, y: 1 - 110.0 / 240)
        let handlers = [
            VNImageRequestHandler(cvPixelBuffer: try picture.pixelBuffer(), options: [:]),
            VNImageRequestHandler(cgImage: try picture.cgImage(), options: [:]),
            VNImageRequestHandler(ciImage: CIImage(cgImage: try picture.cgImage()), options: [:]),
        ]
        for handler in handlers {
            let request = VNGenerateObjectnessBasedSaliencyImageRequest()
            try handler.perform([request])
            let objects = try #require(request.results?.first?.salientObjects)
            #expect(objects.count == 1 && objects.first?.boundingBox.contains(centre) == true, "\(objects)")
        }
        // A grey copy of the same picture (its luma alone) holds nothing that stands out.
        var grey: CVPixelBuffer?
        CVPixelBufferCreate(nil, picture.width, picture.height, kCVPixelFormatType_OneComponent8, nil, &grey)
        let buffer = try #require(grey)
        CVPixelBufferLockBaseAddress(buffer, [])
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let (r, g, b) = picture.rgb(x, y)
                let luma = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
                base.advanced(by: y * CVPixelBufferGetBytesPerRow(buffer) + x).storeBytes(
                    of: UInt8(luma.rounded()), as: UInt8.self)
            }
        }
        CVPixelBufferUnlockBaseAddress(buffer, [])
        let request = VNGenerateObjectnessBasedSaliencyImageRequest()
        try VNImageRequestHandler(cvPixelBuffer: buffer, options: [:]).perform([request])
        #expect(request.results?.first?.salientObjects?.isEmpty == true)
    }

    @Test func theHeatMapTurnsWithTheOrientation() throws {
        // The buffer is stored turned: `.right` shows its top row on the right. The disc at stored (200, 110) of
        // 320 × 240 is upright at (240 − 110, 200) of 240 × 320.
        let request = VNGenerateObjectnessBasedSaliencyImageRequest()
        try VNImageRequestHandler(cvPixelBuffer: try RedOnGreen().pixelBuffer(), orientation: .right, options: [:])
            .perform([request])
        let box = try #require(request.results?.first?.salientObjects?.first).boundingBox
        #expect(box.contains(CGPoint(x: 130.0 / 240, y: 1 - 200.0 / 320)), "\(box)")
    }

    @Test func anUnknownRevisionFails() throws {
        let request = VNGenerateAttentionBasedSaliencyImageRequest()
        request.revision = 3
        let drawing = Drawing(width: 64, height: 64, shapes: [])
        #expect(throws: NSError.self) {
            try VNImageRequestHandler(cvPixelBuffer: drawing.pixelBuffer(), options: [:]).perform([request])
        }
        #expect(request.results == nil)
    }

    @Test func coreImageReadsTheHeatMapToDrawItOverThePicture() throws {
        // Apple's saliency sample turns the map into a CIImage and scales it up to the picture.
        let drawing = Drawing(width: 400, height: 300, shapes: [Self.square(220, 90, 90)])
        let observation = try Self.observation(VNGenerateAttentionBasedSaliencyImageRequest(), on: drawing)
        let map = CIImage(cvPixelBuffer: observation.pixelBuffer)
        #expect(map.extent == CGRect(x: 0, y: 0, width: 68, height: 68))
        let scaled = map.transformed(by: CGAffineTransform(scaleX: 400.0 / 68, y: 300.0 / 68))
        #expect(scaled.extent.width.rounded() == 400 && scaled.extent.height.rounded() == 300)
        let average = CIFilter(
            name: "CIAreaAverage", parameters: [kCIInputImageKey: map, kCIInputExtentKey: CIVector(cgRect: map.extent)])
        let mean = Self.heat(observation).values.reduce(0, +) / Float(68 * 68)
        // The mean, rendered into a one-float buffer as the map itself is.
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 1, 1, kCVPixelFormatType_OneComponent32Float, nil, &made)
        let out = try #require(made)
        CIContext(options: [.workingColorSpace: NSNull()]).render(try #require(average?.outputImage), to: out)
        CVPixelBufferLockBaseAddress(out, .readOnly)
        let rendered = try #require(CVPixelBufferGetBaseAddress(out)).assumingMemoryBound(to: Float.self)[0]
        CVPixelBufferUnlockBaseAddress(out, .readOnly)
        #expect(abs(rendered - mean) < 1e-4, "\(rendered) against \(mean)")
    }
}
