import Devices
import Foundation
import Imaging
import ObscuraAV
import Sensor

/// Point mapping and rectification with a photo's calibration data: Obscura helpers beside Apple's API.
extension AVCameraCalibrationData {
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
            SIMD2(Double(undistortedPoint.x), Double(undistortedPoint.y)), width: Int(imageSize.width), height: Int(imageSize.height))
        return CGPoint(x: p.x, y: p.y)
    }

    /// Where a point of the distorted image of `imageSize` lies in the rectified one (the inverse table).
    public func undistortedPoint(for distortedPoint: CGPoint, imageSize: CGSize) -> CGPoint {
        let p = calibration.undistort(
            SIMD2(Double(distortedPoint.x), Double(distortedPoint.y)), width: Int(imageSize.width), height: Int(imageSize.height))
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

}
