import Foundation
import Imaging
import Testing

/// Files from an independent encoder (tools/make_png_corpus.py); expected pixels follow the script's formulas.
@Suite struct CorpusTests {
    static func load(_ name: String) throws -> PNGImage {
        let url = try #require(Bundle.module.url(forResource: "Corpus/\(name)", withExtension: nil))
        return try PNG.read(contentsOf: url.path)
    }

    static func eightBit(_ image: PNGImage) throws -> UInt8Image {
        guard case .eightBit(let plane) = image.pixels else {
            throw PNGError(code: .invalidImage, message: "not 8-bit")
        }
        return plane
    }

    @Test func oneBitGreyExpandsToFullRange() throws {
        let plane = try Self.eightBit(Self.load("grey-1bit.png"))
        #expect(plane.channels == 1 && plane.width == 9 && plane.height == 3)
        #expect(plane == UInt8Image(width: 9, height: 3) { x, y, _ in (x + y) % 2 == 1 ? 255 : 0 })
    }

    @Test func paletteWithTransparencyBecomesRGBA() throws {
        let plane = try Self.eightBit(Self.load("palette-trns.png"))
        let palette: [[UInt8]] = [[10, 20, 30, 0], [200, 0, 0, 255], [0, 200, 0, 128], [0, 0, 200, 255]]
        #expect(plane == UInt8Image(width: 6, height: 2, channels: 4) { x, y, c in palette[(x + 2 * y) % 4][c] })
    }

    @Test func sixteenBitSamplesReadBigEndian() throws {
        let image = try Self.load("rgb-16bit-sub-filter.png")
        guard case .sixteenBit(let plane) = image.pixels else {
            Issue.record("expected 16-bit samples")
            return
        }
        let expected = UInt16Image(width: 5, height: 4, channels: 3) { x, y, c -> UInt16 in
            let value: Int = (4099 * x + 257 * y + 16411 * c) % 65536
            return UInt16(value)
        }
        #expect(plane == expected)
    }

    @Test func adam7InterlacingIsUndone() throws {
        let plane = try Self.eightBit(Self.load("grey-adam7.png"))
        #expect(plane == UInt8Image(width: 11, height: 7) { x, y, _ in UInt8((23 * x + 7 * y) % 256) })
    }

    @Test func chromaticitiesAloneIdentifyDisplayP3() throws {
        let image = try Self.load("rgb-chrm-p3.png")
        #expect(image.colorSpace == .displayP3)
        #expect(image.decodedColorChunks?.gamma == 0.45455)
        let green: UInt8 = 114  // (60·3 + 50·2 + 90·1) mod 256 = 370 mod 256
        #expect(try Self.eightBit(image)[3, 2, 1] == green)
    }

    @Test func version2ProfileDescriptionIdentifiesDisplayP3() throws {
        let image = try Self.load("rgb-iccp-v2-display-p3.png")
        #expect(image.colorSpace == .displayP3)
        #expect(image.decodedColorChunks?.iccProfileName == "Display P3")
    }

    @Test func compressedTextIsRead() throws {
        let image = try Self.load("rgb-compressed-text.png")
        #expect(image.text == [PNGText(key: "Comment", value: "Grüße"), PNGText(key: "Title", value: "写真")])
    }
}
