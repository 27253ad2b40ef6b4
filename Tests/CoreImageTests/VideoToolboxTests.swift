import AVFoundation
import CoreImage
import Foundation
import Testing
import VideoToolbox

/// `VTCreateCGImageFromCVPixelBuffer`, as Apple's Constant Color sample calls it to show a photo's confidence map.
struct VideoToolboxTests {
    static func buffer(_ w: Int, _ h: Int, _ format: OSType, _ fill: (Int, Int, UnsafeMutablePointer<UInt8>) -> Void)
        -> CVPixelBuffer
    {
        var made: CVPixelBuffer?
        _ = CVPixelBufferCreate(nil, w, h, format, nil, &made)
        let b = made!
        CVPixelBufferLockBaseAddress(b, [])
        defer { CVPixelBufferUnlockBaseAddress(b, []) }
        let base = CVPixelBufferGetBaseAddress(b)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(b)
        for y in 0..<h { for x in 0..<w { fill(x, y, base + y * stride) } }
        return b
    }

    // A confidence map (one 8-bit component) becomes a grey image holding the same values.
    @Test func aOneComponentBufferBecomesAGreyImageOfTheSameBytes() throws {
        let map = Self.buffer(12, 9, kCVPixelFormatType_OneComponent8) { x, y, row in row[x] = UInt8(20 * x + y) }
        var image: CGImage?
        #expect(VTCreateCGImageFromCVPixelBuffer(map, options: nil, imageOut: &image) == noErr)
        let grey = try #require(image)
        #expect(grey.width == 12 && grey.height == 9 && grey.bitsPerPixel == 8)
        let bytes = Fixture.bytes(grey)
        #expect(bytes[3 * grey.bytesPerRow + 5] == UInt8(20 * 5 + 3))
        #expect(bytes[8 * grey.bytesPerRow + 11] == UInt8(20 * 11 + 8))
    }

    // A BGRA video frame becomes RGBA of the same colours.
    @Test func aBGRAFrameBecomesRGBAOfTheSameColours() throws {
        let frame = Self.buffer(4, 2, kCVPixelFormatType_32BGRA) { x, _, row in
            row[4 * x] = 30; row[4 * x + 1] = 120; row[4 * x + 2] = 200; row[4 * x + 3] = 255
        }
        var image: CGImage?
        #expect(VTCreateCGImageFromCVPixelBuffer(frame, options: nil, imageOut: &image) == noErr)
        let rgba = try #require(image)
        let bytes = Fixture.bytes(rgba)
        #expect(zip(bytes[0..<3], [200, 120, 30] as [UInt8]).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(bytes[0..<4])")
    }
}
