import Foundation
import Imaging
import ObscuraAV
import Sensor

/// Pictures between `CGImage`s and the 8-bit RGB planes the file codecs take.
enum ImageRGB {
    /// A grey or grey-and-alpha plane as RGB; RGBA loses its alpha (the codecs write opaque pictures).
    static func rgb(_ plane: PixelPlane<UInt8>) -> PixelPlane<UInt8> {
        let grey = plane.channels <= 2
        return PixelPlane<UInt8>(width: plane.width, height: plane.height, channels: 3) { x, y, c in
            plane[x, y, grey ? 0 : c]
        }
    }

    /// The colour space a picture's properties name: Display P3 when its profile does, else sRGB.
    static func colorSpaceName(_ properties: [String: Any]?) -> String {
        (properties?[ImageProperties.profileName] as? String)?.contains("P3") == true
            ? CGColorSpace.displayP3 : CGColorSpace.sRGB
    }

    /// A `CGImage`'s pixels as RGB, for the 8-bit layouts Core Graphics images take (`CGImage.rgba8`): premultiplied
    /// colours are divided by their alpha, and the alpha is left out. Nil for other depths.
    static func rgb(_ image: CGImage) -> PixelPlane<UInt8>? {
        guard let rgba = image.rgba8(premultiplied: false) else { return nil }
        return PixelPlane<UInt8>(width: image.width, height: image.height, channels: 3) { x, y, c in
            rgba[4 * (y * image.width + x) + c]
        }
    }

    /// A picture turned as an Exif orientation says, so that it shows upright.
    static func oriented(_ rgb: PixelPlane<UInt8>, _ orientation: ExifOrientation) -> PixelPlane<UInt8> {
        guard orientation != .up else { return rgb }
        let (w, h) = orientation.swapsAxes ? (rgb.height, rgb.width) : (rgb.width, rgb.height)
        var out = PixelPlane<UInt8>(width: w, height: h, channels: 3, repeating: 0)
        for y in 0..<rgb.height {
            for x in 0..<rgb.width {
                let q = orientation.transform(
                    SIMD2(Double(x) + 0.5, Double(y) + 0.5), width: Double(rgb.width), height: Double(rgb.height))
                let (ox, oy) = (Int(q.x.rounded(.down)), Int(q.y.rounded(.down)))
                for c in 0..<3 { out[ox, oy, c] = rgb[x, y, c] }
            }
        }
        return out
    }
}
