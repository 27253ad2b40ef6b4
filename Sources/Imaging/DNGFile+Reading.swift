import Foundation

/// Reading a Digital Negative back: the files `bytes` writes, and any DNG laid out the same way (Adobe DNG
/// Specification 1.4): an uncompressed colour filter array of 16-bit samples with a 2 × 2 repeat, in IFD0 or in a
/// SubIFD beside a preview, in one strip or several.
///
/// What a developer needs is read: the samples, the CFA pattern, the black and white levels, ColorMatrix1 and
/// ColorMatrix2 with their calibration illuminants, AsShotNeutral, BaselineExposure, OpcodeList2's gain maps, the
/// preview, and the Exif a processed photo carries. Compressed or tiled images, linear (demosaiced) DNGs, per-site
/// black levels and opcodes other than gain maps that a reader may not skip are not read: such a file throws
/// `DNGFile.ReadError.unsupported`, naming what.
extension DNGFile {
    /// Why bytes are not a DNG this reader takes.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        /// Not a TIFF file, or one without DNGVersion.
        case notDNG
        /// A DNG whose raw image this reader does not take, and what about it.
        case unsupported(String)
        /// A tag that runs past the data or holds an impossible value.
        case damaged(String)

        public var description: String {
            switch self {
            case .notDNG: "not a DNG file"
            case let .unsupported(what): "a DNG this reader does not take: \(what)"
            case let .damaged(what): "a damaged DNG: \(what)"
            }
        }
    }

    /// The file in `bytes`.
    public init(bytes: [UInt8]) throws(ReadError) {
        guard let reader = TIFFReader(bytes), let ifd0 = reader.entries(at: reader.firstIFD), ifd0[0xC612] != nil
        else { throw .notDNG }
        let raw = try Self.rawIFD(reader, ifd0: ifd0)
        let (width, height) = (try Self.integer(reader, raw, 0x0100), try Self.integer(reader, raw, 0x0101))
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else {
            throw .damaged("an image of \(width) × \(height) pixels")
        }
        try Self.require(reader, raw, 0x0103, 1, "compression")
        try Self.require(reader, raw, 0x0102, 16, "bits per sample")
        try Self.require(reader, raw, 0x0115, 1, "samples per pixel")
        guard reader.numbers(raw[0x828D] ?? Self.missing)?.map(\.intValue) == [2, 2],
            let pattern = raw[0x828E].flatMap(reader.rawBytes), Self.isBayer(pattern)
        else { throw .unsupported("a colour filter pattern other than a 2 × 2 Bayer pattern") }
        try Self.refuseWhatChangesTheValues(reader, raw: raw, ifd0: ifd0, width: width, height: height)
        let samples = try Self.samples(reader, raw, width: width, height: height)
        // The file's own tags live in IFD0; a DNG may repeat the levels beside its raw image, where they count.
        func number(_ tag: UInt16) -> Double? { (raw[tag] ?? ifd0[tag]).flatMap { reader.numbers($0)?.first?.doubleValue } }
        guard let matrix = ifd0[0xC621].flatMap(reader.numbers)?.map(\.doubleValue), matrix.count == 9 else {
            throw .unsupported("no ColorMatrix1 of three colour channels")
        }
        let neutral = ifd0[0xC628].flatMap(reader.numbers)?.map(\.doubleValue) ?? [1, 1, 1]
        guard neutral.count == 3, neutral.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw .damaged("an AsShotNeutral that is not three positive values")
        }
        let white = Int(number(0xC61D) ?? 65535), black = Int(number(0xC61A) ?? 0)
        guard black >= 0, white > black else { throw .damaged("black level \(black) at or above white level \(white)") }
        self.init(
            exif: Self.exif(reader, ifd0: ifd0, width: width, height: height), width: width, height: height,
            samples: samples, cfaPattern: pattern, blackLevel: black, whiteLevel: white, xyzToCamera: matrix,
            asShotNeutral: SIMD3(neutral[0], neutral[1], neutral[2]),
            uniqueCameraModel: Self.text(reader, ifd0[0xC614]) ?? "",
            baselineExposure: ifd0[0xC62A].flatMap { reader.numbers($0)?.first?.doubleValue } ?? 0,
            calibrationIlluminant1: ifd0[0xC65A].flatMap { reader.numbers($0)?.first?.intValue } ?? 0,
            secondCalibration: Self.secondCalibration(reader, ifd0: ifd0),
            gainMaps: try raw[0xC741].flatMap(reader.rawBytes).map { bytes throws(ReadError) in
                try Self.gainMaps(inOpcodeList: bytes)
            } ?? [],
            preview: Self.preview(reader, ifd0: ifd0))
    }

    /// Throws for the tags this reader does not apply but which change what the values mean, so that a file is
    /// refused rather than developed wrongly: a linearisation table, black levels per site, row or column, an
    /// active area smaller than the image, a white given only as AsShotWhiteXY, an analog balance or camera
    /// calibration other than none, and opcodes in lists 1 and 3 that a reader may not skip.
    private static func refuseWhatChangesTheValues(
        _ reader: TIFFReader, raw: [UInt16: TIFFReader.Entry], ifd0: [UInt16: TIFFReader.Entry], width: Int,
        height: Int
    ) throws(ReadError) {
        func values(_ entry: TIFFReader.Entry?) -> [Double]? { entry.flatMap(reader.numbers)?.map(\.doubleValue) }
        if raw[0xC618] != nil { throw .unsupported("a LinearizationTable") }
        if raw[0xC61B] != nil || raw[0xC61C] != nil { throw .unsupported("black levels per row or column") }
        if let black = values(raw[0xC61A] ?? ifd0[0xC61A]), Set(black).count > 1 {
            throw .unsupported("black levels per colour filter site")
        }
        if let area = values(raw[0xC68D]), area.map(Int.init) != [0, 0, height, width] {
            throw .unsupported("an ActiveArea smaller than the image")
        }
        if ifd0[0xC628] == nil, ifd0[0xC629] != nil { throw .unsupported("a white given as AsShotWhiteXY") }
        if let balance = values(ifd0[0xC627]), Set(balance) != [1] { throw .unsupported("an AnalogBalance") }
        let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        for tag: UInt16 in [0xC623, 0xC624] {
            if let calibration = values(ifd0[tag]), calibration != identity {
                throw .unsupported("a CameraCalibration other than the identity")
            }
        }
        for (tag, list) in [(UInt16(0xC740), 1), (0xC74E, 3)] {
            guard let bytes = raw[tag].flatMap(reader.rawBytes) else { continue }
            try requireOnlyOptionalOpcodes(bytes, list: list)
        }
    }

    /// ColorMatrix2 with its CalibrationIlluminant2, where the file has both and the matrix is 3 × 3.
    private static func secondCalibration(_ reader: TIFFReader, ifd0: [UInt16: TIFFReader.Entry])
        -> (illuminant: Int, xyzToCamera: [Double])?
    {
        guard let matrix = ifd0[0xC622].flatMap(reader.numbers)?.map(\.doubleValue), matrix.count == 9,
            let illuminant = ifd0[0xC65B].flatMap({ reader.numbers($0)?.first?.intValue })
        else { return nil }
        return (illuminant, matrix)
    }

    /// Whether a 2 × 2 pattern is Bayer's: green on one diagonal, red and blue on the other (RGGB, BGGR, GRBG, GBRG).
    static func isBayer(_ p: [UInt8]) -> Bool {
        p.count == 4 && ((p[0] == 1 && p[3] == 1 && Set([p[1], p[2]]) == [0, 2])
            || (p[1] == 1 && p[2] == 1 && Set([p[0], p[3]]) == [0, 2]))
    }

    /// An entry no IFD holds, so that a missing tag reads as no value.
    private static let missing = TIFFReader.Entry(type: 0, count: 0, field: -1)

    /// The raw image's entries: IFD0's when it is the main image, else the first SubIFD that is.
    private static func rawIFD(_ reader: TIFFReader, ifd0: [UInt16: TIFFReader.Entry]) throws(ReadError)
        -> [UInt16: TIFFReader.Entry]
    {
        func isRaw(_ ifd: [UInt16: TIFFReader.Entry]) -> Bool {
            (ifd[0x00FE].flatMap(reader.integer) ?? 0) == 0 && ifd[0x0106].flatMap(reader.integer) != nil
        }
        var candidates = [ifd0]
        if let sub = ifd0[0x014A], let offsets = reader.numbers(sub) {
            candidates += offsets.compactMap { reader.entries(at: $0.intValue) }
        }
        guard let raw = candidates.first(where: isRaw) else { throw .unsupported("no main image") }
        let photometric = raw[0x0106].flatMap(reader.integer)
        guard photometric == 32803 else {
            throw .unsupported("photometric interpretation \(photometric ?? 0), not a colour filter array")
        }
        return raw
    }

    private static func integer(_ reader: TIFFReader, _ ifd: [UInt16: TIFFReader.Entry], _ tag: UInt16)
        throws(ReadError) -> Int
    {
        guard let value = ifd[tag].flatMap(reader.integer) else { throw .damaged("tag \(tag) missing or unreadable") }
        return value
    }

    /// Throws unless the raw image's `tag` is `value` (a missing tag counts as TIFF's default of 1).
    private static func require(
        _ reader: TIFFReader, _ ifd: [UInt16: TIFFReader.Entry], _ tag: UInt16, _ value: Int, _ name: String
    ) throws(ReadError) {
        let found = reader.numbers(ifd[tag] ?? missing)?.map(\.intValue) ?? [1]
        guard found.allSatisfy({ $0 == value }) else { throw .unsupported("\(name) \(found.first ?? 0)") }
    }

    /// The samples of the strips, in the file's byte order.
    private static func samples(
        _ reader: TIFFReader, _ ifd: [UInt16: TIFFReader.Entry], width: Int, height: Int
    ) throws(ReadError) -> [UInt16] {
        guard let offsets = reader.numbers(ifd[0x0111] ?? missing)?.map(\.intValue),
            let counts = reader.numbers(ifd[0x0117] ?? missing)?.map(\.intValue), offsets.count == counts.count
        else { throw .unsupported("an image not stored in strips") }
        let bytes = reader.bytes
        // Two bytes a sample: a size the file cannot hold is damage, found before any memory is taken for it.
        guard width * height * 2 <= bytes.count else {
            throw .damaged("an image of \(width) × \(height) pixels in a file of \(bytes.count) bytes")
        }
        var out: [UInt16] = []
        out.reserveCapacity(width * height)
        for (offset, count) in zip(offsets, counts) {
            guard offset >= 0, count >= 0, count % 2 == 0, offset + count <= bytes.count else {
                throw .damaged("a strip past the end of the file")
            }
            let n = min(count / 2, width * height - out.count)
            for i in 0..<n {
                let (a, b) = (UInt16(bytes[offset + 2 * i]), UInt16(bytes[offset + 2 * i + 1]))
                out.append(reader.bigEndian ? a << 8 | b : b << 8 | a)
            }
        }
        guard out.count == width * height else { throw .damaged("strips of \(out.count) samples for \(width * height)") }
        return out
    }

    private static func text(_ reader: TIFFReader, _ entry: TIFFReader.Entry?) -> String? {
        guard let entry, let raw = reader.rawBytes(entry) else { return nil }
        return String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// IFD0's make, model, software and orientation, and the Exif IFD's exposure, as `ExifMetadata` writes them.
    private static func exif(_ reader: TIFFReader, ifd0: [UInt16: TIFFReader.Entry], width: Int, height: Int)
        -> ExifMetadata
    {
        let exif = ifd0[0x8769].flatMap(reader.integer).flatMap(reader.entries(at:)) ?? [:]
        func number(_ tag: UInt16) -> Double? { exif[tag].flatMap(reader.number) }
        return ExifMetadata(
            make: text(reader, ifd0[0x010F]) ?? "", model: text(reader, ifd0[0x0110]) ?? "",
            software: text(reader, ifd0[0x0131]) ?? "", orientation: ifd0[0x0112].flatMap(reader.integer) ?? 1,
            exposureTimeSeconds: number(0x829A) ?? 0, fNumber: number(0x829D) ?? 0, iso: Int(number(0x8827) ?? 0),
            focalLengthMM: number(0x920A) ?? 0, focalLength35mmEquivalentMM: number(0xA405).map { Int($0) },
            flashFired: Int(number(0x9209) ?? 0) & 1 == 1, pixelWidth: width, pixelHeight: height,
            isSRGB: number(0xA001) == 1)
    }

    /// IFD0's JPEG preview, where IFD0 holds one.
    private static func preview(_ reader: TIFFReader, ifd0: [UInt16: TIFFReader.Entry])
        -> (jpeg: [UInt8], width: Int, height: Int)?
    {
        guard ifd0[0x00FE].flatMap(reader.integer) == 1, ifd0[0x0103].flatMap(reader.integer) == 7,
            let w = ifd0[0x0100].flatMap(reader.integer), let h = ifd0[0x0101].flatMap(reader.integer),
            let offset = ifd0[0x0111].flatMap(reader.integer), let count = ifd0[0x0117].flatMap(reader.integer),
            offset >= 0, count > 0, offset + count <= reader.bytes.count
        else { return nil }
        return (Array(reader.bytes[offset..<(offset + count)]), w, h)
    }
}

