import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import Testing

/// The stylizing filters: highlight and shadow adjustment, bloom and gloom, the cell pixellations and the halftone
/// screens, each against a closed form or a reference computed here.
@Suite struct StylizeFilterTests {
    static let lumaWeights = SIMD3<Float>(0.2126, 0.7152, 0.0722)

    static func number(_ v: Any?) -> Double? {
        switch v {
        case let d as Double: d
        case let f as Float: Double(f)
        case let n as NSNumber: n.doubleValue
        default: nil
        }
    }

    static func render(_ filter: CIFilter, _ w: Int, _ h: Int) throws -> [[SIMD4<Float>]] {
        Fixture.pixels(try #require(filter.outputImage), CGRect(x: 0, y: 0, width: w, height: h))
    }

    static func uniform(_ w: Int, _ h: Int, _ c: SIMD4<Float>) -> CIImage { Fixture.image(w, h) { _, _ in c } }

    // MARK: Parameters

    @Test func documentedDefaults() throws {
        let centre = CIVector(x: 150, y: 150)
        let numbers: [String: [String: Double]] = [
            "CIHighlightShadowAdjust": ["inputRadius": 0, "inputShadowAmount": 0, "inputHighlightAmount": 1],
            "CIBloom": ["inputRadius": 10, "inputIntensity": 0.5],
            "CIGloom": ["inputRadius": 10, "inputIntensity": 0.5],
            "CIHexagonalPixellate": ["inputScale": 8],
            "CICrystallize": ["inputRadius": 20],
            "CIPointillize": ["inputRadius": 20],
            "CIDotScreen": ["inputAngle": 0, "inputWidth": 6, "inputSharpness": 0.7],
            "CILineScreen": ["inputAngle": 0, "inputWidth": 6, "inputSharpness": 0.7],
            "CIHatchedScreen": ["inputAngle": 0, "inputWidth": 6, "inputSharpness": 0.7],
            "CICircularScreen": ["inputWidth": 6, "inputSharpness": 0.7],
            "CICMYKHalftone": [
                "inputAngle": 0, "inputWidth": 6, "inputSharpness": 0.7, "inputGCR": 1, "inputUCR": 0.5,
            ],
            "CIComicEffect": [:],
        ]
        for (name, keys) in numbers {
            let f = try #require(CIFilter(name: name), "\(name)")
            for (key, value) in keys { #expect(Self.number(f.value(forKey: key)) == value, "\(name) \(key)") }
            let hasCentre = !["CIHighlightShadowAdjust", "CIBloom", "CIGloom", "CIComicEffect"].contains(name)
            #expect((f.value(forKey: "inputCenter") as? CIVector) == (hasCentre ? centre : nil), "\(name)")
            #expect(f.inputKeys.count == 1 + keys.count + (hasCentre ? 1 : 0), "\(name)")
            #expect(f.outputImage == nil, "\(name) without an image")
        }
    }

    @Test func typedBuildersSetTheirKeys() throws {
        func check(_ f: CIFilter, _ expected: [String: Double], _ line: Int = #line) {
            for (key, value) in expected {
                #expect(Self.number(f.value(forKey: key)) == value, "\(f.name) \(key), line \(line)")
            }
        }
        let image = Self.uniform(2, 2, SIMD4(0.5, 0.5, 0.5, 1))
        let hs = CIFilter.highlightShadowAdjust()
        (hs.inputImage, hs.radius, hs.shadowAmount, hs.highlightAmount) = (image, 2, 0.5, 0.25)
        check(hs, ["inputRadius": 2, "inputShadowAmount": 0.5, "inputHighlightAmount": 0.25])
        #expect(hs.value(forKey: "inputImage") as? CIImage === image)
        let bloom = CIFilter.bloom(), gloom = CIFilter.gloom()
        (bloom.radius, bloom.intensity, gloom.radius, gloom.intensity) = (3, 0.75, 4, 0.25)
        check(bloom, ["inputRadius": 3, "inputIntensity": 0.75])
        check(gloom, ["inputRadius": 4, "inputIntensity": 0.25])
        let hex = CIFilter.hexagonalPixellate()
        (hex.center, hex.scale) = (CGPoint(x: 3, y: 4), 12)
        check(hex, ["inputScale": 12])
        #expect(hex.value(forKey: "inputCenter") as? CIVector == CIVector(x: 3, y: 4))
        let crystal = CIFilter.crystallize(), dots = CIFilter.pointillize()
        (crystal.radius, crystal.center, dots.radius, dots.center) = (5, CGPoint(x: 1, y: 2), 7, CGPoint(x: 5, y: 6))
        check(crystal, ["inputRadius": 5])
        check(dots, ["inputRadius": 7])
        #expect(crystal.value(forKey: "inputCenter") as? CIVector == CIVector(x: 1, y: 2))
        #expect(dots.value(forKey: "inputCenter") as? CIVector == CIVector(x: 5, y: 6))
        let screens: [any CIFilter & CIDotScreen] = [CIFilter.dotScreen()]
        for s in screens {
            (s.center, s.angle, s.width, s.sharpness) = (CGPoint(x: 9, y: 8), 0.5, 11, 0.25)
            check(s, ["inputAngle": 0.5, "inputWidth": 11, "inputSharpness": 0.25])
            #expect(s.value(forKey: "inputCenter") as? CIVector == CIVector(x: 9, y: 8))
        }
        let line = CIFilter.lineScreen(), hatch = CIFilter.hatchedScreen(), circle = CIFilter.circularScreen()
        (line.center, line.angle, line.width, line.sharpness) = (CGPoint(x: 1, y: 1), 0.5, 11, 0.25)
        (hatch.center, hatch.angle, hatch.width, hatch.sharpness) = (CGPoint(x: 2, y: 2), 0.75, 12, 0.5)
        (circle.center, circle.width, circle.sharpness) = (CGPoint(x: 3, y: 3), 13, 0.125)
        check(line, ["inputAngle": 0.5, "inputWidth": 11, "inputSharpness": 0.25])
        check(hatch, ["inputAngle": 0.75, "inputWidth": 12, "inputSharpness": 0.5])
        check(circle, ["inputWidth": 13, "inputSharpness": 0.125])
        #expect(circle.value(forKey: "inputCenter") as? CIVector == CIVector(x: 3, y: 3))
        let cmyk = CIFilter.cmykHalftone()
        (cmyk.center, cmyk.width, cmyk.angle, cmyk.sharpness) = (CGPoint(x: 7, y: 7), 9, 0.25, 0.5)
        (cmyk.grayComponentReplacement, cmyk.underColorRemoval) = (0.75, 0.25)
        check(
            cmyk,
            ["inputWidth": 9, "inputAngle": 0.25, "inputSharpness": 0.5, "inputGCR": 0.75, "inputUCR": 0.25])
        #expect(cmyk.grayComponentReplacement == 0.75 && cmyk.underColorRemoval == 0.25)
    }

    // MARK: Highlights and shadows

    /// Our formula by hand: gains (1 + s (1 − m)² (1 − Y)) · (1 − (1 − h) m² / 2), m the blurred luma.
    static func highlightShadowGain(y: Float, m: Float, shadow: Float, highlight: Float) -> Float {
        (1 + shadow * (1 - m) * (1 - m) * (1 - y)) * (1 - (1 - highlight) * m * m / 2)
    }

    @Test func highlightShadowDefaultsLeaveTheImage() throws {
        let f = try #require(CIFilter(name: "CIHighlightShadowAdjust"))
        f.setValue(Fixture.fourColourImage, forKey: kCIInputImageKey)
        for (input, output) in try Fixture.fourColourPairs(f.outputImage) {
            #expect(Fixture.close(output, input, 1e-3), "\(input) → \(output)")
        }
    }

    @Test func liftingShadowsRaisesDarkPixelsMoreThanBright() throws {
        let dark: Float = 0.1, bright: Float = 0.8
        let image = Fixture.image(2, 1) { x, _ in x == 0 ? SIMD4(dark, dark, dark, 1) : SIMD4(bright, bright, bright, 1)
        }
        let f = CIFilter.highlightShadowAdjust()
        (f.inputImage, f.shadowAmount) = (image, 1)
        let lifted = try Self.render(f, 2, 1)[0]
        #expect(lifted[0].x - dark > 5 * (lifted[1].x - bright))
        for (v, out) in zip([dark, bright], lifted) {
            let expected = v * Self.highlightShadowGain(y: v, m: v, shadow: 1, highlight: 1)
            #expect(abs(out.x - expected) < 1e-3 && abs(out.y - expected) < 1e-3 && out.w == 1, "\(v) → \(out)")
        }
        (f.shadowAmount, f.highlightAmount) = (0, 0)
        let damped = try Self.render(f, 2, 1)[0]
        #expect(bright - damped[1].x > 10 * (dark - damped[0].x))
        for (v, out) in zip([dark, bright], damped) {
            let expected = v * Self.highlightShadowGain(y: v, m: v, shadow: 0, highlight: 0)
            #expect(abs(out.z - expected) < 1e-3, "\(v) → \(out)")
        }
    }

    @Test func highlightShadowOfAUniformImageUsesItsOwnLumaAtAnyRadius() throws {
        let c = SIMD4<Float>(0.2, 0.3, 0.1, 1)
        let y = (SIMD3(c.x, c.y, c.z) * Self.lumaWeights).sum()
        let f = CIFilter.highlightShadowAdjust()
        (f.inputImage, f.radius, f.shadowAmount, f.highlightAmount) = (Self.uniform(9, 9, c), 3, 0.6, 0.4)
        let gain = Self.highlightShadowGain(y: y, m: y, shadow: 0.6, highlight: 0.4)
        let expected = SIMD4(c.x * gain, c.y * gain, c.z * gain, 1)
        #expect(try Self.render(f, 9, 9).allSatisfy { $0.allSatisfy { Fixture.close($0, expected, 1e-3) } })
    }

    // MARK: Bloom and gloom

    /// The input blurred by a sampled Gaussian of σ out to 3σ, normalised, with its edge pixels repeated.
    static func gaussianBlur(_ image: [[SIMD4<Float>]], sigma: Double) -> [[SIMD4<Float>]] {
        let reach = Int((3 * sigma).rounded(.up))
        let raw = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let kernel = raw.map { Float($0 / raw.reduce(0, +)) }
        let h = image.count, w = image[0].count
        let across = (0..<h).map { y in
            (0..<w).map { x in
                (-reach...reach).reduce(SIMD4<Float>.zero) { s, k in
                    s + image[y][min(max(x + k, 0), w - 1)] * kernel[k + reach]
                }
            }
        }
        return (0..<h).map { y in
            (0..<w).map { x in
                (-reach...reach).reduce(SIMD4<Float>.zero) { s, k in
                    s + across[min(max(y + k, 0), h - 1)][x] * kernel[k + reach]
                }
            }
        }
    }

    @Test func bloomAndGloomOfAUniformImage() throws {
        let c = SIMD4<Float>(0.2, 0.5, 0.8, 1)
        let bloom = CIFilter.bloom(), gloom = CIFilter.gloom()
        (bloom.inputImage, bloom.radius, bloom.intensity) = (Self.uniform(8, 8, c), 2, 0.5)
        (gloom.inputImage, gloom.radius, gloom.intensity) = (Self.uniform(8, 8, c), 2, 0.5)
        // v + i · v (1 − v) and v − i · v (1 − v), the blur of a uniform image being itself.
        let up = SIMD4(0.2 + 0.5 * 0.2 * 0.8, 0.5 + 0.5 * 0.5 * 0.5, 0.8 + 0.5 * 0.8 * 0.2, 1)
        let down = SIMD4(0.2 - 0.5 * 0.2 * 0.8, 0.5 - 0.5 * 0.5 * 0.5, 0.8 - 0.5 * 0.8 * 0.2, 1)
        #expect(try Self.render(bloom, 8, 8).allSatisfy { $0.allSatisfy { Fixture.close($0, SIMD4<Float>(up)) } })
        #expect(try Self.render(gloom, 8, 8).allSatisfy { $0.allSatisfy { Fixture.close($0, SIMD4<Float>(down)) } })
    }

    @Test func bloomSpreadsABrightPixelByItsBlur() throws {
        let n = 11
        let pixels: [[SIMD4<Float>]] = (0..<n).map { y in
            (0..<n).map { x in x == 5 && y == 4 ? SIMD4(1, 0.9, 0.8, 1) : SIMD4(0.2, 0.1, 0.3, 1) }
        }
        let blurred = Self.gaussianBlur(pixels, sigma: 1.5)
        let bloom = CIFilter.bloom(), gloom = CIFilter.gloom()
        let image = Fixture.image(n, n) { x, y in pixels[y][x] }
        (bloom.inputImage, bloom.radius, bloom.intensity) = (image, 1.5, 0.8)
        (gloom.inputImage, gloom.radius, gloom.intensity) = (image, 1.5, 0.8)
        let up = try Self.render(bloom, n, n), down = try Self.render(gloom, n, n)
        for y in 0..<n {
            for x in 0..<n {
                let v = pixels[y][x], b = blurred[y][x]
                var bloomed = v + 0.8 * b * (1 - v), gloomed = v - 0.8 * v * (1 - b)
                (bloomed.w, gloomed.w) = (1, 1)
                #expect(Fixture.close(up[y][x], bloomed), "bloom (\(x), \(y))")
                #expect(Fixture.close(down[y][x], gloomed), "gloom (\(x), \(y))")
            }
        }
        #expect(up[4][6].x > pixels[4][6].x + 0.05)
    }

    // MARK: Cells

    /// A 40 × 40 image whose every pixel differs: red and green give its column and Core Image row.
    static let cellSize = 40
    static func gradientValue(_ x: Int, _ ciY: Int) -> SIMD4<Float> {
        SIMD4((Float(x) + 0.5) / Float(cellSize), (Float(ciY) + 0.5) / Float(cellSize), 0.5, 1)
    }
    static let gradient = Fixture.image(cellSize, cellSize) { x, y in gradientValue(x, cellSize - 1 - y) }

    /// The input pixel (column, Core Image row) a rendered gradient pixel copies.
    static func source(_ v: SIMD4<Float>) -> (Int, Int) {
        (Int((v.x * Float(cellSize) - 0.5).rounded()), Int((v.y * Float(cellSize) - 0.5).rounded()))
    }

    @Test func hexagonalCellsCopyTheInputUnderTheNearestLatticeCentre() throws {
        let centre = SIMD2<Double>(13, 17), s = 8.0
        let f = CIFilter.hexagonalPixellate()
        (f.inputImage, f.center, f.scale) = (Self.gradient, CGPoint(x: 13, y: 17), 8)
        let out = try Self.render(f, Self.cellSize, Self.cellSize)
        var checked = 0
        for row in 0..<Self.cellSize {
            let y = Self.cellSize - 1 - row
            for x in 0..<Self.cellSize {
                let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                // Every lattice centre near the picture, nearest first.
                var candidates: [(d2: Double, c: SIMD2<Double>)] = []
                for b in -6...6 {
                    for a in -9...9 {
                        let c = centre + SIMD2(Double(a) * s + Double(b) * s / 2, Double(b) * s * 3.0.squareRoot() / 2)
                        candidates.append((((p - c) * (p - c)).sum(), c))
                    }
                }
                candidates.sort { $0.d2 < $1.d2 }
                guard candidates[1].d2 - candidates[0].d2 > 1e-3 else { continue }
                let c = candidates[0].c
                let sx = min(max(Int(c.x.rounded(.down)), 0), Self.cellSize - 1)
                let sy = min(max(Int(c.y.rounded(.down)), 0), Self.cellSize - 1)
                #expect(Fixture.close(out[row][x], Self.gradientValue(sx, sy), 1e-3), "(\(x), \(y))")
                checked += 1
            }
        }
        #expect(checked > Self.cellSize * Self.cellSize * 9 / 10)
    }

    @Test func crystalsAreVoronoiCellsOfTheirSeeds() throws {
        let f = CIFilter.crystallize()
        (f.inputImage, f.radius, f.center) = (Self.gradient, 8, CGPoint(x: 3, y: 5))
        let out = try Self.render(f, Self.cellSize, Self.cellSize)
        #expect(out == (try Self.render(f, Self.cellSize, Self.cellSize)))
        var seeds = Set<[Int]>()
        for row in out { for v in row { seeds.insert([Self.source(v).0, Self.source(v).1]) } }
        // About one crystal per 8 × 8 pixels (partly cut cells at the edges add some).
        #expect(seeds.count >= 20 && seeds.count <= 50, "\(seeds.count) crystals")
        for row in 0..<Self.cellSize {
            let y = Self.cellSize - 1 - row
            for x in 0..<Self.cellSize {
                // The copied seed pixel is the nearest seed pixel, give or take the pixel a seed point falls in.
                let (sx, sy) = Self.source(out[row][x])
                let own = hypot(Double(sx - x), Double(sy - y))
                // Seeds off the picture copy its edge pixels, nearer than they are: only inner seeds are rivals.
                let inner = seeds.filter { $0.allSatisfy { (1..<(Self.cellSize - 1)).contains($0) } }
                let nearest = inner.map { hypot(Double($0[0] - x), Double($0[1] - y)) }.min() ?? .infinity
                #expect(own <= nearest + 1.5, "(\(x), \(y)) copies (\(sx), \(sy))")
                #expect(own <= 1.1 * 8 + 1)
            }
        }
        let plain = CIFilter.crystallize()
        plain.inputImage = Self.uniform(12, 12, SIMD4(0.3, 0.6, 0.9, 1))
        plain.radius = 4
        #expect(
            try Self.render(plain, 12, 12).allSatisfy {
                $0.allSatisfy { Fixture.close($0, SIMD4(0.3, 0.6, 0.9, 1), 1e-3) }
            })
    }

    @Test func pointsAreDiscsOfTheColourUnderTheirSeedsOnWhite() throws {
        let f = CIFilter.pointillize()
        (f.inputImage, f.radius, f.center) = (Self.gradient, 5, CGPoint(x: 0, y: 0))
        let out = try Self.render(f, Self.cellSize, Self.cellSize)
        var white = 0
        for row in 0..<Self.cellSize {
            let y = Self.cellSize - 1 - row
            for x in 0..<Self.cellSize {
                if out[row][x] == SIMD4(1, 1, 1, 1) {
                    white += 1
                    continue
                }
                let (sx, sy) = Self.source(out[row][x])
                #expect(hypot(Double(sx - x), Double(sy - y)) <= 5 + 1.5, "(\(x), \(y)) copies (\(sx), \(sy))")
            }
        }
        let paper = Double(white) / Double(Self.cellSize * Self.cellSize)
        #expect(paper > 0.01 && paper < 0.5, "paper \(paper)")
    }

    // MARK: Halftone screens

    static func mean(_ pixels: [[SIMD4<Float>]]) -> SIMD4<Float> {
        pixels.joined().reduce(SIMD4<Float>.zero, +) / Float(pixels.count * pixels[0].count)
    }

    @Test func screensAverageToTheLumaOverTheirPeriods() throws {
        let colours: [SIMD4<Float>] = [
            SIMD4(0.3, 0.3, 0.3, 1), SIMD4(0.2, 0.5, 0.8, 1), SIMD4(0.8, 0.8, 0.8, 1), SIMD4(0.6, 0.55, 0.5, 1),
            SIMD4(0.1, 0.1, 0.1, 1),
        ]
        for name in ["CIDotScreen", "CILineScreen", "CIHatchedScreen", "CICircularScreen"] {
            for c in colours {
                let luma = (SIMD3(c.x, c.y, c.z) * Self.lumaWeights).sum()
                let f = try #require(CIFilter(name: name))
                f.setValue(Self.uniform(60, 60, c), forKey: kCIInputImageKey)
                f.setValue(CIVector(x: 30, y: 30), forKey: kCIInputCenterKey)
                f.setValue(12.0, forKey: kCIInputWidthKey)
                let out = try Self.render(f, 60, 60)
                let m = Self.mean(out)
                // Pixel sampling leaves a little error; rings near the centre sample the radius unevenly.
                let tolerance: Float = name == "CICircularScreen" ? 0.025 : 0.01
                #expect(abs(m.x - luma) < tolerance, "\(name) \(c): mean \(m.x), luma \(luma)")
                #expect(out.joined().allSatisfy { $0.x == $0.y && $0.y == $0.z && $0.w == 1 }, "\(name) is grey")
            }
        }
    }

    @Test func lineScreenBandsFollowTheAngle() throws {
        let luma: Float = 0.4
        let f = CIFilter.lineScreen()
        (f.inputImage, f.center, f.width, f.sharpness) = (Self.uniform(24, 24, SIMD4(luma, luma, luma, 1)), .zero, 8, 1)
        for angle in [Float(0), .pi / 2] {
            f.angle = angle
            let out = try Self.render(f, 24, 24)
            for row in 0..<24 {
                for x in 0..<24 {
                    // Across the lines: y at angle 0, −x at a quarter turn.
                    let across = angle == 0 ? Double(23 - row) + 0.5 : -(Double(x) + 0.5)
                    let phase = across / 8 - (across / 8).rounded(.down)
                    let t = abs(2 * phase - 1)
                    guard abs(t - Double(1 - luma)) > 1e-3 else { continue }
                    let expected: Float = t >= Double(1 - luma) ? 1 : 0
                    #expect(out[row][x].x == expected, "angle \(angle) (\(x), \(row))")
                }
            }
        }
    }

    @Test func hatchesCrossOnlyBelowHalfLumaAndRingsCentreOnTheCentre() throws {
        // Distance from the middle of a band, as the fraction of the period the band must cover to reach the point.
        func band(_ x: Double, _ width: Double) -> Double { abs(2 * (x / width - (x / width).rounded(.down)) - 1) }
        for luma in [Float(0.75), 0.25] {
            let image = Self.uniform(32, 32, SIMD4(luma, luma, luma, 1))
            let hatch = CIFilter.hatchedScreen(), ring = CIFilter.circularScreen()
            (hatch.inputImage, hatch.center, hatch.width, hatch.sharpness) = (image, CGPoint(x: 1, y: 2), 8, 1)
            (ring.inputImage, ring.center, ring.width, ring.sharpness) = (image, CGPoint(x: 16, y: 15), 8, 1)
            let hatched = try Self.render(hatch, 32, 32), rings = try Self.render(ring, 32, 32)
            let along = Double(min(1 - luma, 0.5)), across = Double(max(0, 1 - 2 * luma))
            for row in 0..<32 {
                for x in 0..<32 {
                    let px = Double(x) + 0.5, py = Double(31 - row) + 0.5
                    let ty = band(py - 2, 8), tx = band(px - 1, 8)
                    if abs(ty - along) > 1e-3 && abs(tx - across) > 1e-3 {
                        let inked = ty < along || tx < across
                        #expect(hatched[row][x].x == (inked ? 0 : 1), "hatched \(luma) (\(x), \(row))")
                    }
                    let tr = band(hypot(px - 16, py - 15), 8)
                    if abs(tr - Double(1 - luma)) > 1e-3 {
                        #expect(rings[row][x].x == (tr < Double(1 - luma) ? 0 : 1), "rings \(luma) (\(x), \(row))")
                    }
                }
            }
        }
    }

    @Test func dotScreenDotsAreDiscsOfTheInkedArea() throws {
        // Luma 0.7: black discs of area 0.3 of each cell, radius √(0.3 / π) periods, about the cells' middles.
        let luma: Float = 0.7, width = 10.0
        let f = CIFilter.dotScreen()
        (f.inputImage, f.center, f.width, f.sharpness) = (
            Self.uniform(30, 30, SIMD4(luma, luma, luma, 1)), CGPoint(x: 2, y: 3), Float(width), 1
        )
        f.angle = 0.3
        let out = try Self.render(f, 30, 30)
        let radius = (0.3 / Double.pi).squareRoot()
        for row in 0..<30 {
            for x in 0..<30 {
                let d = SIMD2(Double(x) + 0.5 - 2, Double(29 - row) + 0.5 - 3)
                let q = SIMD2(d.x * cos(0.3) + d.y * sin(0.3), -d.x * sin(0.3) + d.y * cos(0.3)) / width
                let m = SIMD2(q.x - q.x.rounded(.down), q.y - q.y.rounded(.down)) - 0.5
                let r = (m * m).sum().squareRoot()
                guard abs(r - radius) > 0.01 else { continue }
                #expect(out[row][x].x == (r < radius ? 0 : 1), "(\(x), \(row))")
            }
        }
    }

    @Test func cmykHalftoneInksAsPrinted() throws {
        func halftone(_ c: SIMD4<Float>) throws -> [[SIMD4<Float>]] {
            let f = CIFilter.cmykHalftone()
            (f.inputImage, f.width, f.center) = (Self.uniform(48, 48, c), 12, CGPoint(x: 24, y: 24))
            return try Self.render(f, 48, 48)
        }
        // Pure inks print solid or not at all.
        for c in [SIMD4<Float>(1, 0, 0, 1), SIMD4(0, 1, 1, 1), SIMD4(1, 1, 1, 1), SIMD4(0, 0, 0, 1)] {
            #expect(try halftone(c).joined().allSatisfy { $0 == c }, "\(c)")
        }
        // Cyan alone (no black: min(c, m, y) = 0) screens red to 0.6 on average and leaves green and blue white.
        let cyan = try halftone(SIMD4(0.6, 1, 1, 1))
        #expect(cyan.joined().allSatisfy { $0.y == 1 && $0.z == 1 })
        #expect(abs(Self.mean(cyan).x - 0.6) < 0.03, "\(Self.mean(cyan))")
        // Grey 0.5 with the defaults: k = 0.5, and c = m = y = 0.5 − 0.5 · 0.5, all in dots: darker than the grey.
        let grey = Self.mean(try halftone(SIMD4(0.5, 0.5, 0.5, 1)))
        #expect(grey.x < 0.45 && grey.x > 0.2, "\(grey)")
    }

    // MARK: Comic

    @Test func comicEffectOutlinesEdgesOverTheColourHalftone() throws {
        func comicAndHalftone(_ f: @escaping (Int) -> Float) throws -> ([[SIMD4<Float>]], [[SIMD4<Float>]]) {
            let image = Fixture.image(20, 6) { x, _ in SIMD4(f(x), f(x), f(x), 1) }
            let comic = CIFilter.comicEffect(), halftone = CIFilter.cmykHalftone()
            (comic.inputImage, halftone.inputImage) = (image, image)
            return (try Self.render(comic, 20, 6), try Self.render(halftone, 20, 6))
        }
        // No edges: the halftone itself.
        let (flat, flatHalftone) = try comicAndHalftone { _ in 0.4 }
        #expect(flat == flatHalftone)
        #expect(flat.joined().contains { $0.x < 0.5 } && flat.joined().contains { $0.x > 0.5 })
        // Black to white between columns 9 and 10: a Sobel magnitude of 1 on both, so both are inked.
        let (step, _) = try comicAndHalftone { $0 < 10 ? 0 : 1 }
        for row in step {
            for (x, v) in row.enumerated() { #expect(v == (x <= 10 ? SIMD4(0, 0, 0, 1) : SIMD4(1, 1, 1, 1)), "\(x)") }
        }
        // 0.25 to 0.5: magnitude 0.25, a smoothstep from 0.1 to 0.3 of 0.84375 on columns 9 and 10.
        let (soft, softHalftone) = try comicAndHalftone { $0 < 10 ? 0.25 : 0.5 }
        for (row, halftoneRow) in zip(soft, softHalftone) {
            for x in 0..<20 {
                let keep: Float = x == 9 || x == 10 ? 1 - 0.84375 : 1
                var expected = halftoneRow[x] * keep
                expected.w = 1
                #expect(Fixture.close(row[x], expected, 2e-3), "\(x)")
            }
        }
    }
}
