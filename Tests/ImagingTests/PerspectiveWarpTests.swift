import Imaging
import Testing

@Suite struct PerspectiveWarpTests {
    @Test func dltRecoversAKnownHomography() throws {
        // A closed-form case: x' = 2x + 3, y' = 0.5y − 1 is the affine matrix [[2,0,3],[0,0.5,−1],[0,0,1]].
        let source: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(10, 0), SIMD2(10, 10), SIMD2(0, 10)]
        let h = try #require(Homography(mapping: source, to: source.map { SIMD2(2 * $0.x + 3, 0.5 * $0.y - 1) }))
        for (got, want) in zip(h.entries, [2.0, 0, 3, 0, 0.5, -1, 0, 0, 1]) { #expect(abs(got - want) < 1e-12) }
        // A true projective one, checked on a fifth point the solver never saw.
        let truth = Homography(entries: [0.9, 0.12, 14, -0.08, 1.1, 6, 0.0004, -0.0003, 1])
        let corners: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(640, 0), SIMD2(640, 480), SIMD2(0, 480)]
        let solved = try #require(Homography(mapping: corners, to: corners.map(truth.apply)))
        let probe = SIMD2(213.0, 377.0)
        let error = solved.apply(probe) - truth.apply(probe)
        #expect(abs(error.x) < 1e-9 && abs(error.y) < 1e-9)
    }

    @Test func collinearCornersHaveNoHomography() {
        let line: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 1), SIMD2(2, 2), SIMD2(0, 5)]
        #expect(Homography(mapping: line, to: [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)]) == nil)
    }

    @Test func warpThenUnwarpRestoresAGrid() throws {
        // A smooth grid (sinusoidal, so bilinear sampling error stays small) warped by a known homography.
        let size = 160
        let grid = FloatPlane(width: size, height: size, channels: 1) { x, y, _ in
            let u = (Double(x) + 0.5) / 16, v = (Double(y) + 0.5) / 16
            return Float(0.5 + 0.25 * sinApprox(u) * sinApprox(v))
        }
        let forward = Homography(entries: [0.85, 0.1, 12, -0.05, 0.9, 18, 0.0006, 0.0004, 1])
        let inverse = try #require(forward.inverse)
        // Warp: output pixel p takes source(inverse(p)), so the content moves by `forward`.
        let warped = grid.warpedPerspective(inverse, width: size, height: size, threads: 3)
        let restored = warped.warpedPerspective(forward, width: size, height: size, threads: 2)
        var worst: Float = 0
        for y in 40..<120 {
            for x in 40..<120 { worst = max(worst, abs(restored[x, y] - grid[x, y])) }
        }
        #expect(worst < 0.01, "largest difference \(worst)")
        // The identity warp reproduces the image exactly (every sample lands on a pixel centre).
        #expect(grid.warpedPerspective(.identity, width: size, height: size) == grid)
    }

    @Test func warpIsTheSameForAnyThreadCount() {
        var generator = SplitMix64(state: 7)
        let image = UInt8Image(width: 97, height: 75, channels: 3) { _, _, _ in
            UInt8(truncatingIfNeeded: generator.next())
        }
        let h = Homography(entries: [1.1, 0.05, -4, 0.02, 0.95, 3, 0.0005, 0.0002, 1])
        let one = image.warpedPerspective(h, width: 90, height: 80, threads: 1)
        #expect(image.warpedPerspective(h, width: 90, height: 80, threads: 4) == one)
    }

    /// Strong perspective (exact position per pixel), moderate perspective (short linear spans), mild perspective
    /// (one quadratic per tile) and an affine map, each with an output larger than the source so borders are
    /// crossed; and a magnifying perspective whose every sample lies well inside the source (the all-interior path).
    static let eightBitCases: [[Double]] = [
        [0.83, 0.21, -9.3, -0.17, 1.07, 4.1, 0.0021, -0.0013, 1],
        [0.9, 0.1, -5, -0.08, 0.95, 3, 0.0005, 0.0003, 1],
        [0.92, 0.06, -7.7, -0.04, 0.95, -5.2, 0.00004, 0.00003, 1],
        [0.81, 0.29, -13.4, -0.27, 0.79, 15.6, 0, 0, 1],
        [0.47, 0.031, 9.2, -0.022, 0.5, 8.7, 0.00011, 0.00007, 1],
    ]

    @Test(arguments: [1, 3, 4], 0..<5)
    func eightBitWarpIsWithinOneCodeOfExactBilinear(channels: Int, matrix: Int) {
        // White noise is the worst case for position rounding: neighbouring taps differ by up to 255 codes.
        var generator = SplitMix64(state: 11)
        let width = 131, height = 97
        let image = UInt8Image(width: width, height: height, channels: channels) { _, _, _ in
            UInt8(truncatingIfNeeded: generator.next())
        }
        let h = Homography(entries: PerspectiveWarpTests.eightBitCases[matrix])
        let outputWidth = 150, outputHeight = 110, fill: Float = 0.4
        let warped = image.warpedPerspective(h, width: outputWidth, height: outputHeight, fill: fill, threads: 2)
        let fillCode = (Double(fill) * 255).rounded()
        var worst = 0.0, interior = 0
        for j in 0..<outputHeight {
            for i in 0..<outputWidth {
                // The definition, in Double: output (i, j) samples H(i + ½, j + ½) − ½ with fill outside.
                let p = h.apply(SIMD2(Double(i) + 0.5, Double(j) + 0.5)) - 0.5
                for c in 0..<channels {
                    var expected = fillCode
                    if p.x > -1, p.y > -1, p.x < Double(width), p.y < Double(height) {
                        let x0 = Int(p.x.rounded(.down)), y0 = Int(p.y.rounded(.down))
                        let ax = p.x - Double(x0), ay = p.y - Double(y0)
                        func tap(_ x: Int, _ y: Int) -> Double {
                            x >= 0 && y >= 0 && x < width && y < height ? Double(image[x, y, c]) : fillCode
                        }
                        expected = ((1 - ax) * (1 - ay) * tap(x0, y0) + ax * (1 - ay) * tap(x0 + 1, y0)
                            + (1 - ax) * ay * tap(x0, y0 + 1) + ax * ay * tap(x0 + 1, y0 + 1)).rounded()
                        interior += 1
                    }
                    worst = max(worst, abs(Double(warped[i, j, c]) - expected))
                }
            }
        }
        #expect(interior > outputWidth * outputHeight * channels / 3, "the warp must sample the source")
        if matrix == 4 { #expect(interior == outputWidth * outputHeight * channels) }
        #expect(worst <= 1, "largest difference \(worst) codes")
    }

    /// Rows several 256-column tiles long, so tile boundaries and each tile's own quadratic or spans are crossed:
    /// still within one code of exact bilinear interpolation on white noise, with the fill outside. Mild, moderate
    /// and strong perspective, each sampling the source well past the first tile.
    @Test(arguments: [
        [1.02, 0.01, -20, -0.004, 1.01, 60, 0.00003, 0.00002, 1],
        [0.95, 0.02, -10, -0.01, 0.97, 70, 0.0004, 0.0001, 1],
        [0.9, 0.03, 5, -0.02, 0.9, 80, 0.0015, 0.0005, 1],
    ])
    func wideRowsStayWithinOneCodeAcrossTiles(entries: [Double]) {
        var generator = SplitMix64(state: 13)
        let width = 700, height = 200
        let image = UInt8Image(width: width, height: height, channels: 3) { _, _, _ in
            UInt8(truncatingIfNeeded: generator.next())
        }
        let h = Homography(entries: entries)
        let outputWidth = 760, outputHeight = 40
        let warped = image.warpedPerspective(h, width: outputWidth, height: outputHeight, threads: 2)
        var worst = 0.0, insideLaterTiles = 0
        for j in 0..<outputHeight {
            for i in 0..<outputWidth {
                let p = h.apply(SIMD2(Double(i) + 0.5, Double(j) + 0.5)) - 0.5
                for c in 0..<3 {
                    var expected = 0.0
                    if p.x > -1, p.y > -1, p.x < Double(width), p.y < Double(height) {
                        if i >= 256 { insideLaterTiles += 1 }
                        let x0 = Int(p.x.rounded(.down)), y0 = Int(p.y.rounded(.down))
                        let ax = p.x - Double(x0), ay = p.y - Double(y0)
                        func tap(_ x: Int, _ y: Int) -> Double {
                            x >= 0 && y >= 0 && x < width && y < height ? Double(image[x, y, c]) : 0
                        }
                        expected = ((1 - ax) * (1 - ay) * tap(x0, y0) + ax * (1 - ay) * tap(x0 + 1, y0)
                            + (1 - ax) * ay * tap(x0, y0 + 1) + ax * ay * tap(x0 + 1, y0 + 1)).rounded()
                    }
                    worst = max(worst, abs(Double(warped[i, j, c]) - expected))
                }
            }
        }
        // At least a few hundred pixels past the first tile sample the source.
        #expect(insideLaterTiles > 3 * 300, "\(insideLaterTiles) samples inside past the first tile")
        #expect(worst <= 1, "largest difference \(worst) codes")
    }

    /// The RGB fast path (whole tiles inside the source, three channels at once in vectors) against the plain
    /// per-channel path that four-channel planes take: same positions, same integer arithmetic, so the first three
    /// channels of an RGBA warp must equal the RGB warp byte for byte, inside, at the borders and in the fill.
    @Test(arguments: 0..<5)
    func rgbFastPathMatchesThePlainPath(matrix: Int) {
        var generator = SplitMix64(state: 17)
        let width = 300, height = 140
        let rgba = UInt8Image(width: width, height: height, channels: 4) { _, _, _ in
            UInt8(truncatingIfNeeded: generator.next())
        }
        let rgb = UInt8Image(width: width, height: height, channels: 3) { x, y, c in rgba[x, y, c] }
        let h = Homography(entries: PerspectiveWarpTests.eightBitCases[matrix])
        // 601 columns: two whole tiles and a third whose length is not a multiple of 4.
        let outputWidth = 601, outputHeight = 50
        let fast = rgb.warpedPerspective(h, width: outputWidth, height: outputHeight, fill: 0.2, threads: 2)
        let plain = rgba.warpedPerspective(h, width: outputWidth, height: outputHeight, fill: 0.2, threads: 2)
        var differing = 0
        for j in 0..<outputHeight {
            for i in 0..<outputWidth {
                for c in 0..<3 where fast[i, j, c] != plain[i, j, c] { differing += 1 }
            }
        }
        #expect(differing == 0, "\(differing) components differ")
    }

    @Test func rectifyFlattensAQuadrilateralToItsRectangle() throws {
        // Draw a rectangle with a 2 × 2 checker inside, seen in perspective; rectify and read the checker back.
        let corners: [SIMD2<Double>] = [SIMD2(50, 30), SIMD2(250, 50), SIMD2(270, 210), SIMD2(30, 190)]
        let unit: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)]
        let toQuad = try #require(Homography(mapping: unit, to: corners))
        let toUnit = try #require(toQuad.inverse)
        let image = FloatPlane(width: 300, height: 240, channels: 1) { x, y, _ in
            let u = toUnit.apply(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
            guard u.x >= 0, u.x < 1, u.y >= 0, u.y < 1 else { return 0.5 }
            return (u.x < 0.5) == (u.y < 0.5) ? 1 : 0
        }
        let flat = try #require(PerspectiveCorrection.rectify(image, corners: corners, size: (100, 80)))
        #expect(flat[20, 20] == 1 && flat[75, 20] == 0 && flat[20, 60] == 0 && flat[75, 60] == 1)
    }
}

/// sin(x) by its Taylor series after range reduction; the test needs only a smooth function.
private func sinApprox(_ x: Double) -> Double {
    var r = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if r > Double.pi { r -= 2 * Double.pi }
    var term = r, sum = r
    for n in 1..<12 {
        term *= -r * r / Double((2 * n) * (2 * n + 1))
        sum += term
    }
    return sum
}
