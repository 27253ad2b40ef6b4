import CoreImage
import Foundation
import Testing

/// Colour cubes against trilinear interpolation of tables built here, and the photo effects against what Apple's
/// documentation says each does.
@Suite struct LookFilterTests {
    static let colours = Fixture.fourColours
    static let input = Fixture.fourColourImage
    static let rect = Fixture.fourColourRect

    /// A cube of `dimension` entries a side holding `f` of each lattice colour, laid out as Apple documents: RGBA
    /// floats, red changing fastest, then green, then blue.
    static func cube(_ dimension: Int, _ f: (SIMD3<Float>) -> SIMD4<Float>) -> Data {
        var floats: [Float] = []
        let last = Float(dimension - 1)
        for b in 0..<dimension {
            for g in 0..<dimension {
                for r in 0..<dimension {
                    let v = f(SIMD3(Float(r) / last, Float(g) / last, Float(b) / last))
                    floats += [v.x, v.y, v.z, v.w]
                }
            }
        }
        return floats.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    func pairs(_ output: CIImage?, _ context: CIContext = Fixture.raw) throws -> [(
        input: SIMD4<Float>, output: SIMD4<Float>
    )] {
        try Fixture.fourColourPairs(output, context)
    }

    @Test func colorCubeOfAnAffineMapReproducesItExactlyBetweenTheLatticePoints() throws {
        // Trilinear interpolation is exact for a function linear in each component, so any input colour must
        // come out as the map gives it, not only the lattice colours.
        let f = CIFilter.colorCube()
        f.inputImage = Self.input
        f.cubeDimension = 5
        f.cubeData = Self.cube(5) { c in SIMD4(c.y, 1 - c.z, 0.5 * c.x + 0.25, 1) }
        for (i, o) in try pairs(f.outputImage) {
            #expect(Fixture.close(o, SIMD4(i.y, 1 - i.z, 0.5 * i.x + 0.25, 1)), "\(i) → \(o)")
        }
    }

    @Test func colorCubeInterpolatesTrilinearlyBetweenEntries() throws {
        // A 2-entry cube of a product: trilinear interpolation of r·g·b at the corners is r·g·b itself.
        let f = CIFilter.colorCube()
        f.inputImage = Self.input
        f.cubeDimension = 2
        f.cubeData = Self.cube(2) { c in SIMD4(c.x * c.y * c.z, c.x * c.y, c.y * c.z, 1) }
        for (i, o) in try pairs(f.outputImage) {
            #expect(Fixture.close(o, SIMD4(i.x * i.y * i.z, i.x * i.y, i.y * i.z, 1)))
        }
    }

    @Test func colorCubeOfTheWrongSizeGivesNoImageAndExtrapolationCarriesTheEdgeCellOn() throws {
        let f = CIFilter.colorCube()
        f.inputImage = Self.input
        f.cubeDimension = 4
        f.cubeData = Self.cube(3) { c in SIMD4(c, 1) }
        #expect(f.outputImage == nil)
        f.cubeDimension = 3
        let bright = Fixture.image(1, 1) { _, _ in SIMD4(1.25, -0.5, 0.5, 1) }
        f.inputImage = bright
        let one = CGRect(x: 0, y: 0, width: 1, height: 1)
        #expect(Fixture.close(Fixture.pixels(try #require(f.outputImage), one)[0][0], SIMD4(1, 0, 0.5, 1)))
        f.extrapolate = true
        #expect(Fixture.close(Fixture.pixels(try #require(f.outputImage), one)[0][0], SIMD4(1.25, -0.5, 0.5, 1)))
    }

    @Test func colorCubeWithTheSRGBSpaceLooksUpEncodedValues() throws {
        // A cube that inverts encoded values: in the default (linear) context the output is the decoded inverse of
        // the encoded input; with a linear space it inverts the linear values.
        func encode(_ v: Float) -> Float { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }
        func decode(_ v: Float) -> Float { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        let f = CIFilter.colorCubeWithColorSpace()
        f.inputImage = Self.input
        f.cubeDimension = 2
        f.cubeData = Self.cube(2) { c in SIMD4(1 - c.x, 1 - c.y, 1 - c.z, 1) }
        f.colorSpace = CGColorSpace(name: CGColorSpace.sRGB)
        for (i, o) in try pairs(f.outputImage, Fixture.managed) {
            let expected = SIMD4(decode(1 - encode(i.x)), decode(1 - encode(i.y)), decode(1 - encode(i.z)), 1)
            #expect(Fixture.close(o, expected), "\(i) → \(o)")
        }
        f.colorSpace = CGColorSpace(name: CGColorSpace.linearSRGB)
        for (i, o) in try pairs(f.outputImage, Fixture.managed) {
            #expect(Fixture.close(o, SIMD4(1 - i.x, 1 - i.y, 1 - i.z, 1)))
        }
    }

    @Test func blackAndWhiteEffectsGiveGreysAndTheColourEffectsLeanAsDocumented() throws {
        let ramp = Fixture.image(11, 1) { x, _ in SIMD4(Float(x) / 10, Float(x) / 10, Float(x) / 10, 1) }
        let row = CGRect(x: 0, y: 0, width: 11, height: 1)
        func effect(_ name: String, _ image: CIImage, _ rect: CGRect) throws -> [SIMD4<Float>] {
            let f = try #require(CIFilter(name: name))
            f.setValue(image, forKey: kCIInputImageKey)
            return Fixture.pixels(try #require(f.outputImage), rect, Fixture.managed).flatMap { $0 }
        }
        // Noir and Tonal imitate black-and-white film.
        for name in ["CIPhotoEffectNoir", "CIPhotoEffectTonal"] {
            for o in try effect(name, Self.input, Self.rect) {
                #expect(abs(o.x - o.y) < 2e-3 && abs(o.y - o.z) < 2e-3, "\(name)")
            }
        }
        // Tonal keeps the contrast of a grey ramp; Noir exaggerates it.
        let tonal = try effect("CIPhotoEffectTonal", ramp, row), noir = try effect("CIPhotoEffectNoir", ramp, row)
        for x in 0...10 { #expect(abs(tonal[x].x - Float(x) / 10) < 3e-3) }
        #expect(noir[2].x < tonal[2].x && noir[8].x > tonal[8].x)
        // Chrome exaggerates colour, Fade diminishes it and lifts black, Process leans cool and Transfer warm.
        let chroma = { (v: SIMD4<Float>) -> Float in max(v.x, v.y, v.z) - min(v.x, v.y, v.z) }
        for (i, o) in zip(Self.colours, try effect("CIPhotoEffectChrome", Self.input, Self.rect)) where chroma(i) > 0 {
            // A colour already at full chroma can gain none.
            #expect(chroma(i) >= 0.99 ? chroma(o) >= chroma(i) - 3e-3 : chroma(o) > chroma(i) + 0.01, "\(i) → \(o)")
        }
        for (i, o) in zip(Self.colours, try effect("CIPhotoEffectFade", Self.input, Self.rect)) where chroma(i) > 0 {
            #expect(chroma(o) < chroma(i))
        }
        #expect(try effect("CIPhotoEffectFade", ramp, row)[0].x > 0.001)
        let process = try effect("CIPhotoEffectProcess", ramp, row)[5],
            transfer = try effect("CIPhotoEffectTransfer", ramp, row)[5]
        #expect(process.z > process.x && transfer.x > transfer.z)
        #expect(CIFilter.photoEffectInstant().outputImage == nil, "no image in, no image out")
    }
}
