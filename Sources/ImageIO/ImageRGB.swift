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

    /// A `CGImage`'s pixels as RGB, for the 8-bit layouts Core Graphics images take: RGB or grey, with alpha or a
    /// skipped byte first or last, in either 32-bit byte order; premultiplied colours are divided by their alpha.
    /// Nil for other depths.
    static func rgb(_ image: CGImage) -> PixelPlane<UInt8>? {
        guard image.bitsPerComponent == 8, let provided = image.dataProvider?.data else { return nil }
        let data = provided as Data
        let channels = image.bitsPerPixel / 8
        let colours = image.colorSpace?.numberOfComponents ?? 3
        let alpha = image.alphaInfo
        let first = [.premultipliedFirst, .first, .noneSkipFirst].contains(alpha)
        let hasExtra = alpha != .none
        let premultiplied = [.premultipliedLast, .premultipliedFirst].contains(alpha)
        let little = image.bitmapInfo.contains(.byteOrder32Little) && channels == 4
        guard channels >= colours + (hasExtra ? 1 : 0), colours == 1 || colours == 3 else { return nil }
        let stride = image.bytesPerRow
        return data.withUnsafeBytes { raw in
            let src = raw.bindMemory(to: UInt8.self)
            return PixelPlane<UInt8>(width: image.width, height: image.height, channels: 3) { x, y, c in
                let p = y * stride + x * channels
                // The component at position k of the pixel, as the byte order stores it.
                func component(_ k: Int) -> Int { Int(src[p + (little ? channels - 1 - k : k)]) }
                let colourStart = first && hasExtra ? 1 : 0
                let value = component(colourStart + (colours == 1 ? 0 : c))
                guard premultiplied else { return UInt8(value) }
                let a = component(first ? 0 : colours)
                return a == 0 ? 0 : UInt8(min(255, (value * 255 + a / 2) / a))
            }
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
