/// The focal length a photo's Exif records, read back into a camera matrix for the photo's pixels.
///
/// Exif 2.32 (CIPA DC-008) gives three tags in the Exif IFD: `FocalLength` (0x920A, the lens's focal length in
/// millimetres), `FocalLengthIn35mmFilm` (0xA405, the focal length giving the same angle of view on a 36 × 24 mm
/// frame) and `FocalPlaneXResolution` (0xA20E) with `FocalPlaneResolutionUnit` (0xA210), the sensor's pixels per
/// unit, which turn millimetres into pixels. With the sensor's resolution, `fx = FocalLength · pixels per mm`,
/// scaled to the picture's width when `PixelXDimension` (0xA002) says the sensor frame was larger. Otherwise the
/// 35 mm equivalent gives it through the diagonals: the same angle of view means `f / diagonal` is the same on the
/// photo as on the 43.27 mm diagonal of the 36 × 24 mm frame. Phones write the 35 mm figure, rounded to a
/// millimetre, so the matrix carries up to about 2 % error from the rounding alone.
public struct ExifFocalLength: Sendable, Hashable {
    /// `FocalLength`, millimetres.
    public var millimetres: Double?
    /// `FocalLengthIn35mmFilm`, millimetres.
    public var equivalent35mm: Double?
    /// `FocalPlaneXResolution` in pixels per millimetre.
    public var focalPlanePixelsPerMM: Double?
    /// `PixelXDimension`: the picture width the focal-plane resolution belongs to.
    public var pixelWidth: Int?

    /// The diagonal of the 36 × 24 mm frame, millimetres.
    public static let filmDiagonalMM = (36.0 * 36 + 24 * 24).squareRoot()

    public init(millimetres: Double?, equivalent35mm: Double?, focalPlanePixelsPerMM: Double?, pixelWidth: Int?) {
        self.millimetres = millimetres
        self.equivalent35mm = equivalent35mm
        self.focalPlanePixelsPerMM = focalPlanePixelsPerMM
        self.pixelWidth = pixelWidth
    }

    /// The focal tags of an Exif TIFF structure ("MM\0*" or "II*\0" first); nil when it is not one or has no
    /// focal length.
    public init?(tiff: [UInt8]) {
        guard let reader = TIFFReader(tiff), let ifd0 = reader.entries(at: reader.firstIFD),
            let exifOffset = ifd0[0x8769].flatMap({ reader.integer($0) }),
            let exif = reader.entries(at: exifOffset)
        else { return nil }
        let mm = exif[0x920A].flatMap { reader.number($0) }.flatMap { $0 > 0 ? $0 : nil }
        let equivalent = exif[0xA405].flatMap { reader.integer($0) }.flatMap { $0 > 0 ? Double($0) : nil }
        var perMM: Double?
        if let resolution = exif[0xA20E].flatMap({ reader.number($0) }), resolution > 0 {
            // FocalPlaneResolutionUnit: 2 inch (the default), 3 centimetre; 4 and 5 (mm, µm) in later practice.
            let unit = exif[0xA210].flatMap { reader.integer($0) } ?? 2
            let mmPerUnit: Double? = switch unit {
            case 2: 25.4
            case 3: 10
            case 4: 1
            case 5: 0.001
            default: nil
            }
            perMM = mmPerUnit.map { resolution / $0 }
        }
        let width = exif[0xA002].flatMap { reader.integer($0) }
        guard mm != nil || equivalent != nil else { return nil }
        self.init(millimetres: mm, equivalent35mm: equivalent, focalPlanePixelsPerMM: perMM, pixelWidth: width)
    }

    /// The focal tags of a JPEG's Exif APP1 segment; nil without one.
    public init?(jpeg: [UInt8]) {
        guard let tiff = ImageProperties.jpegExif(jpeg) else { return nil }
        self.init(tiff: tiff)
    }

    /// The camera matrix of a `width × height` picture: square pixels, the principal point at the centre (the
    /// tags say nothing of either), the focal length from the sensor's resolution when known, else from the
    /// 35 mm equivalent. Nil when neither is recorded.
    public func intrinsics(width: Int, height: Int) -> PinholeIntrinsics? {
        let (w, h) = (Double(width), Double(height))
        var f: Double?
        if let mm = millimetres, let perMM = focalPlanePixelsPerMM {
            let scale = pixelWidth.map { $0 > 0 ? w / Double($0) : 1 } ?? 1
            f = mm * perMM * scale
        } else if let equivalent = equivalent35mm {
            f = equivalent / Self.filmDiagonalMM * (w * w + h * h).squareRoot()
        }
        guard let f, f.isFinite, f > 0 else { return nil }
        return PinholeIntrinsics(fx: f, fy: f, cx: w / 2, cy: h / 2)
    }
}

/// Just enough of TIFF 6.0 (§2: header, IFDs, entry types) to read Exif tags: either byte order, scalar values.
struct TIFFReader {
    let bytes: [UInt8]
    let bigEndian: Bool
    private(set) var firstIFD: Int

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        self.bytes = bytes
        firstIFD = 0
        guard uint16(2) == 42, let first = uint32(4) else { return nil }
        firstIFD = Int(first)
    }

    func uint16(_ at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        let (a, b) = (UInt16(bytes[at]), UInt16(bytes[at + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(_ at: Int) -> UInt32? {
        guard let hi = uint16(bigEndian ? at : at + 2), let lo = uint16(bigEndian ? at + 2 : at) else { return nil }
        return UInt32(hi) << 16 | UInt32(lo)
    }

    /// One entry: its type and where its value (or the offset to it) sits.
    struct Entry {
        let type: UInt16
        let count: UInt32
        let field: Int
    }

    /// The entries of the IFD at `offset`, by tag; nil when it runs past the data.
    func entries(at offset: Int) -> [UInt16: Entry]? {
        guard let n = uint16(offset), offset + 2 + Int(n) * 12 <= bytes.count else { return nil }
        var out: [UInt16: Entry] = [:]
        for k in 0..<Int(n) {
            let at = offset + 2 + k * 12
            guard let tag = uint16(at), let type = uint16(at + 2), let count = uint32(at + 4) else { return nil }
            out[tag] = Entry(type: type, count: count, field: at + 8)
        }
        return out
    }

    /// The offset of the IFD that the IFD at `offset` links to; 0 when it is the last.
    func nextIFD(after offset: Int) -> Int? {
        guard let n = uint16(offset) else { return nil }
        return uint32(offset + 2 + Int(n) * 12).map(Int.init)
    }

    /// A SHORT or LONG value.
    func integer(_ e: Entry) -> Int? {
        switch e.type {
        case 3: uint16(e.field).map(Int.init)
        case 4: uint32(e.field).map(Int.init)
        default: nil
        }
    }

    /// A RATIONAL value (stored at the offset in the field), or an integer one.
    func number(_ e: Entry) -> Double? {
        guard e.type == 5 else { return integer(e).map(Double.init) }
        guard let offset = uint32(e.field), let n = uint32(Int(offset)), let d = uint32(Int(offset) + 4), d > 0 else {
            return nil
        }
        return Double(n) / Double(d)
    }
}
