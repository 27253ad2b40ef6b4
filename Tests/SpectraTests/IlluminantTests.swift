import Testing
import Spectra

@Suite struct IlluminantTests {
    @Test func daylightModelReproducesTabulatedD65() throws {
        // spec §1.3: within 0.00085 relative after normalising at 560 nm (both are 100 there).
        let model = try Illuminants.daylight(cct: 6504)
        let i560 = 36
        #expect(Spectrum.wavelengths[i560] == 560)
        var worst = 0.0
        for i in 0..<Spectrum.count {
            let a = model.values[i] / model.values[i560]
            let b = Illuminants.d65.values[i] / Illuminants.d65.values[i560]
            worst = max(worst, abs(a - b))
        }
        print("daylight(6504 K) vs D65 table: worst relative difference \(worst)")
        #expect(worst < 0.00085)
    }

    @Test(arguments: IlluminantReference.daylight.indices)
    func daylightModelMatchesColourScience(_ index: Int) throws {
        let ref = IlluminantReference.daylight[index]
        let model = try Illuminants.daylight(cct: ref.cct)
        for i in 0..<Spectrum.count {
            #expect(abs(model.values[i] - ref.spd[i]) < 1e-9, "\(ref.cct) K at \(Spectrum.wavelengths[i]) nm")
        }
    }

    @Test func daylightRefusesOutsideItsDomain() {
        #expect(throws: SpectraError.self) { try Illuminants.daylight(cct: 3000) }
        #expect(throws: SpectraError.self) { try Illuminants.daylight(cct: 30000) }
    }

    @Test func planckianChromaticities() {
        for ref in IlluminantReference.planckian {
            let xy = CIE1931.tristimulus(Illuminants.planckian(cct: ref.cct)).chromaticity
            #expect(abs(xy.x - ref.x) < 1e-9 && abs(xy.y - ref.y) < 1e-9, "\(ref.cct) K")
        }
        // spec §1.4: 2856 K → (0.44754, 0.40743); the radiator is 100 at 560 nm like A.
        let p = Illuminants.planckian(cct: 2856)
        let xy = CIE1931.tristimulus(p).chromaticity
        #expect(abs(xy.x - 0.44754) < 1e-5 && abs(xy.y - 0.40743) < 1e-5)
        #expect(abs(p.value(at: 560) - 100) < 1e-12)
    }

    @Test func illuminantAIsThe2856KRadiator() {
        // spec §1.2: A(400) = 14.708, A(700) = 198.261.
        #expect(abs(Illuminants.a.value(at: 400) - 14.708) < 1e-3 && abs(Illuminants.a.value(at: 700) - 198.261) < 1e-3)
    }

    @Test func ohnoLEDModel() {
        let single = Illuminants.led(peakWavelength: 450, halfSpectralWidth: 15)
        let multi = Illuminants.multiLED(
            peakWavelengths: [450, 555], halfSpectralWidths: [15, 60], peakPowerRatios: [1, 0.55])
        for i in 0..<Spectrum.count {
            #expect(abs(single.values[i] - IlluminantReference.led450[i]) < 1e-12)
            #expect(abs(multi.values[i] - IlluminantReference.led450And555[i]) < 1e-12)
        }
        // spec §1.6: that two-band mixture sits at about 7770 K, Duv +0.031.
        let (t, duv) = CCT.cctAndDuv(of: CIE1931.tristimulus(multi).chromaticity)
        #expect(abs(t - 7770) < 10 && abs(duv - 0.031) < 1e-3, "\(t) K, \(duv)")
    }

    @Test(arguments: IlluminantReference.cieLEDs.indices)
    func cieLEDsHaveTheirCCT(_ index: Int) throws {
        let ref = IlluminantReference.cieLEDs[index]
        let led = try #require(CIELEDIlluminant(rawValue: ref.name))
        let (t, duv) = CCT.cctAndDuv(of: CIE1931.tristimulus(Illuminants.cie(led)).chromaticity)
        #expect(abs(t - ref.cct) < 0.5 && abs(duv - ref.duv) < 1e-5, "\(ref.name): \(t) K \(duv)")
    }

    @Test func makeChoosesTheModel() throws {
        // auto: Planckian below 5000 K (CIE 13.3), daylight from 5000 K.
        #expect(try Illuminants.make(cct: 3000) == Illuminants.planckian(cct: 3000))
        #expect(try Illuminants.make(cct: 6504) == Illuminants.daylight(cct: 6504))
        #expect(throws: SpectraError.self) { try Illuminants.make(cct: 3000, model: .daylight) }
    }
}
