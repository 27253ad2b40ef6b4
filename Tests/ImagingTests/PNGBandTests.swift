import Foundation
import Imaging
import Testing

/// The banded encoder (every image at level 1, and images of 4 MB and more at other levels): rows in bands of 64,
/// each filtered and compressed on its own, joined into one zlib stream.
@Suite struct PNGBandTests {
    /// Photo-like content: a ramp with noise, and (when `flatFrom` is given) a flat area from that row on.
    static func photoLike(width: Int, height: Int, channels: Int, seed: UInt64, flatFrom: Int? = nil) -> UInt8Image {
        var random = SplitMix64(state: seed)
        return UInt8Image(width: width, height: height, channels: channels) { x, y, c in
            if let flatFrom, y >= flatFrom { return 90 }
            return UInt8(truncatingIfNeeded: x + 2 * y + 40 * c + Int(random.next() % 48))
        }
    }

    static func idatData(_ png: [UInt8]) -> [UInt8] {
        chunks(of: png).filter { $0.type == "IDAT" }.flatMap(\.data)
    }

    /// The level-1 filtering written from PNG spec §9.2 (Sub on the first row, Average after), for the checks below.
    static func filtered(_ image: UInt8Image) -> [[UInt8]] {
        let n = image.width * image.channels
        let bpp = image.channels
        return (0..<image.height).map { y in
            let row = Array(image.row(y))
            let prior = y > 0 ? Array(image.row(y - 1)) : [UInt8](repeating: 0, count: n)
            var out: [UInt8] = [y == 0 ? 1 : 3]
            for i in 0..<n {
                let a = i >= bpp ? Int(row[i - bpp]) : 0
                let predicted = y == 0 ? a : (a + Int(prior[i])) / 2
                out.append(UInt8(truncatingIfNeeded: Int(row[i]) - predicted))
            }
            return out
        }
    }

    /// Adler-32 (RFC 1950 §8.2), written here from the definition.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    @Test(arguments: [1, 2, 63, 64, 65, 127, 128, 129, 191, 193])
    func bandEdgesRoundTripExactly(height: Int) throws {
        for width in [1, 5] {
            for channels in 1...4 {
                let plane = Self.photoLike(width: width, height: height, channels: channels, seed: UInt64(height),
                                           flatFrom: height / 2)
                let eight = PNGImage(pixels: plane, colorSpace: .sRGB)
                #expect(try PNG.decode(try PNG.encode(eight, compressionLevel: 1)).pixels == eight.pixels,
                        "8-bit \(width)x\(height)x\(channels)")
                let wide = UInt16Image(width: width, height: height, channels: channels) { x, y, c in
                    UInt16(plane[x, y, c]) * 257 &+ UInt16(truncatingIfNeeded: x * 7 + y)
                }
                let sixteen = PNGImage(pixels: wide, colorSpace: .displayP3)
                #expect(try PNG.decode(try PNG.encode(sixteen, compressionLevel: 1)).pixels == sixteen.pixels,
                        "16-bit \(width)x\(height)x\(channels)")
            }
        }
    }

    @Test func streamHeaderChecksumsAndChunkCRCsFollowTheSpecs() throws {
        let plane = Self.photoLike(width: 97, height: 200, channels: 3, seed: 3, flatFrom: 150)
        let png = try PNG.encode(PNGImage(pixels: plane), compressionLevel: 1)
        for chunk in chunks(of: png) {
            let stored = readBigEndian(png, chunk.offset + 8 + chunk.data.count)
            #expect(stored == crc32(Array(chunk.type.utf8) + chunk.data), "\(chunk.type) at \(chunk.offset)")
        }
        let stream = Self.idatData(png)
        // zlib header: deflate with a 32 KiB window, FLEVEL 0 (fastest), header a multiple of 31 (RFC 1950 §2.2).
        #expect(Array(stream.prefix(2)) == [0x78, 0x01])
        #expect((Int(stream[0]) * 256 + Int(stream[1])) % 31 == 0)
        // The trailer is the Adler-32 of the whole filtered data, whatever the bands.
        #expect(readBigEndian(stream, stream.count - 4) == Self.adler32(Self.filtered(plane).flatMap { $0 }))
        #expect(try PNG.decode(png).pixels == .eightBit(plane))
    }

    /// Literal Huffman coding can neither beat the order-0 entropy of each band's filtered bytes (Shannon's source
    /// coding theorem) nor, with its per-band code, lose more than a bit a byte plus the code's header.
    @Test func noisyBandsAreCodedCloseToTheirEntropy() throws {
        let plane = Self.photoLike(width: 300, height: 200, channels: 3, seed: 11)
        let png = try PNG.encode(PNGImage(pixels: plane), compressionLevel: 1)
        let rows = Self.filtered(plane)
        var entropyBits = 0.0
        var bands = 0
        for start in stride(from: 0, to: rows.count, by: 64) {
            let bytes = rows[start..<min(start + 64, rows.count)].flatMap { $0 }
            var counts = [Int](repeating: 0, count: 256)
            for byte in bytes { counts[Int(byte)] += 1 }
            let n = Double(bytes.count)
            entropyBits += counts.filter { $0 > 0 }.reduce(0.0) { $0 - Double($1) * log2(Double($1) / n) }
            bands += 1
        }
        let coded = Double(Self.idatData(png).count - 6)
        #expect(coded >= entropyBits / 8)
        #expect(coded <= entropyBits / 8 * 1.02 + Double(300 * bands), "\(coded) bytes for \(entropyBits / 8)")
        #expect(try PNG.decode(png).pixels == .eightBit(plane))
    }

    /// Flat bands fall back to LZ77: literal coding alone would need at least a bit a byte (250,000 bytes here).
    @Test func flatPicturesStaySmall() throws {
        let flat = UInt8Image(width: 2000, height: 1000, repeating: 37)
        let png = try PNG.encode(PNGImage(pixels: flat), compressionLevel: 1)
        #expect(png.count < 20_000, "\(png.count) bytes")
        #expect(try PNG.decode(png).pixels == .eightBit(flat))

        let noisyTop = Self.photoLike(width: 400, height: 640, channels: 3, seed: 5, flatFrom: 320)
        let noisyOnly = Self.photoLike(width: 400, height: 320, channels: 3, seed: 5)
        let mixed = try PNG.encode(PNGImage(pixels: noisyTop), compressionLevel: 1)
        let top = try PNG.encode(PNGImage(pixels: noisyOnly), compressionLevel: 1)
        #expect(mixed.count < top.count + 5_000, "\(mixed.count) vs \(top.count)")
    }

    /// A small picture's band is tried with zlib too: a literal code's header (the lengths of 259 codes) costs
    /// more than a tiny picture's whole stream, here compared with libpng's writer at level 9.
    @Test func tinyPicturesStaySmall() throws {
        for (width, height) in [(1, 1), (5, 3), (16, 4)] {
            let image = PNGImage(pixels: Self.photoLike(width: width, height: height, channels: 3, seed: 2))
            let fast = try PNG.encode(image, compressionLevel: 1)
            let best = try PNG.encode(image, compressionLevel: 9)
            #expect(fast.count <= best.count + 16, "\(width)x\(height): \(fast.count) vs \(best.count)")
            #expect(try PNG.decode(fast).pixels == image.pixels)
        }
    }

    @Test func bytesDoNotDependOnTheThreadCount() throws {
        let plane = Self.photoLike(width: 64, height: 700, channels: 3, seed: 9, flatFrom: 400)
        let image = PNGImage(pixels: plane, colorSpace: .displayP3)
        let reference = try PNG.encode(image, compressionLevel: 1)
        for threads in [1, 2, 3, 7, 64] {
            #expect(try PNG.encode(image, compressionLevel: 1, threads: threads) == reference, "\(threads) threads")
        }
        // The zlib bands of other levels, which start at 4 MB.
        let large = PNGImage(pixels: Self.photoLike(width: 1100, height: 1300, channels: 3, seed: 4, flatFrom: 900))
        let one = try PNG.encode(large, compressionLevel: 6, threads: 1)
        #expect(try PNG.encode(large, compressionLevel: 6, threads: 3) == one)
        #expect(try PNG.decode(one).pixels == large.pixels)
        #expect(throws: PNGError.self) { try PNG.encode(image, compressionLevel: 1, threads: 0) }
    }

    /// 8-bit planes are passed to the encoder without a copy, so padded rows must be skipped there.
    @Test func paddedRowsAreSkipped() throws {
        var plane = UInt8Image(width: 10, height: 70, channels: 3, rowStride: 41, repeating: 201)
        for y in 0..<70 {
            for x in 0..<10 {
                for c in 0..<3 { plane[x, y, c] = UInt8(truncatingIfNeeded: x * 13 + y * 5 + c * 70) }
            }
        }
        let packed = UInt8Image(width: 10, height: 70, channels: 3) { x, y, c in plane[x, y, c] }
        for level in [nil, 0, 1, 9] {
            let png = try PNG.encode(PNGImage(pixels: plane), compressionLevel: level)
            #expect(try PNG.decode(png).pixels == .eightBit(packed), "level \(String(describing: level))")
            #expect(try png == PNG.encode(PNGImage(pixels: packed), compressionLevel: level))
        }
    }
}
