import CoreImage
import Foundation
import Testing

/// Vignettes, sharpening, pixellation, gradients and area reductions against closed forms written out here.
@Suite struct EffectFilterTests {
    static let grey = SIMD4<Float>(0.5, 0.5, 0.5, 1)

    @Test func vignetteFollowsTheCosFourthLawOutToTheCorners() throws {
        let (w, h) = (40, 30)
        let f = CIFilter.vignette()
        f.inputImage = Fixture.image(w, h) { _, _ in Self.grey }
        f.intensity = 0
        let plain = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: w, height: h))
        #expect(plain.allSatisfy { $0.allSatisfy { Fixture.close($0, Self.grey) } })
        f.intensity = 0.8
        f.radius = 1
        let out = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: w, height: h))
        let halfDiagonal = (Double(w * w + h * h)).squareRoot() / 2
        for (x, y) in [(0, 0), (39, 29), (20, 15), (5, 20), (30, 3)] {
            // The pixel's centre, in Core Image's coordinates (y up; rows of `out` from the top).
            let dx = Double(x) + 0.5 - Double(w) / 2, dy = Double(h - 1 - y) + 0.5 - Double(h) / 2
            let tangent = (dx * dx + dy * dy).squareRoot() / halfDiagonal
            let cos4 = pow(1 / (1 + tangent * tangent), 2)
            let expected = Float(0.5 * (1 - 0.8 * (1 - cos4)))
            #expect(abs(out[y][x].x - expected) < 2e-3, "(\(x), \(y)): \(out[y][x].x) against \(expected)")
        }
    }

    @Test func vignetteEffectLeavesTheMiddleAndDarkensBeyondTheRadius() throws {
        let f = CIFilter.vignetteEffect()
        f.inputImage = Fixture.image(60, 60) { _, _ in Self.grey }
        f.center = CGPoint(x: 30, y: 30)
        f.radius = 20
        f.intensity = 0.6
        f.falloff = 0.5
        let out = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 60, height: 60))
        #expect(Fixture.close(out[30][30], Self.grey), "within radius · (1 − falloff)")
        #expect(abs(out[0][0].x - 0.5 * 0.4) < 2e-3, "beyond the radius")
        let between = out[30][30 + 15].x
        #expect(between < 0.5 - 0.01 && between > 0.2 + 0.01, "\(between)")
    }

    /// The sampled Gaussian of a standard deviation, out to 3σ and normalised: the blur the radius names.
    static func gaussian(_ sigma: Double) -> [Double] {
        let reach = Int((3 * sigma).rounded(.up))
        let raw = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }

    @Test func unsharpMaskAddsBackTheDifferenceFromAGaussianBlur() throws {
        // A bright column on a grey field: the column's pixels and its neighbours follow in + k · (in − blur).
        let (w, h) = (31, 9)
        let image = Fixture.image(w, h) { x, _ in x == 15 ? SIMD4(0.9, 0.9, 0.9, 1) : SIMD4(0.3, 0.3, 0.3, 1) }
        let f = CIFilter.unsharpMask()
        f.inputImage = image
        f.radius = 1.5
        f.intensity = 0.7
        let out = try #require(f.outputImage)
        #expect(out.extent == image.extent)
        let row = Fixture.pixels(out, CGRect(x: 0, y: 0, width: w, height: h))[4]
        let kernel = Self.gaussian(1.5), reach = kernel.count / 2
        for x in 10...20 {
            let value = { (i: Int) -> Double in i == 15 ? 0.9 : 0.3 }
            let blurred = (-reach...reach).reduce(0.0) { $0 + kernel[$1 + reach] * value(x + $1) }
            let expected = value(x) + 0.7 * (value(x) - blurred)
            #expect(abs(Double(row[x].x) - expected) < 3e-3, "x \(x): \(row[x].x) against \(expected)")
        }
        // Edges repeat outwards before blurring, so a flat picture stays flat to its border.
        #expect(abs(row[0].x - 0.3) < 2e-3 && abs(row[w - 1].x - 0.3) < 2e-3)
    }

    @Test func sharpenLuminanceLeavesChromaAlone() throws {
        let image = Fixture.image(21, 5) { x, _ in x >= 10 ? SIMD4(0.8, 0.4, 0.2, 1) : SIMD4(0.2, 0.3, 0.6, 1) }
        let f = CIFilter.sharpenLuminance()
        f.inputImage = image
        f.sharpness = 0.9
        let out = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 21, height: 5))[2]
        let original = Fixture.pixels(image, CGRect(x: 0, y: 0, width: 21, height: 5))[2]
        var changed = false
        for x in 0..<21 {
            let d = out[x] - original[x]
            // The same amount is added to red, green and blue.
            #expect(abs(d.x - d.y) < 3e-3 && abs(d.y - d.z) < 3e-3, "x \(x): \(d)")
            if abs(d.x) > 0.01 { changed = true }
        }
        #expect(changed, "the edge is sharpened")
    }

    @Test func pixellateAveragesEachSquare() throws {
        let values: [Float] = (0..<16).map { Float($0) / 16 }
        // Rows from the top; Core Image's y counts up from the bottom row.
        let image = Fixture.image(4, 4) { x, y in SIMD4(values[4 * y + x], 0, 0, 1) }
        let f = CIFilter.pixellate()
        f.inputImage = image
        f.center = .zero
        f.scale = 2
        let out = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 4, height: 4))
        for y in 0..<4 {
            for x in 0..<4 {
                let (bx, by) = (x / 2 * 2, y / 2 * 2)
                let mean =
                    (values[4 * by + bx] + values[4 * by + bx + 1] + values[4 * by + 4 + bx] + values[4 * by + 5 + bx])
                    / 4
                #expect(abs(out[y][x].x - mean) < 2e-3, "(\(x), \(y))")
            }
        }
    }

    @Test func gradientsMixTheirColoursAlongTheLineAndTheRadius() throws {
        let linear = CIFilter.linearGradient()
        linear.point0 = CGPoint(x: 0, y: 0)
        linear.point1 = CGPoint(x: 10, y: 0)
        linear.color0 = CIColor(red: 1, green: 0, blue: 0)
        linear.color1 = CIColor(red: 0, green: 0, blue: 1)
        let image = try #require(linear.outputImage)
        #expect(image.extent.isInfinite)
        let row = Fixture.pixels(image, CGRect(x: -2, y: 3, width: 14, height: 1))[0]
        for (i, p) in row.enumerated() {
            let t = min(max((Float(i - 2) + 0.5) / 10, 0), 1)
            #expect(Fixture.close(p, SIMD4(1 - t, 0, t, 1)), "x \(i - 2): \(p)")
        }
        let radial = CIFilter.radialGradient()
        radial.center = CGPoint(x: 0, y: 0)
        radial.radius0 = 2
        radial.radius1 = 6
        radial.color0 = CIColor(red: 1, green: 1, blue: 1)
        radial.color1 = CIColor(red: 0, green: 0, blue: 0, alpha: 0)
        let ring = Fixture.pixels(try #require(radial.outputImage), CGRect(x: 0, y: 0, width: 8, height: 1))[0]
        for (i, p) in ring.enumerated() {
            let r = (pow(Float(i) + 0.5, 2) + 0.25).squareRoot()
            let t = min(max((r - 2) / 4, 0), 1)
            // Premultiplied mixing: white fading to clear.
            #expect(Fixture.close(p, SIMD4(repeating: 1 - t)), "x \(i): \(p)")
        }
    }

    @Test func areaMaximumAndMinimumTakeEachComponentsExtreme() throws {
        let image = Fixture.image(3, 2) { x, y in SIMD4(Float(x) / 4, Float(y) / 2, Float(x + y) / 8, 1) }
        for (name, expected) in [
            ("CIAreaMaximum", SIMD4<Float>(0.5, 0.5, 0.375, 1)), ("CIAreaMinimum", SIMD4<Float>(0, 0, 0, 1)),
        ] {
            let out = image.applyingFilter(name, parameters: [kCIInputExtentKey: CIVector(x: 0, y: 0, z: 3, w: 2)])
            #expect(out.extent == CGRect(x: 0, y: 0, width: 1, height: 1))
            #expect(
                Fixture.close(Fixture.pixels(out, CGRect(x: 0, y: 0, width: 1, height: 1))[0][0], expected), "\(name)")
        }
    }
}
