import Testing
import Spectra

private func expectMatrix(_ m: Matrix3, _ ref: [[Double]], _ tolerance: Double, _ what: String) {
    for r in 0..<3 {
        for c in 0..<3 {
            #expect(abs(m[r, c] - ref[r][c]) < tolerance, "\(what)[\(r),\(c)]: \(m[r, c]) vs \(ref[r][c])")
        }
    }
}

@Suite struct RGBColorSpaceTests {
    @Test func derivedMatricesMatchSpec() {
        // spec §2.2, 7 decimals
        expectMatrix(RGBColorSpace.sRGB.toXYZ, [[0.4123908, 0.3575843, 0.1804808], [0.2126390, 0.7151687, 0.0721923],
            [0.0193308, 0.1191948, 0.9505322]], 6e-8, "sRGB→XYZ")
        expectMatrix(RGBColorSpace.sRGB.fromXYZ, [[3.2409699, -1.5373832, -0.4986108], [-0.9692436, 1.8759675, 0.0415551],
            [0.0556301, -0.2039770, 1.0569715]], 6e-8, "XYZ→sRGB")
        expectMatrix(RGBColorSpace.displayP3.toXYZ, [[0.4865709, 0.2656677, 0.1982173], [0.2289746, 0.6917385, 0.0792869],
            [0, 0.0451134, 1.0439444]], 6e-8, "P3→XYZ")
        expectMatrix(RGBColorSpace.displayP3.fromXYZ, [[2.4934969, -0.9313836, -0.4027108],
            [-0.8294890, 1.7626641, 0.0236247], [0.0358458, -0.0761724, 0.9568845]], 6e-8, "XYZ→P3")
        let p3ToSRGB = RGBColorSpace.conversion(from: .displayP3, to: .sRGB)
        expectMatrix(p3ToSRGB, [[1.2249402, -0.2249402, 0], [-0.0420570, 1.0420570, 0],
            [-0.0196376, -0.0786360, 1.0982736]], 6e-8, "P3→sRGB")
        expectMatrix(RGBColorSpace.conversion(from: .sRGB, to: .displayP3), [[0.8224620, 0.1775380, 0],
            [0.0331942, 0.9668058, 0], [0.0170826, 0.0723974, 0.9105199]], 6e-8, "sRGB→P3")
    }

    @Test func derivedMatricesMatchColourScience() {
        expectMatrix(RGBColorSpace.sRGB.toXYZ, AdaptationReference.sRGBToXYZ, 1e-12, "sRGB NPM")
        expectMatrix(RGBColorSpace.displayP3.toXYZ, AdaptationReference.displayP3ToXYZ, 1e-12, "P3 NPM")
        expectMatrix(RGBColorSpace.conversion(from: .displayP3, to: .sRGB), AdaptationReference.displayP3ToSRGB,
            1e-12, "P3→sRGB")
        // White maps to white: rows of the conversion sum to 1.
        let m = RGBColorSpace.conversion(from: .displayP3, to: .sRGB)
        for r in 0..<3 { #expect(abs(m[r, 0] + m[r, 1] + m[r, 2] - 1) < 1e-12) }
    }

    @Test func collinearPrimariesThrow() {
        #expect(throws: SpectraError.self) {
            try RGBColorSpace(name: "flat", red: Chromaticity(x: 0.1, y: 0.1), green: Chromaticity(x: 0.2, y: 0.2),
                blue: Chromaticity(x: 0.3, y: 0.3), white: Chromaticity(x: 0.3127, y: 0.329), transfer: .linear)
        }
    }
}

@Suite struct TransferFunctionTests {
    @Test func midGreyEncodings() {
        #expect(abs(TransferFunction.sRGB.encode(0.18) - 0.4614) < 5e-5)
        #expect(abs(TransferFunction.gamma(2.2).encode(0.18) - 0.4587) < 5e-5)
    }

    @Test(arguments: [TransferFunction.linear, .sRGB, .gamma(2.2), .gamma(2.4)])
    func roundTrips(_ f: TransferFunction) {
        for v in [-2.0, -0.5, -0.002, 0, 0.001, 0.0031308, 0.04, 0.18, 0.5, 1, 1.5, 4] {
            let e = f.encode(v)
            #expect(abs(f.decode(e) - v) < 1e-12 * max(1, abs(v)), "\(f) \(v)")
            #expect((e < 0) == (v < 0), "sign preserved for \(v)")
        }
        #expect(f.encode(1.5) > f.encode(1), "values above 1 continue the curve")
    }

    @Test func sRGBIsContinuousAtTheKnee() {
        let f = TransferFunction.sRGB
        #expect(abs(f.encode(0.0031308) - 12.92 * 0.0031308) < 1e-7)
        #expect(abs(f.decode(0.04045) - 0.04045 / 12.92) < 1e-7)
    }
}

@Suite struct ChromaticAdaptationTests {
    static let a = XYZ(AdaptationReference.whiteA.X, AdaptationReference.whiteA.Y, AdaptationReference.whiteA.Z)
    static let d65 = XYZ(
        AdaptationReference.whiteD65.X, AdaptationReference.whiteD65.Y, AdaptationReference.whiteD65.Z)

    @Test func bradfordAToD65MatchesSpec() {
        let m = ChromaticAdaptation.matrix(from: Self.a, to: Self.d65, method: .bradford)
        // spec §2.2
        expectMatrix(m, [[0.8446690, -0.1179501, 0.3950134], [-0.1366497, 1.1041266, 0.1292354],
            [0.0798937, -0.1349779, 3.1935883]], 6e-8, "Bradford A→D65")
        expectMatrix(m, AdaptationReference.bradfordAToD65, 1e-12, "Bradford vs colour-science")
    }

    @Test func cat02MatchesColourScience() {
        let m = ChromaticAdaptation.matrix(from: Self.a, to: Self.d65, method: .cat02)
        expectMatrix(m, AdaptationReference.cat02AToD65, 1e-12, "CAT02")
    }

    @Test(arguments: ChromaticAdaptation.Method.allCases)
    func whiteMapsToWhite(_ method: ChromaticAdaptation.Method) {
        let w = ChromaticAdaptation.adapt(Self.a, from: Self.a, to: Self.d65, method: method)
        #expect(abs(w.X - Self.d65.X) < 1e-12 && abs(w.Y - 1) < 1e-12 && abs(w.Z - Self.d65.Z) < 1e-12)
    }
}

@Suite struct Matrix3Tests {
    @Test func inverseAndDeterminant() throws {
        let m = Matrix3(rows: [[2, 1, 0], [0, 3, 1], [1, 0, 4]])
        #expect(m.determinant == 25)
        let inv = try #require(m.inverse)
        expectMatrix(m * inv, Matrix3.identity.rows, 1e-15, "m·m⁻¹")
        #expect(Matrix3(rows: [[1, 2, 3], [2, 4, 6], [0, 0, 1]]).inverse == nil)
        #expect(m.transposed[0, 2] == 1 && m.transposed[2, 0] == 0)
        #expect(m * SIMD3(1, 1, 1) == SIMD3(3, 4, 5))
    }
}
