import CoreImage
import Foundation
import Testing

/// Geometry, blur, compositing, depth and helper filters against computations done here.
@Suite struct GeometryAndBlurTests {
    /// An opaque image whose red is the column's centre over 100 and green the row's (Core Image
    /// coordinates, y up): bilinear sampling of it at a point gives the point's coordinates back.
    static func coordinates(_ w: Int, _ h: Int) -> CIImage {
        Fixture.image(w, h) { x, y in SIMD4(Float(x) / 100, Float(h - 1 - y) / 100, 0, 1) }
    }

    /// The source position a coordinate image's pixel shows, in pixel-centre coordinates.
    static func position(_ p: SIMD4<Float>) -> SIMD2<Double> { SIMD2(Double(p.x) * 100 + 0.5, Double(p.y) * 100 + 0.5) }

    /// Where the diagonals of a quadrilateral cross: the image of a rectangle's centre under any
    /// projective map taking the rectangle to the quadrilateral.
    static func diagonalCrossing(_ q: [SIMD2<Double>]) -> SIMD2<Double> {
        let (a, c, b, d) = (q[0], q[2], q[1], q[3])
        let r = c - a, s = d - b
        let t = ((b.x - a.x) * s.y - (b.y - a.y) * s.x) / (r.x * s.y - r.y * s.x)
        return a + r * t
    }

    @Test func perspectiveCorrectionMapsTheRectangleCentreToTheDiagonalsCrossing() throws {
        let quad: [SIMD2<Double>] = [SIMD2(12, 70), SIMD2(66, 76), SIMD2(70, 10), SIMD2(6, 18)]
        let f = CIFilter.perspectiveCorrection()
        f.inputImage = Self.coordinates(80, 80)
        f.topLeft = CGPoint(x: quad[0].x, y: quad[0].y)
        f.topRight = CGPoint(x: quad[1].x, y: quad[1].y)
        f.bottomRight = CGPoint(x: quad[2].x, y: quad[2].y)
        f.bottomLeft = CGPoint(x: quad[3].x, y: quad[3].y)
        let out = try #require(f.outputImage)
        // The output is as large as the longer of each pair of opposite sides.
        func length(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        let width = max(length(quad[0], quad[1]), length(quad[3], quad[2])).rounded()
        let height = max(length(quad[0], quad[3]), length(quad[1], quad[2])).rounded()
        #expect(Double(out.extent.width) == width && Double(out.extent.height) == height, "\(out.extent)")
        let w = Int(out.extent.width), h = Int(out.extent.height)
        let p = Fixture.pixels(out, out.extent)
        // Even sizes: the centre is the corner shared by four pixels, whose mean is the centre's value.
        let centre = (p[h / 2 - 1][w / 2 - 1] + p[h / 2 - 1][w / 2] + p[h / 2][w / 2 - 1] + p[h / 2][w / 2]) / 4
        let seen = Self.position(centre), expected = Self.diagonalCrossing(quad)
        #expect(abs(seen.x - expected.x) < 0.05 && abs(seen.y - expected.y) < 0.05, "\(seen) against \(expected)")
        // The corners' pixels show the quadrilateral's corners, within the half pixel to their centres.
        #expect(length(Self.position(p[0][0]), quad[0]) < 1.5)
        #expect(length(Self.position(p[h - 1][w - 1]), quad[2]) < 1.5)
    }

    @Test func perspectiveCorrectionStraightensADrawnQuadrilateral() throws {
        let quad: [SIMD2<Double>] = [SIMD2(20, 100), SIMD2(95, 90), SIMD2(100, 15), SIMD2(10, 25)]
        // Inside the quadrilateral (every edge's cross product of one sign) white, black outside.
        let image = Fixture.image(120, 120) { x, y in
            let p = SIMD2(Double(x) + 0.5, Double(120 - y) - 0.5)
            let inside = (0..<4).allSatisfy { k in
                let a = quad[k], b = quad[(k + 1) % 4]
                return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0
            }
            return inside ? SIMD4(1, 1, 1, 1) : SIMD4(0, 0, 0, 1)
        }
        let out = try #require(image.applyingFilter("CIPerspectiveCorrection", parameters: [
            "inputTopLeft": CIVector(x: 20, y: 100), "inputTopRight": CIVector(x: 95, y: 90),
            "inputBottomRight": CIVector(x: 100, y: 15), "inputBottomLeft": CIVector(x: 10, y: 25),
        ]) as CIImage?)
        let p = Fixture.pixels(out, out.extent)
        let interior = p.dropFirst(2).dropLast(2).flatMap { $0.dropFirst(2).dropLast(2) }
        #expect(!interior.isEmpty)
        #expect(interior.allSatisfy { $0.x > 0.99 }, "the straightened print is white to within two pixels of its edges")
    }

    @Test func perspectiveTransformTakesTheImageCentreToTheDiagonalsCrossing() throws {
        let points: [SIMD2<Double>] = [SIMD2(10, 60), SIMD2(70, 66), SIMD2(60, 4), SIMD2(2, 12)]
        let f = CIFilter.perspectiveTransform()
        f.inputImage = Self.coordinates(40, 40)
        f.topLeft = CGPoint(x: 10, y: 60)
        f.topRight = CGPoint(x: 70, y: 66)
        f.bottomRight = CGPoint(x: 60, y: 4)
        f.bottomLeft = CGPoint(x: 2, y: 12)
        let out = try #require(f.outputImage)
        #expect(out.extent == CGRect(x: 2, y: 4, width: 68, height: 62))
        let c = Self.diagonalCrossing(points)
        // The output pixel around the crossing shows the source near its centre (20, 20).
        let px = Fixture.pixels(out, CGRect(x: c.x.rounded(.down), y: c.y.rounded(.down), width: 1, height: 1))[0][0]
        let seen = Self.position(px)
        #expect(abs(seen.x - 20) < 1.5 && abs(seen.y - 20) < 1.5, "\(seen)")
    }

    @Test func affineTransformMovesAndScales() throws {
        let image = Self.coordinates(10, 10)
        let moved = image.transformed(by: CGAffineTransform(translationX: 3, y: 2))
        #expect(moved.extent == CGRect(x: 3, y: 2, width: 10, height: 10))
        let p = Fixture.pixels(moved, CGRect(x: 3, y: 2, width: 10, height: 10))
        #expect(Fixture.close(p[9][0], SIMD4(0, 0, 0, 1)))
        #expect(Fixture.close(p[0][4], SIMD4(0.04, 0.09, 0, 1)))
        let f = try #require(CIFilter(name: "CIAffineTransform"))
        f.setValue(image, forKey: kCIInputImageKey)
        f.setValue(CGAffineTransform(scaleX: 2, y: 2), forKey: kCIInputTransformKey)
        #expect(f.outputImage?.extent == CGRect(x: 0, y: 0, width: 20, height: 20))
        // Output pixel centre (5.5, 5.5) samples the source at (2.75, 2.75), between its centres.
        let s = Fixture.pixels(try #require(f.outputImage), CGRect(x: 5, y: 5, width: 1, height: 1))[0][0]
        #expect(abs(Double(s.x) * 100 - 2.25) < 0.01 && abs(Double(s.y) * 100 - 2.25) < 0.01)
    }

    @Test func lanczosHalvesARampToItsValueAtEachOutputCentre() throws {
        let ramp = Fixture.image(40, 8) { x, _ in SIMD4(Float(x) / 100, 0.5, 0.5, 1) }
        let f = CIFilter.lanczosScaleTransform()
        f.inputImage = ramp
        f.scale = 0.5
        let out = try #require(f.outputImage)
        #expect(out.extent == CGRect(x: 0, y: 0, width: 20, height: 4))
        let row = Fixture.pixels(out, out.extent)[1]
        // Output centre o + 0.5 is source position 2o + 1, between source pixels 2o and 2o + 1.
        for o in 3..<17 { #expect(abs(row[o].x - (Float(2 * o) + 0.5) / 100) < 1e-3, "column \(o)") }
        #expect(row.allSatisfy { abs($0.y - 0.5) < 1e-3 })
    }

    // Apple's CIBicubicScaleTransform: B 0 and C 0.75 by default, "the most commonly used values". Halving a ramp
    // gives its value at each output centre, as every cubic of the family keeps straight lines straight.
    @Test func bicubicDefaultsAndHalvingARamp() throws {
        let f = CIFilter.bicubicScaleTransform()
        #expect(f.parameterB == 0 && f.parameterC == 0.75 && f.scale == 1 && f.aspectRatio == 1)
        #expect(CIFilter(name: "CIBicubicScaleTransform") != nil)
        f.inputImage = Fixture.image(40, 8) { x, _ in SIMD4(Float(x) / 100, 0.5, 0.5, 1) }
        f.scale = 0.5
        let out = try #require(f.outputImage)
        #expect(out.extent == CGRect(x: 0, y: 0, width: 20, height: 4))
        let row = Fixture.pixels(out, out.extent)[1]
        for o in 2..<18 { #expect(abs(row[o].x - (Float(2 * o) + 0.5) / 100) < 1e-3, "column \(o)") }
    }

    // Doubling one bright pixel traces the kernel: output pixel o, whose centre is source position (o + 0.5) / 2,
    // gets the bright pixel's weight k(n + 0.5 − (o + 0.5) / 2), each family member summing to one over its taps.
    // The closed forms of Mitchell and Netravali (1988) at the quarter-pixel offsets a doubling samples: the cubic
    // B-spline (B 1, C 0), (3t³ − 6t² + 4) / 6 within a pixel and (2 − t)³ / 6 beyond, gives 235/384, 121/384,
    // 27/384 and 1/384 at 1/4, 3/4, 5/4 and 7/4; Catmull–Rom (B 0, C 1/2), 1.5t³ − 2.5t² + 1 and
    // −0.5t³ + 2.5t² − 4t + 2, gives 111/128, 29/128, −9/128 and −3/128; both are 0 from 2.
    @Test func bicubicDoublingTracesTheCubic() throws {
        let bSpline: [Double: Double] = [0.25: 235 / 384, 0.75: 121 / 384, 1.25: 27 / 384, 1.75: 1 / 384, 2.25: 0]
        let catmullRom: [Double: Double] = [0.25: 111 / 128, 0.75: 29 / 128, 1.25: -9 / 128, 1.75: -3 / 128, 2.25: 0]
        for (b, c, expected) in [(1.0, 0.0, bSpline), (0.0, 0.5, catmullRom)] {
            let f = CIFilter.bicubicScaleTransform()
            f.parameterB = Float(b)
            f.parameterC = Float(c)
            f.scale = 2
            // One row: 0.5 grey with one pixel at 0.9, far from the edges.
            f.inputImage = Fixture.image(16, 1) { x, _ in SIMD4(x == 8 ? 0.9 : 0.5, 0.5, 0.5, 1) }
            let out = try #require(f.outputImage)
            let row = Fixture.pixels(out, out.extent)[0]
            var checked = 0
            for o in 8..<26 {
                let offset = abs(8.5 - (Double(o) + 0.5) / 2)
                guard let weight = expected[offset] else { continue }
                checked += 1
                // Within half a step of the half-float buffer the pixels are read into, near 0.5 (2⁻¹¹).
                let expected = 0.5 + 0.4 * weight
                #expect(abs(Double(row[o].x) - expected) < 3e-4, "B \(b), C \(c): output \(o), offset \(offset)")
            }
            #expect(checked == 10)
        }
    }

    @Test func cropKeepsTheRectangleAndClearsTheRest() throws {
        let image = Self.coordinates(10, 10)
        let out = try #require(CIFilter(name: "CICrop", parameters: [kCIInputImageKey: image, "inputRectangle": CIVector(x: 2, y: 3, z: 4, w: 5)])?.outputImage)
        #expect(out.extent == CGRect(x: 2, y: 3, width: 4, height: 5))
        let p = Fixture.pixels(out, CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(Fixture.close(p[9 - 3][2], SIMD4(0.02, 0.03, 0, 1)))
        #expect(p[9 - 2][2] == .zero)
        #expect(p[9 - 3][6] == .zero)
    }

    /// An opaque black image with one white pixel at (cx, cy).
    static func impulse(_ n: Int) -> CIImage {
        Fixture.image(n, n) { x, y in x == n / 2 && y == n / 2 ? SIMD4(1, 1, 1, 1) : SIMD4(0, 0, 0, 1) }
    }

    @Test func gaussianBlurOfAnImpulseIsTheSampledGaussianOfTheRadius() throws {
        let sigma = 2.5, n = 41
        let f = CIFilter.gaussianBlur()
        f.inputImage = Self.impulse(n)
        f.radius = Float(sigma)
        let out = try #require(f.outputImage)
        let p = Fixture.pixels(out, CGRect(x: 0, y: 0, width: n, height: n))
        let reach = Int((3 * sigma).rounded(.up))
        let g = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = g.reduce(0, +)
        for (dx, dy) in [(0, 0), (1, 0), (3, 2), (5, 5), (7, 0)] {
            let expected = g[dx + reach] * g[dy + reach] / (sum * sum)
            let seen = Double(p[n / 2 + dy][n / 2 + dx].x)
            #expect(abs(seen - expected) < 2e-4 + expected * 2e-3, "(\(dx), \(dy)): \(seen) against \(expected)")
        }
        // The blur spreads beyond the input: the extent grows by the kernel's reach.
        #expect(out.extent == CGRect(x: -reach, y: -reach, width: n + 2 * reach, height: n + 2 * reach))
    }

    @Test func boxBlurOfAnImpulseIsFlatOverTheBox() throws {
        let p = Fixture.pixels(Self.impulse(15).applyingFilter("CIBoxBlur", parameters: [kCIInputRadiusKey: 2]),
                               CGRect(x: 0, y: 0, width: 15, height: 15))
        for dy in -3...3 {
            for dx in -3...3 {
                let expected: Float = abs(dx) <= 2 && abs(dy) <= 2 ? 1.0 / 25 : 0
                #expect(abs(p[7 + dy][7 + dx].x - expected) < 1e-4)
            }
        }
    }

    @Test func blendWithMaskFollowsTheMasksGreenAndBlendWithAlphaMaskItsAlpha() throws {
        let fg = Fixture.image(2, 1) { _, _ in SIMD4(1, 0, 0, 1) }
        let bg = Fixture.image(2, 1) { _, _ in SIMD4(0, 0, 1, 1) }
        // Buffers hold premultiplied colour: the second mask pixel is green 0.75 at half coverage.
        let mask = Fixture.image(2, 1) { x, _ in x == 0 ? SIMD4(0, 0.25, 0.9, 1) : SIMD4(0.5, 0.375, 0, 0.5) }
        let green = CIFilter.blendWithMask()
        green.inputImage = fg
        green.backgroundImage = bg
        green.maskImage = mask
        let g = Fixture.pixels(try #require(green.outputImage), CGRect(x: 0, y: 0, width: 2, height: 1))[0]
        #expect(Fixture.close(g[0], SIMD4(0.25, 0, 0.75, 1)))
        #expect(Fixture.close(g[1], SIMD4(0.75, 0, 0.25, 1)))
        let alpha = CIFilter.blendWithAlphaMask()
        alpha.inputImage = fg
        alpha.backgroundImage = bg
        alpha.maskImage = mask
        let a = Fixture.pixels(try #require(alpha.outputImage), CGRect(x: 0, y: 0, width: 2, height: 1))[0]
        #expect(Fixture.close(a[0], SIMD4(1, 0, 0, 1)))
        #expect(Fixture.close(a[1], SIMD4(0.5, 0, 0.5, 1)))
    }

    @Test func sourceOverIsPorterDuffOver() throws {
        // (0.8, 0.2, 0) at a quarter coverage, premultiplied as buffers hold it.
        let top = Fixture.image(1, 1) { _, _ in SIMD4(0.8 * 0.25, 0.2 * 0.25, 0, 0.25) }
        let bottom = Fixture.image(1, 1) { _, _ in SIMD4(0, 0.5, 1, 1) }
        let f = CIFilter.sourceOverCompositing()
        f.inputImage = top
        f.backgroundImage = bottom
        let p = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 1, height: 1))[0][0]
        // Premultiplied: top·α + bottom·(1 − α), with α = 0.25 over an opaque bottom.
        let expected = SIMD4<Float>(0.8 * 0.25, 0.2 * 0.25 + 0.5 * 0.75, 0.75, 1)
        #expect(Fixture.close(p, expected))
        #expect(Fixture.close(Fixture.pixels(top.composited(over: bottom), CGRect(x: 0, y: 0, width: 1, height: 1))[0][0], expected))
    }

    @Test func depthAndDisparityAreReciprocals() throws {
        let depth = CIImage(cvPixelBuffer: Fixture.floatBuffer(3, 2, format: kCVPixelFormatType_DepthFloat32) { x, y in
            Float(x + 1) * 0.5 + Float(y) * 2
        })
        let toDisparity = CIFilter.depthToDisparity()
        toDisparity.inputImage = depth
        let disparity = try #require(toDisparity.outputImage)
        let d = Fixture.values(disparity, depth.extent)
        for y in 0..<2 { for x in 0..<3 { #expect(d[y][x] == 1 / (Float(x + 1) * 0.5 + Float(y) * 2)) } }
        let back = try #require(CIFilter(name: "CIDisparityToDepth", parameters: [kCIInputImageKey: disparity])?.outputImage)
        let b = Fixture.values(back, depth.extent)
        for y in 0..<2 { for x in 0..<3 { #expect(abs(b[y][x] - (Float(x + 1) * 0.5 + Float(y) * 2)) < 1e-5) } }
    }

    @Test func constantColorIsEverywhereAndAreaAverageIsTheMean() throws {
        let f = CIFilter.constantColorGenerator()
        f.color = CIColor(red: 0.25, green: 0.5, blue: 0.75)
        let colour = try #require(f.outputImage)
        #expect(colour.extent.isInfinite)
        let far = Fixture.pixels(colour, CGRect(x: -5000, y: 7000, width: 1, height: 1))[0][0]
        #expect(Fixture.close(far, SIMD4(0.25, 0.5, 0.75, 1)))
        let image = Fixture.image(4, 2) { x, y in SIMD4(Float(x), Float(y), 0.5, 1) }
        let average = CIFilter.areaAverage()
        average.inputImage = image
        average.extent = CGRect(x: 0, y: 0, width: 4, height: 2)
        let out = try #require(average.outputImage)
        #expect(out.extent == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(Fixture.close(Fixture.pixels(out, out.extent)[0][0], SIMD4(1.5, 0.5, 0.5, 1)))
    }

    @Test func depthBlurLeavesTheFocusedPlaneSharpAndBlursTheFarOne() throws {
        let n = 64
        // Stripes two pixels wide; the left half near (disparity 1/m), the right half far (0.2/m).
        let image = Fixture.image(n, n) { x, _ in (x / 2) % 2 == 0 ? SIMD4(1, 1, 1, 1) : SIMD4(0, 0, 0, 1) }
        let disparity = CIImage(cvPixelBuffer: Fixture.floatBuffer(n / 4, n / 4, format: kCVPixelFormatType_DisparityFloat32) { x, _ in
            x < n / 8 ? 1 : 0.2
        })
        let f = CIFilter.depthBlurEffect()
        f.inputImage = image
        f.disparityImage = disparity
        f.aperture = 2.8
        f.scaleFactor = 20
        f.focusRect = CGRect(x: 0.1, y: 0.4, width: 0.2, height: 0.2)
        let p = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: n, height: n))
        let row = p[n / 2]
        let near = row[4..<24].map(\.x), far = row[44..<60].map(\.x)
        #expect(near.max()! > 0.99 && near.min()! < 0.01, "the plane in focus stays sharp")
        #expect(far.max()! - far.min()! < 0.5, "the far plane's stripes blur: \(far.min()!)…\(far.max()!)")
    }
}
