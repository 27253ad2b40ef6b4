import CoreImage
import Foundation
import Testing

/// The colour adjustments against closed forms written out here, through the public API.
@Suite struct AdjustmentFilterTests {
    static let colours = Fixture.fourColours
    static let input = Fixture.fourColourImage
    static let rect = Fixture.fourColourRect

    static func luma(_ v: SIMD4<Float>) -> Float { 0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z }

    func pairs(_ output: CIImage?, _ context: CIContext = Fixture.raw) throws -> [(
        input: SIMD4<Float>, output: SIMD4<Float>
    )] {
        try Fixture.fourColourPairs(output, context)
    }

    @Test func hueAdjustTurnsRedToGreenToBlueInThirdsOfATurnAndKeepsGreys() throws {
        let f = CIFilter.hueAdjust()
        f.inputImage = Self.input
        f.angle = 2 * .pi / 3
        // A rotation about the grey axis by a third of a turn carries each primary axis onto the next: (r, g, b)
        // becomes (b, r, g).
        for (i, o) in try pairs(f.outputImage) { #expect(Fixture.close(o, SIMD4(i.z, i.x, i.y, 1)), "\(i) → \(o)") }
        f.angle = 0.7
        for (i, o) in try pairs(f.outputImage) {
            // Rotation keeps the grey component and the distance from grey.
            #expect(abs((o.x + o.y + o.z) - (i.x + i.y + i.z)) < 3e-3)
            let spread = { (v: SIMD4<Float>) -> Float in
                let m = (v.x + v.y + v.z) / 3
                return (v.x - m) * (v.x - m) + (v.y - m) * (v.y - m) + (v.z - m) * (v.z - m)
            }
            #expect(abs(spread(o) - spread(i)) < 3e-3)
            if i.x == i.y && i.y == i.z { #expect(Fixture.close(o, i)) }
        }
    }

    @Test func vibranceRaisesTheLeastSaturatedColoursMost() throws {
        let f = CIFilter.vibrance()
        f.inputImage = Self.input
        f.amount = 0.8
        for (i, o) in try pairs(f.outputImage) {
            let grey = Self.luma(i)
            let gain = 1 + 0.8 * (1 - (max(i.x, i.y, i.z) - min(i.x, i.y, i.z)))
            let expected = SIMD4(grey + (i.x - grey) * gain, grey + (i.y - grey) * gain, grey + (i.z - grey) * gain, 1)
            #expect(Fixture.close(o, expected), "\(i) → \(o)")
        }
        f.amount = 0
        for (i, o) in try pairs(f.outputImage) { #expect(Fixture.close(o, i)) }
    }

    @Test func colorMonochromeIsLumaTimesTheColourDecodedWhereColourIsManaged() throws {
        let f = CIFilter.colorMonochrome()
        f.inputImage = Self.input
        f.color = CIColor(red: 0.9, green: 0.5, blue: 0.2)
        f.intensity = 0.75
        for (i, o) in try pairs(f.outputImage) {
            let mono = SIMD4<Float>(0.9, 0.5, 0.2, 1) * Self.luma(i)
            let expected = i + (mono - i) * 0.75
            #expect(Fixture.close(o, SIMD4(expected.x, expected.y, expected.z, 1)), "\(i) → \(o)")
        }
        // In Core Image's default context the colour's sRGB components are decoded to linear first.
        let decoded = SIMD4<Float>(Float(Fixture.linear(Int(0.9 * 255))), Float(Fixture.linear(Int(0.5 * 255))), 0, 0)
        f.color = CIColor(red: CGFloat(Int(0.9 * 255)) / 255, green: CGFloat(Int(0.5 * 255)) / 255, blue: 0)
        f.intensity = 1
        for (i, o) in try pairs(f.outputImage, Fixture.managed) {
            #expect(Fixture.close(o, SIMD4(decoded.x * Self.luma(i), decoded.y * Self.luma(i), 0, 1)), "\(i) → \(o)")
        }
    }

    @Test func falseColorMixesItsTwoColoursByLuma() throws {
        let f = CIFilter.falseColor()
        f.inputImage = Self.input
        f.color0 = CIColor(red: 0, green: 0, blue: 0.5)
        f.color1 = CIColor(red: 1, green: 0.8, blue: 0)
        for (i, o) in try pairs(f.outputImage) {
            let y = Self.luma(i)
            #expect(Fixture.close(o, SIMD4(y, 0.8 * y, 0.5 * (1 - y), 1)), "\(i) → \(o)")
        }
    }

    @Test func whitePointAdjustScalesEachComponentByTheColour() throws {
        let f = CIFilter.whitePointAdjust()
        f.inputImage = Self.input
        f.color = CIColor(red: 1, green: 0.9, blue: 0.7)
        for (i, o) in try pairs(f.outputImage) { #expect(Fixture.close(o, SIMD4(i.x, 0.9 * i.y, 0.7 * i.z, 1))) }
    }

    @Test func posterizeGivesExactlyTheLevelsAskedFor() throws {
        let ramp = Fixture.image(64, 1) { x, _ in SIMD4(Float(x) / 63, Float(x) / 63, Float(x) / 63, 1) }
        let f = CIFilter.colorPosterize()
        f.inputImage = ramp
        f.levels = 4
        let values = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 64, height: 1))[0].map(\.x)
        let distinct = Set(values.map { ($0 * 3).rounded() })
        #expect(distinct == [0, 1, 2, 3], "\(distinct)")
        for (x, v) in values.enumerated() { #expect(abs(v - (Float(x) / 63 * 3).rounded() / 3) < 2e-3) }
    }

    @Test func thresholdAndMaskToAlphaAndTheSRGBCurves() throws {
        let threshold = CIFilter.colorThreshold()
        threshold.inputImage = Self.input
        threshold.threshold = 0.45
        for (i, o) in try pairs(threshold.outputImage) {
            #expect(o == SIMD4(i.x > 0.45 ? 1 : 0, i.y > 0.45 ? 1 : 0, i.z > 0.45 ? 1 : 0, 1))
        }
        let mask = CIFilter.maskToAlpha()
        mask.inputImage = Self.input
        for (i, o) in try pairs(mask.outputImage) {
            // White, premultiplied by an alpha that is the luma.
            let a = Self.luma(i)
            #expect(Fixture.close(o, SIMD4(a, a, a, a)), "\(i) → \(o)")
        }
        // IEC 61966-2-1, written out.
        func encode(_ v: Float) -> Float { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }
        func decode(_ v: Float) -> Float { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        for (i, o) in try pairs(
            CIFilter(name: "CILinearToSRGBToneCurve", parameters: [kCIInputImageKey: Self.input])?.outputImage)
        {
            #expect(Fixture.close(o, SIMD4(encode(i.x), encode(i.y), encode(i.z), 1)))
        }
        let back = CIFilter.sRGBToneCurveToLinear()
        back.inputImage = Self.input
        for (i, o) in try pairs(back.outputImage) {
            #expect(Fixture.close(o, SIMD4(decode(i.x), decode(i.y), decode(i.z), 1)))
        }
    }

    /// A 64-step ramp through the tone curve, read back.
    func curve(_ points: [CGPoint]) throws -> [Float] {
        let f = CIFilter.toneCurve()
        f.inputImage = Fixture.image(65, 1) { x, _ in SIMD4(Float(x) / 64, Float(x) / 64, Float(x) / 64, 1) }
        (f.point0, f.point1, f.point2, f.point3, f.point4) = (points[0], points[1], points[2], points[3], points[4])
        return Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 65, height: 1))[0].map(\.y)
    }

    @Test func toneCurvePassesThroughItsPointsAndNeverOvershoots() throws {
        #expect(
            try curve([0, 0.25, 0.5, 0.75, 1].map { CGPoint(x: $0, y: $0) }).enumerated().allSatisfy {
                abs($0.element - Float($0.offset) / 64) < 2e-3
            })
        // An S-curve with a flat shoulder: through each point, and never above the shoulder or below the toe.
        let points = [
            CGPoint(x: 0, y: 0.1), CGPoint(x: 0.25, y: 0.1), CGPoint(x: 0.5, y: 0.5), CGPoint(x: 0.75, y: 0.9),
            CGPoint(x: 1, y: 0.9),
        ]
        let values = try curve(points)
        for p in points { #expect(abs(values[Int(p.x * 64)] - Float(p.y)) < 2e-3, "\(p)") }
        #expect(values.allSatisfy { $0 >= 0.1 - 2e-3 && $0 <= 0.9 + 2e-3 })
        #expect(zip(values, values.dropFirst()).allSatisfy { $1 >= $0 - 1e-3 }, "monotone")
        #expect(values[16...32].contains { $0 > 0.11 && $0 < 0.49 }, "a curve, not steps")
    }
}
