import CoreImage
import Foundation
import Testing

/// Convolutions, morphology, the median, the disc, motion and zoom blurs, edges and noise reduction, each against a
/// reference summed, sorted or searched by a plain loop here over a small image of known values.
@Suite struct NeighbourhoodFilterTests {
    static let size = 7
    static let rect = CGRect(x: 0, y: 0, width: size, height: size)

    /// A 7 × 7 opaque image of values exact in half floats, different in each component; rows from the top.
    static let image = Fixture.image(size, size) { x, y in
        SIMD4(Float((x * 3 + y * 5) % 11) / 16, Float((x * 7 + y * 2) % 13) / 32, Float((x + y * y) % 9) / 8, 1)
    }
    /// The same image's pixels as a context reads them (premultiplied working values), rows from the top.
    static let pixels = Fixture.pixels(image, rect)

    /// The input pixel at column x of row y (rows from the top): clear outside the image, or its nearest edge pixel.
    static func at(_ x: Int, _ y: Int, clamped: Bool = false, _ p: [[SIMD4<Float>]] = pixels) -> SIMD4<Float> {
        let h = p.count, w = p[0].count
        if clamped { return p[min(max(y, 0), h - 1)][min(max(x, 0), w - 1)] }
        guard x >= 0, x < w, y >= 0, y < h else { return .zero }
        return p[y][x]
    }

    static func expectClose(
        _ out: [[SIMD4<Float>]], _ tolerance: Float = 2e-3, sourceLocation: SourceLocation = #_sourceLocation,
        _ expected: (Int, Int) -> SIMD4<Float>
    ) {
        var bad = 0
        for (y, row) in out.enumerated() {
            for (x, v) in row.enumerated() where !Fixture.close(v, expected(x, y), tolerance) {
                if bad < 4 {
                    Issue.record("(\(x), \(y)): \(v) against \(expected(x, y))", sourceLocation: sourceLocation)
                }
                bad += 1
            }
        }
        #expect(bad == 0, "\(bad) pixels differ", sourceLocation: sourceLocation)
    }

    // MARK: Defaults and builders

    @Test func defaultsAreApplesDocumentedOnes() throws {
        func number(_ name: String, _ key: String) -> Double? {
            (CIFilter(name: name)?.value(forKey: key) as? NSNumber)?.doubleValue
                ?? (CIFilter(name: name)?.value(forKey: key) as? Double)
        }
        for (name, count) in [
            ("CIConvolution3X3", 9), ("CIConvolution5X5", 25), ("CIConvolution7X7", 49),
            ("CIConvolution9Horizontal", 9),
            ("CIConvolution9Vertical", 9), ("CIConvolutionRGB3X3", 9), ("CIConvolutionRGB5X5", 25),
            ("CIConvolutionRGB7X7", 49), ("CIConvolutionRGB9Horizontal", 9), ("CIConvolutionRGB9Vertical", 9),
        ] {
            let weights = try #require(CIFilter(name: name)?.value(forKey: "inputWeights") as? CIVector, "\(name)")
            #expect(weights.count == count, "\(name)")
            #expect((0..<count).allSatisfy { weights.value(at: $0) == ($0 == count / 2 ? 1 : 0) }, "\(name)")
            #expect(number(name, "inputBias") == 0, "\(name)")
        }
        #expect(number("CIMorphologyMaximum", kCIInputRadiusKey) == 0)
        #expect(number("CIMorphologyMinimum", kCIInputRadiusKey) == 0)
        #expect(number("CIMorphologyGradient", kCIInputRadiusKey) == 5)
        for name in ["CIMorphologyRectangleMaximum", "CIMorphologyRectangleMinimum"] {
            #expect(number(name, kCIInputWidthKey) == 5)
            #expect(number(name, "inputHeight") == 5)
        }
        #expect(CIFilter(name: "CIMedianFilter")?.inputKeys == [kCIInputImageKey])
        #expect(number("CIDiscBlur", kCIInputRadiusKey) == 8)
        #expect(number("CIMotionBlur", kCIInputRadiusKey) == 20)
        #expect(number("CIMotionBlur", kCIInputAngleKey) == 0)
        #expect(
            (CIFilter(name: "CIZoomBlur")?.value(forKey: kCIInputCenterKey) as? CIVector) == CIVector(x: 150, y: 150))
        #expect(number("CIZoomBlur", kCIInputAmountKey) == 20)
        #expect(number("CIEdges", kCIInputIntensityKey) == 1)
        #expect(number("CINoiseReduction", "inputNoiseLevel") == 0.02)
        #expect(number("CINoiseReduction", kCIInputSharpnessKey) == 0.4)
    }

    @Test func typedBuildersSetTheSameKeys() throws {
        let weights = CIVector(x: 1, y: 2, z: 3, w: 4)
        let convolutions: [any CIFilter & CIConvolution] = [
            CIFilter.convolution3X3(), CIFilter.convolution5X5(), CIFilter.convolution7X7(),
            CIFilter.convolution9Horizontal(), CIFilter.convolution9Vertical(), CIFilter.convolutionRGB3X3(),
            CIFilter.convolutionRGB5X5(), CIFilter.convolutionRGB7X7(), CIFilter.convolutionRGB9Horizontal(),
            CIFilter.convolutionRGB9Vertical(),
        ]
        for f in convolutions {
            f.weights = weights
            f.bias = 0.25
            #expect(f.value(forKey: "inputWeights") as? CIVector == weights, "\(f.name)")
            #expect(
                (f.value(forKey: "inputBias") as? NSNumber)?.floatValue ?? (f.value(forKey: "inputBias") as? Float)
                    == 0.25)
        }
        #expect(convolutions.map(\.name).allSatisfy { CIFilter(name: $0) != nil })

        func float(_ f: CIFilter, _ key: String) -> Float? {
            (f.value(forKey: key) as? Float) ?? (f.value(forKey: key) as? NSNumber)?.floatValue
        }
        let maximum = CIFilter.morphologyMaximum(), minimum = CIFilter.morphologyMinimum()
        let gradient = CIFilter.morphologyGradient(), disc = CIFilter.discBlur()
        maximum.radius = 3
        minimum.radius = 4
        gradient.radius = 2
        disc.radius = 6
        #expect(float(maximum, kCIInputRadiusKey) == 3 && maximum.name == "CIMorphologyMaximum")
        #expect(float(minimum, kCIInputRadiusKey) == 4 && minimum.name == "CIMorphologyMinimum")
        #expect(float(gradient, kCIInputRadiusKey) == 2 && gradient.name == "CIMorphologyGradient")
        #expect(float(disc, kCIInputRadiusKey) == 6 && disc.name == "CIDiscBlur")
        let rectMax = CIFilter.morphologyRectangleMaximum(), rectMin = CIFilter.morphologyRectangleMinimum()
        rectMax.width = 7
        rectMax.height = 3
        rectMin.width = 9
        rectMin.height = 11
        #expect(float(rectMax, kCIInputWidthKey) == 7 && float(rectMax, "inputHeight") == 3)
        #expect(float(rectMin, kCIInputWidthKey) == 9 && float(rectMin, "inputHeight") == 11)
        #expect(rectMax.name == "CIMorphologyRectangleMaximum" && rectMin.name == "CIMorphologyRectangleMinimum")
        let median = CIFilter.median()
        median.inputImage = Self.image
        #expect(median.name == "CIMedianFilter" && median.value(forKey: kCIInputImageKey) as? CIImage === Self.image)
        let motion = CIFilter.motionBlur()
        motion.radius = 5
        motion.angle = 0.5
        #expect(float(motion, kCIInputRadiusKey) == 5 && float(motion, kCIInputAngleKey) == 0.5)
        let zoom = CIFilter.zoomBlur()
        zoom.center = CGPoint(x: 3, y: 4)
        zoom.amount = 12
        #expect(zoom.value(forKey: kCIInputCenterKey) as? CIVector == CIVector(x: 3, y: 4))
        #expect(float(zoom, kCIInputAmountKey) == 12)
        let edges = CIFilter.edges()
        edges.intensity = 2
        #expect(float(edges, kCIInputIntensityKey) == 2 && edges.name == "CIEdges")
        let noise = CIFilter.noiseReduction()
        noise.noiseLevel = 0.1
        noise.sharpness = 0.7
        #expect(float(noise, "inputNoiseLevel") == 0.1 && float(noise, kCIInputSharpnessKey) == 0.7)
        #expect(noise.name == "CINoiseReduction")
    }

    // MARK: Convolutions

    /// Weights exact in half floats, all different, so that any misplaced one shows.
    static func weights(_ count: Int) -> [CGFloat] { (0..<count).map { CGFloat(($0 * 5) % 7 - 3) / 8 } }

    @Test(arguments: [
        ("CIConvolution3X3", 3, 3), ("CIConvolution5X5", 5, 5), ("CIConvolution7X7", 7, 7),
        ("CIConvolution9Horizontal", 9, 1), ("CIConvolution9Vertical", 1, 9),
    ])
    func convolutionSumsTheWeightsRowByRowFromTheTop(name: String, columns: Int, rows: Int) throws {
        let w = Self.weights(columns * rows), bias: Float = 0.125
        let f = try #require(CIFilter(name: name))
        f.setValue(Self.image, forKey: kCIInputImageKey)
        f.setValue(
            w.withUnsafeBufferPointer { CIVector(values: $0.baseAddress!, count: $0.count) }, forKey: "inputWeights")
        f.setValue(bias, forKey: "inputBias")
        let out = try #require(f.outputImage)
        let (rx, ry) = (columns / 2, rows / 2)
        let grown = CGRect(x: -rx, y: -ry, width: Self.size + 2 * rx, height: Self.size + 2 * ry)
        #expect(out.extent == grown)
        Self.expectClose(Fixture.pixels(out, grown)) { i, j in
            // Output column i, row j (from the top) is input column i − rx, row j − ry.
            var sum = SIMD4<Float>(repeating: bias)
            for r in 0..<rows {
                for c in 0..<columns {
                    sum += Float(w[r * columns + c]) * Self.at(i - rx + c - rx, j - ry + r - ry)
                }
            }
            return sum
        }
    }

    @Test(arguments: [
        ("CIConvolutionRGB3X3", 3, 3), ("CIConvolutionRGB5X5", 5, 5), ("CIConvolutionRGB7X7", 7, 7),
        ("CIConvolutionRGB9Horizontal", 9, 1), ("CIConvolutionRGB9Vertical", 1, 9),
    ])
    func rgbConvolutionLeavesAlphaAlone(name: String, columns: Int, rows: Int) throws {
        // Alpha varies, so the colour is convolved unpremultiplied and premultiplied again by the pixel's own alpha.
        let translucent = Fixture.image(Self.size, Self.size) { x, y in
            let a: Float = (x + y) % 2 == 0 ? 1 : 0.5
            return SIMD4(Float((x * 3 + y * 5) % 11) / 16 * a, Float((x * 7 + y * 2) % 13) / 32 * a, 0.25 * a, a)
        }
        let input = Fixture.pixels(translucent, Self.rect)
        let w = Self.weights(columns * rows), bias: Float = 0.0625
        let f = try #require(CIFilter(name: name))
        f.setValue(translucent, forKey: kCIInputImageKey)
        f.setValue(
            w.withUnsafeBufferPointer { CIVector(values: $0.baseAddress!, count: $0.count) }, forKey: "inputWeights")
        f.setValue(bias, forKey: "inputBias")
        let out = try #require(f.outputImage)
        #expect(out.extent == Self.rect)
        Self.expectClose(Fixture.pixels(out, Self.rect)) { x, y in
            var sum = SIMD4<Float>(bias, bias, bias, 0)
            for r in 0..<rows {
                for c in 0..<columns {
                    let v = Self.at(x + c - columns / 2, y + r - rows / 2, input)
                    let colour = v.w > 0 ? SIMD4(v.x / v.w, v.y / v.w, v.z / v.w, 0) : .zero
                    sum += Float(w[r * columns + c]) * colour
                }
            }
            let a = input[y][x].w
            return SIMD4(sum.x * a, sum.y * a, sum.z * a, a)
        }
    }

    // MARK: Morphology

    /// The offsets of a disc: dx² + dy² ≤ radius².
    static func disc(_ radius: Double) -> [(Int, Int)] {
        let reach = Int(radius)
        var offsets: [(Int, Int)] = []
        for dy in -reach...reach {
            for dx in -reach...reach where Double(dx * dx + dy * dy) <= radius * radius { offsets.append((dx, dy)) }
        }
        return offsets
    }

    @Test func morphologyMaximumAndMinimumSearchADisc() throws {
        let radius = 2.0, offsets = Self.disc(radius)
        #expect(offsets.count == 13)
        let maximum = CIFilter.morphologyMaximum()
        maximum.inputImage = Self.image
        maximum.radius = Float(radius)
        let out = try #require(maximum.outputImage)
        let grown = Self.rect.insetBy(dx: -2, dy: -2)
        #expect(out.extent == grown)
        Self.expectClose(Fixture.pixels(out, grown)) { i, j in
            offsets.map { Self.at(i - 2 + $0.0, j - 2 - $0.1) }.reduce(SIMD4(repeating: -1)) { pointwiseMax($0, $1) }
        }
        let minimum = CIFilter.morphologyMinimum()
        minimum.inputImage = Self.image
        minimum.radius = Float(radius)
        let eroded = try #require(minimum.outputImage)
        #expect(eroded.extent == Self.rect)
        Self.expectClose(Fixture.pixels(eroded, Self.rect)) { x, y in
            offsets.map { Self.at(x + $0.0, y - $0.1) }.reduce(SIMD4(repeating: 2)) { pointwiseMin($0, $1) }
        }
    }

    @Test func morphologyMaximumSpreadsABrightPixelOverTheDisc() throws {
        let spot = Fixture.image(11, 11) { x, y in x == 5 && y == 5 ? SIMD4(1, 1, 1, 1) : SIMD4(0, 0, 0, 1) }
        let f = CIFilter.morphologyMaximum()
        f.inputImage = spot
        f.radius = 3.5
        let out = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 11, height: 11))
        for y in 0..<11 {
            for x in 0..<11 {
                let inside = Double((x - 5) * (x - 5) + (y - 5) * (y - 5)) <= 3.5 * 3.5
                #expect(out[y][x].x == (inside ? 1 : 0), "(\(x), \(y))")
            }
        }
    }

    @Test func rectangleMorphologySearchesTheOddRectangle() throws {
        // Width 2.6 rounds to 3 and height 5.6 to 5, the nearest odd numbers.
        let maximum = CIFilter.morphologyRectangleMaximum()
        maximum.inputImage = Self.image
        maximum.width = 2.6
        maximum.height = 5.6
        let out = try #require(maximum.outputImage)
        let grown = Self.rect.insetBy(dx: -1, dy: -2)
        #expect(out.extent == grown)
        Self.expectClose(Fixture.pixels(out, grown)) { i, j in
            var m = SIMD4<Float>(repeating: -1)
            for dy in -2...2 { for dx in -1...1 { m = pointwiseMax(m, Self.at(i - 1 + dx, j - 2 + dy)) } }
            return m
        }
        let minimum = CIFilter.morphologyRectangleMinimum()
        minimum.inputImage = Self.image
        minimum.width = 5
        minimum.height = 1
        let eroded = try #require(minimum.outputImage)
        #expect(eroded.extent == Self.rect)
        Self.expectClose(Fixture.pixels(eroded, Self.rect)) { x, y in
            (-2...2).map { Self.at(x + $0, y) }.reduce(SIMD4(repeating: 2)) { pointwiseMin($0, $1) }
        }
    }

    @Test func morphologyGradientIsDilationMinusErosion() throws {
        let f = CIFilter.morphologyGradient()
        f.inputImage = Self.image
        f.radius = 1.5
        let out = try #require(f.outputImage)
        #expect(out.extent == Self.rect)
        let offsets = Self.disc(1.5)
        #expect(offsets.count == 9)
        Self.expectClose(Fixture.pixels(out, Self.rect)) { x, y in
            let values = offsets.map { Self.at(x + $0.0, y - $0.1, clamped: true) }
            let hi = values.reduce(SIMD4(repeating: -1)) { pointwiseMax($0, $1) }
            let lo = values.reduce(SIMD4(repeating: 2)) { pointwiseMin($0, $1) }
            return SIMD4(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z, hi.w)
        }
    }

    @Test func medianFilterTakesTheMiddleOfNineValuesPerComponent() throws {
        let f = CIFilter.median()
        f.inputImage = Self.image
        let out = try #require(f.outputImage)
        #expect(out.extent == Self.rect)
        Self.expectClose(Fixture.pixels(out, Self.rect)) { x, y in
            var nine: [SIMD4<Float>] = []
            for dy in -1...1 { for dx in -1...1 { nine.append(Self.at(x + dx, y + dy, clamped: true)) } }
            return SIMD4((0..<4).map { c in nine.map { $0[c] }.sorted()[4] })
        }
        // A lone outlier in a flat field disappears.
        let speck = Fixture.image(5, 5) { x, y in x == 2 && y == 2 ? SIMD4(1, 1, 1, 1) : SIMD4(0.25, 0.5, 0.75, 1) }
        f.inputImage = speck
        let cleaned = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 5, height: 5))
        #expect(cleaned.allSatisfy { $0.allSatisfy { $0 == SIMD4(0.25, 0.5, 0.75, 1) } })
    }

    // MARK: Blurs

    @Test func discBlurAveragesTheDiscAndKeepsAUniformImage() throws {
        let radius = 3.0, offsets = Self.disc(radius)
        #expect(offsets.count == 29)
        let spot = Fixture.image(13, 13) { x, y in x == 6 && y == 6 ? SIMD4(1, 1, 1, 1) : .zero }
        let f = CIFilter.discBlur()
        f.inputImage = spot
        f.radius = Float(radius)
        let out = try #require(f.outputImage)
        #expect(out.extent == CGRect(x: -3, y: -3, width: 19, height: 19))
        let spread = Fixture.pixels(out, CGRect(x: 0, y: 0, width: 13, height: 13))
        Self.expectClose(spread) { x, y in
            offsets.contains { $0.0 == x - 6 && $0.1 == y - 6 } ? SIMD4(repeating: 1 / 29) : .zero
        }
        f.inputImage = Fixture.image(13, 13) { _, _ in SIMD4(0.2, 0.6, 0.9, 1) }
        let flat = Fixture.pixels(try #require(f.outputImage), CGRect(x: 3, y: 3, width: 7, height: 7))
        #expect(flat.allSatisfy { $0.allSatisfy { Fixture.close($0, SIMD4(0.2, 0.6, 0.9, 1)) } })
    }

    static let spot = Fixture.image(15, 15) { x, y in x == 7 && y == 7 ? SIMD4(1, 1, 1, 1) : .zero }
    static let spotRect = CGRect(x: 0, y: 0, width: 15, height: 15)

    @Test func motionBlurSpreadsAPointAlongTheAngle() throws {
        let f = CIFilter.motionBlur()
        f.inputImage = Self.spot
        f.radius = 3
        f.angle = 0
        // Seven samples a pixel apart from −3 to +3: a horizontal line of seven pixels, each 1/7.
        Self.expectClose(Fixture.pixels(try #require(f.outputImage), Self.spotRect)) { x, y in
            y == 7 && abs(x - 7) <= 3 ? SIMD4(repeating: 1 / 7) : .zero
        }
        f.angle = .pi / 2
        Self.expectClose(Fixture.pixels(try #require(f.outputImage), Self.spotRect)) { x, y in
            x == 7 && abs(y - 7) <= 3 ? SIMD4(repeating: 1 / 7) : .zero
        }
        // At 30° the spot's weight is kept, centred on it, and lies along the line within a pixel of it.
        f.angle = .pi / 6
        let slanted = Fixture.pixels(try #require(f.outputImage), Self.spotRect)
        var total: Float = 0, along: Float = 0, across: Float = 0, reach: Float = 0
        for (y, row) in slanted.enumerated() {
            for (x, v) in row.enumerated() where v.x > 1e-4 {
                // Offsets in Core Image's directions (y up, rows counted from the top).
                let dx = Float(x - 7), dy = Float(7 - y)
                let a = dx * cosf(.pi / 6) + dy * sinf(.pi / 6), c = -dx * sinf(.pi / 6) + dy * cosf(.pi / 6)
                total += v.x
                along += v.x * a
                across += v.x * c
                reach = max(reach, abs(a))
                #expect(abs(c) < 1.5, "(\(x), \(y)) lies off the line")
            }
        }
        #expect(abs(total - 1) < 4e-3)
        #expect(abs(along) < 4e-3 && abs(across) < 4e-3)
        #expect(reach >= 3 && reach < 4.5)
        // A uniform image stays uniform away from its edges.
        f.inputImage = Fixture.image(15, 15) { _, _ in SIMD4(0.3, 0.5, 0.7, 1) }
        let flat = Fixture.pixels(try #require(f.outputImage), CGRect(x: 5, y: 5, width: 5, height: 5))
        #expect(flat.allSatisfy { $0.allSatisfy { Fixture.close($0, SIMD4(0.3, 0.5, 0.7, 1)) } })
    }

    @Test func zoomBlurAveragesTowardsTheCentre() throws {
        // Red rises linearly with x (bilinear reads are exact on it), so the mean along a pixel's segment towards the
        // centre is the value at the segment's midpoint: p + (c − p) · amount / 200.
        let (w, h) = (33, 21)
        let ramp = Fixture.image(w, h) { x, _ in SIMD4(Float(x) / 32, 0.5, 0.25, 1) }
        let f = CIFilter.zoomBlur()
        f.inputImage = ramp
        f.center = CGPoint(x: 16.5, y: 10.5)
        f.amount = 50
        let out = try #require(f.outputImage)
        #expect(out.extent == ramp.extent)
        Self.expectClose(Fixture.pixels(out, CGRect(x: 0, y: 0, width: w, height: h))) { x, _ in
            let centre = Double(x) + 0.5, midpoint = centre + (16.5 - centre) * 0.25
            return SIMD4(Float((midpoint - 0.5) / 32), 0.5, 0.25, 1)
        }
        // The pixel on the centre keeps its value; a uniform image stays uniform.
        f.inputImage = Self.image
        f.center = CGPoint(x: 3.5, y: 3.5)
        f.amount = 80
        let centred = Fixture.pixels(try #require(f.outputImage), Self.rect)
        #expect(centred[3][3] == Self.pixels[3][3])
        f.inputImage = Fixture.image(9, 9) { _, _ in SIMD4(0.4, 0.8, 0.1, 1) }
        let flat = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 9, height: 9))
        #expect(flat.allSatisfy { $0.allSatisfy { Fixture.close($0, SIMD4(0.4, 0.8, 0.1, 1)) } })
    }

    // MARK: Edges and noise

    @Test func edgesAreSobelMagnitudesTimesTheIntensity() throws {
        let f = CIFilter.edges()
        f.inputImage = Self.image
        f.intensity = 0.5
        let out = try #require(f.outputImage)
        #expect(out.extent == Self.rect)
        Self.expectClose(Fixture.pixels(out, Self.rect)) { x, y in
            func v(_ dx: Int, _ dy: Int) -> SIMD4<Float> { Self.at(x + dx, y + dy, clamped: true) }
            // Rows from the top: dy = −1 is the row above.
            let gx = (v(1, -1) + 2 * v(1, 0) + v(1, 1)) - (v(-1, -1) + 2 * v(-1, 0) + v(-1, 1))
            let gy = (v(-1, -1) + 2 * v(0, -1) + v(1, -1)) - (v(-1, 1) + 2 * v(0, 1) + v(1, 1))
            let m = (gx * gx + gy * gy).squareRoot() * 0.5
            return SIMD4(m.x, m.y, m.z, 1)
        }
        // A flat image has no edges, its border included.
        f.inputImage = Fixture.image(6, 6) { _, _ in SIMD4(0.7, 0.7, 0.7, 1) }
        let flat = Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: 6, height: 6))
        #expect(flat.allSatisfy { $0.allSatisfy { $0 == SIMD4(0, 0, 0, 1) } })
    }

    @Test func noiseReductionSmoothsSmallChangesAndSharpensEdges() throws {
        // A step of 0.5 between columns 4 and 5 with ±1/64 of noise on each side.
        let (w, h) = (10, 8)
        let noisy = Fixture.image(w, h) { x, y in
            let base: Float = x < 5 ? 0.25 : 0.75, noise = Float((x * 5 + y * 7) % 3 - 1) / 64
            return SIMD4(base + noise, base + noise, base + noise, 1)
        }
        let input = Fixture.pixels(noisy, CGRect(x: 0, y: 0, width: w, height: h))
        let level: Float = 0.05, sharpness: Float = 0.6
        let f = CIFilter.noiseReduction()
        f.inputImage = noisy
        f.noiseLevel = level
        f.sharpness = sharpness
        let out = try #require(f.outputImage)
        #expect(out.extent == noisy.extent)
        func luma(_ v: SIMD4<Float>) -> Float { 0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z }
        let result = Fixture.pixels(out, CGRect(x: 0, y: 0, width: w, height: h))
        Self.expectClose(result) { x, y in
            let centre = input[y][x]
            var sum = SIMD4<Float>.zero, count: Float = 0, box = SIMD4<Float>.zero, edge = false
            for dy in -2...2 {
                for dx in -2...2 {
                    let v = Self.at(x + dx, y + dy, clamped: true, input)
                    let near = abs(luma(v) - luma(centre)) <= level
                    if near { (sum, count) = (sum + v, count + 1) }
                    if abs(dx) <= 1 && abs(dy) <= 1 {
                        box += v
                        edge = edge || !near
                    }
                }
            }
            return edge ? sum / count + (centre - box / 9) * sharpness : sum / count
        }
        // Away from the step, the noise is averaged out: these two pixels lie 1/64 off their side's level, their
        // outputs within a quarter of that.
        #expect(abs(input[4][2].x - 0.25) > 1 / 80 && abs(input[4][7].x - 0.75) > 1 / 80)
        #expect(abs(result[4][2].x - 0.25) < 1 / 256 && abs(result[4][7].x - 0.75) < 1 / 256)
        // At the step, the sides are pushed apart rather than blurred together.
        #expect(result[4][4].x < 0.25 && result[4][5].x > 0.75)
    }
}
