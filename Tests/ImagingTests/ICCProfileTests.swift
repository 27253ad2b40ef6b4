import Imaging
import Testing

/// Checks `ICCProfile.displayP3` against ICC.1:2010 structure rules and colour-science reference values.
@Suite struct ICCProfileTests {
    let profile = ICCProfile.displayP3

    func s15Fixed16(_ at: Int) -> Double {
        Double(Int32(bitPattern: readBigEndian(profile, at))) / 65536
    }

    func signature(_ at: Int) -> String {
        String(decoding: profile[at..<(at + 4)], as: UTF8.self)
    }

    /// Tag signature → (offset, size), read from the tag table.
    func tagTable() -> [String: (offset: Int, size: Int)] {
        let count = Int(readBigEndian(profile, 128))
        var table: [String: (offset: Int, size: Int)] = [:]
        for index in 0..<count {
            let entry = 132 + 12 * index
            table[signature(entry)] = (Int(readBigEndian(profile, entry + 4)), Int(readBigEndian(profile, entry + 8)))
        }
        return table
    }

    func xyz(_ tag: String) throws -> [Double] {
        let entry = try #require(tagTable()[tag])
        #expect(signature(entry.offset) == "XYZ " && entry.size == 20)
        return (0..<3).map { s15Fixed16(entry.offset + 8 + 4 * $0) }
    }

    @Test func headerFollowsICC1() {
        #expect(Int(readBigEndian(profile, 0)) == profile.count)  // §7.2.2 size field
        #expect(profile.count % 4 == 0)
        #expect(profile[8] == 4)  // major version 4
        #expect(signature(12) == "mntr" && signature(16) == "RGB " && signature(20) == "XYZ ")
        #expect(signature(36) == "acsp")  // §7.2.9 file signature
        // PCS illuminant: D50 as ICC encodes it, X 0x0000F6D6, Y 0x00010000, Z 0x0000D32D (§7.2.16).
        #expect([readBigEndian(profile, 68), readBigEndian(profile, 72), readBigEndian(profile, 76)]
            == [0xF6D6, 0x1_0000, 0xD32D])
    }

    @Test func tagTableIsInBoundsAndComplete() {
        let table = tagTable()
        let required = ["desc", "cprt", "wtpt", "chad", "rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"]
        #expect(Set(table.keys) == Set(required))
        let tableEnd = 132 + 12 * table.count
        for (name, entry) in table {
            #expect(entry.offset >= tableEnd && entry.offset + entry.size <= profile.count, "\(name)")
            #expect(entry.offset % 4 == 0, "\(name) is not 4-byte aligned")
        }
    }

    @Test func colorantsSumToTheD50White() throws {
        let sum = try zip(zip(xyz("rXYZ"), xyz("gXYZ")), xyz("bXYZ")).map { $0.0 + $0.1 + $1 }
        // The D50 PCS white (ICC.1:2010 §7.2.16): 0.9642, 1.0, 0.8249.
        for (value, expected) in zip(sum, [0.9642, 1.0, 0.8249]) { #expect(abs(value - expected) < 1e-3) }
        for (value, expected) in try zip(xyz("wtpt"), [0.9642, 1.0, 0.8249]) { #expect(abs(value - expected) < 1e-4) }
    }

    @Test func colorantsMatchColourScience() throws {
        // colour-science 0.4: normalised_primary_matrix of 'Display P3', then Bradford
        // (matrix_chromatic_adaptation_VonKries, D65 xy (0.3127, 0.3290) → XYZ (0.9642, 1, 0.8249)), columns.
        let expected: [String: [Double]] = [
            "rXYZ": [0.5151187, 0.24118917, -0.00105045],
            "gXYZ": [0.29197783, 0.69224405, 0.04187912],
            "bXYZ": [0.15710347, 0.06656678, 0.78407133],
        ]
        for (tag, reference) in expected {
            // s15Fixed16 resolves 1/65536 ≈ 1.5e-5.
            for (value, want) in try zip(xyz(tag), reference) { #expect(abs(value - want) < 3e-5, "\(tag)") }
        }
    }

    @Test func chromaticAdaptationIsBradfordD65ToD50() throws {
        let entry = try #require(tagTable()["chad"])
        #expect(signature(entry.offset) == "sf32" && entry.size == 44)
        // colour-science 0.4, matrix_chromatic_adaptation_VonKries(D65, D50, 'Bradford').
        let reference = [1.047886, 0.02291877, -0.0502161, 0.02958178, 0.99048352, -0.01707871, -0.00925188,
                         0.01507261, 0.75167813]
        for (index, want) in reference.enumerated() {
            #expect(abs(s15Fixed16(entry.offset + 8 + 4 * index) - want) < 3e-5)
        }
    }

    @Test func curvesAreTheSRGBParametricFunction() throws {
        let table = tagTable()
        for name in ["rTRC", "gTRC", "bTRC"] {
            let entry = try #require(table[name])
            #expect(signature(entry.offset) == "para")
            #expect(profile[entry.offset + 8] == 0 && profile[entry.offset + 9] == 3)  // function type 3
            let parameters = (0..<5).map { s15Fixed16(entry.offset + 12 + 4 * $0) }
            // IEC 61966-2-1: g 2.4, a 1/1.055, b 0.055/1.055, c 1/12.92, d 0.04045.
            for (value, want) in zip(parameters, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]) {
                #expect(abs(value - want) < 1.0 / 65536)
            }
        }
    }

    @Test func descriptionSaysDisplayP3() throws {
        let entry = try #require(tagTable()["desc"])
        #expect(signature(entry.offset) == "mluc")
        let length = Int(readBigEndian(profile, entry.offset + 20))
        let start = entry.offset + Int(readBigEndian(profile, entry.offset + 24))
        let units = stride(from: start, to: start + length, by: 2).map {
            UInt16(profile[$0]) << 8 | UInt16(profile[$0 + 1])
        }
        #expect(String(decoding: units, as: UTF16.self) == "Display P3")
    }
}
