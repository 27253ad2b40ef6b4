import Imaging
import Scenarios
import Spectra
import Testing

/// Region statistics against colour-science 0.4 (`RGB_to_XYZ` with CCTF decoding, then `XYZ_to_Lab`
/// against the space's white point).
struct RegionStatisticsTests {
    static func image(left: (UInt8, UInt8, UInt8), right: (UInt8, UInt8, UInt8)) -> UInt8Image {
        UInt8Image(width: 8, height: 4, channels: 3) { x, _, c in
            let rgb = x < 4 ? left : right
            return [rgb.0, rgb.1, rgb.2][c]
        }
    }

    @Test func meanLabOfARegionMatchesColourScience() throws {
        let img = Self.image(left: (128, 128, 128), right: (200, 60, 40))
        let left = RegionStatistics.Rect(x: 0, y: 0, width: 0.5, height: 1)
        let right = RegionStatistics.Rect(x: 0.5, y: 0, width: 0.5, height: 1)
        let grey = try #require(RegionStatistics.meanLab(img, space: .sRGB, rect: left))
        #expect(abs(grey.L - 53.5850135) < 1e-3)
        #expect(abs(grey.a) < 0.01 && abs(grey.b) < 0.01)
        let red = try #require(RegionStatistics.meanLab(img, space: .sRGB, rect: right))
        #expect(abs(red.L - 46.53091595) < 0.01)
        #expect(abs(red.a - 54.28877737) < 0.05)
        #expect(abs(red.b - 43.21027617) < 0.05)
        let p3 = try #require(RegionStatistics.meanLab(img, space: .displayP3, rect: right))
        #expect(abs(p3.L - 47.64825234) < 0.01)
        #expect(abs(p3.a - 65.0426561) < 0.05)
        #expect(abs(p3.b - 53.51828573) < 0.05)
    }

    @Test func meanOverTwoHalvesIsTheMeanOfTheirLab() throws {
        let img = Self.image(left: (128, 128, 128), right: (200, 60, 40))
        let all = try #require(
            RegionStatistics.meanLab(img, space: .sRGB, rect: .init(x: 0, y: 0, width: 1, height: 1)))
        #expect(abs(all.L - (53.5850135 + 46.53091595) / 2) < 0.01)
    }
}
