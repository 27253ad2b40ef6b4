import Devices
import Foundation
import Testing

/// A format's binning, field of view, stabilisation modes, video HDR and intrinsic reference as a
/// real device reports them (spec §2.3, §10): profile keys that load into `FormatCapabilities`,
/// and nil where the profile is silent.
@Suite struct FormatCapabilityTests {
    /// The broken-profile template with extra lines in its first format (back-wide, 1440×1080).
    func template(adding lines: [String]) throws -> DeviceProfile {
        var text = try String(contentsOfFile: TestPaths.broken + "/base.yaml.txt", encoding: .utf8)
        let anchor = "        highest_photo_quality: true\n"
        let range = try #require(text.range(of: anchor))
        text.replaceSubrange(range, with: anchor + lines.map { "        \($0)\n" }.joined())
        return try DeviceProfileLoader.load(text: text, file: "facts.yaml")
    }

    @Test func statedFactsLoad() throws {
        let profile = try template(adding: [
            "binned: false", "field_of_view_deg: 67.802", "stabilization_modes: [off, standard, cinematic, auto]",
            "video_hdr: true", "intrinsic_reference_px: [4000, 3000]",
        ])
        let facts = try #require(profile.camera("back-wide")?.formats.first?.capabilities)
        #expect(facts.binned == false)
        #expect(facts.fieldOfViewDegrees == 67.802)
        #expect(facts.stabilizationModes == [.off, .standard, .cinematic, .auto])
        #expect(facts.videoHDR == true)
        #expect(facts.intrinsicReference == Dimensions(width: 4000, height: 3000))
    }

    /// A format's readout and its binned read's figures are read as written.
    @Test func readoutIsRead() throws {
        let profile = try template(adding: ["readout: binned", "binned_full_well_e: 20000", "binned_read_noise_e: 1.5"])
        let facts = try #require(profile.camera("back-wide")?.formats.first?.capabilities)
        #expect(facts.readout == FormatReadout(mode: .binned, binnedFullWellE: 20000, binnedReadNoiseE: 1.5))
        let scaled = try template(adding: ["readout: scaled"]).camera("back-wide")?.formats.first?.capabilities
        #expect(scaled?.readout == FormatReadout(mode: .scaled))
        #expect(scaled?.readout?.summedPhotosites == 1)
    }

    /// A format that states nothing leaves every fact to be derived from its camera.
    @Test func silentProfileStatesNothing() throws {
        let profile = try template(adding: [])
        #expect(profile.camera("back-wide")?.formats.first?.capabilities == FormatCapabilities())
    }

    /// Each new key may carry its own provenance, as every format key may.
    @Test func factsCarryTheirOwnProvenance() throws {
        var text = try String(contentsOfFile: TestPaths.broken + "/base.yaml.txt", encoding: .utf8)
        let old = "        highest_photo_quality: true\n        provenance: modelled\n"
        let range = try #require(text.range(of: old))
        text.replaceSubrange(
            range,
            with: "        highest_photo_quality: true\n        binned: true\n"
                + "        provenance: {default: modelled, binned: \"measured: a format dump\"}\n")
        let profile = try DeviceProfileLoader.load(text: text, file: "facts.yaml")
        let format = try #require(profile.camera("back-wide")?.formats.first)
        #expect(format.capabilities.binned == true)
        #expect(format.provenance.of("binned") == Provenance(.measured, "a format dump"))
        #expect(format.provenance.of("video_px").kind == .modelled)
    }

    /// A 16:9 picture from a 4:3 sensor shows its centred 16:9 band at the same pixel pitch.
    @Test func centredCropKeepsThePixelPitch() {
        let sensor = Dimensions(width: 8064, height: 6048)
        func crop(_ w: Int, _ h: Int) -> Dimensions { sensor.centredCrop(toAspectOf: Dimensions(width: w, height: h)) }
        #expect(crop(1920, 1080) == Dimensions(width: 8064, height: 4536))
        #expect(crop(640, 480) == sensor)
        #expect(crop(1080, 1080) == Dimensions(width: 6048, height: 6048))
    }

    /// A photo larger than the sensor, or over 200 megapixels, is refused where the profile says it, not rendered.
    @Test func photoSizesBeyondTheSensorAreRefused() throws {
        let base = try String(contentsOfFile: TestPaths.broken + "/base.yaml.txt", encoding: .utf8)
        let cases = [
            ("[[60000, 45000]]", "over the 200 megapixels"),
            ("[[4000, 3000], [4032, 3024]]", "larger than the sensor's 4000x3000"),
        ]
        for (sizes, fragment) in cases {
            let text = base.replacingOccurrences(
                of: "        photo_px: [[4000, 3000]]\n", with: "        photo_px: \(sizes)\n")
            #expect(text != base)
            #expect {
                _ = try DeviceProfileLoader.load(text: text, file: "big.yaml")
            } throws: { error in
                "\(error)".contains(fragment) && "\(error)".contains("big.yaml:")
            }
        }
    }
}
