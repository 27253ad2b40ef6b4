import CoreImage
import Foundation
import Testing

/// Colour filters against their closed forms, computed here, on a few known pixels.
@Suite struct ColorFilterTests {
    static let colours = Fixture.fourColours
    static let input = Fixture.fourColourImage
    static let rect = Fixture.fourColourRect

    /// The filter's output next to each input colour.
    func pairs(_ output: CIImage?) throws -> [(input: SIMD4<Float>, output: SIMD4<Float>)] { try Fixture.fourColourPairs(output) }

    @Test func colorMatrixIsTheDotProductOfEachRowPlusTheBias() throws {
        let f = try #require(CIFilter(name: "CIColorMatrix"))
        f.setValue(Self.input, forKey: kCIInputImageKey)
        let (r, g, b) = (SIMD4<Float>(0.5, 0.25, 0, 0), SIMD4<Float>(0, 1, 0.5, 0), SIMD4<Float>(0.1, 0.1, 0.1, 0))
        f.setValue(CIVector(x: 0.5, y: 0.25, z: 0, w: 0), forKey: "inputRVector")
        f.setValue(CIVector(x: 0, y: 1, z: 0.5, w: 0), forKey: "inputGVector")
        f.setValue(CIVector(x: 0.1, y: 0.1, z: 0.1, w: 0), forKey: "inputBVector")
        f.setValue(CIVector(x: 0.05, y: -0.1, z: 0.2, w: 0), forKey: "inputBiasVector")
        for (i, o) in try pairs(f.outputImage) {
            let expected = SIMD4((r * i).sum() + 0.05, (g * i).sum() - 0.1, (b * i).sum() + 0.2, 1)
            #expect(Fixture.close(o, expected), "\(i) → \(o), expected \(expected)")
        }
    }

    @Test func colorClampKeepsEachComponentWithinItsBounds() throws {
        let f = CIFilter.colorClamp()
        f.inputImage = Self.input
        f.minComponents = CIVector(x: 0.1, y: 0.2, z: 0.3, w: 0)
        f.maxComponents = CIVector(x: 0.7, y: 0.8, z: 0.5, w: 1)
        for (i, o) in try pairs(f.outputImage) {
            let expected = SIMD4(min(max(i.x, 0.1), 0.7), min(max(i.y, 0.2), 0.8), min(max(i.z, 0.3), 0.5), 1)
            #expect(Fixture.close(o, expected))
        }
    }

    @Test func colorControlsMixesWithLumaAddsBrightnessAndScalesContrastAboutHalf() throws {
        let f = CIFilter.colorControls()
        f.inputImage = Self.input
        f.saturation = 0.5
        f.brightness = 0.1
        f.contrast = 1.2
        for (i, o) in try pairs(f.outputImage) {
            let luma = 0.2126 * i.x + 0.7152 * i.y + 0.0722 * i.z
            func c(_ v: Float) -> Float { ((0.5 * v + 0.5 * luma) + 0.1 - 0.5) * 1.2 + 0.5 }
            #expect(Fixture.close(o, SIMD4(c(i.x), c(i.y), c(i.z), 1)))
        }
    }

    @Test func exposureAdjustMultipliesByTwoToTheEV() throws {
        let out = Self.input.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: -1.5])
        for (i, o) in try pairs(out) {
            let k = Float(pow(2, -1.5))
            #expect(Fixture.close(o, SIMD4(i.x * k, i.y * k, i.z * k, 1)))
        }
    }

    @Test func gammaAdjustRaisesToThePower() throws {
        let f = CIFilter.gammaAdjust()
        f.inputImage = Self.input
        f.power = 2.2
        for (i, o) in try pairs(f.outputImage) {
            #expect(Fixture.close(o, SIMD4(pow(i.x, 2.2), pow(i.y, 2.2), pow(i.z, 2.2), 1)))
        }
    }

    @Test func colorInvertSubtractsFromOne() throws {
        for (i, o) in try pairs(CIFilter(name: "CIColorInvert", parameters: [kCIInputImageKey: Self.input])?.outputImage) {
            #expect(Fixture.close(o, SIMD4(1 - i.x, 1 - i.y, 1 - i.z, 1)))
        }
    }

    @Test func sepiaToneMixesTheSepiaMatrixByItsIntensity() throws {
        let f = CIFilter.sepiaTone()
        f.inputImage = Self.input
        f.intensity = 0.75
        for (i, o) in try pairs(f.outputImage) {
            let s = SIMD3<Float>(0.393 * i.x + 0.769 * i.y + 0.189 * i.z, 0.349 * i.x + 0.686 * i.y + 0.168 * i.z,
                                 0.272 * i.x + 0.534 * i.y + 0.131 * i.z)
            let e = SIMD3(i.x, i.y, i.z) * 0.25 + s * 0.75
            #expect(Fixture.close(o, SIMD4(e.x, e.y, e.z, 1)))
        }
    }

    @Test func photoEffectMonoIsTheLuma() throws {
        let f = CIFilter.photoEffectMono()
        f.inputImage = Self.input
        for (i, o) in try pairs(f.outputImage) {
            let y = 0.2126 * i.x + 0.7152 * i.y + 0.0722 * i.z
            #expect(Fixture.close(o, SIMD4(y, y, y, 1)))
        }
    }

    /// The tabulated Planckian chromaticities (CIE 1931 xy) at 4000 K and 6500 K, taken to linear sRGB
    /// with green 1: the colour that is neutral under one light and the one it becomes under the other.
    static func planckianWhite(_ xy: (Double, Double)) -> SIMD4<Float> {
        let (x, y) = xy
        let X = x / y, Z = (1 - x - y) / y
        let r = 3.2406 * X - 1.5372 - 0.4986 * Z, g = -0.9689 * X + 1.8758 + 0.0415 * Z, b = 0.0557 * X - 0.2040 + 1.0570 * Z
        return SIMD4(Float(r / g), 1, Float(b / g), 1)
    }

    @Test func temperatureAndTintTakesTheNeutralsWhiteToTheTargetsWhite() throws {
        let white4000 = Self.planckianWhite((0.3805, 0.3768)), white6500 = Self.planckianWhite((0.3135, 0.3237))
        let image = Fixture.image(1, 1) { _, _ in white4000 * SIMD4(0.5, 0.5, 0.5, 1) }
        let f = CIFilter.temperatureAndTint()
        f.inputImage = image
        f.neutral = CIVector(x: 4000, y: 0)
        f.targetNeutral = CIVector(x: 6500, y: 0)
        let output = try #require(f.outputImage)
        let o = try #require(Fixture.pixels(output, CGRect(x: 0, y: 0, width: 1, height: 1)).first?.first)
        #expect(Fixture.close(o, white6500 * SIMD4(0.5, 0.5, 0.5, 1), 0.01), "\(o) against \(white6500 * 0.5)")
        // Equal neutrals change nothing.
        let same = CIFilter.temperatureAndTint()
        same.inputImage = Self.input
        for (i, o) in try pairs(same.outputImage) { #expect(Fixture.close(o, i)) }
    }
}

