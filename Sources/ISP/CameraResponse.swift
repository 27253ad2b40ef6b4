import Imaging
import Sensor
import Spectra

/// What a camera's three channels record from a surface under a light, computed from spectra.
///
/// The sensor counts photons, so the response is C_k = Σ ρ(λ) E(λ) QE_k(λ) λ Δλ (the photon
/// weighting λ/(hc) of `CameraEquation`, with the constant dropped because only ratios matter here).
public enum CameraResponse {
    /// The photon-weighted responses of a reflectance under an illuminant (any common scale).
    public static func rgb(reflectance: Spectrum, illuminant: Spectrum, camera: CameraModel) -> SIMD3<Double> {
        let stimulus = reflectance * illuminant
        let qe = camera.quantumEfficiency
        var r = 0.0, g = 0.0, b = 0.0
        for i in 0..<Spectrum.count {
            let s = stimulus.values[i] * Spectrum.wavelengths[i]
            r += s * qe.red.values[i]
            g += s * qe.green.values[i]
            b += s * qe.blue.values[i]
        }
        return SIMD3(r, g, b)
    }

    /// The response to the perfect white diffuser: the camera's neutral for this illuminant.
    public static func neutral(illuminant: Spectrum, camera: CameraModel) -> SIMD3<Double> {
        rgb(reflectance: .constant(1), illuminant: illuminant, camera: camera)
    }
}
