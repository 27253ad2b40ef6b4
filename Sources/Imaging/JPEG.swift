import CJPEG

/// JPEG through libjpeg-turbo: baseline, 4:2:0 chroma for colour, with application segments and an
/// ICC profile written after SOI.
public enum JPEG {
    /// An application segment: `marker` 0xE0 + n for APPn, `data` its payload (at most 65,533 bytes).
    public struct Segment: Sendable {
        public var marker: Int
        public var data: [UInt8]
        public init(marker: Int, data: [UInt8]) {
            self.marker = marker
            self.data = data
        }
    }

    /// Encodes 8-bit grey (1 channel) or RGB (3 channels) pixels at `quality` 1…100 (libjpeg's scale).
    public static func encode(
        _ pixels: PixelPlane<UInt8>, quality: Int, segments: [Segment] = [], iccProfile: [UInt8]? = nil
    ) throws -> [UInt8] {
        guard pixels.channels == 1 || pixels.channels == 3 else {
            throw JPEGError(message: "JPEG holds grey or RGB, not \(pixels.channels) channels")
        }
        var message = [CChar](repeating: 0, count: 256)
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        // The segment structs point into `segments`' arrays, which stay alive for the whole call.
        let status: Int32 = withSegmentArray(segments) { segmentList in
            segmentList.withUnsafeBufferPointer { list in (iccProfile ?? []).withUnsafeBufferPointer { icc in
                pixels.withUnsafeBufferPointer { buffer in
                    message.withUnsafeMutableBufferPointer { text in
                        cjpeg_encode(
                            buffer.baseAddress, Int32(pixels.width), Int32(pixels.height), Int32(pixels.channels),
                            pixels.rowStride, Int32(min(100, max(1, quality))), list.baseAddress,
                            Int32(list.count), icc.baseAddress, icc.count, &out, &length, text.baseAddress,
                            text.count)
                    }
                }
            }}
        }
        guard status == Int32(CJPEG_OK), let out else { throw JPEGError(message: CStringBuffer.text(message)) }
        defer { cjpeg_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// Decodes a JPEG to 8-bit grey (colour is converted to luma).
    public static func decodeGrey(_ data: [UInt8]) throws -> PixelPlane<UInt8> {
        try decode(data, channels: 1)
    }

    /// Decodes a JPEG to 8-bit RGB (grey is expanded), the encoded values as they are.
    public static func decodeRGB(_ data: [UInt8]) throws -> PixelPlane<UInt8> {
        try decode(data, channels: 3)
    }

    private static func decode(_ data: [UInt8], channels: Int) throws -> PixelPlane<UInt8> {
        var message = [CChar](repeating: 0, count: 256)
        var out: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        let status = data.withUnsafeBufferPointer { buffer in
            message.withUnsafeMutableBufferPointer { text in
                (channels == 3 ? cjpeg_decode_rgb : cjpeg_decode_grey)(
                    buffer.baseAddress, buffer.count, &out, &width, &height, text.baseAddress, text.count)
            }
        }
        guard status == Int32(CJPEG_OK), let out else { throw JPEGError(message: CStringBuffer.text(message)) }
        defer { cjpeg_free(out) }
        let count = Int(width) * Int(height) * channels
        return PixelPlane(
            width: Int(width), height: Int(height), channels: channels,
            elements: UnsafeBufferPointer(start: out, count: count))
    }

    /// The payloads of the APPn segments before the first SOS, in file order; nil if `data` is not a JPEG.
    public static func applicationSegments(_ data: ArraySlice<UInt8>) -> [Segment]? {
        var at = data.startIndex
        guard data.count >= 4, data[at] == 0xFF, data[at + 1] == 0xD8 else { return nil }
        at += 2
        var out: [Segment] = []
        while at + 4 <= data.endIndex, data[at] == 0xFF {
            let marker = Int(data[at + 1])
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(data[at + 2]) << 8 | Int(data[at + 3])
            guard length >= 2, at + 2 + length <= data.endIndex else { return nil }
            if (0xE0...0xEF).contains(marker) {
                out.append(Segment(marker: marker, data: Array(data[(at + 4)..<(at + 2 + length)])))
            }
            at += 2 + length
        }
        return out
    }

    private static func withSegmentArray<R>(_ segments: [Segment], _ body: ([cjpeg_segment]) -> R) -> R {
        // Pointers into each payload are only used inside `body`; nest the pinning recursively.
        func pin(_ index: Int, _ built: [cjpeg_segment]) -> R {
            guard index < segments.count else { return body(built) }
            return segments[index].data.withUnsafeBufferPointer { bytes in
                pin(index + 1, built + [cjpeg_segment(marker: Int32(segments[index].marker), data: bytes.baseAddress,
                    length: bytes.count)])
            }
        }
        return pin(0, [])
    }
}

/// libjpeg rejected the data or the request; the message is libjpeg's.
public struct JPEGError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "JPEG: \(message)" }
}
