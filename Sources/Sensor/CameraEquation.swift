import Spectra

/// The camera equation and photon counting: how scene radiance becomes electrons per second.
///
/// Sensor-plane irradiance E = π·L·T / (1 + 4N²) (ISETCam `oiCalculateIrradiance` with
/// magnification m → 0; color-science spec §3.3). The "1 +" keeps the exact on-axis form for an
/// aplanatic lens; the common approximation π·L·T/(4N²) is 7 % brighter at f/1.8. For a
/// Lambertian surface L = ρE/π, so the π cancels: E_sensor = ρ·E·T/(1 + 4N²).
public enum CameraEquation {
    /// Planck constant, J·s (SI 2019, exact).
    public static let planck = 6.626_070_15e-34
    /// Speed of light, m/s (exact).
    public static let speedOfLight = 299_792_458.0

    /// The ratio of sensor-plane irradiance to π × scene radiance: T / (1 + 4N²).
    public static func throughput(fNumber: Double, transmittance: Double) -> Double {
        transmittance / (1 + 4 * fNumber * fNumber)
    }

    /// Electrons per second in one pixel when the sensor plane receives `irradiance`
    /// (W·m⁻²·nm⁻¹ per sample): A · ∫ E(λ) · λ/(h c) · QE(λ) dλ.
    public static func electronRate(
        sensorIrradiance irradiance: Spectrum, quantumEfficiency: Spectrum, pixelPitchMicrometres: Double
    ) -> Double {
        let area = pixelPitchMicrometres * pixelPitchMicrometres * 1e-12
        var sum = 0.0
        for i in 0..<Spectrum.count {
            let photonsPerJoule = Spectrum.wavelengths[i] * 1e-9 / (planck * speedOfLight)
            sum += irradiance.values[i] * photonsPerJoule * quantumEfficiency.values[i]
        }
        return sum * Spectrum.step * area
    }
}
