import Devices
import Foundation
import Imaging
import Sensor
import Testing

/// The calibration mathematics of avfoundation-capture spec §10, against hand-computed cases.
struct CameraCalibrationTests {
    /// Table L = [0, 0.1, 0.3] (N = 3), centre (4, 3), image 8 × 6, so r_max = √(4² + 3²) = 5.
    static let small = CameraCalibration(
        fx: 10, fy: 10, cx: 4, cy: 3, referenceWidth: 8, referenceHeight: 6, pixelSizeMM: 0.001,
        lookupTable: [0, 0.1, 0.3], inverseLookupTable: [0, -0.1, -0.2], distortionCenter: SIMD2(4, 3))

    @Test func pointMappingMatchesTheHandComputedCase() {
        let c = Self.small
        // p = (7, 3): r = 3, t = 3·2/5 = 1.2, i = 1, f = 0.2, m = 0.8·0.1 + 0.2·0.3 = 0.14 → x = 4 + 3·1.14.
        let a = c.distort(SIMD2(7, 3), width: 8, height: 6)
        #expect(abs(a.x - 7.42) < 1e-12 && abs(a.y - 3) < 1e-12)
        // p = (5, 4): r = √2, t = √2·2/5 = 0.565685, i = 0, m = 0.0565685.
        let b = c.distort(SIMD2(5, 4), width: 8, height: 6)
        #expect(abs(b.x - 5.0565685) < 1e-6 && abs(b.y - 4.0565685) < 1e-6)
        // p = (0, 0): r = 5 = r_max, so the last entry: m = 0.3 → (4 − 4·1.3, 3 − 3·1.3).
        let corner = c.distort(SIMD2(0, 0), width: 8, height: 6)
        #expect(abs(corner.x + 1.2) < 1e-12 && abs(corner.y + 0.9) < 1e-12)
        // The inverse table maps with the same algorithm: p = (7, 3), m = 0.8·(−0.1) + 0.2·(−0.2) = −0.12.
        let u = c.undistort(SIMD2(7, 3), width: 8, height: 6)
        #expect(abs(u.x - (4 + 3 * 0.88)) < 1e-12)
    }

    @Test func pointMappingScalesWithTheImage() {
        // At twice the reference size the centre is (8, 6) and (14, 6) has the same index t = 1.2.
        let a = Self.small.distort(SIMD2(14, 6), width: 16, height: 12)
        #expect(abs(a.x - (8 + 6 * 1.14)) < 1e-12 && abs(a.y - 6) < 1e-12)
    }

    @Test func intrinsicsScaleFromReferenceDimensions() throws {
        // iphone-7-plus back-wide: fx_px 3261.38 at 4032 px wide, so 3261.38·320/4032 = 258.83968 at 320 px.
        let device = try DeviceProfileAdapterTests.profile("iphone-7-plus")
        let wide = try device.camera(ofType: .builtInWideAngleCamera, position: .back)
        let calibration = try CameraCalibration(device: device, camera: wide)
        let k = calibration.intrinsics(forWidth: 320)
        #expect(abs(k.fx - 258.83968) < 1e-4)
        #expect(calibration.intrinsicColumns[2].z == 1)
        #expect(calibration.extrinsicColumns.count == 4)
        #expect(abs(calibration.pixelSizeMM - 0.00122) < 1e-9)
        // The tele's pose: translation (9.98, 0.12, 0) mm in column 3.
        let tele = try device.camera(ofType: .builtInTelephotoCamera, position: .back)
        let t = try CameraCalibration(device: device, camera: tele).extrinsicColumns[3]
        #expect(t == SIMD3(9.98, 0.12, 0))
    }

    @Test func rectifyUndoesDistortWithTheProfileTables() throws {
        let device = try DeviceProfileAdapterTests.profile("iphone-7-plus")
        let wide = try device.camera(ofType: .builtInWideAngleCamera, position: .back)
        let c = try CameraCalibration(device: device, camera: wide)
        #expect(c.hasDistortion)
        var worst = 0.0
        for (x, y) in [(0.0, 0.0), (4032, 3024), (100, 2900), (2016, 1512), (3500, 400), (1000, 1000)] {
            let p = SIMD2(x, y)
            let back = c.undistort(c.distort(p, width: 4032, height: 3024), width: 4032, height: 3024)
            worst = max(worst, ((back - p) * (back - p)).sum().squareRoot())
        }
        #expect(worst < 0.5, "round trip error \(worst) px at 4032 × 3024")
    }

    @Test func rectifiedImageSamplesWhereTheForwardTableSays() {
        // A distorted image whose value is its own x coordinate: bilinear sampling of a linear
        // function is exact, so each rectified pixel holds the x its centre maps to.
        let c = Self.small
        let image = PixelPlane<Float>(width: 8, height: 6) { x, _, _ in Float(x) + 0.5 }
        let rectified = c.rectify(image)
        for (x, y) in [(4, 3), (5, 2), (6, 3), (3, 4)] {
            let s = c.distort(SIMD2(Double(x) + 0.5, Double(y) + 0.5), width: 8, height: 6)
            guard s.x > 0.5, s.x < 7.5, s.y > 0.5, s.y < 5.5 else { continue }
            #expect(abs(Double(rectified[x, y]) - s.x) < 1e-5, "pixel \(x),\(y)")
        }
        // Outside the source the fill value appears: the corner maps beyond the image.
        #expect(rectified[0, 0].isNaN)
    }

    /// A 16:9 crop of a 16 × 12 reference keeps the pitch and the focal lengths and moves the principal
    /// point and distortion centre up by the 1.5 rows cut from the top; scaling to half the width
    /// halves the focal lengths and doubles the pixel size (spec §10).
    @Test func reframingCropsAndScalesByHand() {
        let c = CameraCalibration(
            fx: 20, fy: 20, cx: 8, cy: 6, referenceWidth: 16, referenceHeight: 12, pixelSizeMM: 0.001,
            lookupTable: [0, 0.1], inverseLookupTable: [0, -0.1], distortionCenter: SIMD2(8.5, 5.5))
        let band = c.cropped(toAspectOf: Dimensions(width: 1920, height: 1080))
        #expect(band.referenceWidth == 16 && band.referenceHeight == 9)
        #expect(band.fx == 20 && band.fy == 20 && band.pixelSizeMM == 0.001)
        #expect(band.cx == 8 && band.cy == 4.5)
        #expect(band.distortionCenter == SIMD2(8.5, 4))
        // Per-axis rescaling to a 320 × 180 map gives one focal length.
        #expect(band.fx * 320 / band.referenceWidth == band.fy * 180 / band.referenceHeight)

        let half = c.reframed(to: Dimensions(width: 8, height: 6))
        #expect(half.fx == 10 && half.fy == 10 && half.cx == 4 && half.cy == 3)
        #expect(half.pixelSizeMM == 0.002)
        #expect(half.lookupTable == c.lookupTable)
    }
}
