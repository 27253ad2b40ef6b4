import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Spectra
import Testing

/// Clipped highlights become the balanced white, not the colour the white-balance gains give a pixel
/// whose channels were cut at different points (lavender under tungsten light).
@Suite struct HighlightNeutralTests {
    /// sRGB code values (0…255) to CIELAB against D65, from IEC 61966-2-1's decoding curve and
    /// matrix and CIE 15's L*a*b* formulas, written out here independently of the pipeline.
    static func lab(sRGB code: SIMD3<Double>) -> (L: Double, a: Double, b: Double) {
        func decode(_ c: Double) -> Double {
            let v = c / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (decode(code.x), decode(code.y), decode(code.z))
        let x = 0.4124 * r + 0.3576 * g + 0.1805 * b
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = 0.0193 * r + 0.1192 * g + 0.9505 * b
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let (fx, fy, fz) = (f(x / 0.95047), f(y / 1.0), f(z / 1.08883))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// The chart under illuminant A, balanced for A, at an exposure that puts neutral 5's green at
    /// `overexposure` times the clipping level; the patch's mean developed sRGB code.
    static func developedGrey(overexposure: Double, warmth: Double) throws -> SIMD3<Double> {
        let camera = try ChartFixture.camera()
        let renderer = Renderer(scene: ChartFixture.scene(illuminant: Illuminants.a), camera: camera, flash: nil)
        let probe = renderer.render(Exposure(time: 0.01, iso: 100))
        let patch = "neutral 5 (.70 D)"
        let grey = ChartFixture.patchMean(probe.dn.map(Float.init), frame: probe, renderer: renderer, patch: patch)
        let frame = renderer.render(Exposure(time: 0.01 * overexposure * 65535 / grey.y, iso: 100))
        let develop = BasicDevelop(
            camera: camera, whiteBalance: WhiteBalance(illuminant: Illuminants.a, camera: camera),
            settings: .init(warmthRetention: warmth, exposureScale: 1))
        let pixels = develop.developBytes(frame)
        let values = pixels.packedElements.map(Float.init)
        return ChartFixture.patchMean(Array(values), frame: frame, renderer: renderer, patch: patch)
    }

    // Under illuminant A a grey's raw blue is far below its red and green, so overexposure clips red
    // and green first; the gains then lift the blue of a pixel that is really white. The pixel must
    // come out neutral: |a*| and |b*| at most 3.
    @Test(arguments: [1.05, 1.5, 3.0])
    func clippedGreyUnderTungstenIsNeutral(overexposure: Double) throws {
        let code = try Self.developedGrey(overexposure: overexposure, warmth: 0)
        let lab = Self.lab(sRGB: code)
        #expect(abs(lab.a) <= 3 && abs(lab.b) <= 3, "grey at \(overexposure)× clip: sRGB \(code), Lab \(lab)")
        #expect(lab.L > 90, "a clipped grey is near white: L* \(lab.L)")
    }

    // With part of the light's cast kept (as photos under known lights keep it), the clipped grey
    // keeps the same cast as the grey below clipping: the same chromaticity, brighter. Read before
    // the tone curve, whose per-channel shoulder bends any colour near the output's white.
    @Test func clippedGreyKeepsTheCastOfTheUnclippedGrey() throws {
        func chromaticity(overexposure: Double) throws -> (x: Double, y: Double) {
            let camera = try ChartFixture.camera()
            let renderer = Renderer(scene: ChartFixture.scene(illuminant: Illuminants.a), camera: camera, flash: nil)
            let probe = renderer.render(Exposure(time: 0.01, iso: 100))
            let patch = "neutral 5 (.70 D)"
            let grey = ChartFixture.patchMean(probe.dn.map(Float.init), frame: probe, renderer: renderer, patch: patch)
            let frame = renderer.render(Exposure(time: 0.01 * overexposure * 65535 / grey.y, iso: 100))
            let develop = BasicDevelop(
                camera: camera, whiteBalance: WhiteBalance(illuminant: Illuminants.a, camera: camera),
                settings: .init(warmthRetention: 0.2, exposureScale: 1))
            let rgb = ChartFixture.patchMean(develop.linearRGB(frame), frame: frame, renderer: renderer, patch: patch)
            // Linear sRGB to XYZ (IEC 61966-2-1), then xy.
            let x = 0.4124 * rgb.x + 0.3576 * rgb.y + 0.1805 * rgb.z
            let y = 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
            let z = 0.0193 * rgb.x + 0.1192 * rgb.y + 0.9505 * rgb.z
            return (x / (x + y + z), y / (x + y + z))
        }
        let below = try chromaticity(overexposure: 0.5)
        let clipped = try chromaticity(overexposure: 3)
        #expect(below.x > 0.3127 + 0.01, "the kept cast is warm: \(below)")
        #expect(abs(below.x - clipped.x) < 0.003 && abs(below.y - clipped.y) < 0.003, "below \(below), clipped \(clipped)")
    }

    // Below the blend: a grey is the plain matrix product, neutral when no cast is kept.
    @Test func greyWellBelowClippingIsUntouchedByTheBlend() throws {
        let lab = Self.lab(sRGB: try Self.developedGrey(overexposure: 0.5, warmth: 0))
        #expect(abs(lab.a) <= 2 && abs(lab.b) <= 2, "Lab \(lab)")
    }
}
