import Imaging
import Testing

/// The frame size a JPEG declares is read from its SOF header before anything is decoded, so an input
/// that declares an enormous picture is refused without the memory its pixels would take.
@Suite struct JPEGFrameSizeTests {
    @Test func frameSizeIsTheEncodedPicturesSize() throws {
        let picture = PixelPlane<UInt8>(width: 37, height: 21, channels: 3, repeating: 90)
        let bytes = try JPEG.encode(picture, quality: 80, segments: [], iccProfile: nil)
        let size = try #require(JPEG.frameSize(bytes))
        #expect(size.width == 37 && size.height == 21)
    }

    // A header written by hand (ITU-T T.81 B.2.2: SOF0 = FFC0, length, precision, Y, X), declaring
    // 40000 × 30000, with application and table segments before it.
    @Test func frameSizeSkipsSegmentsBeforeTheFrameHeader() {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46]
        let dqt: [UInt8] = [0xFF, 0xDB, 0x00, 0x03, 0x00]
        let sof: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x75, 0x30, 0x9C, 0x40, 0x01, 0x01, 0x11, 0x00]
        let size = JPEG.frameSize([0xFF, 0xD8] + app0 + dqt + sof + [0xFF, 0xD9])
        #expect(size?.width == 40000 && size?.height == 30000)
        #expect(JPEG.frameSize([0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(JPEG.frameSize([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]) == nil)
    }
}
