import Imaging

/// Writes encoded 8-bit RGB into a pixel buffer of an uncompressed photo format.
enum PixelBufferFilling {
    /// A one-channel 8-bit plane as a `OneComponent8` buffer.
    static func oneComponent8(_ plane: PixelPlane<UInt8>) -> CVPixelBuffer? {
        guard let buffer = CVPixelBuffer(width: plane.width, height: plane.height, pixelFormat: kCVPixelFormatType_OneComponent8)
        else { return nil }
        let p = buffer.planes[0]
        for y in 0..<plane.height {
            let row = p.base.advanced(by: y * p.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<plane.width { row[x] = plane[x, y, 0] }
        }
        return buffer
    }

    /// A RAW mosaic as a `kCVPixelFormatType_14Bayer_RGGB` buffer: one 16-bit DN per photosite.
    static func bayer(_ mosaic: BayerMosaic) -> CVPixelBuffer? {
        let plane = mosaic.plane
        guard let buffer = CVPixelBuffer(width: plane.width, height: plane.height, pixelFormat: kCVPixelFormatType_14Bayer_RGGB)
        else { return nil }
        let p = buffer.planes[0]
        for y in 0..<plane.height {
            let row = p.base.advanced(by: y * p.bytesPerRow).assumingMemoryBound(to: UInt16.self)
            for x in 0..<plane.width { row[x] = plane[x, y, 0] }
        }
        return buffer
    }

    static func make(from bytes: PixelPlane<UInt8>, format: OSType) -> CVPixelBuffer? {
        let rgb = EncodedRGB(bytes: bytes)
        guard let buffer = CVPixelBuffer(width: rgb.width, height: rgb.height, pixelFormat: format) else { return nil }
        switch format {
        case kCVPixelFormatType_32BGRA:
            // The same bytes, reordered: the codes need no trip through 0…1.
            let p = buffer.planes[0]
            bytes.writeBGRA(to: p.base, bytesPerRow: p.bytesPerRow)
        case kCVPixelFormatType_64RGBAHalf:
            let p = buffer.planes[0]
            for y in 0..<rgb.height {
                let row = p.base.advanced(by: y * p.bytesPerRow).assumingMemoryBound(to: Float16.self)
                for x in 0..<rgb.width {
                    for c in 0..<3 { row[4 * x + c] = Float16(rgb[x, y, c]) }
                    row[4 * x + 3] = 1
                }
            }
        default:
            guard let coding = YCbCrCoding.of(format) else { return nil }
            fillYCbCr(rgb, buffer, coding)
        }
        return buffer
    }

    /// A buffer of `format` from encoded R'G'B' floats (0…1, clamped). Ten-bit Y'CbCr formats take the floats'
    /// own precision; the others are filled from the 8-bit codes the floats round to, as `make(from:format:)`.
    static func make(from values: PixelPlane<Float>, format: OSType) -> CVPixelBuffer? {
        guard let coding = YCbCrCoding.of(format), coding.bits > 8 else {
            return make(from: PixelPlane<UInt8>(converting: values), format: format)
        }
        let rgb = FloatRGB(values: values)
        guard let buffer = CVPixelBuffer(width: rgb.width, height: rgb.height, pixelFormat: format) else { return nil }
        fillYCbCr(rgb, buffer, coding)
        return buffer
    }

    /// ITU-R BT.601 Y'CbCr quantised as `coding` says. Chroma is the mean of each 2×2 block.
    private static func fillYCbCr<Source: EncodedPixels>(_ rgb: Source, _ buffer: CVPixelBuffer, _ coding: YCbCrCoding)
    {
        let luma = buffer.planes[0], chroma = buffer.planes[1]
        for y in 0..<rgb.height {
            let row = UnsafeMutableRawPointer(luma.base.advanced(by: y * luma.bytesPerRow))
            for x in 0..<rgb.width {
                let l = YCbCrCoding.luma(rgb[x, y, 0], rgb[x, y, 1], rgb[x, y, 2])
                coding.store(coding.lumaOffset + coding.lumaScale * l, row, x)
            }
        }
        for cy in 0..<chroma.height {
            let row = UnsafeMutableRawPointer(chroma.base.advanced(by: cy * chroma.bytesPerRow))
            for cx in 0..<chroma.width {
                var r: Float = 0, g: Float = 0, b: Float = 0, n: Float = 0
                for dy in 0..<2 {
                    for dx in 0..<2 {
                        let x = min(2 * cx + dx, rgb.width - 1), y = min(2 * cy + dy, rgb.height - 1)
                        r += rgb[x, y, 0]
                        g += rgb[x, y, 1]
                        b += rgb[x, y, 2]
                        n += 1
                    }
                }
                r /= n
                g /= n
                b /= n
                let l = YCbCrCoding.luma(r, g, b)
                coding.store(coding.chromaCentre + coding.chromaScale * (b - l) / 1.772, row, 2 * cx)
                coding.store(coding.chromaCentre + coding.chromaScale * (r - l) / 1.402, row, 2 * cx + 1)
            }
        }
    }
}

/// Encoded R'G'B' pixels read as 0…1.
private protocol EncodedPixels {
    var width: Int { get }
    var height: Int { get }
    subscript(x: Int, y: Int, c: Int) -> Float { get }
}

/// 8-bit encoded RGB read as 0…1.
private struct EncodedRGB: EncodedPixels {
    let bytes: PixelPlane<UInt8>
    var width: Int { bytes.width }
    var height: Int { bytes.height }
    subscript(x: Int, y: Int, c: Int) -> Float { Float(bytes[x, y, c]) / 255 }
}

/// Encoded RGB floats, clamped to 0…1.
private struct FloatRGB: EncodedPixels {
    let values: PixelPlane<Float>
    var width: Int { values.width }
    var height: Int { values.height }
    subscript(x: Int, y: Int, c: Int) -> Float { min(max(values[x, y, c], 0), 1) }
}
