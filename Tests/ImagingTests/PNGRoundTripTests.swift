import Imaging
import Testing

@Suite struct PNGRoundTripTests {
    static let shapes: [(bitDepth: Int, channels: Int)] = [8, 16].flatMap { depth in (1...4).map { (depth, $0) } }

    static func image(bitDepth: Int, channels: Int, seed: UInt64) -> PNGImage {
        var random = SplitMix64(state: seed)
        // Odd sizes catch row-length and stride mistakes.
        let width = 13
        let height = 9
        let text = [
            PNGText(key: "Software", value: "Obscura"),
            PNGText(key: "Description", value: "Latin-1: café, ½, ÿ"),
            PNGText(key: "Title", value: "非Latin-1: カメラ 📷"),
        ]
        if bitDepth == 8 {
            let plane = UInt8Image(width: width, height: height, channels: channels) { _, _, _ in
                UInt8(truncatingIfNeeded: random.next())
            }
            return PNGImage(pixels: plane, text: text)
        }
        let plane = UInt16Image(width: width, height: height, channels: channels) { _, _, _ in
            UInt16(truncatingIfNeeded: random.next())
        }
        return PNGImage(pixels: plane, text: text)
    }

    @Test(arguments: shapes)
    func pixelsTextAndTagRoundTrip(bitDepth: Int, channels: Int) throws {
        for colorSpace in [PNGColorSpace.untagged, .sRGB, .displayP3] {
            var image = Self.image(bitDepth: bitDepth, channels: channels, seed: UInt64(bitDepth * 10 + channels))
            image.colorSpace = colorSpace
            let decoded = try PNG.decode(try PNG.encode(image))
            #expect(decoded.pixels == image.pixels)
            #expect(decoded.bitDepth == bitDepth && decoded.channels == channels)
            #expect(decoded.text == image.text)
            #expect(decoded.colorSpace == colorSpace, "\(colorSpace) at \(bitDepth)-bit x\(channels)")
        }
    }

    /// Images of 4 MB and more are filtered and deflated in bands of rows on all cores, the band
    /// streams joined into one zlib stream: libpng's own decoder must read them back exactly.
    @Test(arguments: [(8, 3, 1100, 1300), (16, 2, 700, 1509)])
    func largeImagesCompressedInBandsRoundTrip(bitDepth: Int, channels: Int, width: Int, height: Int) throws {
        var random = SplitMix64(state: 7)
        // Smooth ramps (which the Sub, Up, Average and Paeth filters shrink) with noisy patches (which they do not).
        func sample(_ x: Int, _ y: Int, _ c: Int, _ top: Int) -> Int {
            let noise = (x / 64 + y / 64) % 3 == 0 ? Int(truncatingIfNeeded: random.next() % 64) : 0
            return (x * (c + 1) + 2 * y + noise) % (top + 1)
        }
        let image: PNGImage
        if bitDepth == 8 {
            image = PNGImage(pixels: UInt8Image(width: width, height: height, channels: channels) { x, y, c in
                UInt8(sample(x, y, c, 255))
            }, colorSpace: .displayP3, text: [PNGText(key: "Software", value: "Obscura")])
        } else {
            image = PNGImage(pixels: UInt16Image(width: width, height: height, channels: channels) { x, y, c in
                UInt16(sample(x * 97, y * 31, c, 65535))
            }, colorSpace: .sRGB, text: [PNGText(key: "Software", value: "Obscura")])
        }
        for level in [nil, 0, 1, 9] {
            let png = try PNG.encode(image, compressionLevel: level)
            let decoded = try PNG.decode(png)
            #expect(decoded.pixels == image.pixels, "level \(String(describing: level))")
            #expect(decoded.text == image.text && decoded.colorSpace == image.colorSpace)
            #expect(chunks(of: png).last?.type == "IEND")
            #expect(try PNG.encode(image, compressionLevel: level) == png, "same bytes every time")
        }
    }

    @Test func sixteenBitSamplesAreBigEndianInTheFile() throws {
        let plane = UInt16Image(width: 1, height: 1, elements: [0x1234])
        let png = try PNG.encode(PNGImage(pixels: plane), compressionLevel: 0)
        // With level 0 zlib stores the scanline verbatim: filter byte 0 then the sample, high byte first.
        let idat = chunks(of: png).first { $0.type == "IDAT" }
        let data = try #require(idat?.data)
        #expect(data.count >= 10)
        // zlib header (2) + stored-block header (5) + filter byte (1), then the sample.
        #expect(Array(data[8..<10]) == [0x12, 0x34])
    }

    @Test func chunkLayoutAndChecksumsFollowTheSpec() throws {
        let image = PNGImage(pixels: sampleImage(channels: 4), colorSpace: .displayP3,
                             text: [PNGText(key: "Software", value: "Obscura"), PNGText(key: "Title", value: "写真")])
        let png = try PNG.encode(image)
        #expect(Array(png.prefix(8)) == pngSignature)
        let found = chunks(of: png)
        // Every byte belongs to a chunk, and each CRC (computed here independently) matches (PNG spec §5.3).
        #expect(found.last.map { $0.offset + 12 + $0.data.count } == png.count)
        for chunk in found {
            let stored = readBigEndian(png, chunk.offset + 8 + chunk.data.count)
            #expect(stored == crc32(Array(chunk.type.utf8) + chunk.data), "\(chunk.type)")
        }
        let types = found.map(\.type)
        #expect(types.first == "IHDR" && types.last == "IEND")
        let firstIDAT = try #require(types.firstIndex(of: "IDAT"))
        // Colour chunks must precede the image data (§5.6); text is written there too.
        for type in ["cHRM", "gAMA", "iCCP", "tEXt", "iTXt"] {
            #expect(types.firstIndex(of: type).map { $0 < firstIDAT } == true, "\(type)")
        }
    }

    @Test func sRGBWritesTheRecommendedChunks() throws {
        let png = try PNG.encode(PNGImage(pixels: sampleImage(), colorSpace: .sRGB))
        let found = chunks(of: png)
        let types = found.map(\.type)
        #expect(types.contains("sRGB") && types.contains("gAMA") && types.contains("cHRM"))
        #expect(!types.contains("iCCP"))
        // gAMA 45455 = 1/2.2 and the sRGB white (31270, 32900), PNG spec §11.3.3.5.
        #expect(found.first { $0.type == "gAMA" }.map { readBigEndian($0.data, 0) } == 45455)
        let chrm = try #require(found.first { $0.type == "cHRM" })
        #expect(readBigEndian(chrm.data, 0) == 31270 && readBigEndian(chrm.data, 4) == 32900)
    }

    @Test func displayP3WritesChromaticitiesGammaAndProfile() throws {
        let png = try PNG.encode(PNGImage(pixels: sampleImage(), colorSpace: .displayP3))
        let found = chunks(of: png)
        #expect(!found.contains { $0.type == "sRGB" })
        let chrm = try #require(found.first { $0.type == "cHRM" })
        let values = (0..<8).map { readBigEndian(chrm.data, $0 * 4) }
        #expect(values == [31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000])
        #expect(found.first { $0.type == "gAMA" }.map { readBigEndian($0.data, 0) } == 45455)
        let iccp = try #require(found.first { $0.type == "iCCP" })
        #expect(iccp.data.starts(with: Array("Display P3".utf8) + [0, 0]))

        let decoded = try PNG.decode(png)
        #expect(decoded.colorSpace == .displayP3)
        #expect(decoded.decodedColorChunks?.iccProfile == ICCProfile.displayP3)
        #expect(decoded.decodedColorChunks?.iccProfileName == "Display P3")
    }

    @Test func greyDisplayP3HasNoRGBProfile() throws {
        let grey = PNGImage(pixels: sampleImage(channels: 1), colorSpace: .displayP3)
        let png = try PNG.encode(grey)
        #expect(!chunks(of: png).contains { $0.type == "iCCP" })
        #expect(try PNG.decode(png).colorSpace == .displayP3)
    }

    @Test func otherChromaticitiesRoundTripRaw() throws {
        let adobe = PrimaryChromaticities(
            white: .init(x: 0.3127, y: 0.3290), red: .init(x: 0.64, y: 0.33), green: .init(x: 0.21, y: 0.71),
            blue: .init(x: 0.15, y: 0.06))
        let chunks = PNGColorChunks(gamma: 1 / 2.2, chromaticities: adobe)
        let decoded = try PNG.decode(try PNG.encode(PNGImage(pixels: sampleImage(), colorSpace: .other(chunks))))
        guard case .other(let back) = decoded.colorSpace else {
            Issue.record("expected .other, got \(decoded.colorSpace)")
            return
        }
        #expect(back.chromaticities == adobe)
        #expect(abs((back.gamma ?? 0) - 0.45455) < 1e-9)
    }

    @Test func badTextIsRejected() {
        for key in ["", " lead", "trail ", "double  space", String(repeating: "k", count: 80), "ключ"] {
            let image = PNGImage(pixels: sampleImage(), text: [PNGText(key: key, value: "v")])
            #expect(throws: PNGError.self, "key \"\(key)\"") { try PNG.encode(image) }
        }
        let nul = PNGImage(pixels: sampleImage(), text: [PNGText(key: "k", value: "a\u{0}b")])
        #expect(throws: PNGError.self) { try PNG.encode(nul) }
    }

    @Test func unsupportedShapesAreRejected() {
        let five = PNGImage(pixels: UInt8Image(width: 2, height: 2, channels: 5))
        let empty = PNGImage(pixels: UInt8Image(width: 0, height: 3))
        #expect(throws: PNGError.self) { try PNG.encode(five) }
        #expect(throws: PNGError.self) { try PNG.encode(empty) }
    }

    @Test func fileRoundTripAndMissingFileNamesThePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = "\(directory.path)/photo.png"
        let image = PNGImage(pixels: sampleImage(), colorSpace: .sRGB, text: [PNGText(key: "Software", value: "x")])
        try PNG.write(image, to: path)
        let back = try PNG.read(contentsOf: path)
        #expect(back.pixels == image.pixels && back.text == image.text && back.colorSpace == .sRGB)
        #expect(try directory.contents() == ["photo.png"])

        let missing = "\(directory.path)/missing.png"
        do {
            _ = try PNG.read(contentsOf: missing)
            Issue.record("reading a missing file succeeded")
        } catch {
            #expect(error.path == missing)
            #expect(error.description.contains(missing))
        }
    }
}
