import Devices
import ObscuraSupport
import Testing

/// The lookup-table mapping of spec §10, against hand-computed cases.
@Suite struct LensDistortionTests {
    // Centre (50, 50) in a 100×100 image: r_max = √(50² + 50²) ≈ 70.71.
    @Test func pointMovesRadiallyByOnePlusTableValue() {
        // Table [0, 0.1]: at r = r_max/2 the interpolated value is 0.05.
        let p = LensDistortion.map(x: 75, y: 75, table: [0, 0.1], centerX: 50, centerY: 50, width: 100, height: 100)
        #expect(abs(p.x - (50 + 25 * 1.05)) < 1e-12)
        #expect(abs(p.y - (50 + 25 * 1.05)) < 1e-12)
    }

    @Test func beyondTheCornerUsesTheLastEntry() {
        let p = LensDistortion.map(
            x: 150, y: 50, table: [0, 0.1, 0.2], centerX: 50, centerY: 50, width: 100, height: 100)
        #expect(abs(p.x - (50 + 100 * 1.2)) < 1e-12)
        #expect(p.y == 50)
    }

    @Test func centreIsFixed() {
        let p = LensDistortion.map(x: 50, y: 50, table: [0.3, 0.1], centerX: 50, centerY: 50, width: 100, height: 100)
        #expect(p.x == 50 && p.y == 50)
    }
}

/// The edit distance behind "did you mean".
@Suite struct EditDistanceTests {
    @Test func levenshteinTextbookCases() {
        #expect(EditDistance.distance("kitten", "sitting") == 3)
        #expect(EditDistance.distance("", "abc") == 3)
        #expect(EditDistance.distance("flaw", "lawn") == 2)
    }

    @Test func suggestsNearMissesOnly() {
        #expect(
            EditDistance.suggestion(for: "focal_lenght_mm", among: ["focal_length_mm", "f_number"]) == "focal_length_mm"
        )
        #expect(
            EditDistance.suggestion(for: "focal_length", among: ["focal_length_mm", "f_number"]) == "focal_length_mm")
        #expect(EditDistance.suggestion(for: "banana", among: ["focal_length_mm", "f_number"]) == nil)
    }

    // A long name with a part left out means the name that holds it, though another name of the same length
    // is fewer edits away: builtInWideCamera is 4 substitutions from builtInDualCamera, 5 insertions from
    // builtInWideAngleCamera.
    @Test func aShortenedNameSuggestsTheNameThatHoldsIt() {
        let types = ["builtInDualCamera", "builtInDualWideCamera", "builtInWideAngleCamera", "builtInTelephotoCamera"]
        #expect(EditDistance.distance("builtInWideCamera", "builtInDualCamera") == 4)
        #expect(EditDistance.suggestion(for: "builtInWideCamera", among: types) == "builtInWideAngleCamera")
        #expect(EditDistance.suggestion(for: "iphone-7", among: ["iphone-x", "iphone-7-plus"]) == "iphone-7-plus")
        // Too short to point at one name, or too much left out: the edit distance decides as before.
        #expect(EditDistance.suggestion(for: "wide", among: types) == nil)
        #expect(EditDistance.suggestion(for: "exposre", among: ["exposure", "expose"]) == "exposure")
    }
}
