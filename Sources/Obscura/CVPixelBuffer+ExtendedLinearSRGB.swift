import ISP
import Imaging

/// Wide-colour frames as extended linear sRGB: what an app gets by rendering a Display P3 frame into a
/// `CGColorSpace.extendedLinearSRGB` context, done with ISP's `WideColor`.
///
/// The buffer's `kCVImageBufferColorPrimariesKey` decides how its values are read: `P3_D65` as Display P3,
/// anything else (or none) as sRGB. Values are first decoded to encoded R'G'B' (Y'CbCr through the inverse of
/// the ITU-R BT.601 matrix, full or video range, 8 or 10 bits (`YCbCrCoding`), chroma taken from the 2 × 2
/// block; clamped to 0…1, the range the encoding can hold), then linearised with the IEC 61966-2-1 curve and, for P3, converted to sRGB's
/// primaries without clamping. P3 colours outside sRGB therefore come out below 0 or above 1.
extension CVPixelBuffer {
    /// The frame as 3-channel extended linear sRGB floats; nil for a pixel format that holds no colour image
    /// (depth, disparity, one-component formats).
    public func extendedLinearSRGB() -> FloatPlane? {
        guard let encoded = encodedRGB() else { return nil }
        return isDisplayP3 ? WideColor.extendedLinearSRGB(fromDisplayP3: encoded)
            : WideColor.extendedLinearSRGB(fromSRGB: encoded)
    }

    #if !(os(macOS) && arch(x86_64))
    /// The frame as 3-channel extended linear sRGB half floats (as a `kCVPixelFormatType_64RGBAHalf` buffer in
    /// `extendedLinearSRGB` would hold them); nil for a pixel format that holds no colour image.
    public func extendedLinearSRGBHalf() -> HalfPlane? {
        guard let encoded = encodedRGB() else { return nil }
        if isDisplayP3 { return WideColor.extendedLinearSRGBHalf(fromDisplayP3: encoded) }
        let linear = WideColor.extendedLinearSRGB(fromSRGB: encoded)
        return linear.mapPixels(to: Float16.self, outputChannels: 3) { $0 }
    }
    #endif

    /// Whether the primaries attachment says Display P3.
    var isDisplayP3: Bool {
        (attachments[kCVImageBufferColorPrimariesKey as String] as? String) == kCVImageBufferColorPrimaries_P3_D65 as String
    }

    /// The buffer's values as encoded R'G'B', 0…1, 3 channels.
    func encodedRGB() -> FloatPlane? {
        let p = planes[0]
        switch pixelFormat {
        case kCVPixelFormatType_32BGRA:
            return FloatPlane(width: width, height: height, channels: 3) { x, y, c in
                let row = p.base.advanced(by: y * p.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                return Float(row[4 * x + 2 - c]) / 255
            }
        case kCVPixelFormatType_64RGBAHalf:
            return FloatPlane(width: width, height: height, channels: 3) { x, y, c in
                let row = p.base.advanced(by: y * p.bytesPerRow).assumingMemoryBound(to: Float16.self)
                return min(max(Float(row[4 * x + c]), 0), 1)
            }
        case let format where YCbCrCoding.of(format) != nil:
            let coding = YCbCrCoding.of(format)!, chroma = planes[1]
            return FloatPlane(width: width, height: height, channels: 3) { x, y, c in
                let lumaRow = UnsafeRawPointer(p.base.advanced(by: y * p.bytesPerRow))
                let chromaRow = UnsafeRawPointer(chroma.base.advanced(by: (y / 2) * chroma.bytesPerRow))
                let rgb = coding.rgb(
                    coding.code(lumaRow, x), coding.code(chromaRow, 2 * (x / 2)),
                    coding.code(chromaRow, 2 * (x / 2) + 1))
                return rgb[c]
            }
        default:
            return nil
        }
    }
}

extension CMSampleBuffer {
    /// The sample's image as extended linear sRGB floats (see `CVPixelBuffer.extendedLinearSRGB()`); nil without
    /// a colour image.
    public func extendedLinearSRGB() -> FloatPlane? {
        imageBuffer?.extendedLinearSRGB()
    }
}
