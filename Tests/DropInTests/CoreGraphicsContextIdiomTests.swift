import AVFoundation
import CoreVideo
import Foundation
import Testing

// Bitmap contexts, cropping and colours as camera code writes them: a frame's pixel buffer wrapped in a context and
// made an image, a photo cropped and scaled into a smaller context, overlay colours.

extension DropIn {
    @Suite struct CoreGraphicsContextIdiomTests {
        /// A 4 × 2 BGRA buffer, as a video data output's frames are laid out, each pixel's bytes (b, g, r, 255).
        static func bgraBuffer() throws -> CVPixelBuffer {
            var buffer: CVPixelBuffer?
            CVPixelBufferCreate(kCFAllocatorDefault, 4, 2, kCVPixelFormatType_32BGRA, nil, &buffer)
            let pixelBuffer = try #require(buffer)
            CVPixelBufferLockBaseAddress(pixelBuffer, [])
            let base = try #require(CVPixelBufferGetBaseAddress(pixelBuffer)).assumingMemoryBound(to: UInt8.self)
            let stride = CVPixelBufferGetBytesPerRow(pixelBuffer)
            for y in 0..<2 {
                for x in 0..<4 {
                    let p = base + y * stride + 4 * x
                    (p[0], p[1], p[2], p[3]) = (UInt8(10 * x), UInt8(100 + y), UInt8(200 - x), 255)
                }
            }
            CVPixelBufferUnlockBaseAddress(pixelBuffer, [])
            return pixelBuffer
        }

        /// The bytes of an image, row by row.
        static func bytes(_ image: CGImage) -> [UInt8] {
            [UInt8](image.dataProvider?.data.map { $0 as Data } ?? Data())
        }

        /// The common frame-to-image idiom: a context over the buffer's memory (little-endian 32-bit words with
        /// alpha first: B, G, R, A in memory) and `makeImage()`, which copies the pixels as they are.
        @Test func aFramesBufferBecomesAnImage() throws {
            let pixelBuffer = try Self.bgraBuffer()
            CVPixelBufferLockBaseAddress(pixelBuffer, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(pixelBuffer, .readOnly) }
            let bitmapInfo: UInt32 =
                CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue
            let context = CGContext(
                data: CVPixelBufferGetBaseAddress(pixelBuffer), width: CVPixelBufferGetWidth(pixelBuffer),
                height: CVPixelBufferGetHeight(pixelBuffer), bitsPerComponent: 8,
                bytesPerRow: CVPixelBufferGetBytesPerRow(pixelBuffer), space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: bitmapInfo)
            let image = try #require(context?.makeImage())
            #expect(image.width == 4 && image.height == 2 && image.bitsPerPixel == 32)
            #expect(image.alphaInfo == .premultipliedFirst)
            let row = image.bytesPerRow
            let bytes = Self.bytes(image)
            #expect(Array(bytes[(row + 8)..<(row + 12)]) == [20, 101, 198, 255])
        }

        /// Drawing an image into a context of its own size reproduces it; into half its size, each pixel is the
        /// mean of the 2 × 2 pixels it covers (bilinear at the midpoint), the image upright (first row on top).
        @Test func drawingScalesAnImageUpright() throws {
            let space = CGColorSpaceCreateDeviceRGB()
            let info = CGImageAlphaInfo.premultipliedLast.rawValue
            let source = try #require(
                CGContext(
                    data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: space, bitmapInfo: info)
            )
            #expect(source.bytesPerRow == 16)
            // User space is y up: the rect at y 2…4 is the bitmap's top two rows.
            source.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            source.fill(CGRect(x: 0, y: 2, width: 4, height: 2))
            source.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
            source.fill(CGRect(x: 0, y: 0, width: 4, height: 2))
            let image = try #require(source.makeImage())
            let stored = Self.bytes(image)
            #expect(Array(stored[0..<4]) == [255, 0, 0, 255])
            #expect(Array(stored[48..<52]) == [0, 0, 255, 255])

            let same = try #require(
                CGContext(
                    data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: space, bitmapInfo: info)
            )
            same.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 4))
            #expect(Self.bytes(try #require(same.makeImage())) == stored)

            let half = try #require(
                CGContext(
                    data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: space, bitmapInfo: info)
            )
            half.draw(image, in: CGRect(x: 0, y: 0, width: 2, height: 2))
            let small = Self.bytes(try #require(half.makeImage()))
            #expect(Array(small[0..<4]) == [255, 0, 0, 255])
            #expect(Array(small[8..<12]) == [0, 0, 255, 255])
        }

        /// Transforms: a context flipped as UIKit flips one (translate by the height, scale y by −1) draws the image
        /// upside down; half-transparent fills composite over what is there.
        @Test func theTransformAndAlphaApply() throws {
            let space = CGColorSpaceCreateDeviceRGB()
            let info = CGImageAlphaInfo.premultipliedLast.rawValue
            let context = try #require(
                CGContext(
                    data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: space, bitmapInfo: info)
            )
            context.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
            context.fill(CGRect(x: 0, y: 1, width: 2, height: 1))
            let topWhite = try #require(context.makeImage())
            context.clear(CGRect(x: 0, y: 0, width: 2, height: 2))
            #expect(Self.bytes(try #require(context.makeImage())) == [UInt8](repeating: 0, count: 16))
            context.saveGState()
            context.translateBy(x: 0, y: 2)
            context.scaleBy(x: 1, y: -1)
            #expect(context.ctm == CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 2))
            context.draw(topWhite, in: CGRect(x: 0, y: 0, width: 2, height: 2))
            context.restoreGState()
            #expect(context.ctm.isIdentity)
            let flipped = Self.bytes(try #require(context.makeImage()))
            #expect(Array(flipped[0..<4]) == [0, 0, 0, 0] && Array(flipped[8..<12]) == [255, 255, 255, 255])
            // Black at half opacity over the white row: premultiplied 0 + 255 × (1 − 0.5).
            context.setFillColor(gray: 0, alpha: 0.5)
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            let over = Self.bytes(try #require(context.makeImage()))
            #expect(Array(over[8..<12]) == [128, 128, 128, 255])
        }

        /// Layouts bitmap contexts do not support give nil, as Core Graphics answers.
        @Test func unsupportedLayoutsAreNil() {
            let rgb = CGColorSpaceCreateDeviceRGB()
            #expect(
                CGContext(
                    data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                    bitmapInfo: CGImageAlphaInfo.last.rawValue) == nil)
            #expect(
                CGContext(
                    data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 4, space: rgb,
                    bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue) == nil)
            #expect(
                CGContext(
                    data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
                    space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue) != nil)
        }

        /// `cropping(to:)` in the image's pixels (origin at the first row): the rows and columns asked for, the
        /// rectangle clipped to the image, nil when nothing is left.
        @Test func croppingTakesThePixelsAsked() throws {
            let pixelBuffer = try Self.bgraBuffer()
            CVPixelBufferLockBaseAddress(pixelBuffer, .readOnly)
            let context = try #require(
                CGContext(
                    data: CVPixelBufferGetBaseAddress(pixelBuffer), width: 4, height: 2, bitsPerComponent: 8,
                    bytesPerRow: CVPixelBufferGetBytesPerRow(pixelBuffer), space: CGColorSpaceCreateDeviceRGB(),
                    bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue))
            let image = try #require(context.makeImage())
            CVPixelBufferUnlockBaseAddress(pixelBuffer, .readOnly)
            let crop = try #require(image.cropping(to: CGRect(x: 1, y: 1, width: 2, height: 5)))
            #expect(crop.width == 2 && crop.height == 1)
            #expect(Self.bytes(crop) == [10, 101, 199, 255, 20, 101, 198, 255])
            #expect(image.cropping(to: CGRect(x: 10, y: 0, width: 2, height: 2)) == nil)
        }

        @Test func coloursOfASpace() throws {
            let colour = try #require(
                CGColor(colorSpace: CGColorSpaceCreateDeviceRGB(), components: [1.0, 1.0, 0.2, 0.4]))
            #expect(colour.components == [1.0, 1.0, 0.2, 0.4])
            #expect(colour.alpha == 0.4 && colour.numberOfComponents == 4)
            #expect(colour.colorSpace?.model == .rgb)
            let grey = try #require(CGColor(colorSpace: CGColorSpaceCreateDeviceGray(), components: [0.5, 1]))
            #expect(grey.numberOfComponents == 2)
        }

        /// NextLevel's flash check reads the Objective-C array of numbers.
        @Test func flashModesAsNumbers() throws {
            let session = AVCaptureSession()
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.addInput(try AVCaptureDeviceInput(device: camera))
            let output = AVCapturePhotoOutput()
            session.addOutput(output)
            let modes = output.__supportedFlashModes
            #expect(!modes.isEmpty)
            #expect(modes.map(\.intValue) == output.supportedFlashModes.map(\.rawValue))
        }
    }
}
