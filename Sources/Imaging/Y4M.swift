/// YUV4MPEG2 (`.y4m`), the uncompressed movie format test tools replay: a text header, then each
/// frame as a `FRAME` line and its raw 8-bit Y'CbCr planes.
///
/// The header's tokens read here are `W` and `H` (size), `F` (frame rate as a ratio), `C` (chroma layout:
/// `420jpeg`, `420paldv`, `420mpeg2`, `420`, `422`, `444` or `mono`; 4:2:0 when absent) and the
/// `XCOLORRANGE=FULL` or `LIMITED` extension FFmpeg writes. The format names no colour matrix; values are
/// read with ITU-R BT.601's, limited range unless the file says full, as FFmpeg reads them.
public enum Y4M {
    /// What the header declares.
    public struct Header: Sendable, Equatable {
        public var width: Int
        public var height: Int
        /// Frames per second as a ratio.
        public var rateNumerator: Int
        public var rateDenominator: Int
        /// Chroma width and height divisors (2 and 2 for 4:2:0; 0 and 0 for mono).
        var chromaX: Int
        var chromaY: Int
        var fullRange: Bool
        /// The header line's length with its newline.
        public var length: Int

        /// Bytes of one frame's planes.
        public var frameBytes: Int {
            let luma = width * height
            guard chromaX > 0 else { return luma }
            return luma + 2 * ((width + chromaX - 1) / chromaX) * ((height + chromaY - 1) / chromaY)
        }
    }

    /// Whether the bytes start as a YUV4MPEG2 stream.
    public static func isY4M(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("YUV4MPEG2 ".utf8)) }

    /// The header, or a reason it cannot be read.
    public static func header(_ bytes: [UInt8]) throws(MediaFileError) -> Header {
        guard isY4M(bytes), let end = bytes.prefix(4096).firstIndex(of: 0x0A) else {
            throw MediaFileError(code: .undecodable, message: "not a YUV4MPEG2 stream")
        }
        let tokens = String(decoding: bytes[10..<end], as: UTF8.self).split(separator: " ")
        var width = 0, height = 0, num = 0, den = 0
        var chroma = (x: 2, y: 2)
        var full = false
        for token in tokens {
            let value = String(token.dropFirst())
            switch token.first {
            case "W": width = Int(value) ?? 0
            case "H": height = Int(value) ?? 0
            case "F":
                let parts = value.split(separator: ":").compactMap { Int($0) }
                if parts.count == 2 { (num, den) = (parts[0], parts[1]) }
            case "C":
                switch value {
                case "420jpeg", "420paldv", "420mpeg2", "420": chroma = (2, 2)
                case "422": chroma = (2, 1)
                case "444": chroma = (1, 1)
                case "mono": chroma = (0, 0)
                default:
                    throw MediaFileError(code: .undecodable, message: "YUV4MPEG2 chroma layout C\(value) is not read")
                }
            case "X":
                if value == "COLORRANGE=FULL" { full = true }
            default: break
            }
        }
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw MediaFileError(code: .undecodable, message: "YUV4MPEG2 header without a valid W and H")
        }
        guard num > 0, den > 0 else {
            throw MediaFileError(code: .undecodable, message: "YUV4MPEG2 header without a valid frame rate F")
        }
        return Header(
            width: width, height: height, rateNumerator: num, rateDenominator: den, chromaX: chroma.x,
            chromaY: chroma.y, fullRange: full, length: end + 1)
    }

    /// Decodes every frame to 8-bit RGB, frame `k` at k / rate seconds.
    public static func decode(_ bytes: [UInt8], header h: Header) throws(MediaFileError) -> [PixelPlane<UInt8>] {
        var frames: [PixelPlane<UInt8>] = []
        var at = h.length
        let marker = Array("FRAME".utf8)
        while at < bytes.count {
            guard bytes.count - at >= 5, Array(bytes[at..<(at + 5)]) == marker,
                let lineEnd = bytes[at...].prefix(4096).firstIndex(of: 0x0A)
            else {
                throw MediaFileError(code: .undecodable, message: "frame \(frames.count + 1) has no FRAME line")
            }
            let start = lineEnd + 1
            guard bytes.count - start >= h.frameBytes else {
                throw MediaFileError(code: .undecodable, message: "frame \(frames.count + 1) is cut short")
            }
            frames.append(rgb(bytes, from: start, header: h))
            at = start + h.frameBytes
        }
        guard !frames.isEmpty else { throw MediaFileError(code: .undecodable, message: "the stream has no frames") }
        return frames
    }

    /// One frame's planes as RGB (ITU-R BT.601 Y'CbCr, Rec. 601 §2.5.3; limited range: Y' 16–235, Cb and Cr
    /// 16–240; full range: 0–255).
    private static func rgb(_ bytes: [UInt8], from start: Int, header h: Header) -> PixelPlane<UInt8> {
        let (w, hgt) = (h.width, h.height)
        let (sx, sy) = (h.chromaX, h.chromaY)
        let cw = sx > 0 ? (w + sx - 1) / sx : 0
        let ch = sy > 0 ? (hgt + sy - 1) / sy : 0
        let uStart = start + w * hgt
        let vStart = uStart + cw * ch
        let yOffset: Double = h.fullRange ? 0 : 16
        let yScale: Double = h.fullRange ? 1 / 255 : 1 / 219
        let cScale: Double = h.fullRange ? 1 / 255 : 1 / 224
        var out = [UInt8](repeating: 0, count: w * hgt * 3)
        for y in 0..<hgt {
            for x in 0..<w {
                let luma = (Double(bytes[start + y * w + x]) - yOffset) * yScale
                var cb = 0.0
                var cr = 0.0
                if sx > 0 {
                    let i = (y / sy) * cw + x / sx
                    cb = (Double(bytes[uStart + i]) - 128) * cScale
                    cr = (Double(bytes[vStart + i]) - 128) * cScale
                }
                let r = luma + 1.402 * cr
                let g = luma - 0.344_136 * cb - 0.714_136 * cr
                let b = luma + 1.772 * cb
                let o = (y * w + x) * 3
                out[o] = code(r)
                out[o + 1] = code(g)
                out[o + 2] = code(b)
            }
        }
        return PixelPlane(width: w, height: hgt, channels: 3, elements: out)
    }

    /// An 8-bit code of a 0…1 value, rounded and clipped.
    private static func code(_ v: Double) -> UInt8 {
        UInt8(min(max(v * 255, 0), 255).rounded())
    }
}
