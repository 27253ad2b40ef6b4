import Foundation
import Imaging

/// Core Graphics images of a photo and of its preview (spec §5).
extension AVCapturePhoto {
    /// The processed photo as an image in the photo's colour space; nil for a RAW photo (Apple
    /// would demosaic it; Obscura does not [I]) and when the photo could not be rendered.
    public func cgImageRepresentation() -> CGImage? {
        guard let (pixels, encoding) = processedPixels else { return nil }
        return CGImage(pixels, encoding: encoding)
    }

    /// The preview image asked for with `previewPhotoFormat`, at its delivered size; nil when no
    /// preview was asked (spec §5 [D]).
    public func previewCGImageRepresentation() -> CGImage? {
        guard let preview, let (_, encoding) = processedPixels, let pixels = previewPixels(preview) else { return nil }
        return CGImage(pixels, encoding: encoding)
    }

    /// The processed photo's encoded RGB; nil for RAW photos and failed renders.
    package var processedPixelPlane: PixelPlane<UInt8>? { processedPixels?.pixels }

    /// An image of pixels derived from this photo (a scanned print), in the photo's colour space.
    package func derivedCGImage(_ pixels: PixelPlane<UInt8>) -> CGImage? {
        guard let (_, encoding) = processedPixels else { return nil }
        return CGImage(pixels, encoding: encoding)
    }
}

extension CGImage {
    /// An image of encoded 8-bit RGB.
    convenience init(_ pixels: PixelPlane<UInt8>, encoding: PhotoEncoding) {
        var bytes = [UInt8](repeating: 255, count: 4 * pixels.width * pixels.height)
        var i = 0
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                for c in 0..<3 { bytes[i + c] = pixels[x, y, c] }
                i += 4
            }
        }
        self.init(
            width: pixels.width, height: pixels.height,
            colorSpaceName: encoding == .sRGB ? CGColorSpace.sRGB : CGColorSpace.displayP3, pixelData: Data(bytes))
    }
}
