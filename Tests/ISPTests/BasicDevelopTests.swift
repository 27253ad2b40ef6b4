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
    @Test func colorCheckerUnderD65IsAccurate() throws {
        let lab = try ChartFixture.developedLab(illuminant: Illuminants.d65)
        let errors = zip(lab, ChartFixture.referenceLab).map { DeltaE.ciede2000($0, $1) }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 3, "mean ΔE00 \(mean), max \(errors.max() ?? 0)")
        #expect((errors.max() ?? 0) < 10)
    }

    /// Under tungsten the fit still serves: colours are compared with their D65 appearance
    /// (complete adaptation), so the error includes the camera's metamerism and stays moderate.
    @Test func colorCheckerUnderTungstenIsReasonable() throws {
        let lab = try ChartFixture.developedLab(illuminant: Illuminants.a)
        let errors = zip(lab, ChartFixture.referenceLab).map { DeltaE.ciede2000($0, $1) }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 5, "mean ΔE00 \(mean)")
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
