import Devices
import Imaging

/// A camera's calibration in the form of Apple's camera calibration data (spec §10 [D]):
/// intrinsics at reference dimensions, a pose relative to a reference camera, the pixel size and
/// the radial lens-distortion tables with their centre.
///
/// Pixel coordinates have their origin at the top-left corner of the image, so the centre of
/// pixel (i, j) is (i + 0.5, j + 0.5). Every point mapping is the reference algorithm of
/// `Devices.LensDistortion.map`; this type only scales its inputs.
public struct CameraCalibration: Sendable, Hashable {
    /// Focal lengths in pixels at the reference dimensions.
    public var fx: Double, fy: Double
    /// Principal point in pixels at the reference dimensions.
    public var cx: Double, cy: Double
    /// The dimensions the intrinsics and the distortion centre refer to
    /// (`intrinsicMatrixReferenceDimensions`), typically the full sensor.
    public var referenceWidth: Double, referenceHeight: Double
    /// The rotation R of the pose, row by row (unitless; identity for the reference camera).
    public var rotation: [SIMD3<Double>]
    /// The translation t of the pose, millimetres.
    public var translationMM: SIMD3<Double>
    /// The size of one pixel at the reference dimensions, millimetres.
    public var pixelSizeMM: Double
    /// The forward table: undistorted → distorted (`lensDistortionLookupTable`); empty if uncalibrated.
    public var lookupTable: [Double]
    /// The inverse table: distorted → undistorted (`inverseLensDistortionLookupTable`).
    public var inverseLookupTable: [Double]
    /// The distortion centre at the reference dimensions (`lensDistortionCenter`).
    public var distortionCenter: SIMD2<Double>

    /// A calibration from its values.
    public init(
        fx: Double, fy: Double, cx: Double, cy: Double, referenceWidth: Double, referenceHeight: Double,
        rotation: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)],
        translationMM: SIMD3<Double> = .zero, pixelSizeMM: Double, lookupTable: [Double] = [],
        inverseLookupTable: [Double] = [], distortionCenter: SIMD2<Double> = .zero
    ) {
        precondition(rotation.count == 3, "a rotation has three rows")
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.referenceWidth = referenceWidth
        self.referenceHeight = referenceHeight
        self.rotation = rotation
        self.translationMM = translationMM
        self.pixelSizeMM = pixelSizeMM
        self.lookupTable = lookupTable
        self.inverseLookupTable = inverseLookupTable
        self.distortionCenter = distortionCenter
    }

    /// The intrinsic matrix [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] as simd stores it: column-major,
    /// so column 2 is (cx, cy, 1) (spec §10 [D]).
    public var intrinsicColumns: [SIMD3<Double>] { [SIMD3(fx, 0, 0), SIMD3(0, fy, 0), SIMD3(cx, cy, 1)] }

    /// The 4×3 extrinsic matrix [R | t] as simd stores it: four columns of three rows, the first
    /// three the rotation, the last the translation in millimetres (spec §10 [D]).
    public var extrinsicColumns: [SIMD3<Double>] {
        let r = rotation
        return [
            SIMD3(r[0].x, r[1].x, r[2].x), SIMD3(r[0].y, r[1].y, r[2].y), SIMD3(r[0].z, r[1].z, r[2].z),
            translationMM,
        ]
    }

    /// Whether a distortion table is present (an uncalibrated camera has none).
    public var hasDistortion: Bool { lookupTable.count >= 2 }

    /// The factor from reference pixels to pixels of an image `width` wide (spec §10: scale by
    /// targetWidth / referenceWidth [T W17]; the aspect ratio is the caller's to keep).
    public func scale(toWidth width: Int) -> Double { Double(width) / referenceWidth }

    /// fx, fy, cx, cy for an image `width` wide.
    public func intrinsics(forWidth width: Int) -> (fx: Double, fy: Double, cx: Double, cy: Double) {
        let s = scale(toWidth: width)
        return (fx * s, fy * s, cx * s, cy * s)
    }

    /// The distortion centre for an image `width` wide.
    public func distortionCenter(forWidth width: Int) -> SIMD2<Double> { distortionCenter * scale(toWidth: width) }

    /// Where a point of the undistorted image lies in the distorted one (the forward table),
    /// for an image of `width × height` pixels (spec §10, "which table to use").
    public func distort(_ p: SIMD2<Double>, width: Int, height: Int) -> SIMD2<Double> {
        map(p, table: lookupTable, width: width, height: height)
    }

    /// Where a point of the distorted image lies in the undistorted one (the inverse table).
    public func undistort(_ p: SIMD2<Double>, width: Int, height: Int) -> SIMD2<Double> {
        map(p, table: inverseLookupTable, width: width, height: height)
    }

    private func map(_ p: SIMD2<Double>, table: [Double], width: Int, height: Int) -> SIMD2<Double> {
        let c = distortionCenter(forWidth: width)
        let q = Devices.LensDistortion.map(
            x: p.x, y: p.y, table: table, centerX: c.x, centerY: c.y, width: Double(width), height: Double(height))
        return SIMD2(q.x, q.y)
    }
}
