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

    /// A damaged file is refused, never read past its end: every cut of a file with a preview, and every byte of its
    /// IFDs and tag values flipped, either reads or throws.
    @Test func damagedFilesThrowAndNeverReadPastTheirEnd() {
        let bytes = Self.file(preview: true).bytes
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
