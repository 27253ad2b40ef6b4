import Foundation
import Imaging

/// A deterministic generator (SplitMix64, Steele et al. 2014) so test images are the same on every run.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A fresh empty directory under the system temporary directory, removed by `cleanUp()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/obscura-imaging-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// CRC-32 as PNG uses it (ISO 3309 / ITU-T V.42 polynomial 0xEDB88320, PNG spec Annex D), written here
/// so tests can build chunks with valid checksums.
func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
}

func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}

func readBigEndian(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) }
}

/// One PNG chunk: type, data, and where it starts in the file.
struct Chunk {
    let type: String
    let data: [UInt8]
    let offset: Int
}

/// Splits a PNG into chunks (no validation beyond bounds): an independent look at what the encoder wrote.
func chunks(of png: [UInt8]) -> [Chunk] {
    var result: [Chunk] = []
    var at = 8
    while at + 12 <= png.count {
        let length = Int(readBigEndian(png, at))
        guard at + 12 + length <= png.count else { break }
        let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
        result.append(Chunk(type: type, data: Array(png[(at + 8)..<(at + 8 + length)]), offset: at))
        at += 12 + length
    }
    return result
}

/// Builds a chunk with a correct CRC.
func makeChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

let pngSignature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

/// An IHDR chunk for a given size (8-bit RGB by default).
func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 2) -> [UInt8] {
    makeChunk("IHDR", bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, 0])
}

/// A small valid RGB image with content that is not flat.
func sampleImage(width: Int = 7, height: Int = 5, channels: Int = 3) -> UInt8Image {
    UInt8Image(width: width, height: height, channels: channels) { x, y, c in UInt8((x * 37 + y * 11 + c * 91) % 256) }
}
