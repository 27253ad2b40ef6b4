import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import Testing

/// The non-separable and further blend modes against ISO 32000-1 (PDF 1.7) §11.3.5, written out here from the
/// standard's pseudo-code; the colour polynomials by hand; the colour map, generators and reductions against values
/// worked out here.
@Suite struct ColourMoreFilterTests {
    // MARK: ISO 32000-1 §11.3.5.3, independently, in doubles

    typealias RGB = (r: Double, g: Double, b: Double)

    static func lum(_ c: RGB) -> Double { 0.3 * c.r + 0.59 * c.g + 0.11 * c.b }

    static func clipColor(_ c: RGB) -> RGB {
        let l = lum(c)
        let n = Swift.min(c.r, c.g, c.b), x = Swift.max(c.r, c.g, c.b)
        var (r, g, b) = (c.r, c.g, c.b)
        if n < 0 {
            r = l + (r - l) * l / (l - n)
            g = l + (g - l) * l / (l - n)
            b = l + (b - l) * l / (l - n)
        }
        if x > 1 {
            r = l + (r - l) * (1 - l) / (x - l)
            g = l + (g - l) * (1 - l) / (x - l)
            b = l + (b - l) * (1 - l) / (x - l)
        }
        return (r, g, b)
    }

    static func setLum(_ c: RGB, _ l: Double) -> RGB {
        let d = l - lum(c)
        return clipColor((c.r + d, c.g + d, c.b + d))
    }

    static func sat(_ c: RGB) -> Double { Swift.max(c.r, c.g, c.b) - Swift.min(c.r, c.g, c.b) }

    /// The standard's SetSat, by naming the largest, middle and smallest components.
    static func setSat(_ c: RGB, _ s: Double) -> RGB {
        var v = [c.r, c.g, c.b]
        let order = [0, 1, 2].sorted { v[$0] < v[$1] }
        let (mn, md, mx) = (order[0], order[1], order[2])
        if v[mx] > v[mn] {
            v[md] = (v[md] - v[mn]) * s / (v[mx] - v[mn])
            v[mx] = s
        } else {
            v[md] = 0
            v[mx] = 0
        }
        v[mn] = 0
        return (v[0], v[1], v[2])
    }

    static let nonSeparable: [(String, @Sendable (RGB, RGB) -> RGB)] = [
        ("CIHueBlendMode", { b, s in setLum(setSat(s, sat(b)), lum(b)) }),
        ("CISaturationBlendMode", { b, s in setLum(setSat(b, sat(s)), lum(b)) }),
        ("CIColorBlendMode", { b, s in setLum(s, lum(b)) }),
        ("CILuminosityBlendMode", { b, s in setLum(b, lum(s)) }),
    ]

    /// Source and background pairs, opaque; among them ones whose SetLum leaves 0…1 on either side, so that ClipColor
    /// acts.
    static let sources: [SIMD4<Float>] = [
        SIMD4(0.2, 0.7, 0.45, 1), SIMD4(0.9, 0.9, 0.9, 1), SIMD4(1, 0, 0, 1), SIMD4(0.5, 0.3, 0.05, 1),
        SIMD4(0.3, 0.3, 0.3, 1),
    ]
    static let backgrounds: [SIMD4<Float>] = [
        SIMD4(0.6, 0.2, 0.15, 1), SIMD4(0.9, 0.1, 0.1, 1), SIMD4(0.05, 0.05, 0.05, 1), SIMD4(0.1, 0.95, 0.5, 1),
        SIMD4(0.2, 0.8, 0.4, 1),
    ]

    static func blend(_ name: String, source: [SIMD4<Float>], background: [SIMD4<Float>]) throws -> [SIMD4<Float>] {
        let f = try #require(CIFilter(name: name))
        f.setValue(Fixture.image(source.count, 1) { x, _ in source[x] }, forKey: kCIInputImageKey)
        f.setValue(Fixture.image(background.count, 1) { x, _ in background[x] }, forKey: kCIInputBackgroundImageKey)
        return Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: source.count, height: 1))[0]
    }

    static func rgb(_ v: SIMD4<Float>) -> RGB { (Double(v.x), Double(v.y), Double(v.z)) }

    @Test(arguments: 0..<4) func nonSeparableBlendOfOpaqueColoursIsTheStandardsFunction(_ index: Int) throws {
        let (name, formula) = Self.nonSeparable[index]
        let out = try Self.blend(name, source: Self.sources, background: Self.backgrounds)
        for (k, o) in out.enumerated() {
            let e = formula(Self.rgb(Self.backgrounds[k]), Self.rgb(Self.sources[k]))
            let expected = SIMD4(Float(e.r), Float(e.g), Float(e.b), 1)
            #expect(Fixture.close(o, expected, 3e-3), "\(name) pair \(k): \(o) against \(expected)")
        }
    }

    @Test func theClippingCasesAreExercised() {
        // The luminosity of a light grey on a saturated red goes above 1 before clipping; the colour of pure red on a
        // near-black goes below 0: both are the standard's ClipColor branches, and clipping keeps the luminosity.
        let up = Self.setLum(Self.rgb(Self.backgrounds[1]), Self.lum(Self.rgb(Self.sources[1])))
        #expect(abs(Self.lum(up) - 0.9) < 1e-6 && Swift.max(up.r, up.g, up.b) <= 1 + 1e-9)
        let down = Self.setLum(Self.rgb(Self.sources[2]), Self.lum(Self.rgb(Self.backgrounds[2])))
        #expect(abs(Self.lum(down) - 0.05) < 1e-6 && Swift.min(down.r, down.g, down.b) >= -1e-9)
    }

    @Test func translucentNonSeparableBlendIsCompositedByTheStandardsRule() throws {
        let (sa, ba): (Float, Float) = (0.6, 0.5)
        let s = SIMD4<Float>(0.8, 0.2, 0.4, 1), b = SIMD4<Float>(0.3, 0.6, 0.9, 1)
        let out = try Self.blend(
            "CIColorBlendMode", source: [SIMD4(s.x * sa, s.y * sa, s.z * sa, sa)],
            background: [SIMD4(b.x * ba, b.y * ba, b.z * ba, ba)])
        let mixed = Self.setLum(Self.rgb(s), Self.lum(Self.rgb(b)))
        let m = [mixed.r, mixed.g, mixed.b].map(Float.init)
        func c(_ i: Int) -> Float { (1 - ba) * s[i] * sa + (1 - sa) * b[i] * ba + sa * ba * m[i] }
        let expected = SIMD4(c(0), c(1), c(2), sa + ba - sa * ba)
        #expect(Fixture.close(out[0], expected), "\(out[0]) against \(expected)")
    }

    @Test func subtractAndPinLight() throws {
        let subtract = try Self.blend("CISubtractBlendMode", source: Self.sources, background: Self.backgrounds)
        let pin = try Self.blend("CIPinLightBlendMode", source: Self.sources, background: Self.backgrounds)
        func pinLight(_ b: Float, _ s: Float) -> Float { s < 0.5 ? Swift.min(b, 2 * s) : Swift.max(b, 2 * s - 1) }
        for k in Self.sources.indices {
            let s = Self.sources[k], b = Self.backgrounds[k]
            let difference = SIMD4(b.x - s.x, b.y - s.y, b.z - s.z, 1)
            #expect(Fixture.close(subtract[k], difference, 3e-3), "subtract \(k): \(subtract[k]) against \(difference)")
            let p = SIMD4(pinLight(b.x, s.x), pinLight(b.y, s.y), pinLight(b.z, s.z), 1)
            #expect(Fixture.close(pin[k], p, 3e-3), "pin light \(k): \(pin[k]) against \(p)")
        }
    }

    @Test func blendModeBuildersSetTheirKeys() throws {
        let builders: [(String, any CIFilter & CICompositeOperation)] = [
            ("CIHueBlendMode", CIFilter.hueBlendMode()), ("CISaturationBlendMode", CIFilter.saturationBlendMode()),
            ("CIColorBlendMode", CIFilter.colorBlendMode()), ("CILuminosityBlendMode", CIFilter.luminosityBlendMode()),
            ("CISubtractBlendMode", CIFilter.subtractBlendMode()),
            ("CIPinLightBlendMode", CIFilter.pinLightBlendMode()),
        ]
        let image = Fixture.image(1, 1) { _, _ in SIMD4(0.2, 0.4, 0.6, 1) }
        for (name, f) in builders {
            #expect(f.name == name)
            #expect(f.inputKeys == [kCIInputImageKey, kCIInputBackgroundImageKey])
            f.inputImage = image
            f.backgroundImage = image
            #expect(f.value(forKey: kCIInputImageKey) as? CIImage === image)
            #expect(f.value(forKey: kCIInputBackgroundImageKey) as? CIImage === image)
            #expect(f.outputImage != nil)
        }
    }

    // MARK: Polynomials

    static func vector(_ values: [CGFloat]) -> CIVector {
        values.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { CIVector(values: $0, count: values.count) } ?? CIVector(x: 0)
        }
    }

    @Test func colorPolynomialDefaultsAndBuilder() throws {
        let f = try #require(CIFilter(name: "CIColorPolynomial"))
        for key in [
            "inputRedCoefficients", "inputGreenCoefficients", "inputBlueCoefficients", "inputAlphaCoefficients",
        ] {
            #expect(f.value(forKey: key) as? CIVector == CIVector(x: 0, y: 1, z: 0, w: 0), "\(key)")
        }
        let typed = CIFilter.colorPolynomial()
        typed.redCoefficients = CIVector(x: 0.1, y: 0.2, z: 0.3, w: 0.4)
        typed.alphaCoefficients = CIVector(x: 1, y: 0, z: 0, w: 0)
        #expect(typed.value(forKey: "inputRedCoefficients") as? CIVector == CIVector(x: 0.1, y: 0.2, z: 0.3, w: 0.4))
        #expect(typed.value(forKey: "inputAlphaCoefficients") as? CIVector == CIVector(x: 1, y: 0, z: 0, w: 0))
        // The defaults leave the image as it was.
        for (input, output) in try Fixture.fourColourPairs(f.applyingDefaultsTo(Fixture.fourColourImage)) {
            #expect(Fixture.close(output, input), "\(output) against \(input)")
        }
    }

    @Test func colorPolynomialByHand() throws {
        let f = CIFilter.colorPolynomial()
        f.inputImage = Fixture.fourColourImage
        f.redCoefficients = CIVector(x: 0.1, y: 0.5, z: -0.2, w: 0.3)
        f.greenCoefficients = CIVector(x: 0, y: 0, z: 1, w: 0)
        f.blueCoefficients = CIVector(x: 1, y: -1, z: 0, w: 0)
        f.alphaCoefficients = CIVector(x: 0.25, y: 0.5, z: 0, w: 0)
        for (input, output) in try Fixture.fourColourPairs(f.outputImage) {
            let (r, g, b) = (input.x, input.y, input.z)
            let alpha: Float = 0.25 + 0.5 * 1
            let colour = SIMD3<Float>(0.1 + 0.5 * r - 0.2 * r * r + 0.3 * r * r * r, g * g, 1 - b)
            // The output is premultiplied by the new alpha.
            let expected = SIMD4(colour.x * alpha, colour.y * alpha, colour.z * alpha, alpha)
            #expect(Fixture.close(output, expected), "\(input): \(output) against \(expected)")
        }
    }

    @Test func colorCrossPolynomialDefaultsAndHandValues() throws {
        let f = try #require(CIFilter(name: "CIColorCrossPolynomial"))
        #expect(f.value(forKey: "inputRedCoefficients") as? CIVector == Self.vector([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
        #expect(f.value(forKey: "inputGreenCoefficients") as? CIVector == Self.vector([0, 1, 0, 0, 0, 0, 0, 0, 0, 0]))
        #expect(f.value(forKey: "inputBlueCoefficients") as? CIVector == Self.vector([0, 0, 1, 0, 0, 0, 0, 0, 0, 0]))
        for (input, output) in try Fixture.fourColourPairs(f.applyingDefaultsTo(Fixture.fourColourImage)) {
            #expect(Fixture.close(output, input), "identity: \(output) against \(input)")
        }
        let typed = CIFilter.colorCrossPolynomial()
        typed.inputImage = Fixture.fourColourImage
        typed.redCoefficients = Self.vector([0.5, 0.1, 0.1, 0.2, 0, 0, 0, 0, 0, 0.05])
        typed.greenCoefficients = Self.vector([0, 0, 0, 0, 0, 0, 1, 0, 0, 0])
        typed.blueCoefficients = Self.vector([0, 0, 0, 0, 0.3, 0.3, 0, 0.2, 0.4, 0])
        #expect(
            typed.value(forKey: "inputGreenCoefficients") as? CIVector == Self.vector([0, 0, 0, 0, 0, 0, 1, 0, 0, 0]))
        for (input, output) in try Fixture.fourColourPairs(typed.outputImage) {
            let (r, g, b) = (input.x, input.y, input.z)
            let expected = SIMD4<Float>(
                0.5 * r + 0.1 * g + 0.1 * b + 0.2 * r * r + 0.05, r * g,
                0.3 * g * g + 0.3 * b * b + 0.2 * g * b + 0.4 * b * r, 1)
            #expect(Fixture.close(output, expected), "\(input): \(output) against \(expected)")
        }
    }

    // MARK: Colour map

    @Test func colorMapLooksUpTheGradientByLuma() throws {
        // A three-pixel gradient: red, green, blue from left to right.
        let gradient = Fixture.image(3, 1) { x, _ in
            [SIMD4<Float>(1, 0, 0, 1), SIMD4(0, 1, 0, 1), SIMD4(0, 0, 1, 1)][x]
        }
        // Greys (whose luma is their value whatever the weights), a red, and a half-covered mid-grey.
        let inputs: [SIMD4<Float>] = [
            SIMD4(0, 0, 0, 1), SIMD4(0.25, 0.25, 0.25, 1), SIMD4(0.5, 0.5, 0.5, 1), SIMD4(1, 1, 1, 1),
            SIMD4(1, 0, 0, 1), SIMD4(0.25, 0.25, 0.25, 0.5),
        ]
        let f = CIFilter.colorMap()
        f.inputImage = Fixture.image(inputs.count, 1) { x, _ in inputs[x] }
        f.gradientImage = gradient
        #expect(f.value(forKey: "inputGradientImage") as? CIImage === gradient)
        let out = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: inputs.count, height: 1))[0]
        // Position along the gradient, 0…2 between the outer pixel centres; linear between neighbours.
        func lookup(_ luma: Float) -> SIMD4<Float> {
            let p = luma * 2
            return p <= 1 ? SIMD4(1 - p, p, 0, 1) : SIMD4(0, 2 - p, p - 1, 1)
        }
        let redLuma: Float = 0.2126
        let expected: [SIMD4<Float>] = [
            lookup(0), lookup(0.25), lookup(0.5), lookup(1), lookup(redLuma), lookup(0.5) * 0.5,
        ]
        for k in inputs.indices {
            #expect(Fixture.close(out[k], expected[k]), "\(k): \(out[k]) against \(expected[k])")
        }
        #expect(CIFilter(name: "CIColorMap")?.inputKeys == [kCIInputImageKey, "inputGradientImage"])
        let noGradient = CIFilter.colorMap()
        noGradient.inputImage = gradient
        #expect(noGradient.outputImage == nil)
    }

    // MARK: Generators

    @Test func randomGeneratorIsUniformAndDeterministic() throws {
        let image = try #require(CIFilter(name: "CIRandomGenerator")?.outputImage)
        #expect(image.extent.isInfinite)
        #expect(CIFilter.randomGenerator().inputKeys.isEmpty)
        let n = 128
        let rect = CGRect(x: -20, y: 7, width: n, height: n)
        let first = Fixture.pixels(image, rect).flatMap { $0 }
        let again = Fixture.pixels(try #require(CIFilter.randomGenerator().outputImage), rect).flatMap { $0 }
        #expect(first == again)
        // The same pixel whatever region it is rendered in.
        let inner = Fixture.pixels(image, CGRect(x: 0, y: 50, width: 3, height: 2))
        let outer = Fixture.pixels(image, rect)
        // Core Image row 51 is plane row (7 + 128 − 1 − 51) of the large render, column 0 its column 20.
        #expect(inner[0][0] == outer[7 + n - 1 - 51][20])
        #expect(inner[1][2] == outer[7 + n - 1 - 50][22])
        for c in 0..<4 {
            let values = first.map { Double($0[c]) }
            #expect(values.allSatisfy { $0 >= 0 && $0 <= 1 })
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
            #expect(abs(mean - 0.5) < 0.01, "channel \(c) mean \(mean)")
            #expect(abs(variance - 1.0 / 12) < 0.003, "channel \(c) variance \(variance)")
        }
        // The channels are independent: red and green uncorrelated, and neighbours differ.
        let r = first.map { Double($0.x) - 0.5 }, g = first.map { Double($0.y) - 0.5 }
        let covariance = zip(r, g).map(*).reduce(0, +) / Double(r.count)
        #expect(abs(covariance) < 0.004, "covariance \(covariance)")
        #expect(Set(first.prefix(64).map { $0.x }).count > 60)
    }

    static func pixel(_ image: CIImage, _ x: Int, _ y: Int) -> SIMD4<Float> {
        Fixture.pixels(image, CGRect(x: x, y: y, width: 1, height: 1))[0][0]
    }

    static let white = SIMD4<Float>(1, 1, 1, 1), black = SIMD4<Float>(0, 0, 0, 1)

    @Test func patternDefaultsAndBuilders() throws {
        for name in ["CICheckerboardGenerator", "CIStripesGenerator"] {
            let f = try #require(CIFilter(name: name))
            #expect(f.value(forKey: kCIInputCenterKey) as? CIVector == CIVector(x: 150, y: 150))
            #expect((f.value(forKey: "inputColor0") as? CIColor)?.red == 1)
            #expect((f.value(forKey: "inputColor0") as? CIColor)?.blue == 1)
            #expect((f.value(forKey: "inputColor1") as? CIColor)?.green == 0)
            #expect((f.value(forKey: kCIInputWidthKey) as? Double) == 80)
            #expect((f.value(forKey: kCIInputSharpnessKey) as? Double) == 1)
            #expect(f.outputImage?.extent.isInfinite == true)
        }
        let checker = CIFilter.checkerboardGenerator()
        checker.width = 12
        checker.sharpness = 0.5
        checker.center = CGPoint(x: 3, y: 4)
        checker.color0 = CIColor(red: 0, green: 0, blue: 1)
        #expect(checker.value(forKey: kCIInputWidthKey) as? Float == 12)
        #expect(checker.value(forKey: kCIInputSharpnessKey) as? Float == 0.5)
        #expect(checker.value(forKey: kCIInputCenterKey) as? CIVector == CIVector(x: 3, y: 4))
        #expect((checker.value(forKey: "inputColor0") as? CIColor)?.blue == 1)
        let stripes = CIFilter.stripesGenerator()
        stripes.width = 7
        stripes.color1 = CIColor(red: 1, green: 0, blue: 0)
        #expect(stripes.value(forKey: kCIInputWidthKey) as? Float == 7)
        #expect((stripes.value(forKey: "inputColor1") as? CIColor)?.red == 1)
    }

    @Test func checkerboardPixelsAtKnownPositions() throws {
        let image = try #require(CIFilter(name: "CICheckerboardGenerator")?.outputImage)
        // Squares of 80 with corners on a grid through (150, 150); colour 0 (white) above and right of the centre.
        let cases: [(Int, Int, SIMD4<Float>)] = [
            (150, 150, Self.white), (229, 229, Self.white), (230, 150, Self.black), (150, 230, Self.black),
            (149, 150, Self.black), (149, 149, Self.white), (69, 69, Self.white), (70, 69, Self.black),
            (310, 310, Self.white), (-11, 150, Self.black),
        ]
        for (x, y, expected) in cases {
            let p = Self.pixel(image, x, y)
            #expect(Fixture.close(p, expected), "(\(x), \(y)): \(p) against \(expected)")
        }
    }

    @Test func checkerboardSoftEdgesRampLinearly() throws {
        let f = CIFilter.checkerboardGenerator()
        f.sharpness = 0.5
        let image = try #require(f.outputImage)
        // Width 80, sharpness 0.5: a ramp 40 wide centred on each edge. At x = 160.5 the pixel is 10.5 inside the
        // white square (u = 10.5 / 20) and in the middle of it vertically (v = 1): white weighted (1 + u v) / 2.
        let u: Float = 10.5 / 20
        let expectedGrey = (1 + u) / 2
        let p = Self.pixel(image, 160, 190)
        #expect(Fixture.close(p, SIMD4(expectedGrey, expectedGrey, expectedGrey, 1)), "\(p) against \(expectedGrey)")
        // Exactly on the ramp's far side and beyond, the square's own colour.
        #expect(Fixture.close(Self.pixel(image, 170, 190), Self.white))
        #expect(Fixture.close(Self.pixel(image, 189, 190), Self.white))
        // Half a pixel from the edge, almost an even mix.
        let edge = Self.pixel(image, 150, 190), mix: Float = (1 + 0.5 / 20) / 2
        #expect(Fixture.close(edge, SIMD4(mix, mix, mix, 1)), "\(edge) against \(mix)")
    }

    @Test func patternColoursAreDecodedWhereTheContextManagesColour() throws {
        let f = CIFilter.stripesGenerator()
        f.color0 = CIColor(red: 0.5, green: 0.5, blue: 0.5)
        let image = try #require(f.outputImage)
        // A half-float buffer gets the working (linear) value of the sRGB-encoded colour: IEC 61966-2-1's decoding.
        let linear = Float(pow((0.5 + 0.055) / 1.055, 2.4))
        let managed = Fixture.pixels(image, CGRect(x: 150, y: 0, width: 1, height: 1), Fixture.managed)[0][0]
        #expect(Fixture.close(managed, SIMD4(linear, linear, linear, 1)), "\(managed) against \(linear)")
        #expect(Fixture.close(Self.pixel(image, 150, 0), SIMD4(0.5, 0.5, 0.5, 1)))
    }

    @Test func stripesPixelsAtKnownPositions() throws {
        let f = CIFilter.stripesGenerator()
        f.width = 10
        f.center = CGPoint(x: 5, y: 0)
        f.color0 = CIColor(red: 1, green: 0, blue: 0)
        f.color1 = CIColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        let image = try #require(f.outputImage)
        let red = SIMD4<Float>(1, 0, 0, 1), halfBlue = SIMD4<Float>(0, 0, 0.5, 0.5)
        // Stripes 10 wide from x = 5: blue on [-5, 5), red on [5, 15), blue on [15, 25), red on [25, 35) and on
        // [-15, -5); every row alike.
        let cases: [(Int, SIMD4<Float>)] = [
            (5, red), (14, red), (15, halfBlue), (24, halfBlue), (25, red), (4, halfBlue), (-5, halfBlue), (-6, red),
        ]
        for (x, expected) in cases {
            for y in [-100, 0, 37] {
                let p = Self.pixel(image, x, y)
                #expect(Fixture.close(p, expected), "(\(x), \(y)): \(p) against \(expected)")
            }
        }
    }

    // MARK: Reductions

    /// A 3 × 2 image, rows from the top, premultiplied as the buffer holds it (one pixel half covered).
    static let small: [[SIMD4<Float>]] = [
        [SIMD4(0.1, 0.2, 0.3, 1), SIMD4(0.5, 0.0, 0.9, 1), SIMD4(0.3, 0.7, 0.6, 1)],
        [SIMD4(0.8, 0.4, 0.2, 1), SIMD4(0.2, 0.3, 0.1, 0.5), SIMD4(0.0, 0.9, 0.0, 1)],
    ]
    static let smallImage = Fixture.image(3, 2) { x, y in small[y][x] }
    static let smallExtent = CIVector(x: 0, y: 0, z: 3, w: 2)

    static func reduce(_ name: String, _ parameters: [String: Any] = [:]) throws -> CIImage {
        let f = try #require(CIFilter(name: name))
        f.setValue(smallImage, forKey: kCIInputImageKey)
        f.setValue(smallExtent, forKey: kCIInputExtentKey)
        for (k, v) in parameters { f.setValue(v, forKey: k) }
        return try #require(f.outputImage)
    }

    @Test func reductionDefaultsAndBuilders() throws {
        for name in ["CIRowAverage", "CIColumnAverage", "CIAreaMinMax", "CIAreaMinMaxRed", "CIAreaHistogram"] {
            let f = try #require(CIFilter(name: name))
            #expect(f.value(forKey: kCIInputExtentKey) as? CIVector == CIVector(x: 0, y: 0, z: 640, w: 80), "\(name)")
            #expect(f.outputImage == nil)
        }
        let histogram = try #require(CIFilter(name: "CIAreaHistogram"))
        #expect((histogram.value(forKey: kCIInputScaleKey) as? NSNumber)?.doubleValue == 1)
        #expect((histogram.value(forKey: "inputCount") as? NSNumber)?.intValue == 64)
        let rect = CGRect(x: 1, y: 2, width: 3, height: 4)
        let row = CIFilter.rowAverage(), column = CIFilter.columnAverage()
        let minMax = CIFilter.areaMinMax(), minMaxRed = CIFilter.areaMinMaxRed(), typed = CIFilter.areaHistogram()
        row.extent = rect
        column.extent = rect
        minMax.extent = rect
        minMaxRed.extent = rect
        typed.extent = rect
        typed.count = 16
        typed.scale = 3
        for f in [row, column, minMax, minMaxRed, typed] as [CIFilter] {
            #expect(f.value(forKey: kCIInputExtentKey) as? CIVector == CIVector(cgRect: rect), "\(f.name)")
        }
        #expect((typed.value(forKey: "inputCount") as? NSNumber)?.intValue == 16)
        #expect(typed.value(forKey: kCIInputScaleKey) as? Float == 3)
        #expect(typed.count == 16)
    }

    @Test func rowAndColumnAverages() throws {
        let rows = try Self.reduce("CIRowAverage")
        #expect(rows.extent == CGRect(x: 0, y: 0, width: 1, height: 2))
        let rowPixels = Fixture.pixels(rows, rows.extent)
        for j in 0..<2 {
            // The image's (premultiplied) pixels, averaged in the test.
            var sum = SIMD4<Float>.zero
            for v in Self.small[j] { sum += v }
            let expected = sum / 3
            #expect(Fixture.close(rowPixels[j][0], expected), "row \(j): \(rowPixels[j][0]) against \(expected)")
        }
        let columns = try Self.reduce("CIColumnAverage")
        #expect(columns.extent == CGRect(x: 0, y: 0, width: 3, height: 1))
        let columnPixels = Fixture.pixels(columns, columns.extent)[0]
        for i in 0..<3 {
            var sum = SIMD4<Float>.zero
            for j in 0..<2 { sum += Self.small[j][i] }
            let expected = sum / 2
            #expect(Fixture.close(columnPixels[i], expected), "column \(i): \(columnPixels[i]) against \(expected)")
        }
        // A rectangle of one row and two columns: only those pixels count.
        let part = try Self.reduce("CIRowAverage", [kCIInputExtentKey: CIVector(x: 1, y: 1, z: 2, w: 1)])
        #expect(part.extent == CGRect(x: 1, y: 1, width: 1, height: 1))
        let expected = (Self.small[0][1] + Self.small[0][2]) / 2
        #expect(Fixture.close(Fixture.pixels(part, part.extent)[0][0], expected))
    }

    @Test func minMaxAndMinMaxRed() throws {
        let all = Self.small.flatMap { $0 }
        var lo = all[0], hi = all[0]
        for v in all {
            lo = SIMD4(Swift.min(lo.x, v.x), Swift.min(lo.y, v.y), Swift.min(lo.z, v.z), Swift.min(lo.w, v.w))
            hi = SIMD4(Swift.max(hi.x, v.x), Swift.max(hi.y, v.y), Swift.max(hi.z, v.z), Swift.max(hi.w, v.w))
        }
        let minMax = try Self.reduce("CIAreaMinMax")
        #expect(minMax.extent == CGRect(x: 0, y: 0, width: 2, height: 1))
        let pixels = Fixture.pixels(minMax, minMax.extent)[0]
        #expect(Fixture.close(pixels[0], lo), "minimum \(pixels[0]) against \(lo)")
        #expect(Fixture.close(pixels[1], hi), "maximum \(pixels[1]) against \(hi)")
        let red = try Self.reduce("CIAreaMinMaxRed")
        #expect(red.extent == CGRect(x: 0, y: 0, width: 1, height: 1))
        let r = Fixture.pixels(red, red.extent)[0][0]
        #expect(Fixture.close(r, SIMD4(0, 0.8, 0, 1)), "\(r)")
        #expect(lo.x == 0 && hi.x == 0.8)
    }

    @Test func areaHistogramCountsShares() throws {
        let count = 4
        let histogram = try Self.reduce("CIAreaHistogram", ["inputCount": count, kCIInputScaleKey: 2.0])
        #expect(histogram.extent == CGRect(x: 0, y: 0, width: count, height: 1))
        let bins = Fixture.pixels(histogram, histogram.extent)[0]
        // Bin k holds values in [k/4, (k+1)/4); 1 falls in the last bin; premultiplied values, as the other
        // reductions read.
        var expected = [SIMD4<Float>](repeating: .zero, count: count)
        for v in Self.small.flatMap({ $0 }) {
            for c in 0..<4 { expected[Swift.min(Int(v[c] * 4), count - 1)][c] += 2.0 / 6 }
        }
        for k in 0..<count {
            #expect(Fixture.close(bins[k], expected[k]), "bin \(k): \(bins[k]) against \(expected[k])")
        }
        var total = SIMD4<Float>.zero
        for b in bins { total += b }
        #expect(Fixture.close(total, SIMD4(repeating: 2)))
    }
}

extension CIFilter {
    /// The filter's output for an image with its other parameters at their defaults.
    fileprivate func applyingDefaultsTo(_ image: CIImage) -> CIImage? {
        setValue(image, forKey: kCIInputImageKey)
        return outputImage
    }
}
