import Foundation
import Scenarios
import Testing

/// The depth colour map: viridis, whose defining property is lightness that rises steadily.
struct DepthColourMapTests {
    /// CIE L* of an 8-bit sRGB colour (IEC 61966-2-1 decoding, Rec. 709 luminance, CIE 15 L*).
    static func lightness(_ c: SIMD3<UInt8>) -> Double {
        func linear(_ v: UInt8) -> Double {
            let x = Double(v) / 255
            return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        let y = 0.2126 * linear(c.x) + 0.7152 * linear(c.y) + 0.0722 * linear(c.z)
        return y > 216.0 / 24389 ? 116 * cbrt(y) - 16 : y * 24389 / 27
    }

    @Test func endsAreViridisPublishedEnds() {
        // matplotlib's viridis starts at #440154 and ends at #FDE725.
        #expect(DepthColourMap.colour(0) == SIMD3(0x44, 0x01, 0x54))
        #expect(DepthColourMap.colour(1) == SIMD3(0xFD, 0xE7, 0x25))
        #expect(DepthColourMap.colour(-3) == DepthColourMap.colour(0))
        #expect(DepthColourMap.colour(.nan) == DepthColourMap.colour(0))
    }

    @Test func lightnessRisesMonotonicallyFromAbout15ToAbout91() {
        let samples = (0...64).map { Self.lightness(DepthColourMap.colour(Double($0) / 64)) }
        for (a, b) in zip(samples, samples.dropFirst()) { #expect(b > a) }
        // Published figures for viridis: L* ≈ 15 at the dark end and ≈ 91 at the light end.
        #expect(abs(samples[0] - 15) < 2)
        #expect(abs(samples[64] - 91) < 2)
    }

    @Test func nearIsYellowFarIsPurpleHolesAreBlack() throws {
        let coloured = try #require(DepthColourMap.render(width: 3, height: 1, metres: [0.5, 2, .nan]))
        #expect(coloured.near == 0.5 && coloured.far == 2)
        let p = coloured.image.packedElements
        #expect(SIMD3(p[0], p[1], p[2]) == SIMD3(0xFD, 0xE7, 0x25))
        #expect(SIMD3(p[3], p[4], p[5]) == SIMD3(0x44, 0x01, 0x54))
        #expect(SIMD3(p[6], p[7], p[8]) == SIMD3(0, 0, 0))
        #expect(DepthColourMap.render(width: 1, height: 1, metres: [0]) == nil)
    }
}
