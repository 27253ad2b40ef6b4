/// The Exif fields a phone camera writes, serialised as the TIFF structure that an APP1 segment
/// (after `Exif\0\0`) or a HEIF `Exif` item carries (Exif 2.32, CIPA DC-008-2019).
public struct ExifMetadata: Sendable {
    public var make: String
    public var model: String
    public var software: String
    /// TIFF orientation 1…8 (§4.6.4 A): 6 is a phone held upright with the sensor's top to the right.
    public var orientation: Int
    public var exposureTimeSeconds: Double
    public var fNumber: Double
    public var iso: Int
    public var focalLengthMM: Double
    public var focalLength35mmEquivalentMM: Int?
    public var flashFired: Bool
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Exif ColorSpace: true for sRGB (1); otherwise 0xFFFF "uncalibrated", as Exif says for any
    /// other space (Display P3 is then named by the ICC profile).
    public var isSRGB: Bool

    public init(
        make: String, model: String, software: String, orientation: Int, exposureTimeSeconds: Double, fNumber: Double,
        iso: Int, focalLengthMM: Double, focalLength35mmEquivalentMM: Int?, flashFired: Bool, pixelWidth: Int,
        pixelHeight: Int, isSRGB: Bool
    ) {
        self.make = make
        self.model = model
        self.software = software
        self.orientation = orientation
        self.exposureTimeSeconds = exposureTimeSeconds
        self.fNumber = fNumber
        self.iso = iso
        self.focalLengthMM = focalLengthMM
        self.focalLength35mmEquivalentMM = focalLength35mmEquivalentMM
        self.flashFired = flashFired
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.isSRGB = isSRGB
    }

    /// The big-endian TIFF structure: header, IFD0 (Make, Model, Orientation, Software, Exif
    /// pointer), then the Exif IFD.
    public var tiff: [UInt8] {
        let ifd0: [TIFFEntry] = [
            .ascii(0x010F, make), .ascii(0x0110, model), .short(0x0112, UInt16(clamping: orientation)),
            .ascii(0x0131, software), .long(0x8769, 0),  // ExifIFDPointer, patched below
        ]
        return TIFFEntry.tiff(ifd0: ifd0, exifIFD: exifEntries)
    }

    /// The Exif IFD's entries: exposure, f-number, ISO, flash, focal lengths, colour space and size.
    var exifEntries: [TIFFEntry] {
        var exif: [TIFFEntry] = [
            .rational(0x829A, exposureTimeRational),  // ExposureTime
            .rational(0x829D, Self.rational(fNumber, denominator: 100)),  // FNumber
            .short(0x8827, UInt16(clamping: iso)),  // PhotographicSensitivity (ISOSpeedRatings)
            .undefined(0x9000, Array("0232".utf8)),  // ExifVersion
            // Flash (§4.6.5 Table 8 bit 0 "fired"; bits 3–4 = 01/10 for compulsory on/off are not
            // claimed, since "auto" is possible).
            .short(0x9209, flashFired ? 1 : 0),
            .rational(0x920A, Self.rational(focalLengthMM, denominator: 100)),  // FocalLength
            .short(0xA001, isSRGB ? 1 : 0xFFFF),  // ColorSpace
            .long(0xA002, UInt32(clamping: pixelWidth)),  // PixelXDimension
            .long(0xA003, UInt32(clamping: pixelHeight)),  // PixelYDimension
        ]
        if let f35 = focalLength35mmEquivalentMM { exif.append(.short(0xA405, UInt16(clamping: f35))) }
        return exif
    }

    /// APP1 payload: `Exif\0\0` then the TIFF structure (Exif 2.32 §4.5.4).
    public var app1: [UInt8] { Array("Exif".utf8) + [0, 0] + tiff }

    /// Exposure times shorter than a second as 1/n, as cameras write them; longer ones in tenths.
    private var exposureTimeRational: (UInt32, UInt32) {
        guard exposureTimeSeconds > 0, exposureTimeSeconds.isFinite else { return (0, 1) }
        if exposureTimeSeconds < 1 {
            let n = (1 / exposureTimeSeconds).rounded()
            // Keep exactness when 1/t is not an integer (e.g. 1/3.3 s), with microsecond resolution.
            if abs(1 / n - exposureTimeSeconds) <= 1e-9 { return (1, UInt32(n)) }
            return (UInt32((exposureTimeSeconds * 1_000_000).rounded()), 1_000_000)
        }
        return (UInt32(clamping: Int((exposureTimeSeconds * 10).rounded())), 10)
    }

    private static func rational(_ value: Double, denominator: UInt32) -> (UInt32, UInt32) {
        guard value.isFinite, value >= 0 else { return (0, 1) }
        return (UInt32(clamping: Int((value * Double(denominator)).rounded())), denominator)
    }
}

/// One TIFF IFD entry (TIFF 6.0 §2): tag, type, count and value or offset.
enum TIFFEntry {
    case ascii(UInt16, String)
    case short(UInt16, UInt16)
    case long(UInt16, UInt32)
    case rational(UInt16, (UInt32, UInt32))
    case undefined(UInt16, [UInt8])
    case bytes(UInt16, [UInt8])
    case shorts(UInt16, [UInt16])
    case rationals(UInt16, [(UInt32, UInt32)])
    case signedRationals(UInt16, [(Int32, Int32)])

    var tag: UInt16 {
        switch self {
        case .ascii(let t, _), .short(let t, _), .long(let t, _), .rational(let t, _), .undefined(let t, _),
            .bytes(let t, _), .shorts(let t, _), .rationals(let t, _), .signedRationals(let t, _):
            t
        }
    }

    /// (type, count, value bytes) in big-endian order.
    var encoded: (type: UInt16, count: UInt32, bytes: [UInt8]) {
        var w = BigEndianWriter()
        switch self {
        case .ascii(_, let s):
            let bytes = Array(s.utf8.filter { $0 != 0 }) + [0]
            return (2, UInt32(bytes.count), bytes)
        case .short(_, let v):
            w.uint16(v)
            return (3, 1, w.bytes)
        case .long(_, let v):
            w.uint32(v)
            return (4, 1, w.bytes)
        case .rational(_, let r):
            w.uint32(r.0)
            w.uint32(r.1)
            return (5, 1, w.bytes)
        case .undefined(_, let b):
            return (7, UInt32(b.count), b)
        case .bytes(_, let b):
            return (1, UInt32(b.count), b)
        case .shorts(_, let values):
            for v in values { w.uint16(v) }
            return (3, UInt32(values.count), w.bytes)
        case .rationals(_, let values):
            for r in values {
                w.uint32(r.0)
                w.uint32(r.1)
            }
            return (5, UInt32(values.count), w.bytes)
        case .signedRationals(_, let values):
            for r in values {
                w.uint32(UInt32(bitPattern: r.0))
                w.uint32(UInt32(bitPattern: r.1))
            }
            return (10, UInt32(values.count), w.bytes)
        }
    }

    /// Writes one IFD at `start` (an offset from the TIFF header); values longer than four bytes
    /// follow the IFD. Returns the bytes and where each tag's 4-byte value field sits.
    static func ifd(_ entries: [TIFFEntry], start: Int) -> (bytes: [UInt8], valueFields: [UInt16: Int]) {
        let sorted = entries.sorted { $0.tag < $1.tag }  // TIFF 6.0: entries in ascending tag order
        var w = BigEndianWriter()
        var extra: [UInt8] = []
        var fields: [UInt16: Int] = [:]
        let extraStart = start + 2 + 12 * sorted.count + 4
        w.uint16(UInt16(sorted.count))
        for e in sorted {
            let (type, count, bytes) = e.encoded
            w.uint16(e.tag)
            w.uint16(type)
            w.uint32(count)
            fields[e.tag] = start + w.bytes.count
            if bytes.count <= 4 {
                // Values of four bytes or fewer sit left-justified in the field (TIFF 6.0 §2).
                w.bytes += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                w.uint32(UInt32(extraStart + extra.count))
                extra += bytes
                if extra.count % 2 == 1 { extra.append(0) }  // offsets are word aligned
            }
        }
        w.uint32(0)  // no next IFD
        return (w.bytes + extra, fields)
    }

    /// Writes `value` big-endian into the four-byte value field at `field`: an offset known only once what it
    /// points to has been placed.
    static func patch(_ bytes: inout [UInt8], field: Int, _ value: Int) {
        for k in 0..<4 { bytes[field + k] = UInt8(truncatingIfNeeded: UInt32(value) >> UInt32(24 - 8 * k)) }
    }

    /// A big-endian TIFF structure with IFD0 and an Exif IFD that IFD0's tag 0x8769 points to.
    static func tiff(ifd0: [TIFFEntry], exifIFD: [TIFFEntry]) -> [UInt8] {
        tiff(ifd0: ifd0.filter { $0.tag != 0x8769 }, exifIFD: exifIFD, gpsIFD: [])
    }

    /// A big-endian TIFF structure: IFD0, then the Exif IFD and the GPS IFD that IFD0's tags 0x8769 and 0x8825
    /// point to, each only when it has entries.
    static func tiff(ifd0: [TIFFEntry], exifIFD: [TIFFEntry], gpsIFD: [TIFFEntry]) -> [UInt8] {
        let header: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        var entries = ifd0.filter { $0.tag != 0x8769 && $0.tag != 0x8825 }
        if !exifIFD.isEmpty { entries.append(.long(0x8769, 0)) }
        if !gpsIFD.isEmpty { entries.append(.long(0x8825, 0)) }
        let first = ifd(entries, start: 8)
        var out = header + first.bytes
        func patch(_ tag: UInt16, _ value: Int) {
            guard let field = first.valueFields[tag] else { return }
            TIFFEntry.patch(&out, field: field, value)
        }
        for (tag, sub) in [(UInt16(0x8769), exifIFD), (0x8825, gpsIFD)] where !sub.isEmpty {
            patch(tag, out.count)
            out += ifd(sub, start: out.count).bytes
        }
        return out
    }
}
