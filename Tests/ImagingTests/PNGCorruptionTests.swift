import Foundation
import Imaging
import Testing

/// Damaged PNGs, derived in code from a valid file: each must throw `PNGError`, never crash.
@Suite struct PNGCorruptionTests {
    static let valid: [UInt8] = {
        let image = PNGImage(pixels: sampleImage(width: 31, height: 23, channels: 4), colorSpace: .displayP3,
                             text: [PNGText(key: "Software", value: "Obscura")])
        return (try? PNG.encode(image)) ?? []
    }()

    static func decodeError(_ bytes: [UInt8]) -> PNGError? {
        do {
            _ = try PNG.decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func theSourceFileIsValid() throws {
        #expect(Self.valid.count > 200)
        #expect(try PNG.decode(Self.valid).width == 31)
    }

    @Test(arguments: [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99])
    func truncatedFilesThrow(fraction: Double) {
        let cut = Int(Double(Self.valid.count) * fraction)
        #expect(Self.decodeError(Array(Self.valid[0..<cut])) != nil, "cut at \(cut) of \(Self.valid.count)")
    }

    @Test func cutsInsideEveryChunkThrow() {
        for chunk in chunks(of: Self.valid) {
            // Cut in the middle of the header, the data and the CRC of each chunk.
            for cut in [chunk.offset + 2, chunk.offset + 8 + chunk.data.count / 2, chunk.offset + 10 + chunk.data.count]
            where cut < Self.valid.count {
                #expect(Self.decodeError(Array(Self.valid[0..<cut])) != nil, "\(chunk.type) cut at \(cut)")
            }
        }
    }

    @Test(arguments: ["IHDR", "IDAT"])
    func badCRCOnACriticalChunkThrows(type: String) throws {
        let chunk = try #require(chunks(of: Self.valid).first { $0.type == type })
        var bytes = Self.valid
        bytes[chunk.offset + 8 + chunk.data.count] ^= 0x55  // first CRC byte
        let error = try #require(Self.decodeError(bytes))
        #expect(error.code == .corrupt)
        #expect(error.message.lowercased().contains("crc"), "\(error)")
    }

    @Test func badSignatureThrows() throws {
        var bytes = Self.valid
        bytes[1] = UInt8(ascii: "J")
        #expect(Self.decodeError(bytes)?.code == .notPNG)
        #expect(Self.decodeError(Array("GIF89a not a png at all".utf8))?.code == .notPNG)
    }

    @Test func emptyFileThrows() {
        #expect(Self.decodeError([])?.code == .notPNG)
    }

    @Test func zeroSizeHeaderThrows() {
        for (width, height) in [(0, 10), (10, 0), (0, 0)] as [(UInt32, UInt32)] {
            let bytes = pngSignature + ihdr(width: width, height: height) + makeChunk("IEND", [])
            let error = Self.decodeError(bytes)
            #expect(error?.code == .corrupt, "\(width)x\(height)")
            #expect(error?.message.contains("empty") == true, "\(String(describing: error))")
        }
    }

    static let hugeSizes: [(width: UInt32, height: UInt32)] = [
        (1 << 30, 1 << 30), (100_000, 100_000), (100_000, 1), (UInt32(Int32.max), 1),
    ]

    @Test(arguments: hugeSizes)
    func hugeDeclaredSizeThrowsBeforeAllocating(width: UInt32, height: UInt32) {
        // A valid IHDR and a tiny IDAT: only the declared size is wrong.
        let bytes = pngSignature + ihdr(width: width, height: height) + makeChunk("IDAT", [0x78, 0x9C, 0x03, 0x00])
            + makeChunk("IEND", [])
        let error = Self.decodeError(bytes)
        #expect(error?.code == .tooLarge, "\(width)x\(height): \(String(describing: error))")
        #expect(error?.message.contains("\(width)x\(height)") == true)
    }

    @Test func sizeWithinSideLimitsButOverThePixelCapIsTooLarge() {
        let bytes = pngSignature + ihdr(width: 65535, height: 65535) + makeChunk("IDAT", [0x78, 0x9C, 0x03, 0x00])
            + makeChunk("IEND", [])
        let error = Self.decodeError(bytes)
        #expect(error?.code == .tooLarge, "\(String(describing: error))")
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func garbageIDATThrows(seed: UInt64) throws {
        // Replace every IDAT with random bytes under a correct CRC, so the zlib stream itself is what fails.
        var random = SplitMix64(state: seed)
        let parts = chunks(of: Self.valid)
        var bytes = pngSignature
        for chunk in parts {
            if chunk.type == "IDAT" {
                let garbage = (0..<chunk.data.count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                bytes += makeChunk("IDAT", garbage)
            } else {
                bytes += makeChunk(chunk.type, chunk.data)
            }
        }
        #expect(Self.decodeError(bytes) != nil)
    }

    @Test func missingIDATThrows() {
        let parts = chunks(of: Self.valid).filter { $0.type != "IDAT" }
        let bytes = pngSignature + parts.flatMap { makeChunk($0.type, $0.data) }
        #expect(Self.decodeError(bytes) != nil)
    }

    /// A fuzzer finding: 203 bytes whose iTXt chunk declares 1,952,805,414 bytes. libpng sized (and cleared) a buffer
    /// by that length before finding the data missing; the header alone says the file is truncated.
    @Test func chunkLongerThanTheFileIsTruncatedData() throws {
        let url = try #require(Bundle.module.url(forResource: "Corpus/itxt-length-beyond-file.png", withExtension: nil))
        let bytes = Array(try Data(contentsOf: url))
        #expect(bytes.count == 203)
        let error = try #require(Self.decodeError(bytes))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("'iTXt'") && error.message.contains("declares 1952805414 bytes"), "\(error)")
    }

    /// Ancillary chunks are capped at 16 MiB (`PNG` documents the cap); one byte more is over the limit even when
    /// the file holds every byte.
    @Test func ancillaryChunkOverTheCapIsTooLarge() throws {
        let parts = chunks(of: Self.valid)
        let big = makeChunk("tEXt", Array("Comment".utf8) + [0] + [UInt8](repeating: 0x41, count: 16 * 1024 * 1024 - 7))
        let bytes = pngSignature + makeChunk(parts[0].type, parts[0].data) + big
            + parts.dropFirst().flatMap { makeChunk($0.type, $0.data) }
        let error = try #require(Self.decodeError(bytes))
        #expect(error.code == .tooLarge, "\(error)")
        #expect(error.message.contains("'tEXt'"), "\(error)")
    }

    @Test func randomBitFlipsNeverCrash() {
        // Whatever the flip does, decode either throws or returns an image; it must not crash.
        var random = SplitMix64(state: 42)
        for _ in 0..<300 {
            var bytes = Self.valid
            let at = Int(random.next() % UInt64(bytes.count))
            bytes[at] ^= UInt8(1 << (random.next() % 8))
            _ = try? PNG.decode(bytes)
        }
    }
}
