import Imaging
import Sensor
import Spectra

/// Converts between a camera's white (its raw response to a light's white, or the gains that make
/// it neutral) and the CIE 1931 chromaticity of that light.
///
/// The camera's sensitivities are not a linear mix of the colour-matching functions, so no single
/// matrix maps camera RGB to XYZ exactly. Lights, though, form a narrow family: this fits one 3×3
/// matrix from camera white to XYZ by least squares over the lights a white balance meets, the
/// Planckian radiators from 1,800 K to 12,000 K and the CIE daylights from 4,000 K to 25,000 K
/// (CIE 15:2018 §4), each scaled to luminance 1, so that along those loci the conversion agrees with
/// the spectral computation to a fraction of a percent; off the loci it extends linearly.
public struct WhitePointConversion: Sendable {
    /// Camera white (any scale) to XYZ.
    public let cameraToXYZ: Matrix3
    /// XYZ to camera white.
    public let xyzToCamera: Matrix3

    /// Fits the matrix for a camera; nil when its sensitivities see no light at all.
    public init?(camera: CameraModel) {
        var lights: [Spectrum] = []
        // Steps even in mired (1e6/T), on which nearby lights differ about equally.
        let steps = 60
        for i in 0...steps {
            let mired = 1e6 / 12_000 + (1e6 / 1_800 - 1e6 / 12_000) * Double(i) / Double(steps)
            lights.append(Illuminants.planckian(cct: 1e6 / mired))
        }
        for i in 0...steps {
            let mired = 1e6 / 25_000 + (1e6 / 4_000 - 1e6 / 25_000) * Double(i) / Double(steps)
            if let d = try? Illuminants.daylight(cct: 1e6 / mired) { lights.append(d) }
        }
        // Normal equations of X ≈ M·n: M = (Σ X nᵀ)(Σ n nᵀ)⁻¹.
        var xn = [[Double]](repeating: [0, 0, 0], count: 3)
        var nn = [[Double]](repeating: [0, 0, 0], count: 3)
        for light in lights {
            let xyz = CIE1931.tristimulus(light).vector
            guard xyz.y > 0 else { continue }
            let n = CameraResponse.neutral(illuminant: light, camera: camera) / xyz.y
            let x = xyz / xyz.y
            for r in 0..<3 {
                for c in 0..<3 {
                    xn[r][c] += x[r] * n[c]
                    nn[r][c] += n[r] * n[c]
                }
            }
        }
        guard let inverse = Matrix3(rows: nn).inverse else { return nil }
        let m = Matrix3(rows: xn) * inverse
        guard let back = m.inverse else { return nil }
        cameraToXYZ = m
        xyzToCamera = back
    }

    /// The chromaticity of the light whose camera white is `neutral`; nil for a white no light gives.
    public func chromaticity(ofCameraWhite neutral: SIMD3<Double>) -> Chromaticity? {
        let xyz = cameraToXYZ * neutral
        let sum = xyz.x + xyz.y + xyz.z
        guard sum > 0, xyz.y > 0 else { return nil }
        return XYZ(xyz).chromaticity
    }

    /// The camera white (green 1) of a light of chromaticity `xy`; nil where a channel would not be
    /// positive, as no light gives such a white.
    public func cameraWhite(of xy: Chromaticity) -> SIMD3<Double>? {
        guard xy.y > 0 else { return nil }
        let n = xyzToCamera * xy.xyz().vector
        guard n.x > 0, n.y > 0, n.z > 0 else { return nil }
        return n / n.y
    }
}
