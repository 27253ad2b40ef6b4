/// ICC colour profiles that Obscura embeds in the images it writes.
public enum ICCProfile {
    /// An ICC v4.3 display profile for Display P3: P3 primaries, D65 white and the sRGB transfer curve.
    ///
    /// It is a matrix/TRC profile (ICC.1:2010 §F.3): `rXYZ`/`gXYZ`/`bXYZ` hold the colorants adapted to the D50
    /// connection space with Bradford, `chad` holds that adaptation, the three TRCs are the IEC 61966-2-1 curve as
    /// a type-3 `para`, and `desc` reads "Display P3". The bytes are the same on every run (fixed creation date,
    /// profile ID left zero as §7.2.18 allows).
    public static let displayP3: [UInt8] = matrixTRCProfile(description: "Display P3", primaries: .displayP3)

    /// The same kind of profile for sRGB: sRGB primaries (IEC 61966-2-1), D65 white, the sRGB curve.
    public static let sRGB: [UInt8] = matrixTRCProfile(description: "sRGB", primaries: .sRGB)

    /// The PCS illuminant, D50, as ICC.1:2010 §7.2.16 fixes it.
    static let d50: [Double] = [0.9642, 1.0, 0.8249]

    /// Builds a v4.3 RGB display profile with the sRGB transfer curve for any primaries.
    static func matrixTRCProfile(description: String, primaries: PrimaryChromaticities) -> [UInt8] {
        guard let rgbToXYZ = Matrix3.rgbToXYZ(primaries),
            let adaptation = Matrix3.bradfordAdaptation(from: Matrix3.xyz(primaries.white), to: d50)
        else {
            preconditionFailure("primaries \(primaries) are degenerate")
        }
        let colorants = adaptation * rgbToXYZ

        var tags: [(signature: StaticString, data: [UInt8])] = [
            ("desc", multiLocalizedText(description)),
            ("cprt", multiLocalizedText("No copyright, use freely")),
            ("wtpt", xyzType(d50)),  // v4 display profiles store the PCS white here (§9.2.36)
            ("chad", s15Fixed16ArrayType(adaptation.m.flatMap { $0 })),
            ("rXYZ", xyzType(colorants.column(0))),
            ("gXYZ", xyzType(colorants.column(1))),
            ("bXYZ", xyzType(colorants.column(2))),
        ]
        let curve = sRGBParametricCurve()
        tags += [("rTRC", curve), ("gTRC", curve), ("bTRC", curve)]

        // Lay out the tag data after the header (128 bytes) and the tag table (4 + 12 per tag). The three TRCs
        // share one copy of the curve, as §7.3.1 permits.
        var data = BigEndianWriter()
        var entries: [(StaticString, UInt32, UInt32)] = []
        let dataStart = 128 + 4 + 12 * tags.count
        var shared: [[UInt8]: UInt32] = [:]
        for tag in tags {
            if let offset = shared[tag.data] {
                entries.append((tag.signature, offset, UInt32(tag.data.count)))
                continue
            }
            let offset = UInt32(dataStart + data.bytes.count)
            shared[tag.data] = offset
            entries.append((tag.signature, offset, UInt32(tag.data.count)))
            data.bytes += tag.data
            data.alignToFour()
        }
        let size = UInt32(dataStart + data.bytes.count)

        var out = BigEndianWriter()
        out.uint32(size)  // §7.2.2 profile size
        out.uint32(0)  // preferred CMM: none
        out.uint32(0x0430_0000)  // version 4.3.0.0
        out.signature("mntr")  // device class: display
        out.signature("RGB ")  // data colour space
        out.signature("XYZ ")  // PCS
        for field: UInt16 in [2026, 1, 1, 0, 0, 0] { out.uint16(field) }  // creation date (fixed, reproducible)
        out.signature("acsp")
        out.uint32(0)  // primary platform: none
        out.uint32(0)  // flags
        out.uint32(0)  // device manufacturer
        out.uint32(0)  // device model
        out.uint32(0)  // device attributes (8 bytes)
        out.uint32(0)
        out.uint32(0)  // rendering intent: perceptual
        for value in d50 { out.s15Fixed16(value) }  // PCS illuminant
        out.uint32(0)  // creator
        out.bytes += [UInt8](repeating: 0, count: 16)  // profile ID: not computed
        out.bytes += [UInt8](repeating: 0, count: 28)  // reserved
        precondition(out.bytes.count == 128, "ICC header must be 128 bytes")
        out.uint32(UInt32(entries.count))
        for (signature, offset, length) in entries {
            out.signature(signature)
            out.uint32(offset)
            out.uint32(length)
        }
        out.bytes += data.bytes
        return out.bytes
    }

    /// `mluc` with one en-US record in UTF-16BE (ICC.1:2010 §10.15).
    static func multiLocalizedText(_ text: String) -> [UInt8] {
        let units = Array(text.utf16)
        var w = BigEndianWriter()
        w.signature("mluc")
        w.uint32(0)
        w.uint32(1)  // records
        w.uint32(12)  // record size
        w.signature("enUS")
        w.uint32(UInt32(units.count * 2))
        w.uint32(28)  // offset of the string from the tag start
        for unit in units { w.uint16(unit) }
        return w.bytes
    }

    /// `XYZ ` with one XYZ number (§10.31).
    static func xyzType(_ xyz: [Double]) -> [UInt8] {
        var w = BigEndianWriter()
        w.signature("XYZ ")
        w.uint32(0)
        for value in xyz { w.s15Fixed16(value) }
        return w.bytes
    }

    /// `sf32`, row-major (§10.22).
    static func s15Fixed16ArrayType(_ values: [Double]) -> [UInt8] {
        var w = BigEndianWriter()
        w.signature("sf32")
        w.uint32(0)
        for value in values { w.s15Fixed16(value) }
        return w.bytes
    }

    /// The IEC 61966-2-1 decoding curve as a `para` function type 3 (§10.18): Y = (aX + b)^g for X ≥ d,
    /// Y = cX below, with g = 2.4, a = 1/1.055, b = 0.055/1.055, c = 1/12.92, d = 0.04045.
    static func sRGBParametricCurve() -> [UInt8] {
        var w = BigEndianWriter()
        w.signature("para")
        w.uint32(0)
        w.uint16(3)
        w.uint16(0)
        for value in [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045] { w.s15Fixed16(value) }
        return w.bytes
    }
}
