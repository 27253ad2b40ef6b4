import Devices
import Foundation
import Imaging
import Sensor

/// The calibration of the camera that took an image or depth map (spec §10).
///
/// Intrinsics are in pixels at `intrinsicMatrixReferenceDimensions`; scale them by
/// targetWidth / referenceWidth for a smaller image such as a depth map (spec §10 [T W17]).
/// Maps and images carry lens distortion: the tables and their centre undo or redo it with the
/// reference point mapping of `AVCameraCalibrationData.h`.
open class AVCameraCalibrationData: NSObject, @unchecked Sendable {
    let calibration: CameraCalibration

    init(_ calibration: CameraCalibration) {
        self.calibration = calibration
        super.init()
    }

    /// `[[fx, 0, ox], [0, fy, oy], [0, 0, 1]]`, column-major: `columns.2 == (ox, oy, 1)` (spec §10 [D]).
    public var intrinsicMatrix: matrix_float3x3 {
        let c = calibration.intrinsicColumns.map { simd_float3(Float($0.x), Float($0.y), Float($0.z)) }
        return matrix_float3x3(c)
    }

    /// The image size the intrinsics and the distortion centre refer to (spec §10 [D]).
    public var intrinsicMatrixReferenceDimensions: CGSize {
        CGSize(width: calibration.referenceWidth, height: calibration.referenceHeight)
    }

    /// `[R | t]`: columns 0–2 the rotation, column 3 the translation in millimetres (spec §10 [D]).
    public var extrinsicMatrix: matrix_float4x3 {
        let c = calibration.extrinsicColumns.map { simd_float3(Float($0.x), Float($0.y), Float($0.z)) }
        return matrix_float4x3(c)
    }

    /// The size of one pixel at the reference dimensions, millimetres (spec §10 [D]).
    public var pixelSize: Float { Float(calibration.pixelSizeMM) }

    /// 32-bit floats spaced evenly along the radius from the centre to the farthest corner:
    /// undistorted → distorted. Nil when the camera is uncalibrated (spec §10 [D]).
    public var lensDistortionLookupTable: Data? { Self.data(calibration.lookupTable) }

    /// The table that puts distortion back: distorted → undistorted (spec §10 [D]).
    public var inverseLensDistortionLookupTable: Data? { Self.data(calibration.inverseLookupTable) }

    /// The distortion centre at the reference dimensions; zero when uncalibrated (spec §10 [D]).
    public var lensDistortionCenter: CGPoint {
        CGPoint(x: calibration.distortionCenter.x, y: calibration.distortionCenter.y)
    }

    private static func data(_ table: [Double]) -> Data? {
        guard table.count >= 2 else { return nil }
        var floats = table.map { Float32($0) }
        return Data(bytes: &floats, count: floats.count * MemoryLayout<Float32>.size)
    }

    // MARK: Point mapping and rectification (Obscura helpers)

    /// The reference point mapping of `AVCameraCalibrationData.h` (spec §10 [D]), the function
    /// Apple's header gives as sample code: the point moves radially from the centre by 1 plus the
    /// table's value, interpolated along the radius to the farthest corner. The point, centre and
    /// size must share one coordinate system and scale.
    public static func lensDistortionPoint(
        for point: CGPoint, lookupTable: Data, distortionOpticalCenter opticalCenter: CGPoint, imageSize: CGSize
    ) -> CGPoint {
        let table = lookupTable.withUnsafeBytes { raw in raw.bindMemory(to: Float32.self).map(Double.init) }
        let q = Devices.LensDistortion.map(
            x: point.x, y: point.y, table: table, centerX: opticalCenter.x, centerY: opticalCenter.y,
            width: imageSize.width, height: imageSize.height)
        return CGPoint(x: q.x, y: q.y)
    }

    /// Where a point of the rectified (undistorted) image lies in the distorted image of
    /// `imageSize` (the forward table, scaled from the reference dimensions).
    public func distortedPoint(for undistortedPoint: CGPoint, imageSize: CGSize) -> CGPoint {
        let p = calibration.distort(
            SIMD2(undistortedPoint.x, undistortedPoint.y), width: Int(imageSize.width), height: Int(imageSize.height))
        return CGPoint(x: p.x, y: p.y)
    }

    /// Where a point of the distorted image of `imageSize` lies in the rectified one (the inverse table).
    public func undistortedPoint(for distortedPoint: CGPoint, imageSize: CGSize) -> CGPoint {
        let p = calibration.undistort(
            SIMD2(distortedPoint.x, distortedPoint.y), width: Int(imageSize.width), height: Int(imageSize.height))
        return CGPoint(x: p.x, y: p.y)
    }

    /// The depth data without lens distortion, ready for geometry: each output pixel is mapped
    /// with the forward table and the input sampled bilinearly; holes are not averaged in.
    public func rectifiedDepthData(_ depthData: AVDepthData) -> AVDepthData {
        AVDepthData(map: calibration.rectify(depthData.map), isShell: false)
    }

    /// A single-channel float buffer (any of the four depth formats) without lens distortion;
    /// nil for other pixel formats.
    public func rectifiedPixelBuffer(_ buffer: CVPixelBuffer) -> CVPixelBuffer? {
        guard let plane = DepthBufferCoding.plane(of: buffer) else { return nil }
        return DepthBufferCoding.buffer(calibration.rectify(plane), pixelFormat: buffer.pixelFormat)
    }

    open override var description: String {
        "<AVCameraCalibrationData: fx \(calibration.fx) fy \(calibration.fy) at "
            + "\(Int(calibration.referenceWidth))x\(Int(calibration.referenceHeight))>"
    }
}
