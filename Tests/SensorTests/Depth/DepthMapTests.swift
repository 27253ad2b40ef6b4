import Devices
import Foundation
import Sensor
import Testing

/// Depth map formats and orientations (avfoundation-capture spec §9).
struct DepthMapTests {
    @Test func depthAndDisparityAreReciprocalAndHolesStay() {
        let map = DepthMap(width: 2, height: 2, format: .depthFloat32, values: [0.5, 2, .nan, 4], accuracy: .absolute)
        let d = map.converting(to: .disparityFloat32)
        #expect(d.format == .disparityFloat32 && d.isDisparity)
        #expect(d.values[0] == 2 && d.values[1] == 0.5 && d.values[2].isNaN && d.values[3] == 0.25)
        #expect(d.converting(to: .depthFloat32).values[3] == 4)
        #expect(DepthPixelFormat.disparityFloat16.fourCharCode == 0x6864_6973)  // 'hdis'
    }

    @Test func halfPrecisionRoundsWithinHalfAnUlp() {
        // IEEE 754 binary16 has 10 fraction bits: for 2^e ≤ v < 2^(e+1), ulp = 2^(e − 10).
        let exact: [Float] = [0.3, 1.2345678, 3.14159265, 7.77, 0.0123, 12.5]
        let half = DepthMap(width: 6, height: 1, format: .depthFloat32, values: exact, accuracy: .absolute)
            .converting(to: .depthFloat16)
        for (v, h) in zip(exact, half.values) {
            let e = floor(log2(Double(v)))
            let ulp = pow(2, e - 10)
            #expect(abs(Double(h) - Double(v)) <= ulp / 2 + 1e-12, "\(v) → \(h)")
        }
        // Disparity in half precision: 1/0.3 rounded once.
        let hdis = DepthMap(width: 1, height: 1, format: .depthFloat32, values: [0.3], accuracy: .absolute)
            .converting(to: .disparityFloat16)
        #expect(abs(Double(hdis.values[0]) - 1 / 0.3) <= pow(2, 1 - 10) / 2 + 1e-6)
        #expect(half.float16Plane.width == 6)
    }

    /// Expected outputs from Pillow 13's `ImageOps.exif_transpose` on the 2 × 3 image
    /// [[1, 2], [3, 4], [5, 6]] tagged with each orientation.
    @Test(arguments: [
        (1, 2, [1, 2, 3, 4, 5, 6] as [Float]), (2, 2, [2, 1, 4, 3, 6, 5]), (3, 2, [6, 5, 4, 3, 2, 1]),
        (4, 2, [5, 6, 3, 4, 1, 2]), (5, 3, [1, 3, 5, 2, 4, 6]), (6, 3, [5, 3, 1, 6, 4, 2]),
        (7, 3, [6, 4, 2, 5, 3, 1]), (8, 3, [2, 4, 6, 1, 3, 5]),
    ])
    func orientationMatchesExif(orientation: Int, width: Int, expected: [Float]) throws {
        let map = DepthMap(width: 2, height: 3, format: .depthFloat32, values: [1, 2, 3, 4, 5, 6], accuracy: .absolute)
        let o = try #require(ExifOrientation(rawValue: orientation))
        let out = map.applying(o)
        #expect(out.width == width && out.height == 6 / width)
        #expect(out.values == expected)
    }

    @Test func orientationTurnsTheCalibration() {
        // Reference 4 × 3, principal point (1, 1): turned right (90° clockwise) it becomes 3 × 4
        // with the point at (3 − 1, 1) = (2, 1), and fx, fy swap.
        let c = CameraCalibration(
            fx: 10, fy: 12, cx: 1, cy: 1, referenceWidth: 4, referenceHeight: 3, translationMM: SIMD3(5, 0, 0),
            pixelSizeMM: 0.001, distortionCenter: SIMD2(1, 1))
        let r = c.applying(.right)
        #expect(r.referenceWidth == 3 && r.referenceHeight == 4)
        #expect(r.fx == 12 && r.fy == 10 && r.cx == 2 && r.cy == 1)
        #expect(r.distortionCenter == SIMD2(2, 1))
        // The camera's +x axis now points down the picture: the translation's x moves to y.
        #expect(r.translationMM == SIMD3(0, 5, 0))
        // Four turns right bring everything back.
        #expect(r.applying(.right).applying(.right).applying(.right) == c)
    }

    @Test func photoDepthIsMoreThanTwiceTheStream() {
        let photo = DepthResolution.photo(streaming: Dimensions(width: 320, height: 240))
        #expect(photo == Dimensions(width: 768, height: 576))
        #expect(photo.width > 2 * 320 && photo.width * 240 == photo.height * 320)
    }
}
