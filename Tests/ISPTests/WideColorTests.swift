import Foundation
import ISP
import Imaging
import Testing

/// Linear P3 → linear sRGB as published (derived from the primaries, D65), independent of our Spectra target.
private let publishedP3ToSRGB: [[Double]] = [
    [1.2249402, -0.2249402, 0], [-0.0420570, 1.0420570, 0], [-0.0196376, -0.0786360, 1.0982736],
]

/// IEC 61966-2-1 decoding, written out here so the test does not reuse the code under test.
private func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }

@Suite struct WideColorTests {
    /// Encoded P3 colours on an 11-step grid per channel (1331 colours).
    private static let grid: [SIMD3<Double>] = (0..<1331).map { (i: Int) -> SIMD3<Double> in
        let r = Double(i % 11) / 10, g = Double(i / 11 % 11) / 10, b = Double(i / 121) / 10
        return SIMD3(r, g, b)
    }

    private static func referenceSRGB(_ p3: SIMD3<Double>) -> SIMD3<Double> {
        let l = SIMD3(decode(p3.x), decode(p3.y), decode(p3.z))
        let rows = publishedP3ToSRGB.map { (row: [Double]) -> Double in row[0] * l.x + row[1] * l.y + row[2] * l.z }
        return SIMD3(rows[0], rows[1], rows[2])
    }

    @Test func conversionMatchesThePublishedMatrix() {
        let frame = FloatPlane(width: 1331, height: 1, channels: 3) { x, _, c in Float(Self.grid[x][c]) }
        let linear = WideColor.extendedLinearSRGB(fromDisplayP3: frame)
        var worst = 0.0
        for (x, p3) in Self.grid.enumerated() {
            let want = Self.referenceSRGB(p3)
            for c in 0..<3 { worst = max(worst, abs(Double(linear[x, 0, c]) - want[c])) }
        }
        #expect(worst < 2e-6, "largest difference \(worst)")
        // Pure P3 green is far outside sRGB: its red is negative, and the sign survives (half floats too).
        let green = FloatPlane(width: 1, height: 1, channels: 3, elements: [0, 1, 0])
        #expect(abs(WideColor.extendedLinearSRGB(fromDisplayP3: green)[0, 0, 0] - -0.2249402) < 1e-5)
        #expect(abs(Float(WideColor.extendedLinearSRGBHalf(fromDisplayP3: green)[0, 0, 0]) - -0.2249) < 1e-3)
    }

    @Test func highlightMaskMatchesGamutMembership() {
        let frame = FloatPlane(width: 1331, height: 1, channels: 3) { x, _, c in Float(Self.grid[x][c]) }
        let highlighted = WideColor.highlightOutOfGamut(WideColor.extendedLinearSRGB(fromDisplayP3: frame))
        var outside = 0, checked = 0
        for (x, p3) in Self.grid.enumerated() {
            let s = Self.referenceSRGB(p3)
            let excess = max(-s.min(), s.max() - 1)
            // Skip colours within 0.002 of the tolerance (0.001) where rounding may decide either way.
            guard abs(excess - 0.001) > 0.002 else { continue }
            checked += 1
            let pixel = SIMD3(highlighted[x, 0, 0], highlighted[x, 0, 1], highlighted[x, 0, 2])
            if excess > 0.001 {
                outside += 1
                #expect(abs(Double(pixel.x) - s.x) < 1e-5 && abs(Double(pixel.z) - s.z) < 1e-5, "P3 \(p3) keeps colour")
            } else {
                let y = 0.2126390 * s.x + 0.7151687 * s.y + 0.0721923 * s.z
                #expect(pixel.x == pixel.y && pixel.y == pixel.z && abs(Double(pixel.x) - y) < 1e-5, "P3 \(p3) greys")
            }
        }
        #expect(checked > 1200 && outside > 300 && outside < checked - 300, "\(outside) of \(checked) outside")
    }

    @Test func triangleMixesInLinearAndGammaSpace() {
        let size = 64
        let picture = GamutTriangle.render(size: size)
        #expect(picture.width == 128 && picture.height == 64)
        // Near the centroid both halves are almost neutral; the linear half is brighter (0.61 vs 0.33 encoded).
        let cy = Int(0.06 * 64 + 2 * (64 - 2 * 0.06 * 64) / 3)
        let left = picture[32, cy, 1], right = picture[32 + size, cy, 1]
        #expect(abs(Double(right) - 1.0 / 3) < 0.05 && abs(Double(left) - 0.6137) < 0.05, "\(left) \(right)")
        // Next to the bottom-left corner both halves are almost pure red.
        #expect(picture[5, 59, 0] > 0.9 && picture[5 + size, 59, 0] > 0.9 && picture[5 + size, 59, 1] < 0.1)
        #expect(picture[0, 0, 0] == 0)
    }
}
