import Imaging

extension CameraCalibration {
    /// The calibration of the same camera after its picture is turned or mirrored.
    ///
    /// The camera's x and y axes turn with the picture (a signed permutation M), so the
    /// intrinsics stay diagonal: focal lengths swap when the axes swap, and the principal point
    /// and distortion centre move like any point. The pose turns by the same M, R' = M·R and
    /// t' = M·t; for a mirrored orientation M is a reflection, as the mirrored picture is. The
    /// radial tables do not change.
    public func applying(_ orientation: ExifOrientation) -> CameraCalibration {
        let (w, h) = (referenceWidth, referenceHeight)
        let (m0, m1) = orientation.axisMatrix
        let c = orientation.transform(SIMD2(cx, cy), width: w, height: h)
        let d = orientation.transform(distortionCenter, width: w, height: h)
        func turn(_ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(m0.x * v.x + m0.y * v.y, m1.x * v.x + m1.y * v.y, v.z)
        }
        // Rows of M·R: each output row mixes the input rows by M.
        let r = rotation
        let rotated = [r[0] * m0.x + r[1] * m0.y, r[0] * m1.x + r[1] * m1.y, r[2]]
        let swaps = orientation.swapsAxes
        return CameraCalibration(
            fx: swaps ? fy : fx, fy: swaps ? fx : fy, cx: c.x, cy: c.y,
            referenceWidth: swaps ? h : w, referenceHeight: swaps ? w : h, rotation: rotated,
            translationMM: turn(translationMM), pixelSizeMM: pixelSizeMM, lookupTable: lookupTable,
            inverseLookupTable: inverseLookupTable, distortionCenter: d)
    }
}
