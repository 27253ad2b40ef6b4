import ExternalTools
import Imaging
import Testing

/// HEIC pictures of any size read back at their own size and turn: odd sides and sides under the coder's 64
/// pixels included (a coder that pads leaves the padding outside the stored size), with or without an
/// orientation (the stored pixels are read, the turn left to the reader), and their thumbnails likewise.
@Suite(.needs(.libheif)) struct HEIFSizeTests {
    static func picture(_ w: Int, _ h: Int) -> PixelPlane<UInt8> {
        PixelPlane<UInt8>(width: w, height: h, channels: 3) { x, y, c in
            UInt8(truncatingIfNeeded: [x * 9, y * 13, (x + y) * 5][c])
        }
    }

    @Test(arguments: [(101, 75), (48, 36), (7, 5), (640, 480)])
    func aPictureReadsBackAtItsOwnSize(_ w: Int, _ h: Int) throws {
        for orientation in [1, 6] {
            let exif = ImageProperties.exifTIFF(from: ["Orientation": orientation])
            let thumbnail = Self.picture(max(1, w / 4), max(1, h / 4))
            let file = try HEIF.encode(Self.picture(w, h), quality: 90, iccProfile: nil, exif: exif, thumbnail: thumbnail)
            let decoded = try HEIF.decode(file, maximumPixels: 1 << 24)
            #expect(decoded.pixels.width == w && decoded.pixels.height == h, "orientation \(orientation): \(decoded.pixels.width)×\(decoded.pixels.height)")
            // Stored, not turned: the first row's left end is the drawn one, within coding error.
            #expect(abs(Int(decoded.pixels[0, 0, 2]) - 0) <= 12 && abs(Int(decoded.pixels[w - 1, 0, 0]) - (w - 1) * 9 % 256) <= 24)
            let read = try #require(try HEIF.thumbnail(in: file))
            #expect(read.width == thumbnail.width && read.height == thumbnail.height)
        }
    }
}
