import Devices
import Foundation
import ObscuraSupport
import Testing

/// Each broken profile gives its located error: exact line and column, and a message fragment.
@Suite struct BrokenProfileTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var line: Int
        var column: Int
        var fragment: String
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(
            file: "syntax-error", line: 28, column: 7, fragment: "YAML syntax error: did not find expected ',' or ']'"),
        Case(
            file: "wrong-type", line: 11, column: 17,
            fragment: "cameras[0] (back-wide).optics.f_number: expected a number, found 'fast'"),
        Case(
            file: "unknown-key", line: 32, column: 7,
            fragment: "unknown key 'focal_lenght_mm' in cameras[1] (back-tele).optics; did you mean 'focal_length_mm'?"),
        Case(
            file: "negative-value", line: 32, column: 24,
            fragment: "cameras[1] (back-tele).optics.focal_length_mm: must be positive"),
        Case(
            file: "depth-aspect-ratio", line: 62, column: 27, fragment: "does not have the video format's aspect ratio"),
        Case(
            file: "missing-constituent", line: 53, column: 31,
            fragment:
                "cameras[2] (back-dual).constituents[1]: no camera with id 'back-telephoto' in this profile; did you mean 'back-tele'?"
        ),
        Case(file: "unordered-fps", line: 58, column: 22, fragment: "frame-rate range is not ordered"),
        Case(file: "provenance-typo", line: 14, column: 19, fragment: "did you mean 'modelled'?"),
        Case(
            file: "lint-constant-color-without-flash", line: 27, column: 32,
            fragment: "cameras[0] (back-wide).features.constant_color: Constant Color needs a flash"),
        Case(
            file: "lint-depth-without-depth-camera", line: 18, column: 7,
            fragment:
                "cameras[0] (back-wide).formats: has depth formats, but a builtInWideAngleCamera cannot deliver depth"),
        Case(
            file: "lint-baseline", line: 68, column: 20,
            fragment: "cameras[2] (back-dual).depth.baseline_mm: baseline 14.0 mm disagrees with the extrinsics"),
        Case(file: "lint-constituent-order", line: 53, column: 19, fragment: "in that order (spec §2.2)"),
        Case(
            file: "shading-relative-illumination", line: 17, column: 89,
            fragment: "cameras[0] (back-wide).shading.relative_illumination[2]: relative illumination lies in (0, 1]"),
        Case(
            file: "shading-image-height-order", line: 17, column: 38,
            fragment: "shading.image_height[2]: image heights increase"),
        Case(
            file: "shading-natural-law", line: 17, column: 24,
            fragment: "shading.natural: the natural fall-off is 'cos4' (the cos⁴ law), found cos3"),
        Case(
            file: "shading-correction-range", line: 17, column: 42,
            fragment: "cameras[0] (back-wide).shading.correction: must be between"),
        Case(
            file: "format-readout-contradiction", line: 26, column: 18,
            fragment: "cameras[0] (back-wide).formats[0].readout: readout 'binned' contradicts 'binned: false'"),
        Case(
            file: "format-readout-binned-values", line: 26, column: 29,
            fragment: "formats[0].binned_full_well_e: binned values need 'readout: binned', found 'scaled'"),
        Case(
            file: "format-binned-type", line: 25, column: 17,
            fragment: "cameras[0] (back-wide).formats[0].binned: expected true or false"),
        Case(
            file: "format-stabilization-typo", line: 25, column: 46,
            fragment: "unknown value 'cinematicExtnded'; did you mean 'cinematicExtended'?"),
        Case(
            file: "format-stabilization-without-off", line: 25, column: 30,
            fragment: "formats[0].stabilization_modes: stabilization modes must include 'off'"),
        Case(
            file: "format-field-of-view", line: 25, column: 28,
            fragment: "formats[0].field_of_view_deg: a field of view lies between 0 and 180 degrees, found 200"),
        Case(
            file: "format-intrinsic-reference", line: 25, column: 33,
            fragment: "intrinsic reference 4000x2250 does not have the video format's aspect ratio (1440x1080)"),
    ]

    @Test(arguments: cases)
    func brokenProfileGivesLocatedError(_ c: Case) {
        let path = TestPaths.broken + "/\(c.file).yaml"
        let problems = DeviceProfileLint.problems(inFile: path)
        let match = problems.first { $0.message.contains(c.fragment) }
        #expect(match != nil, "no problem containing \"\(c.fragment)\" in: \(problems.map(\.description))")
        #expect(match?.location == SourceLocation(file: path, line: c.line, column: c.column))
        #expect(match?.description.hasPrefix("\(path):\(c.line):\(c.column): ") == true)
    }

    /// The template all broken files derive from is itself clean, so each file fails for one reason.
    @Test func baseTemplateIsClean() throws {
        let text = try String(contentsOfFile: TestPaths.broken + "/base.yaml.txt", encoding: .utf8)
        let profile = try DeviceProfileLoader.load(text: text, file: "tiny.yaml")
        #expect(DeviceProfileLint.problems(in: profile).isEmpty)
    }

    /// A sensor's noise figures far outside any real sensor's (an exponent slipped) are refused at their key.
    @Test(arguments: [
        ("full_well_e: 1e300", "noise.full_well_e: must be between 100 and 1000000, found 1e+300"),
        ("read_noise_e: 2500", "noise.read_noise_e: must be between 0 and 1000"),
        ("base_iso: 0.01", "noise.base_iso: must be between 1 and 100000"),
    ])
    func implausibleNoiseIsRefused(_ line: String, _ fragment: String) throws {
        var text = try String(contentsOfFile: TestPaths.broken + "/base.yaml.txt", encoding: .utf8)
        let noise = [
            "full_well_e: 6000", "read_noise_e: 2.5", "prnu_percent: 0.7", "dsnu_e: 1", "dark_current_e_per_s: 2",
            "adc_bits: 10", "black_level_dn: 64", "white_level_dn: 1023", "base_iso: 20", "provenance: modelled",
        ].map { entry in entry.hasPrefix(line.prefix { $0 != ":" } + ":") ? line : entry }
        let section = "    noise:\n" + noise.map { "      " + $0 + "\n" }.joined()
        let anchor = "    flash_modes: [off, on, auto]\n"
        text = text.replacingOccurrences(of: anchor, with: anchor + section)
        var messages: [String] = []
        do {
            _ = try DeviceProfileLoader.load(text: text, file: "noise.yaml")
        } catch let list as LocatedErrors {
            messages = list.errors.map(\.description)
        } catch let error as LocatedError {
            messages = [error.description]
        }
        #expect(messages.contains { $0.contains(fragment) }, "\(messages)")
    }

    /// Validation runs camera by camera: two bad cameras give two errors in one pass.
    @Test func everyBadCameraIsReported() throws {
        var text = try String(contentsOfFile: TestPaths.broken + "/base.yaml.txt", encoding: .utf8)
        text = text.replacingOccurrences(of: "f_number: 1.8", with: "f_number: -1")
        text = text.replacingOccurrences(of: "f_number: 2.8", with: "f_numbr: 2.8")
        #expect {
            _ = try DeviceProfileLoader.load(text: text, file: "two.yaml")
        } throws: { error in
            guard let list = error as? LocatedErrors else { return false }
            return list.errors.count == 2
                && list.errors[0].description.hasPrefix("two.yaml:11:17: cameras[0] (back-wide).optics.f_number")
                && list.errors[1].description.hasPrefix(
                    "two.yaml:34:7: unknown key 'f_numbr' in cameras[1] (back-tele)")
        }
    }
}
