/// A JPEG thumbnail in an Exif TIFF structure: IFD1, the structure's second IFD, describing a JPEG-compressed
/// image whose bytes follow it (Exif 2.32 §4.5.4 and §4.6.6: Compression 6, JPEGInterchangeFormat and its
/// length), as cameras write the thumbnail image browsers show.
public enum ExifThumbnail {
    /// The most bytes an APP1 segment carries after its marker and length field (JPEG's 16-bit length counts
    /// itself): `Exif\0\0` and the TIFF structure with its thumbnail must fit.
    public static let app1Capacity = 65_533

    /// `tiff` (a big-endian Exif TIFF structure as `ExifMetadata` and `ImageProperties.exifTIFF` write it, or nil
    /// for none) with `jpeg` as its thumbnail. A structure that already has an IFD1 keeps its IFD0 and Exif IFDs;
    /// IFD0's link to the next IFD is set to the new one. Nil when the structure is not one this writer made
    /// (little-endian or malformed).
    public static func adding(jpeg: [UInt8], to tiff: [UInt8]?) -> [UInt8]? {
        // Without Exif, an IFD0 of the resolution tags alone: TIFF 6.0 §2 wants at least one entry an IFD.
        var out = tiff ?? TIFFEntry.tiff(
            ifd0: [.rational(0x011A, (72, 1)), .rational(0x011B, (72, 1)), .short(0x0128, 2)], exifIFD: [], gpsIFD: [])
        guard out.count >= 14, out[0] == 0x4D, out[1] == 0x4D, read(out, 2, 2) == 42 else { return nil }
        let ifd0 = read(out, 4, 4)
        guard ifd0 >= 8, ifd0 + 2 <= out.count else { return nil }
        let link = ifd0 + 2 + 12 * read(out, ifd0, 2)
        guard link + 4 <= out.count else { return nil }
        if out.count % 2 == 1 { out.append(0) }  // IFD offsets are word aligned (TIFF 6.0 §2)
        let start = out.count
        let entries: [TIFFEntry] = [
            .short(0x0103, 6),  // Compression: JPEG
            .rational(0x011A, (72, 1)), .rational(0x011B, (72, 1)), .short(0x0128, 2),  // 72 dots per inch
            .long(0x0201, 0), .long(0x0202, UInt32(jpeg.count)),  // JPEGInterchangeFormat (patched), length
        ]
        let ifd1 = TIFFEntry.ifd(entries, start: start)
        out += ifd1.bytes
        guard let field = ifd1.valueFields[0x0201] else { return nil }
        TIFFEntry.patch(&out, field: field, out.count)
        out += jpeg
        TIFFEntry.patch(&out, field: link, start)
        return out
    }

    /// The thumbnail's JPEG bytes in an Exif TIFF structure's IFD1, if it has one (either byte order).
    public static func jpeg(in tiff: [UInt8]) -> [UInt8]? {
        guard let reader = TIFFReader(tiff), let next = reader.nextIFD(after: reader.firstIFD), next > 0,
            let ifd1 = reader.entries(at: next), let offset = ifd1[0x0201].flatMap({ reader.integer($0) }),
            let length = ifd1[0x0202].flatMap({ reader.integer($0) }), offset >= 0, length > 0,
            offset + length <= tiff.count
        else { return nil }
        return Array(tiff[offset..<(offset + length)])
    }

    private static func read(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
    }
}
