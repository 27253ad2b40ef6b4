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
    package let calibration: CameraCalibration

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

    open override var description: String {
        "<AVCameraCalibrationData: fx \(calibration.fx) fy \(calibration.fy) at "
            + "\(Int(calibration.referenceWidth))x\(Int(calibration.referenceHeight))>"
    }
}
