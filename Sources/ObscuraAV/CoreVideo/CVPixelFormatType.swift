/// Pixel format codes with Apple's values (CVPixelBuffer.h): four ASCII characters, big-endian.

/// `'420v'`: 8-bit 4:2:0 bi-planar Y'CbCr, video range (luma 16–235, chroma 16–240).
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// `'420f'`: 8-bit 4:2:0 bi-planar Y'CbCr, full range (0–255).
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066
/// `'x420'`: 10-bit 4:2:0 bi-planar Y'CbCr, video range, 16-bit little-endian samples.
public let kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3230
/// `'BGRA'`: 32-bit BGRA.
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// `'RGhA'`: 64-bit RGBA, IEEE half-float components.
public let kCVPixelFormatType_64RGBAHalf: OSType = 0x5247_6841
/// `'L008'`: one 8-bit component.
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// `'hdep'`: depth in metres, 16-bit float.
public let kCVPixelFormatType_DepthFloat16: OSType = 0x6864_6570
/// `'fdep'`: depth in metres, 32-bit float.
public let kCVPixelFormatType_DepthFloat32: OSType = 0x6664_6570
/// `'hdis'`: disparity in 1/metres, 16-bit float.
public let kCVPixelFormatType_DisparityFloat16: OSType = 0x6864_6973
/// `'fdis'`: disparity in 1/metres, 32-bit float.
public let kCVPixelFormatType_DisparityFloat32: OSType = 0x6664_6973
/// `'rgg4'`: Bayer 14-bit little-endian samples, packed in 16 bits, RGGB (top-left red, then green;
/// the next row green, blue).
public let kCVPixelFormatType_14Bayer_RGGB: OSType = 0x7267_6734

/// The memory layout of a pixel format: its planes and the bytes each pixel takes in them.
struct PixelFormatLayout {
    struct Plane {
        /// Horizontal and vertical subsampling of the plane relative to the image.
        let widthDivisor: Int
        let heightDivisor: Int
        let bytesPerPixel: Int
    }

    let planes: [Plane]
    /// Whether CoreVideo reports the format as planar (bi-planar YUV); single-plane formats are not.
    var isPlanar: Bool { planes.count > 1 }

    static func of(_ format: OSType) -> PixelFormatLayout? {
        switch format {
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            // Luma at full size; interleaved CbCr at half size each way.
            return PixelFormatLayout(planes: [
                .init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 1),
                .init(widthDivisor: 2, heightDivisor: 2, bytesPerPixel: 2),
            ])
        case kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange:
            return PixelFormatLayout(planes: [
                .init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 2),
                .init(widthDivisor: 2, heightDivisor: 2, bytesPerPixel: 4),
            ])
        case kCVPixelFormatType_32BGRA:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 4)])
        case kCVPixelFormatType_64RGBAHalf:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 8)])
        case kCVPixelFormatType_OneComponent8:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 1)])
        case kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_14Bayer_RGGB:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 2)])
        case kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat32:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 4)])
        default:
            return nil
        }
    }
}

/// A four-character code from its text (`"420f"` → 0x34323066), most significant byte first.
package func fourCharCode(_ text: String) -> OSType {
    text.utf8.reduce(0) { ($0 << 8) | OSType($1) }
}

/// The text of a four-character code (`'hdis'` and friends), most significant byte first.
package func fourCharString(_ code: OSType) -> String {
    String(decoding: [24, 16, 8, 0].map { UInt8((code >> OSType($0)) & 0xFF) }, as: UTF8.self)
}
