/// Pixel format codes with Apple's values (CVPixelBuffer.h): four ASCII characters, big-endian.

/// `'420v'`: 8-bit 4:2:0 bi-planar Y'CbCr, video range (luma 16–235, chroma 16–240).
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// `'420f'`: 8-bit 4:2:0 bi-planar Y'CbCr, full range (0–255).
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066
/// `'x420'`: 10-bit 4:2:0 bi-planar Y'CbCr, video range (luma 64–940, chroma 64–960), each sample in the high ten
/// bits of a little-endian 16-bit word.
public let kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3230
/// `'xf20'`: 10-bit 4:2:0 bi-planar Y'CbCr, full range (0–1023), stored as `'x420'`.
public let kCVPixelFormatType_420YpCbCr10BiPlanarFullRange: OSType = 0x7866_3230
/// `'BGRA'`: 32-bit BGRA.
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// `32`: 32-bit ARGB, alpha first (the code is the number 32, not four characters).
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// `'RGhA'`: 64-bit RGBA, IEEE half-float components.
public let kCVPixelFormatType_64RGBAHalf: OSType = 0x5247_6841
/// `'L008'`: one 8-bit component.
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// `'L00f'`: one 32-bit float component (Vision's saliency heat maps).
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066
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
/// `'grb4'`: Bayer 14-bit, GRBG.
public let kCVPixelFormatType_14Bayer_GRBG: OSType = 0x6772_6234
/// `'bgg4'`: Bayer 14-bit, BGGR.
public let kCVPixelFormatType_14Bayer_BGGR: OSType = 0x6267_6734
/// `'gbr4'`: Bayer 14-bit, GBRG.
public let kCVPixelFormatType_14Bayer_GBRG: OSType = 0x6762_7234
/// `'l64r'`: 16-bit little-endian RGBA, the format Apple ProRAW photos are delivered in.
public let kCVPixelFormatType_64RGBALE: OSType = 0x6C36_3472

/// `'y420'` and `'f420'`: 8-bit 4:2:0 three-plane Y'CbCr, video and full range. No emulated output delivers them.
public let kCVPixelFormatType_420YpCbCr8Planar: OSType = 0x7934_3230
public let kCVPixelFormatType_420YpCbCr8PlanarFullRange: OSType = 0x6634_3230
/// The formats the camera compresses in memory to save bandwidth (iOS 13 and later on recent chips), lossless
/// (`'&…'`) and lossy (`'-…'`): `'&BGA'`, `'-BGA'`, `'&8v0'`, `'-8v0'`, `'&8f0'`, `'-8f0'`, `'&xv0'`, `'-xv0'`. No
/// emulated output lists them among its available formats, and `CVPixelBufferCreate` refuses them, so code that
/// checks for them falls back to the uncompressed formats.
public let kCVPixelFormatType_Lossless_32BGRA: OSType = 0x2642_4741
public let kCVPixelFormatType_Lossy_32BGRA: OSType = 0x2D42_4741
public let kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarVideoRange: OSType = 0x2638_7630
public let kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarVideoRange: OSType = 0x2D38_7630
public let kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarFullRange: OSType = 0x2638_6630
public let kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarFullRange: OSType = 0x2D38_6630
public let kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2678_7630
public let kCVPixelFormatType_Lossy_420YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2D78_7630

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
        case kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange:
            return PixelFormatLayout(planes: [
                .init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 2),
                .init(widthDivisor: 2, heightDivisor: 2, bytesPerPixel: 4),
            ])
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_32ARGB:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 4)])
        case kCVPixelFormatType_64RGBAHalf:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 8)])
        case kCVPixelFormatType_OneComponent8:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 1)])
        case kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_14Bayer_RGGB:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 2)])
        case kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_OneComponent32Float:
            return PixelFormatLayout(planes: [.init(widthDivisor: 1, heightDivisor: 1, bytesPerPixel: 4)])
        default:
            return nil
        }
    }
}

/// How a bi-planar 4:2:0 Y'CbCr format holds ITU-R BT.601 Y'CbCr: its quantisation (BT.601 §2.5: video range luma
/// 16–235 and chroma 16–240 at 8 bits, the same times four at 10 bits; full range 0 to 2ⁿ − 1 with chroma centred
/// on 2ⁿ⁻¹) and its samples (a byte each, or ten bits in the high bits of a little-endian 16-bit word). The one
/// place that writes (`PixelBufferFilling`) and the places that read frames (Core Image, Vision, extended linear
/// sRGB) all take it from here.
package struct YCbCrCoding: Sendable, Equatable {
    /// 8 or 10.
    package let bits: Int
    package let fullRange: Bool

    /// The coding of a bi-planar Y'CbCr format; nil for any other.
    package static func of(_ format: OSType) -> YCbCrCoding? {
        switch format {
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: YCbCrCoding(bits: 8, fullRange: false)
        case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: YCbCrCoding(bits: 8, fullRange: true)
        case kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange: YCbCrCoding(bits: 10, fullRange: false)
        case kCVPixelFormatType_420YpCbCr10BiPlanarFullRange: YCbCrCoding(bits: 10, fullRange: true)
        default: nil
        }
    }

    /// The largest code, 2ⁿ − 1.
    package var maximum: Float { Float((1 << bits) - 1) }
    private var step: Float { Float(1 << (bits - 8)) }
    /// Code of Y' = 0, and codes per unit of Y'.
    package var lumaOffset: Float { fullRange ? 0 : 16 * step }
    package var lumaScale: Float { fullRange ? maximum : 219 * step }
    /// Code of Cb = Cr = 0, and codes per unit of Cb or Cr.
    package var chromaCentre: Float { Float(1 << (bits - 1)) }
    package var chromaScale: Float { fullRange ? maximum : 224 * step }

    /// The code of sample `index` of a row.
    @inline(__always)
    package func code(_ row: UnsafeRawPointer, _ index: Int) -> Float {
        if bits == 8 { return Float(row.load(fromByteOffset: index, as: UInt8.self)) }
        return Float(UInt16(littleEndian: row.loadUnaligned(fromByteOffset: 2 * index, as: UInt16.self)) >> 6)
    }

    /// Stores `value` (a code before rounding) as sample `index` of a row, rounded and clamped to 0…2ⁿ − 1.
    @inline(__always)
    package func store(_ value: Float, _ row: UnsafeMutableRawPointer, _ index: Int) {
        let code = min(max(value.rounded(), 0), maximum)
        if bits == 8 {
            row.storeBytes(of: UInt8(code), toByteOffset: index, as: UInt8.self)
        } else {
            row.storeBytes(of: (UInt16(code) << 6).littleEndian, toByteOffset: 2 * index, as: UInt16.self)
        }
    }

    /// Y' (0…1) of encoded R'G'B' by the BT.601 matrix.
    @inline(__always)
    package static func luma(_ r: Float, _ g: Float, _ b: Float) -> Float { 0.299 * r + 0.587 * g + 0.114 * b }

    /// Encoded R'G'B' of codes `(y, cb, cr)`, clamped to 0…1, the range the encoding holds.
    @inline(__always)
    package func rgb(_ y: Float, _ cb: Float, _ cr: Float) -> SIMD3<Float> {
        let l = (y - lumaOffset) / lumaScale
        let u = (cb - chromaCentre) / chromaScale, v = (cr - chromaCentre) / chromaScale
        // BT.601: B' − Y' = 1.772 Cb, R' − Y' = 1.402 Cr, G' from Y' = 0.299 R' + 0.587 G' + 0.114 B'.
        let b = l + 1.772 * u, r = l + 1.402 * v
        let g = (l - 0.299 * r - 0.114 * b) / 0.587
        return SIMD3(min(max(r, 0), 1), min(max(g, 0), 1), min(max(b, 0), 1))
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
