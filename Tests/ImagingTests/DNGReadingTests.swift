import Foundation
import Imaging
import Testing

/// A Digital Negative read back: every field a developer needs, in both of DNG's layouts, and a clear refusal of
/// what is not a DNG or not one the reader takes.
struct DNGReadingTests {
    static func file(preview: Bool) -> DNGFile {
        let exif = ExifMetadata(
            make: "Apple", model: "iPhone 15 Pro", software: "Obscura", orientation: 6, exposureTimeSeconds: 1.0 / 60,
            fNumber: 1.78, iso: 250, focalLengthMM: 6.86, focalLength35mmEquivalentMM: 24, flashFired: true,
            pixelWidth: 6, pixelHeight: 4, isSRGB: false)
        // Values that use all 16 bits, so a byte-order slip shows.
        let samples = (0..<24).map { UInt16(truncatingIfNeeded: $0 &* 2731 &+ 258) }
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        return DNGFile(
            exif: exif, width: 6, height: 4, samples: samples, cfaPattern: [1, 0, 2, 1], blackLevel: 528,
            whiteLevel: 4095, xyzToCamera: [0.9, -0.3, -0.1, -0.5, 1.4, 0.1, -0.1, 0.2, 0.6],
            asShotNeutral: SIMD3(0.52, 1, 0.61), uniqueCameraModel: "Obscura test camera", baselineExposure: 0.49,
            secondCalibration: (17, [1.1, -0.4, -0.2, -0.6, 1.5, 0.2, -0.1, 0.3, 0.4]),
            preview: preview ? (jpeg, 2, 1) : nil)
    }

    @Test(arguments: [false, true])
    func whatIsWrittenIsRead(preview: Bool) throws {
        let written = Self.file(preview: preview)
        let read = try DNGFile(bytes: written.bytes)
        #expect(read.width == 6 && read.height == 4)
        #expect(read.samples == written.samples)
        #expect(read.cfaPattern == [1, 0, 2, 1])
        #expect(read.blackLevel == 528 && read.whiteLevel == 4095)
        // The file stores the matrix to four decimals and the neutral to six.
        for (a, b) in zip(read.xyzToCamera, written.xyzToCamera) { #expect(abs(a - b) < 1e-4) }
        #expect(abs(read.asShotNeutral.x - 0.52) < 1e-6 && read.asShotNeutral.y == 1)
        #expect(abs(read.baselineExposure - 0.49) < 1e-4)
        // Two calibrations: ColorMatrix1 under D65 (21), ColorMatrix2 under Standard light A (17).
        #expect(read.calibrationIlluminant1 == 21 && read.secondCalibration?.illuminant == 17)
        for (a, b) in zip(read.secondCalibration?.xyzToCamera ?? [], [1.1, -0.4, -0.2, -0.6, 1.5, 0.2, -0.1, 0.3, 0.4]) {
            #expect(abs(a - b) < 1e-4)
        }
        #expect(read.secondCalibration?.xyzToCamera.count == 9)
        #expect(read.uniqueCameraModel == "Obscura test camera")
        #expect(read.exif.make == "Apple" && read.exif.model == "iPhone 15 Pro" && read.exif.orientation == 6)
        #expect(read.exif.iso == 250 && abs(read.exif.exposureTimeSeconds - 1.0 / 60) < 1e-9 && read.exif.flashFired)
        #expect(read.preview?.jpeg == (preview ? [0xFF, 0xD8, 0xFF, 0xD9] : nil))
    }

    @Test func aFileWithoutBaselineExposureReadsZero() throws {
        var file = Self.file(preview: false)
        file.baselineExposure = 0
        #expect(try DNGFile(bytes: file.bytes).baselineExposure == 0)
    }

    @Test func otherFilesAreRefusedWithTheReason() throws {
        #expect(throws: DNGFile.ReadError.notDNG) { try DNGFile(bytes: [0xFF, 0xD8, 0xFF, 0xD9]) }
        // A TIFF without DNGVersion.
        #expect(throws: DNGFile.ReadError.notDNG) { try DNGFile(bytes: [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]) }
        let bytes = Self.file(preview: false).bytes
        // Cut inside the samples.
        #expect(throws: DNGFile.ReadError.self) { try DNGFile(bytes: Array(bytes.dropLast(10))) }
        // Compression 7 (JPEG) in the raw image's IFD: the entry's value sits in its field's first two bytes.
        var compressed = bytes
        let at = try #require(Self.entryField(bytes, ifd: 8, tag: 0x0103))
        compressed[at + 1] = 7
        #expect(throws: DNGFile.ReadError.unsupported("compression 7")) { try DNGFile(bytes: compressed) }
        // A pattern that is not Bayer's.
        var striped = bytes
        let pattern = try #require(Self.entryField(bytes, ifd: 8, tag: 0x828E))
        striped.replaceSubrange(pattern..<(pattern + 4), with: [0, 1, 0, 1])
        #expect(throws: DNGFile.ReadError.self) { try DNGFile(bytes: striped) }
    }

    /// A 3 × 2 grid over the whole picture, and one for the red sites only (pitch 2), as a phone's file may give
    /// each site its own map.
    static let maps = [
        DNGFile.GainMap(
            top: 0, left: 0, bottom: 4, right: 6, pointsV: 2, pointsH: 3, spacingV: 1, spacingH: 0.5,
            gains: [1.5, 1.25, 1.5, 1.4, 1.1, 1.4]),
        DNGFile.GainMap(
            top: 0, left: 1, bottom: 4, right: 6, rowPitch: 2, columnPitch: 2, pointsV: 1, pointsH: 1, spacingV: 1,
            spacingH: 1, gains: [0.9]),
    ]

    @Test func gainMapsAreWrittenAndRead() throws {
        var file = Self.file(preview: true)
        file.gainMaps = Self.maps
        #expect(try DNGFile(bytes: file.bytes).gainMaps == Self.maps)
        #expect(try DNGFile(bytes: Self.file(preview: false).bytes).gainMaps.isEmpty)
    }

    /// A mosaic and the properties a DNG's ImageIO dictionary (or a RAW photo's metadata) gives rebuild the file's
    /// raw image: every field, the gain maps from OpcodeList2's bytes; what is missing or impossible is refused by
    /// the key's name.
    @Test func aMosaicAndItsPropertiesRebuildTheRawImage() throws {
        var file = Self.file(preview: false)
        file.gainMaps = Self.maps
        let properties = file.properties(bytes: file.bytes)
        let dng = try #require(properties["{DNG}"] as? [String: Any])
        #expect(dng["OpcodeList2"] is Data)
        let read = try DNGFile(mosaic: file.samples, width: 6, height: 4, cfaPattern: [1, 0, 2, 1], properties: properties)
        #expect(read.samples == file.samples && read.cfaPattern == [1, 0, 2, 1])
        #expect(read.blackLevel == 528 && read.whiteLevel == 4095)
        #expect(read.xyzToCamera == file.xyzToCamera && read.asShotNeutral == file.asShotNeutral)
        #expect(read.calibrationIlluminant1 == 21 && read.secondCalibration?.illuminant == 17)
        #expect(read.secondCalibration?.xyzToCamera == file.secondCalibration?.xyzToCamera)
        #expect(read.baselineExposure == 0.49 && read.uniqueCameraModel == "Obscura test camera")
        #expect(read.gainMaps == Self.maps)
        #expect(read.exif.orientation == 6 && read.exif.make == "Apple")
        func refusal(_ change: (inout [String: Any]) -> Void, pattern: [UInt8] = [1, 0, 2, 1]) -> String {
            var changed = dng
            change(&changed)
            var all = properties
            all["{DNG}"] = changed
            do {
                _ = try DNGFile(mosaic: file.samples, width: 6, height: 4, cfaPattern: pattern, properties: all)
                return "read"
            } catch { return error.description }
        }
        #expect(refusal { $0["ColorMatrix1"] = nil }.contains("ColorMatrix1"))
        #expect(refusal { $0["AsShotNeutral"] = [NSNumber(value: 1), NSNumber(value: 0), NSNumber(value: 1)] }.contains("AsShotNeutral"))
        #expect(refusal { $0["ColorMatrix2"] = ["a", "b"] }.contains("ColorMatrix2"))
        #expect(refusal { $0["WhiteLevel"] = NSNumber(value: 100) }.contains("levels"))
        #expect(refusal { $0["OpcodeList2"] = Data([0, 0]) }.contains("opcode list"))
        #expect(refusal({ _ in }, pattern: [0, 1, 1, 2]).contains("CFAPattern"))
        #expect(throws: DNGFile.ReadError.self) {
            try DNGFile(mosaic: file.samples, width: 6, height: 4, cfaPattern: [1, 0, 2, 1], properties: [:])
        }
    }

    /// The grid read at pixel centres, (row + ½) / height down and (column + ½) / width across: bilinear between
    /// points, the nearest edge outside them.
    @Test func aGainMapInterpolatesBetweenItsPoints() {
        let map = Self.maps[0]
        // Column 1 of 6 sits at 1.5 / 6 = 0.25 across, midway between the first two points; row 0 of 4 at 0.125
        // down, an eighth of the way from the top row to the bottom one.
        let top = 0.5 * 1.5 + 0.5 * 1.25, bottom = 0.5 * 1.4 + 0.5 * 1.1
        #expect(abs(Double(map.gain(column: 1, row: 0, width: 6, height: 4)) - (0.875 * top + 0.125 * bottom)) < 1e-6)
        // Column 5 lies at 11/12 across, five sixths of the way from the middle point to the last; row 2 at 0.625
        // down.
        let upper = 1.25 / 6 + 1.5 * 5 / 6, lower = 1.1 / 6 + 1.4 * 5 / 6
        #expect(abs(Double(map.gain(column: 5, row: 2, width: 6, height: 4)) - (0.375 * upper + 0.625 * lower)) < 1e-6)
        // Outside the grid's span nothing is extrapolated: a grid on the left half holds its right edge beyond.
        let left = DNGFile.GainMap(
            top: 0, left: 0, bottom: 4, right: 6, pointsV: 1, pointsH: 2, spacingV: 1, spacingH: 0.25,
            gains: [1, 2])
        #expect(left.gain(column: 5, row: 1, width: 6, height: 4) == 2)
        // A one-point map is that gain everywhere; the red-site map covers odd columns of even rows.
        #expect(Self.maps[1].gain(column: 0, row: 3, width: 6, height: 4) == 0.9)
        #expect(Self.maps[1].covers(column: 3, row: 2) && !Self.maps[1].covers(column: 2, row: 2))
        #expect(!Self.maps[1].covers(column: 3, row: 1))
    }

    /// An opcode a reader may not skip (here a made-up 99) is refused by name; an optional one is passed over.
    @Test func opcodesOtherThanGainMapsAreSkippedOnlyWhereOptional() throws {
        var file = Self.file(preview: false)
        file.gainMaps = [Self.maps[1]]
        let bytes = file.bytes
        // The opcode list's first opcode id follows its count.
        let list = try #require(Self.entryField(bytes, ifd: 8, tag: 0xC741))
        let offset = Int(bytes[list]) << 24 | Int(bytes[list + 1]) << 16 | Int(bytes[list + 2]) << 8 | Int(bytes[list + 3])
        var other = bytes
        other[offset + 7] = 99
        #expect(throws: DNGFile.ReadError.unsupported("opcode 99 in OpcodeList2")) { try DNGFile(bytes: other) }
        other[offset + 4 + 8 + 3] = 1  // the flags' optional bit
        #expect(try DNGFile(bytes: other).gainMaps.isEmpty)
    }

    /// A little-endian ("II") DNG built by hand, byte by byte, as many cameras write them: a 4 × 2 GRBG mosaic whose
    /// samples need all 16 bits, a colour matrix, an AsShotNeutral and levels. The reader must take the file's byte
    /// order for every field and for the samples.
    @Test func aLittleEndianFileIsRead() throws {
        var out: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        let samples = [0x0102, 0xF0E0, 0x1234, 0x00FF, 0x8001, 0x7FFE, 0x0400, 0x4000]
        let matrix = [0.9, -0.3, -0.1, -0.5, 1.4, 0.1, -0.1, 0.2, 0.6]
        // Entries: tag, type (1 byte, 3 short, 4 long, 5 rational, 10 signed rational), count, value or offset.
        let entryCount = 16
        let dataStart = 8 + 2 + 12 * entryCount + 4
        let matrixAt = dataStart, neutralAt = matrixAt + 72, stripAt = neutralAt + 24
        let entries: [(Int, Int, Int, [UInt8])] = [
            (0x00FE, 4, 1, u32(0)), (0x0100, 3, 1, u16(4) + u16(0)), (0x0101, 3, 1, u16(2) + u16(0)),
            (0x0102, 3, 1, u16(16) + u16(0)), (0x0103, 3, 1, u16(1) + u16(0)), (0x0106, 3, 1, u16(32803) + u16(0)),
            (0x0111, 4, 1, u32(stripAt)), (0x0115, 3, 1, u16(1) + u16(0)), (0x0116, 3, 1, u16(2) + u16(0)),
            (0x0117, 4, 1, u32(16)), (0x828D, 3, 2, u16(2) + u16(2)), (0x828E, 1, 4, [1, 0, 2, 1]),
            (0xC612, 1, 4, [1, 4, 0, 0]), (0xC61D, 3, 1, u16(65535) + u16(0)), (0xC621, 10, 9, u32(matrixAt)),
            (0xC628, 5, 3, u32(neutralAt)),
        ]
        #expect(entries.count == entryCount)
        out += u16(entryCount)
        for (tag, type, count, value) in entries { out += u16(tag) + u16(type) + u32(count) + value }
        out += u32(0)
        for m in matrix { out += u32(Int(Int32((m * 10_000).rounded())) & 0xFFFF_FFFF) + u32(10_000) }
        for n in [500, 1000, 700] { out += u32(n) + u32(1000) }
        for v in samples { out += u16(v) }
        #expect(out.count == stripAt + 16)

        let read = try DNGFile(bytes: out)
        #expect(read.width == 4 && read.height == 2 && read.cfaPattern == [1, 0, 2, 1])
        #expect(read.samples == samples.map(UInt16.init))
        for (a, b) in zip(read.xyzToCamera, matrix) { #expect(abs(a - b) < 1e-9) }
        #expect(read.asShotNeutral == SIMD3(0.5, 1, 0.7))
        #expect(read.whiteLevel == 65535 && read.blackLevel == 0)
    }

    /// `bytes` with the entry for `tag` in the big-endian IFD at `ifd` given the tag `to` instead.
    static func renaming(_ bytes: [UInt8], ifd: Int, tag: UInt16, to: UInt16) throws -> [UInt8] {
        let field = try #require(entryField(bytes, ifd: ifd, tag: tag))
        var out = bytes
        out[field - 8] = UInt8(to >> 8)
        out[field - 7] = UInt8(truncatingIfNeeded: to)
        return out
    }

    /// Tags that change what the values mean, which the reader does not apply, refuse the file by name instead of
    /// letting it develop wrongly. Each is made by giving an entry of a written file another tag.
    @Test func whatTheReaderCannotApplyIsRefused() throws {
        var file = Self.file(preview: false)
        file.gainMaps = [Self.maps[0]]
        let bytes = file.bytes
        // CFAPlaneColor becomes a LinearizationTable.
        #expect(throws: DNGFile.ReadError.unsupported("a LinearizationTable")) {
            try DNGFile(bytes: try Self.renaming(bytes, ifd: 8, tag: 0xC616, to: 0xC618))
        }
        // The gain map (not optional) in OpcodeList1, which is applied before linearisation.
        #expect(throws: DNGFile.ReadError.unsupported("opcode 9 in OpcodeList1")) {
            try DNGFile(bytes: try Self.renaming(bytes, ifd: 8, tag: 0xC741, to: 0xC740))
        }
        // AsShotNeutral given as AsShotWhiteXY.
        #expect(throws: DNGFile.ReadError.unsupported("a white given as AsShotWhiteXY")) {
            try DNGFile(bytes: try Self.renaming(bytes, ifd: 8, tag: 0xC628, to: 0xC629))
        }
        // A second calibration matrix read as a CameraCalibration.
        #expect(throws: DNGFile.ReadError.unsupported("a CameraCalibration other than the identity")) {
            try DNGFile(bytes: try Self.renaming(bytes, ifd: 8, tag: 0xC622, to: 0xC623))
        }
    }

    /// A damaged file is refused, never read past its end: every cut of a file with a preview, and every byte of its
    /// IFDs and tag values flipped, either reads or throws.
    @Test func damagedFilesThrowAndNeverReadPastTheirEnd() {
        var file = Self.file(preview: true)
        file.gainMaps = Self.maps
        let bytes = file.bytes
        var readable = 0
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            if (try? DNGFile(bytes: Array(bytes.prefix(cut)))) != nil { readable += 1 }
        }
        // The samples end the file, so no cut short of the whole leaves a whole raw image.
        #expect(readable == 0)
        let samplesStart = bytes.count - 2 * 24
        for at in 0..<samplesStart {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = bytes
                damaged[at] ^= flip
                _ = try? DNGFile(bytes: damaged)
            }
        }
    }

    /// Where the value field of `tag` sits in the big-endian IFD at `ifd`.
    static func entryField(_ bytes: [UInt8], ifd: Int, tag: UInt16) -> Int? {
        let count = Int(bytes[ifd]) << 8 | Int(bytes[ifd + 1])
        for k in 0..<count {
            let at = ifd + 2 + 12 * k
            if UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) == tag { return at + 8 }
        }
        return nil
    }
}
