import Foundation

/// Writing a property dictionary back as an Exif TIFF structure: the inverse of `ImageProperties.exif(tiff:)`, for
/// files whose metadata an app replaces (`AVCapturePhotoFileDataRepresentationCustomizer`).
extension ImageProperties {
    public static let gpsDictionary = "{GPS}"

    /// GPS IFD tags under `{GPS}`, named as ImageIO names them (Exif 2.32 §4.6.6, Table 12).
    static let gpsTags: [UInt16: String] = [
        0x0000: "GPSVersion", 0x0001: "LatitudeRef", 0x0002: "Latitude", 0x0003: "LongitudeRef", 0x0004: "Longitude",
        0x0005: "AltitudeRef", 0x0006: "Altitude", 0x0007: "TimeStamp", 0x000C: "SpeedRef", 0x000D: "Speed",
        0x0010: "ImgDirectionRef", 0x0011: "ImgDirection", 0x0017: "DestBearingRef", 0x0018: "DestBearing",
        0x001D: "DateStamp", 0x001F: "HPositioningError",
    ]

    /// How each tag written is stored (TIFF 6.0 §2 field types; Exif 2.32 Tables 4, 7 to 9 and 12).
    enum Kind { case byte, ascii, short, long, rational, signedRational, version }

    static let kinds: [UInt16: Kind] = [
        // IFD0
        0x010E: .ascii, 0x010F: .ascii, 0x0110: .ascii, 0x0112: .short, 0x011A: .rational, 0x011B: .rational,
        0x0128: .short, 0x0131: .ascii, 0x0132: .ascii, 0x013B: .ascii, 0x013C: .ascii, 0x8298: .ascii,
        // Exif IFD
        0x829A: .rational, 0x829D: .rational, 0x8822: .short, 0x8827: .short, 0x9000: .version, 0x9003: .ascii,
        0x9004: .ascii, 0x9010: .ascii, 0x9011: .ascii, 0x9012: .ascii, 0x9201: .signedRational, 0x9202: .rational,
        0x9203: .signedRational, 0x9204: .signedRational, 0x9207: .short, 0x9209: .short, 0x920A: .rational,
        0x9214: .short, 0x9290: .ascii, 0x9291: .ascii, 0x9292: .ascii, 0xA000: .version, 0xA001: .short,
        0xA002: .long, 0xA003: .long, 0xA217: .short, 0xA402: .short, 0xA403: .short, 0xA404: .rational,
        0xA405: .short, 0xA406: .short, 0xA432: .rational, 0xA433: .ascii, 0xA434: .ascii,
    ]

    /// GPS tags' kinds; the same numbers name other tags in IFD0 and the Exif IFD.
    static let gpsKinds: [UInt16: Kind] = [
        0x0000: .byte, 0x0001: .ascii, 0x0002: .rational, 0x0003: .ascii, 0x0004: .rational, 0x0005: .byte,
        0x0006: .rational, 0x0007: .rational, 0x000C: .ascii, 0x000D: .rational, 0x0010: .ascii, 0x0011: .rational,
        0x0017: .ascii, 0x0018: .rational, 0x001D: .ascii, 0x001F: .rational,
    ]

    /// The Exif TIFF structure of `properties`: IFD0 from `{TIFF}` (the top-level `Orientation` over its own), the
    /// Exif IFD from `{Exif}` and the GPS IFD from `{GPS}`, each with the tags named in this file's tables; other keys
    /// are left out. Nil when nothing is left to write.
    public static func exifTIFF(from properties: [String: Any]) -> [UInt8]? {
        var tiff = properties[tiffDictionary] as? [String: Any] ?? [:]
        if let orientation = properties[orientation] { tiff["Orientation"] = orientation }
        let ifd0 = entries(tiff, names: tiffTags, kinds: kinds)
        let exif = entries(properties[exifDictionary] as? [String: Any] ?? [:], names: exifTags, kinds: kinds)
        let gps = entries(properties[gpsDictionary] as? [String: Any] ?? [:], names: gpsTags, kinds: gpsKinds)
        guard !ifd0.isEmpty || !exif.isEmpty || !gps.isEmpty else { return nil }
        return TIFFEntry.tiff(ifd0: ifd0, exifIFD: exif, gpsIFD: gps)
    }

    /// The entries of one dictionary: each key a table names, its value converted to the tag's kind.
    static func entries(_ values: [String: Any], names: [UInt16: String], kinds: [UInt16: Kind]) -> [TIFFEntry] {
        var out: [TIFFEntry] = []
        for (tag, name) in names {
            guard let value = values[name], let kind = kinds[tag], let entry = entry(tag, name, value, kind) else {
                continue
            }
            out.append(entry)
        }
        return out
    }

    /// One entry, or nil when the value is not of a shape the kind takes.
    static func entry(_ tag: UInt16, _ name: String, _ value: Any, _ kind: Kind) -> TIFFEntry? {
        switch kind {
        case .ascii:
            return (value as? String).map { .ascii(tag, $0) }
        case .version:
            // [2, 3, 2] → "0232", as ImageIO reads it back.
            guard let digits = numbers(value)?.map({ Int($0) }), !digits.isEmpty, digits.allSatisfy({ (0...9).contains($0) })
            else { return (value as? String).map { .undefined(tag, Array($0.utf8)) } }
            let padded = digits.count < 4 ? [0] + digits : digits
            return .undefined(tag, padded.prefix(4).map { UInt8(0x30 + $0) })
        case .byte:
            guard let list = numbers(value), !list.isEmpty else { return nil }
            return .bytes(tag, list.map { UInt8(clamping: Int($0.rounded())) })
        case .short:
            guard let list = numbers(value), !list.isEmpty else { return nil }
            return .shorts(tag, list.map { UInt16(clamping: Int($0.rounded())) })
        case .long:
            guard let list = numbers(value), let first = list.first else { return nil }
            return .long(tag, UInt32(clamping: Int(first.rounded())))
        case .rational:
            if name == "Latitude" || name == "Longitude" {
                // Decimal degrees, as ImageIO gives them, to degrees, minutes and seconds (Exif 2.32 §4.6.6).
                guard let degrees = numbers(value)?.first else { return nil }
                return .rationals(tag, sexagesimal(abs(degrees), secondsDenominator: 10_000))
            }
            if name == "TimeStamp" {
                // "HH:mm:ss.SS" (UTC) to hours, minutes and seconds.
                guard let text = value as? String else { return nil }
                let parts = text.split(separator: ":").compactMap { Double($0) }
                guard parts.count == 3 else { return nil }
                guard parts.allSatisfy({ $0 >= 0 && $0 < 100 }) else { return nil }
                let one: UInt32 = 1
                return .rationals(tag, [(UInt32(parts[0]), one), (UInt32(parts[1]), one), rational(parts[2])])
            }
            guard let list = numbers(value), !list.isEmpty, list.allSatisfy({ $0 >= 0 }) else { return nil }
            return .rationals(tag, list.map(rational))
        case .signedRational:
            guard let list = numbers(value), !list.isEmpty else { return nil }
            return .signedRationals(tag, list.map(signedRational))
        }
    }

    /// A value as numbers: one number, or an array of them.
    static func numbers(_ value: Any) -> [Double]? {
        func number(_ v: Any) -> Double? {
            switch v {
            case let n as NSNumber: return n.doubleValue
            case let i as Int: return Double(i)
            case let d as Double: return d
            case let f as Float: return Double(f)
            default: return nil
            }
        }
        if let list = value as? [Any] {
            let converted = list.compactMap(number)
            return converted.count == list.count ? converted.filter(\.isFinite) : nil
        }
        return number(value).flatMap { $0.isFinite ? [$0] : nil }
    }

    /// The nearest fraction with a denominator up to 10⁶ (continued fractions), as cameras write 1/120 s or f/1.78.
    static func rational(_ x: Double) -> (UInt32, UInt32) {
        guard x.isFinite, x >= 0 else { return (0, 1) }
        if x >= 4_294_967_295 { return (UInt32.max, 1) }
        var (h0, h1, k0, k1) = (0.0, 1.0, 1.0, 0.0)
        var rest = x
        for _ in 0..<32 {
            let a = rest.rounded(.down)
            let (h2, k2) = (a * h1 + h0, a * k1 + k0)
            if k2 > 1_000_000 || h2 > 4_294_967_295 { break }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let fraction = rest - a
            if fraction < 1e-12 || abs(h1 / k1 - x) <= 1e-12 * max(1, x) { break }
            rest = 1 / fraction
        }
        return k1 == 0 ? (UInt32(x.rounded()), 1) : (UInt32(h1), UInt32(k1))
    }

    static func signedRational(_ x: Double) -> (Int32, Int32) {
        let (n, d) = rational(min(abs(x), 2_147_483_647))
        let numerator = Int32(clamping: Int(n)), denominator = Int32(clamping: Int(d))
        return (x < 0 ? -numerator : numerator, denominator)
    }

    /// Degrees as whole degrees, whole minutes and seconds in 1/`secondsDenominator`.
    static func sexagesimal(_ degrees: Double, secondsDenominator: UInt32) -> [(UInt32, UInt32)] {
        let whole = degrees.rounded(.down)
        let minutes = ((degrees - whole) * 60).rounded(.down)
        let seconds = ((degrees - whole) * 60 - minutes) * 60
        return [
            (UInt32(whole), 1), (UInt32(minutes), 1),
            (UInt32((seconds * Double(secondsDenominator)).rounded()), secondsDenominator),
        ]
    }

    /// `{GPS}` of a GPS IFD, converted as ImageIO converts it: latitude and longitude in decimal degrees, the time
    /// stamp as "HH:mm:ss.SS", the version as its bytes.
    static func gps(_ ifd: [UInt16: TIFFReader.Entry], reader: TIFFReader) -> [String: Any] {
        var out: [String: Any] = [:]
        for (tag, entry) in ifd {
            guard let name = gpsTags[tag] else { continue }
            switch name {
            case "Latitude", "Longitude":
                guard let dms = reader.numbers(entry)?.map(\.doubleValue), dms.count == 3 else { continue }
                out[name] = NSNumber(value: dms[0] + dms[1] / 60 + dms[2] / 3600)
            case "TimeStamp":
                guard let hms = reader.numbers(entry)?.map(\.doubleValue), hms.count == 3 else { continue }
                out[name] = String(format: "%02d:%02d:%05.2f", Int(hms[0]), Int(hms[1]), hms[2])
            case "GPSVersion":
                guard let bytes = reader.rawBytes(entry) else { continue }
                out[name] = bytes.map { NSNumber(value: $0) }
            default:
                if let value = value(entry, name: name, reader: reader) { out[name] = value }
            }
        }
        return out
    }
}
