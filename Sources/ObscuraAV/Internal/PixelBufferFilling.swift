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
        func byte(_ v: Float) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        switch format {
        case kCVPixelFormatType_32BGRA:
            let p = buffer.planes[0]
            for y in 0..<rgb.height {
                let row = p.base.advanced(by: y * p.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<rgb.width {
                    row[4 * x] = byte(rgb[x, y, 2])
                    row[4 * x + 1] = byte(rgb[x, y, 1])
                    row[4 * x + 2] = byte(rgb[x, y, 0])
                    row[4 * x + 3] = 255
                }
            }
        case kCVPixelFormatType_64RGBAHalf:
            let p = buffer.planes[0]
            for y in 0..<rgb.height {
                let row = p.base.advanced(by: y * p.bytesPerRow).assumingMemoryBound(to: Float16.self)
                for x in 0..<rgb.width {
                    for c in 0..<3 { row[4 * x + c] = Float16(rgb[x, y, c]) }
                    row[4 * x + 3] = 1
                }
            }
        case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange:
            fillYCbCr(rgb, buffer, fullRange: format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
        default:
            return nil
        }
        return buffer
    }

    /// ITU-R BT.601 Y'CbCr; full range 0–255, video range Y' 16–235 and C 16–240 (BT.601 §2.5).
    /// Chroma is the mean of each 2×2 block.
    private static func fillYCbCr(_ rgb: EncodedRGB, _ buffer: CVPixelBuffer, fullRange: Bool) {
        let luma = buffer.planes[0], chroma = buffer.planes[1]
        let (yScale, yOffset, cScale): (Float, Float, Float) = fullRange ? (255, 0, 255) : (219, 16, 224)
        func clamp(_ v: Float) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
        for y in 0..<rgb.height {
            let row = luma.base.advanced(by: y * luma.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<rgb.width {
                let l = 0.299 * rgb[x, y, 0] + 0.587 * rgb[x, y, 1] + 0.114 * rgb[x, y, 2]
                row[x] = clamp(yOffset + yScale * l)
            }
        }
        for cy in 0..<chroma.height {
            let row = chroma.base.advanced(by: cy * chroma.bytesPerRow).assumingMemoryBound(to: UInt8.self)
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
                let l = 0.299 * r + 0.587 * g + 0.114 * b
                row[2 * cx] = clamp(128 + cScale * (b - l) / 1.772)
                row[2 * cx + 1] = clamp(128 + cScale * (r - l) / 1.402)
            }
        }
    }
}

/// 8-bit encoded RGB read as 0…1.
private struct EncodedRGB {
    let bytes: PixelPlane<UInt8>
    var width: Int { bytes.width }
    var height: Int { bytes.height }
    subscript(x: Int, y: Int, c: Int) -> Float { Float(bytes[x, y, c]) / 255 }
}
