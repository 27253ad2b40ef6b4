import Foundation

/// Writes YUV4MPEG2 clips of solid colours, a fixture the movie tests of several suites share: each
/// colour converted with ITU-R BT.601's matrix into limited range (Rec. 601: Y' = 16 + 219·E'Y, Cb and
/// Cr = 128 + 224·E'C), the format's usual reading, written as 4:4:4 planes.
public enum Y4MClip {
    public static func write(
        _ colours: [SIMD3<UInt8>], rate: Int, width: Int = 16, height: Int = 8, to url: URL
    ) throws {
        var bytes = Array("YUV4MPEG2 W\(width) H\(height) F\(rate):1 Ip A1:1 C444\n".utf8)
        for colour in colours {
            let (r, g, b) = (Double(colour.x) / 255, Double(colour.y) / 255, Double(colour.z) / 255)
            let y = 0.299 * r + 0.587 * g + 0.114 * b
            let cb = (b - y) / 1.772
            let cr = (r - y) / 1.402
            func code(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
            bytes += Array("FRAME\n".utf8)
            bytes += [UInt8](repeating: code(16 + 219 * y), count: width * height)
            bytes += [UInt8](repeating: code(128 + 224 * cb), count: width * height)
            bytes += [UInt8](repeating: code(128 + 224 * cr), count: width * height)
        }
        try Data(bytes).write(to: url)
    }
}
