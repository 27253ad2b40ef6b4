import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

/// The basic develop against colorimetry computed independently from the CIE 1931 observer.
struct BasicDevelopTests {
    /// After white balance for the light, the grey patches 20–23 come out neutral: their a*, b*
    /// match the reference's within 0.5 (the references lie within ±0.5 of 0), under both a
    /// 2856 K (CIE A) and a D65 room.
    @Test(arguments: ["A", "D65"])
    func neutralPatchesStayNeutral(_ name: String) throws {
        let illuminant = name == "A" ? Illuminants.a : Illuminants.d65
        let lab = try ChartFixture.developedLab(illuminant: illuminant)
        for index in 19...22 {
            let reference = ChartFixture.referenceLab[index]
            #expect(abs(lab[index].a - reference.a) < 0.5, "patch \(index + 1) a*")
            #expect(abs(lab[index].b - reference.b) < 0.5, "patch \(index + 1) b*")
        }
    }

    /// All 24 patches under D65, through render → develop → 16-bit sRGB → decode, against the
    /// CIELAB of the reflectances under D65.
    ///
    /// How tight the bounds can be: the frame carries shot noise only (≈ 0.1 % per pixel, the white
    /// patch at half the well of 4·10⁶ e⁻) and each patch mean averages some 300 pixels, so a patch's
    /// ΔE00 moves by under 0.01 from noise and the mean of 24 by under 0.002 (1σ). The mean, 1.38 with
    /// this camera, therefore measures the develop's colour accuracy, not the noise. The bound 1.6 adds
    /// 0.2, under two thirds of the standard error the patches' own scatter gives the mean (sd 1.61 over
    /// √24 = 0.33): a change that shifts the chart's mean by less than its spread could explain fails.
    /// The largest error (5.9, the red patch, at the edge of the camera's gamut) gets the same 0.6.
    @Test func colorCheckerUnderD65IsAccurate() throws {
        let lab = try ChartFixture.developedLab(illuminant: Illuminants.d65)
        let errors = zip(lab, ChartFixture.referenceLab).map { DeltaE.ciede2000($0, $1) }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 1.6, "mean ΔE00 \(mean), max \(errors.max() ?? 0)")
        #expect((errors.max() ?? 0) < 6.5)
    }

    /// Under tungsten the fit still serves: colours are compared with their D65 appearance
    /// (complete adaptation), so the error includes the camera's metamerism and stays moderate.
    /// Bounds as under D65: the mean measures 2.93 with noise below 0.002; the patches' scatter
    /// (sd 2.54) gives the mean a standard error of 0.52, and the bound 3.2 adds half of it.
    @Test func colorCheckerUnderTungstenIsReasonable() throws {
        let lab = try ChartFixture.developedLab(illuminant: Illuminants.a)
        let errors = zip(lab, ChartFixture.referenceLab).map { DeltaE.ciede2000($0, $1) }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 3.2, "mean ΔE00 \(mean)")
    }

    /// Keeping warmth leaves a tungsten-lit grey warm (b* > 0, a* ≥ 0); removing it does not.
    @Test func warmthRetentionKeepsAWarmCast() throws {
        let camera = try ChartFixture.camera()
        let renderer = Renderer(scene: ChartFixture.scene(illuminant: Illuminants.a), camera: camera, flash: nil)
        let frame = ChartFixture.frame(renderer: renderer)
        func grey(_ retention: Double) -> Lab {
            let develop = BasicDevelop(
                camera: camera, whiteBalance: WhiteBalance(illuminant: Illuminants.a, camera: camera),
                settings: .init(warmthRetention: retention, toneCurve: .linear, exposureScale: 1))
            let rgb = ChartFixture.patchMean(
                develop.linearRGB(frame), frame: frame, renderer: renderer, patch: "neutral 5 (.70 D)")
            return Lab(XYZ(RGBColorSpace.sRGB.toXYZ * rgb), white: ColorCorrectionMatrix.d65White)
        }
        let neutral = grey(0), warm = grey(0.3)
        #expect(abs(neutral.b) < 2)
        #expect(warm.b > neutral.b + 5)
    }

    /// Grey-world on the chart under CIE A picks a warm illuminant near 2856 K: its camera neutral
    /// is within a degree of A's.
    @Test func greyWorldFindsAWarmIlluminant() throws {
        let camera = try ChartFixture.camera()
        var scene = ChartFixture.scene(illuminant: Illuminants.a)
        scene.objects[0].surface = .uniform(.neutral("grey", reflectance: 0.4))
        let flat = Renderer(scene: scene, camera: camera, flash: nil)
        // About 30,000 DN: quantisation is negligible.
        let frame = flat.render(Exposure(time: 40, iso: 100))
        let estimate = WhiteBalance.greyWorld(frame, camera: camera)
        let truth = WhiteBalance(illuminant: Illuminants.a, camera: camera)
        let a = estimate.cameraNeutral / (estimate.cameraNeutral * estimate.cameraNeutral).sum().squareRoot()
        let b = truth.cameraNeutral / (truth.cameraNeutral * truth.cameraNeutral).sum().squareRoot()
        let degrees = acos(min(1, (a * b).sum())) * 180 / .pi
        #expect(degrees < 1, "angle \(degrees)°")
    }

    /// The shoulder is the identity below the knee, reaches 1 at the clip input and is monotonic.
    @Test func toneCurveShape() {
        let curve = ToneCurve.shoulder(knee: 0.6, whiteInput: 1.4)
        #expect(curve.apply(0.18) == 0.18)
        #expect(abs(curve.apply(1.4) - 1) < 1e-12)
        var last = 0.0
        for i in 0...200 {
            let y = curve.apply(Double(i) / 100)
            #expect(y >= last)
            last = y
        }
    }
}

/// The develop's bucket lookup of an 8-bit code (`EncodingThresholds`) against the bisection of the thresholds it
/// replaces, for every curve the photos use and some they do not: the same code for every float tried.
struct EncodingLookupTests {
    static let encodings: [(ToneCurve, TransferFunction)] = [
        (.shoulder(knee: 0.8, whiteInput: 1.6), .sRGB), (.linear, .sRGB), (.linear, .linear), (.linear, .gamma(2.2)),
        (.shoulder(knee: 0.5, whiteInput: 4), .gamma(1.8)),
        // A curve so steep near white (encoded = linear²⁰) that its top buckets hold two or three thresholds, so the
        // lookup must step past more than one.
        (.linear, .gamma(0.05)),
    ]

    /// Every threshold and its neighbours a few units in the last place away (where a code steps up), every
    /// 4097th non-negative bit pattern (all exponents, both ends of each bucket), negatives, zeros, infinities and
    /// NaN.
    @Test func bucketsGiveTheBisectionsCode() {
        for (tone, transfer) in Self.encodings {
            let table = EncodingThresholds(tone: tone, transfer: transfer)
            var probes: [Float] = [0, -0.0, -1, -.infinity, .infinity, .nan, -.nan, .leastNonzeroMagnitude, 1, 2, 1e30]
            for k in 1...255 {
                let x = table.threshold(k)
                guard x.isFinite else { continue }
                var below = x, above = x
                for _ in 0..<3 {
                    below = below.nextDown
                    above = above.nextUp
                    probes += [below, above]
                }
                probes.append(x)
            }
            var pattern: UInt32 = 0
            while pattern < Float.infinity.bitPattern {
                probes.append(Float(bitPattern: pattern))
                pattern += 4097
            }
            var mismatches = 0
            for x in probes where table.code(x) != table.referenceCode(x) {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("\(tone), \(transfer): \(x) gives \(table.code(x)), the bisection \(table.referenceCode(x))")
                }
            }
            #expect(mismatches == 0, "\(tone), \(transfer): \(mismatches) of \(probes.count) floats differ")
            #expect(table.bucketCount > 0 && table.bucketCount < 40_000, "\(table.bucketCount) buckets")
        }
    }
}
