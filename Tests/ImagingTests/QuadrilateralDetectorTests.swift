import Imaging
import Testing

/// Draws a convex quadrilateral (pixel corners, top-left origin) with 4 × 4 supersampled coverage.
func drawQuadrilateral(
    _ corners: [SIMD2<Double>], width: Int, height: Int, inside: [Float], outside: [Float]
) -> UInt8Image {
    func isInside(_ p: SIMD2<Double>) -> Bool {
        // Inside a convex polygon: the same side of every edge (the corners go clockwise on screen).
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            if (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0 { return false }
        }
        return true
    }
    return UInt8Image(width: width, height: height, channels: 3) { x, y, c in
        var covered = 0
        for sy in 0..<4 {
            for sx in 0..<4 {
                let p = SIMD2(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4)
                if isInside(p) { covered += 1 }
            }
        }
        let a = Float(covered) / 16
        return UInt8(normalized: a * inside[c] + (1 - a) * outside[c])
    }
}

@Suite struct QuadrilateralDetectorTests {
    @Test func cornersOfADrawnQuadrilateralWithinOnePercent() throws {
        let width = 400, height = 300
        // A print seen in perspective: top edge shorter than the bottom, slightly rotated.
        let truth: [SIMD2<Double>] = [SIMD2(131.3, 62.7), SIMD2(281.9, 71.4), SIMD2(318.2, 241.6), SIMD2(88.5, 228.1)]
        let image = drawQuadrilateral(truth, width: width, height: height,
                                      inside: [0.92, 0.9, 0.86], outside: [0.35, 0.22, 0.14])
        let found = try #require(QuadrilateralDetector().detect(in: image))
        let expected = DetectedQuadrilateral(pixelCorners: truth, width: width, height: height, confidence: 1)
        for (got, want) in zip([found.topLeft, found.topRight, found.bottomRight, found.bottomLeft],
                               [expected.topLeft, expected.topRight, expected.bottomRight, expected.bottomLeft]) {
            #expect(abs(got.x - want.x) < 0.01 && abs(got.y - want.y) < 0.01, "corner \(got) vs \(want)")
        }
        #expect(found.confidence > 0.7)
    }

    @Test func reportsBottomLeftOriginLikeVision() throws {
        // An axis-aligned bright rectangle in the top half: its normalised y values must be above 0.5.
        let corners: [SIMD2<Double>] = [SIMD2(40, 20), SIMD2(160, 20), SIMD2(160, 70), SIMD2(40, 70)]
        let image = drawQuadrilateral(corners, width: 200, height: 160, inside: [1, 1, 1], outside: [0, 0, 0])
        let found = try #require(QuadrilateralDetector().detect(in: image))
        #expect(abs(found.topLeft.x - 0.2) < 0.005 && abs(found.topLeft.y - (1 - 20.0 / 160)) < 0.005)
        #expect(abs(found.bottomRight.x - 0.8) < 0.005 && abs(found.bottomRight.y - (1 - 70.0 / 160)) < 0.005)
    }

    @Test func darkQuadrilateralOnBrightSurface() throws {
        let truth: [SIMD2<Double>] = [SIMD2(60, 40), SIMD2(250, 55), SIMD2(240, 200), SIMD2(70, 190)]
        let image = drawQuadrilateral(truth, width: 320, height: 240, inside: [0.1, 0.1, 0.1], outside: [0.8, 0.8, 0.8])
        let found = try #require(QuadrilateralDetector().detect(in: image))
        let got = found.pixelCorners(width: 320, height: 240)
        for (g, t) in zip(got, truth) { #expect(abs(g.x - t.x) < 3.2 && abs(g.y - t.y) < 2.4, "\(g) vs \(t)") }
    }

    @Test func candidatesAreEveryDistinctQuadrilateralOnce() throws {
        // Two cards on one table: `detect` reports the better one; `candidates` reports both, each once, although
        // the search finds each at several thresholds.
        let a: [SIMD2<Double>] = [SIMD2(30, 40), SIMD2(150, 45), SIMD2(145, 200), SIMD2(35, 195)]
        let b: [SIMD2<Double>] = [SIMD2(220, 60), SIMD2(370, 60), SIMD2(370, 180), SIMD2(220, 180)]
        let width = 400, height = 240
        let inside: [Float] = [0.92, 0.9, 0.86], outside: [Float] = [0.35, 0.22, 0.14]
        let one = drawQuadrilateral(a, width: width, height: height, inside: inside, outside: outside)
        let two = drawQuadrilateral(b, width: width, height: height, inside: inside, outside: outside)
        let image = UInt8Image(width: width, height: height, channels: 3) { x, y, c in max(one[x, y, c], two[x, y, c]) }
        let found = QuadrilateralDetector().candidates(in: image)
        #expect(found.count == 2)
        for truth in [a, b] {
            let matches = found.filter { quad in
                zip(quad.pixelCorners(width: width, height: height), truth).allSatisfy { got, want in
                    abs(got.x - want.x) < 0.01 * Double(width) && abs(got.y - want.y) < 0.01 * Double(height)
                }
            }
            #expect(matches.count == 1, "\(truth)")
        }
        #expect(zip(found, found.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
        #expect(QuadrilateralDetector().candidates(in: UInt8Image(width: 64, height: 48, channels: 3, repeating: 128))
            .isEmpty)
    }

    @Test func uniformImageHasNoQuadrilateral() {
        let image = UInt8Image(width: 64, height: 48, channels: 3, repeating: 128)
        #expect(QuadrilateralDetector().detect(in: image) == nil)
    }
}
