/// Multi-Picture Format (CIPA DC-007-2009): several JPEG images in one file, indexed by an APP2
/// `MPF\0` segment in the first image.
///
/// The index holds one 16-byte entry per image: attributes, size, and offset counted from the
/// index's TIFF header (0 for the first image), so the first image's index must be written before
/// the offsets are known: it goes in as a placeholder and is filled in by `join`.
public enum MultiPictureFormat {
    /// MP entry attribute of the first image: representative image (bit 29), type "Baseline MP
    /// Primary Image" 0x030000 (DC-007 §5.2.3.3.1).
    static let primaryAttribute: UInt32 = 0x2003_0000
    /// Attribute of the following images: type 0, "undefined" (neither thumbnail, panorama,
    /// stereo disparity nor multi-angle).
    static let auxiliaryAttribute: UInt32 = 0

    /// The APP2 payload of the MP index for `imageCount` images, with sizes and offsets still zero.
    public static func placeholderIndex(imageCount: Int) -> [UInt8] {
        let entries: [TIFFEntry] = [
            .undefined(0xB000, Array("0100".utf8)),  // MPFVersion
            .long(0xB001, UInt32(imageCount)),  // NumberOfImages
            .undefined(0xB002, [UInt8](repeating: 0, count: 16 * imageCount)),  // MPEntry
        ]
        let header: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        return Array("MPF".utf8) + [0] + header + TIFFEntry.ifd(entries, start: 8).bytes
    }

    /// The file: `first` (a JPEG whose APP2 holds `placeholderIndex(imageCount: 1 + others.count)`)
    /// followed by `others`, with the index filled in. Nil if `first` has no such placeholder.
    public static func join(first: [UInt8], others: [[UInt8]]) -> [UInt8]? {
        guard let (tiffStart, entriesStart) = indexLocation(in: first[...]) else { return nil }
        var file = first
        let sizes = [first.count] + others.map(\.count)
        var offsets = [0]
        var at = first.count
        for other in others {
            offsets.append(at - tiffStart)
            at += other.count
        }
        for i in sizes.indices {
            let base = entriesStart + 16 * i
            guard base + 16 <= file.count else { return nil }
            var w = BigEndianWriter()
            w.uint32(i == 0 ? primaryAttribute : auxiliaryAttribute)
            w.uint32(UInt32(sizes[i]))
            w.uint32(UInt32(offsets[i]))
            w.uint16(0)
            w.uint16(0)
            file.replaceSubrange(base..<base + 16, with: w.bytes)
        }
        for other in others { file += other }
        return file
    }

    /// The images after the first one, as the MP index of `file` lists them; nil if the file has no
    /// readable index.
    public static func images(in file: [UInt8]) -> [ArraySlice<UInt8>]? {
        guard let (tiffStart, entriesStart, count, bigEndian) = index(in: file[...]) else { return nil }
        var out: [ArraySlice<UInt8>] = []
        for i in 1..<max(1, count) {
            let e = entriesStart + 16 * i
            guard e + 16 <= file.count else { return nil }
            let size = Int(read32(file, e + 4, bigEndian))
            let offset = Int(read32(file, e + 8, bigEndian))
            let start = tiffStart + offset
            guard offset > 0, size > 0, start + size <= file.count else { return nil }
            out.append(file[start..<start + size])
        }
        return out
    }

    /// Where the placeholder's TIFF header and entry array sit in the file.
    private static func indexLocation(in file: ArraySlice<UInt8>) -> (tiff: Int, entries: Int)? {
        index(in: file).map { ($0.tiff, $0.entries) }
    }

    /// Finds the MPF APP2 segment and reads its TIFF header and the MPEntry (0xB002) offset.
    private static func index(in file: ArraySlice<UInt8>) -> (tiff: Int, entries: Int, count: Int, bigEndian: Bool)? {
        let bytes = Array(file)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return nil }
            let payload = at + 4
            if marker == 0xE2, length >= 16, Array(bytes[payload..<payload + 4]) == Array("MPF".utf8) + [0] {
                let tiff = payload + 4
                let big = bytes[tiff] == 0x4D
                let ifd = tiff + Int(read32(bytes, tiff + 4, big))
                guard ifd + 2 <= at + 2 + length else { return nil }
                let n = Int(read16(bytes, ifd, big))
                var count = 0
                var entries: Int?
                for k in 0..<n {
                    let e = ifd + 2 + 12 * k
                    guard e + 12 <= at + 2 + length else { return nil }
                    switch read16(bytes, e, big) {
                    case 0xB001: count = Int(read32(bytes, e + 8, big))
                    case 0xB002: entries = tiff + Int(read32(bytes, e + 8, big))
                    default: break
                    }
                }
                guard let entries, entries + 16 * count <= at + 2 + length else { return nil }
                return (tiff, entries, count, big)
            }
            at += 2 + length
        }
        return nil
    }

    private static func read16(_ b: [UInt8], _ i: Int, _ big: Bool) -> UInt16 {
        big ? UInt16(b[i]) << 8 | UInt16(b[i + 1]) : UInt16(b[i + 1]) << 8 | UInt16(b[i])
    }

    private static func read32(_ b: [UInt8], _ i: Int, _ big: Bool) -> UInt32 {
        let v = (0..<4).map { UInt32(b[i + $0]) }
        return big ? v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3] : v[3] << 24 | v[2] << 16 | v[1] << 8 | v[0]
    }
}
