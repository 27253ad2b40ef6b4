import Testing
import Spectra

@Suite struct CCTTests {
    @Test(arguments: CCTReference.forward.indices)
    func forwardMatchesColourScience(_ index: Int) {
        let ref = CCTReference.forward[index]
        let xy = CCT.chromaticity(cct: ref.cct, duv: ref.duv)
        #expect(abs(xy.x - ref.x) < 1e-6 && abs(xy.y - ref.y) < 1e-6, "\(ref.cct) K \(ref.duv): \(xy)")
    }

    @Test func specExamples() {
        // spec §1.5
        let cases: [(Double, Double, Double, Double)] = [
            (3000, 0.02, 0.46916, 0.47059), (3000, -0.02, 0.41031, 0.34912),
            (5000, 0, 0.34510, 0.35161), (7500, 0.01, 0.29628, 0.32548),
        ]
        for (t, duv, x, y) in cases {
            let xy = CCT.chromaticity(cct: t, duv: duv)
            #expect(abs(xy.x - x) < 1e-5 && abs(xy.y - y) < 1e-5, "\(t) K \(duv): \(xy)")
            let back = CCT.cctAndDuv(of: xy)
            #expect(abs(back.cct - t) < 0.01 && abs(back.duv - duv) < 1e-8, "round trip \(t) K \(duv): \(back)")
        }
    }

    @Test(arguments: CCTReference.inverse.indices)
    func inverseMatchesColourScience(_ index: Int) {
        let ref = CCTReference.inverse[index]
        let got = CCT.cctAndDuv(of: Chromaticity(x: ref.x, y: ref.y))
        #expect(abs(got.cct - ref.cct) < 1 && abs(got.duv - ref.duv) < 1e-5, "\(ref): \(got)")
    }

    @Test func d65IsAt6504K() {
        // spec §1.2: 6504.3 K, Duv +0.00321
        let got = CCT.cctAndDuv(of: Chromaticity(x: 0.3127, y: 0.3290))
        #expect(abs(got.cct - 6504.3) < 0.1 && abs(got.duv - 0.00321) < 1e-5)
    }
}

@Suite struct TintedIlluminantTests {
    static let targets: [(Double, Double)] = [
        (3000, 0.02), (3000, -0.02), (5000, 0.02), (5000, -0.02), (7500, -0.02), (7500, 0.01),
        (2700, 0.006), (4000, -0.006), (6500, 0), (3000, 0.025), (3000, -0.05), (10000, 0.03), (6500, 0.05),
    ]

    @Test(arguments: targets.indices)
    func tintedHitsTarget(_ index: Int) throws {
        let (t, duv) = Self.targets[index]
        let s = try Illuminants.tinted(cct: t, duv: duv)
        #expect(s.values.allSatisfy { $0 > 0 })
        let got = CCT.cctAndDuv(of: CIE1931.tristimulus(s).chromaticity)
        #expect(abs(got.cct - t) < 0.01 && abs(got.duv - duv) < 1e-7, "target \(t) K \(duv): \(got)")
    }

    @Test func makeWithDaylightBaseHitsTarget() throws {
        for (t, duv) in [(6500.0, -0.01), (5500.0, 0.015)] {
            let s = try Illuminants.make(cct: t, duv: duv, model: .daylight)
            let got = CCT.cctAndDuv(of: CIE1931.tristimulus(s).chromaticity)
            #expect(abs(got.cct - t) < 0.01 && abs(got.duv - duv) < 1e-7)
        }
    }

    @Test func refusesLargeDuv() {
        #expect(throws: SpectraError.self) { try Illuminants.tinted(cct: 3000, duv: 0.06) }
    }
}
