import Foundation

/// A picture file's properties as ImageIO's property dictionaries hold them: `Orientation`, `PixelWidth` and
/// `PixelHeight` at the top, the TIFF tags of IFD0 under `{TIFF}`, the Exif IFD's under `{Exif}` and the GPS IFD's
/// under `{GPS}` (see `ImageProperties+Writing.swift`), each under the
/// name ImageIO gives it (its `kCGImageProperty…` constants' values, which are the tag names of TIFF 6.0 and Exif
/// 2.32, CIPA DC-008-2019).
///
/// Numbers are `NSNumber`s, as ImageIO's are, so that a reader may take one as whatever numeric type it expects
/// (`as? UInt32`, `as? Int32`, `as? Double`). Following ImageIO, `ISOSpeedRatings`, `SubjectArea` and
/// `LensSpecification` are arrays even with one value, and a version (`ExifVersion`, "0232") is the array of its
/// digits.
public enum ImageProperties {
    /// The top-level keys and the two dictionaries' keys.
    public static let orientation = "Orientation", pixelWidth = "PixelWidth", pixelHeight = "PixelHeight"
    public static let profileName = "ProfileName", colorModel = "ColorModel", depth = "Depth"
    public static let hasAlpha = "HasAlpha"
    public static let tiffDictionary = "{TIFF}", exifDictionary = "{Exif}"

    /// IFD0 tags under `{TIFF}` (TIFF 6.0 §8; Exif 2.32 §4.6.4 A).
    static let tiffTags: [UInt16: String] = [
        0x010E: "ImageDescription", 0x010F: "Make", 0x0110: "Model", 0x0112: "Orientation",
        0x011A: "XResolution", 0x011B: "YResolution", 0x0128: "ResolutionUnit", 0x0131: "Software",
        0x0132: "DateTime", 0x013B: "Artist", 0x013C: "HostComputer", 0x8298: "Copyright",
    ]

    /// Exif IFD tags under `{Exif}` (Exif 2.32 §4.6.5, Table 7 to 9).
    static let exifTags: [UInt16: String] = [
        0x829A: "ExposureTime", 0x829D: "FNumber", 0x8822: "ExposureProgram", 0x8827: "ISOSpeedRatings",
        0x9000: "ExifVersion", 0x9003: "DateTimeOriginal", 0x9004: "DateTimeDigitized", 0x9010: "OffsetTime",
        0x9011: "OffsetTimeOriginal", 0x9012: "OffsetTimeDigitized", 0x9201: "ShutterSpeedValue",
        0x9202: "ApertureValue", 0x9203: "BrightnessValue", 0x9204: "ExposureBiasValue", 0x9207: "MeteringMode",
        0x9209: "Flash", 0x920A: "FocalLength", 0x9214: "SubjectArea", 0x9290: "SubsecTime",
        0x9291: "SubsecTimeOriginal", 0x9292: "SubsecTimeDigitized", 0xA000: "FlashPixVersion", 0xA001: "ColorSpace",
        0xA002: "PixelXDimension", 0xA003: "PixelYDimension", 0xA217: "SensingMethod", 0xA402: "ExposureMode",
        0xA403: "WhiteBalance", 0xA404: "DigitalZoomRatio", 0xA405: "FocalLenIn35mmFilm",
        0xA406: "SceneCaptureType", 0xA432: "LensSpecification", 0xA433: "LensMake", 0xA434: "LensModel",
    ]

    /// Names ImageIO always gives as arrays.
    static let arrayValued: Set<String> = ["ISOSpeedRatings", "SubjectArea", "LensSpecification"]
    /// Versions written as four ASCII digits in an UNDEFINED field.
    static let versions: Set<String> = ["ExifVersion", "FlashPixVersion"]

    /// `{TIFF}`, `{Exif}` and the top-level `Orientation` of an Exif TIFF structure ("MM\0*" or "II*\0" first):
    /// the tags above that it holds, others left out. Empty when it is not a TIFF structure.
    public static func exif(tiff: [UInt8]) -> [String: Any] {
        guard let reader = TIFFReader(tiff), let ifd0 = reader.entries(at: reader.firstIFD) else { return [:] }
        var out: [String: Any] = [:]
        let tiffValues = values(ifd0, names: tiffTags, reader: reader)
        if !tiffValues.isEmpty { out[tiffDictionary] = tiffValues }
        if let orientation = tiffValues["Orientation"] { out[self.orientation] = orientation }
        if let offset = ifd0[0x8769].flatMap({ reader.integer($0) }), let exifIFD = reader.entries(at: offset) {
            let exifValues = values(exifIFD, names: exifTags, reader: reader)
            if !exifValues.isEmpty { out[exifDictionary] = exifValues }
        }
        if let offset = ifd0[0x8825].flatMap({ reader.integer($0) }), let gpsIFD = reader.entries(at: offset) {
            let gpsValues = gps(gpsIFD, reader: reader)
            if !gpsValues.isEmpty { out[gpsDictionary] = gpsValues }
        }
        return out
    }

    /// The properties of a decoded picture: its size, RGB at 8 bits, the ICC profile's name when it has one, and
    /// what its Exif says (`exif(tiff:)`). The size is the stored pixels', before any orientation is applied.
    public static func picture(width: Int, height: Int, exif tiff: [UInt8]?, iccProfile: [UInt8]?) -> [String: Any] {
        var out = tiff.map { exif(tiff: $0) } ?? [:]
        out[pixelWidth] = NSNumber(value: width)
        out[pixelHeight] = NSNumber(value: height)
        out[colorModel] = "RGB"
        out[depth] = NSNumber(value: 8)
        if let name = iccProfile.flatMap(ICCProfile.description(of:)) { out[profileName] = name }
        return out
    }

    /// The properties of a photo file's primary picture (`picture(width:height:exif:iccProfile:)`): a JPEG's or a
    /// HEIC's with their Exif and ICC profile, a PNG's size and layout; nil when it is none of these formats.
    public static func photoFile(_ bytes: [UInt8]) -> [String: Any]? {
        if bytes.starts(with: [0xFF, 0xD8]) {
            guard let size = JPEG.frameSize(bytes) else { return nil }
            return picture(width: size.width, height: size.height, exif: jpegExif(bytes), iccProfile: jpegICCProfile(bytes))
        }
        if HEIF.isBaseMediaFile(bytes), let decoded = try? HEIF.decode(bytes, maximumPixels: 1 << 27) {
            return picture(
                width: decoded.pixels.width, height: decoded.pixels.height, exif: decoded.exif,
                iccProfile: decoded.iccProfile)
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), let png = try? PNG.decode(bytes) {
            let (width, height, channels, bits): (Int, Int, Int, Int) =
                switch png.pixels {
                case .eightBit(let p): (p.width, p.height, p.channels, 8)
                case .sixteenBit(let p): (p.width, p.height, p.channels, 16)
                }
            var out = picture(width: width, height: height, exif: nil, iccProfile: nil)
            out[colorModel] = channels <= 2 ? "Gray" : "RGB"
            out[depth] = NSNumber(value: bits)
            out[hasAlpha] = NSNumber(value: channels == 2 || channels == 4)
            return out
        }
        return nil
    }

    /// The Exif TIFF structure of a JPEG's APP1 segment, if it has one.
    public static func jpegExif(_ jpeg: [UInt8]) -> [UInt8]? {
        let header = Array("Exif".utf8) + [0, 0]
        let segments = JPEG.applicationSegments(jpeg[...]) ?? []
        guard let app1 = segments.first(where: { $0.marker == 0xE1 && $0.data.starts(with: header) }) else { return nil }
        return Array(app1.data.dropFirst(header.count))
    }

    /// The ICC profile of a JPEG's APP2 `ICC_PROFILE` segments, joined in sequence order (ICC.1:2022 Annex B.4).
    public static func jpegICCProfile(_ jpeg: [UInt8]) -> [UInt8]? {
        let header = Array("ICC_PROFILE".utf8) + [0]
        let chunks = (JPEG.applicationSegments(jpeg[...]) ?? [])
            .filter { $0.marker == 0xE2 && $0.data.count > header.count + 2 && $0.data.starts(with: header) }
            .sorted { $0.data[header.count] < $1.data[header.count] }
        guard !chunks.isEmpty else { return nil }
        return chunks.flatMap { $0.data.dropFirst(header.count + 2) }
    }

    /// The named tags of one IFD, converted as ImageIO converts them.
    static func values(_ ifd: [UInt16: TIFFReader.Entry], names: [UInt16: String], reader: TIFFReader) -> [String: Any] {
        var out: [String: Any] = [:]
        for (tag, entry) in ifd {
            guard let name = names[tag], let value = value(entry, name: name, reader: reader) else { continue }
            out[name] = value
        }
        return out
    }

    /// An entry's value: ASCII as a string, numbers as `NSNumber` (an array where there are several, or where
    /// ImageIO always makes one), a version's digits as an array; nil for a type it does not hold.
    static func value(_ entry: TIFFReader.Entry, name: String, reader: TIFFReader) -> Any? {
        if versions.contains(name) {
            guard entry.type == 7 || entry.type == 1, let bytes = reader.rawBytes(entry) else { return nil }
            // "0232" → [2, 3, 2]: the leading zero of the major version is dropped.
            let digits = bytes.compactMap { $0 >= 0x30 && $0 <= 0x39 ? Int($0 - 0x30) : nil }
            let trimmed = digits.first == 0 ? Array(digits.dropFirst()) : digits
            return trimmed.map { NSNumber(value: $0) }
        }
        if entry.type == 2 {
            guard let bytes = reader.rawBytes(entry) else { return nil }
            let text = bytes.prefix { $0 != 0 }
            return String(decoding: text, as: UTF8.self)
        }
        guard let numbers = reader.numbers(entry), !numbers.isEmpty else { return nil }
        if numbers.count == 1 && !arrayValued.contains(name) { return numbers[0] }
        return numbers
    }
}

extension TIFFReader {
    /// Bytes per value of a TIFF type (TIFF 6.0 §2, Exif 2.32 §4.6.2); nil for a type this reader does not know.
    static func size(ofType type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9: 4
        case 5, 10: 8
        default: nil
        }
    }

    /// Where an entry's values start: in the field itself when they fit in four bytes, else at the offset it holds.
    func valueOffset(_ e: Entry) -> Int? {
        guard let size = Self.size(ofType: e.type) else { return nil }
        let total = size * Int(e.count)
        let at = total <= 4 ? e.field : uint32(e.field).map(Int.init)
        guard let at, total >= 0, at + total <= bytes.count else { return nil }
        return at
    }

    /// The raw bytes of a BYTE, ASCII or UNDEFINED entry.
    func rawBytes(_ e: Entry) -> [UInt8]? {
        guard [1, 2, 7].contains(e.type), let at = valueOffset(e) else { return nil }
        return Array(bytes[at..<(at + Int(e.count))])
    }

    /// The values of a numeric entry (BYTE, SHORT, LONG, RATIONAL and their signed kinds).
    func numbers(_ e: Entry) -> [NSNumber]? {
        guard let at = valueOffset(e), let size = Self.size(ofType: e.type) else { return nil }
        var out: [NSNumber] = []
        for k in 0..<Int(e.count) {
            let p = at + k * size
            switch e.type {
            case 1: out.append(NSNumber(value: bytes[p]))
            case 6: out.append(NSNumber(value: Int8(bitPattern: bytes[p])))
            case 3: guard let v = uint16(p) else { return nil }; out.append(NSNumber(value: v))
            case 8: guard let v = uint16(p) else { return nil }; out.append(NSNumber(value: Int16(bitPattern: v)))
            case 4: guard let v = uint32(p) else { return nil }; out.append(NSNumber(value: v))
            case 9: guard let v = uint32(p) else { return nil }; out.append(NSNumber(value: Int32(bitPattern: v)))
            case 5, 10:
                guard let n = uint32(p), let d = uint32(p + 4) else { return nil }
                guard d != 0 else { out.append(NSNumber(value: 0.0)); continue }
                let value = e.type == 5
                    ? Double(n) / Double(d) : Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d))
                out.append(NSNumber(value: value))
            default: return nil
            }
        }
        return out
    }
}
