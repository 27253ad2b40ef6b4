import Sensor

/// Lens-shading correction, as a phone's ISP applies it early in the pipeline: each pixel's camera
/// RGB is divided by the lens's relative illumination there, so a uniformly lit flat field comes out
/// flat.
///
/// The gains come from the camera's shading as the device profile states it; the profile's curve is
/// the unit's factory calibration as well as its truth (our choice: phones calibrate lens shading
/// per module at the factory, and the residual is far below the noise). Clipping is decided on the
/// raw values, before the gain, where the sensor saturated. Without shading every gain is 1 and the
/// step changes nothing.
struct LensShadingCorrection {
    let camera: CameraModel

    /// Whether any gain differs from 1.
    var isActive: Bool { camera.shading != nil }

    /// The gains 1 / relative illumination of row `y` into `out` (`camera.width` values).
    func gains(row y: Int, into out: UnsafeMutablePointer<Float>) {
        camera.relativeIllumination(row: y, into: out)
        guard isActive else { return }
        for x in 0..<camera.width { out[x] = 1 / out[x] }
    }

    /// Calls `body` with a buffer of one row's gains, `camera.width` values.
    static func withRow<R>(width: Int, _ body: (UnsafeMutablePointer<Float>) -> R) -> R {
        let row = UnsafeMutablePointer<Float>.allocate(capacity: max(width, 1))
        defer { row.deallocate() }
        return body(row)
    }
}
