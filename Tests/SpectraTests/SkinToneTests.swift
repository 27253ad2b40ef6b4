import Testing
import Spectra

@Suite struct SkinToneTests {
    @Test func setIsLargeOrderedAndPhysical() {
        let patches = SkinTones.patches
        #expect(patches.count >= 100)
        #expect(SkinTones.parameters.count == patches.count)
        let lightness = patches.map { Colorimetry.lab(reflectance: $0.reflectance, illuminant: Illuminants.d65).L }
        #expect(zip(lightness, lightness.dropFirst()).allSatisfy { $0 >= $1 }, "ordered light → dark by L*")
        #expect(patches.allSatisfy { p in p.reflectance.values.allSatisfy { $0 > 0 && $0 < 1 } })
        #expect(patches.first?.name == "skin-001")
        #expect(zip(patches.indices, patches).allSatisfy { $0.0 + 1 == $0.1.number })
        print("skin set: \(patches.count) patches, L* \(lightness.first ?? 0) … \(lightness.last ?? 0)")
    }

    @Test(arguments: SkinAnchorReference.anchors.indices)
    func familyComesCloseToMeasuredSkin(_ index: Int) {
        // A measured skin patch (PMC chart, ColorChecker skin patches) has a synthetic neighbour
        // within ΔE00 5 under D65; the exact nearest distance is colour-science's.
        let ref = SkinAnchorReference.anchors[index]
        let target = Lab(L: ref.L, a: ref.a, b: ref.b)
        let nearest = SkinTones.patches.map {
            DeltaE.ciede2000(target, Colorimetry.lab(reflectance: $0.reflectance, illuminant: Illuminants.d65))
        }.min() ?? .infinity
        #expect(abs(nearest - ref.deltaE00) < 1e-6, "\(ref.name): \(nearest) vs \(ref.deltaE00)")
        #expect(nearest < 5, "\(ref.name) is \(nearest) from the family")
    }

    @Test func skinRedderThanNeutral() {
        // Haemoglobin and melanin absorb short wavelengths: every synthetic skin has a* > 0, b* > 0.
        for p in SkinTones.patches {
            let lab = Colorimetry.lab(reflectance: p.reflectance, illuminant: Illuminants.d65)
            #expect(lab.a > 0 && lab.b > 0, "\(p.name)")
        }
    }
}

@Suite struct CameraSensitivityTests {
    @Test func nikonChannelsPeakInOrder() {
        let s = CameraSensitivities.nikonD5100
        func peak(_ x: Spectrum) -> Double { Spectrum.wavelengths[x.values.indices.max { x.values[$0] < x.values[$1] } ?? 0] }
        #expect(peak(s.blue) < peak(s.green) && peak(s.green) < peak(s.red))
    }
}
