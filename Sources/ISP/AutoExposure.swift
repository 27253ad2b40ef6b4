import Foundation
import Sensor

/// Automatic exposure: picks the exposure time and ISO that put a metered mid-grey at the ISO 12232
/// saturation-based level.
///
/// ISO 12232's saturation speed S_sat = 78 / H_sat and its mid-grey exposure H = 10 / S place a
/// scene's mid-grey at 10/78 ≈ 12.8 % of the clipping signal (color-science spec §3.3), whatever
/// the ISO. The metered scene is assumed to average to mid-grey (the reflected-light meter's
/// premise), so the metered signal is driven to that fraction of (white − black). In our gain model
/// signal DN ∝ rate × time × ISO / base ISO, so the rule fixes the product time × ISO. Time grows
/// first, from the base ISO up to `maximumTime` (a hand-held limit, which a capture device may
/// change: its `activeMaxExposureDuration`); then ISO rises up to the top
/// of `isoRange`; beyond that the picture stays under-exposed, as a phone's would.
public struct AutoExposure: Sendable, Hashable {
    /// The ISO 12232 mid-grey signal as a fraction of the clipping level: 10/78.
    public static let midGreyFraction = 10.0 / 78.0

    /// The longest exposure time auto-exposure chooses unless told otherwise, seconds: 1/30 s, one
    /// frame of 30 fps video, short enough to hold a hand-held picture steady (our choice).
    public static let defaultMaximumTime = 1.0 / 30

    /// Signal fraction the metered mean should reach.
    public var target: Double
    /// Longest exposure time, seconds.
    public var maximumTime: Double
    /// Shortest exposure time, seconds.
    public var minimumTime: Double
    /// ISO speeds the sensor offers.
    public var isoRange: ClosedRange<Double>

    /// An auto-exposure for a sensor. Profiles give only a base ISO, so the range defaults to the
    /// base ISO up to 64× it (six stops of gain, about what phone sensors offer; our choice).
    public init(
        noise: NoiseParameters, target: Double = AutoExposure.midGreyFraction,
        maximumTime: Double = AutoExposure.defaultMaximumTime, minimumTime: Double = 1.0 / 100_000, isoRange: ClosedRange<Double>? = nil
    ) {
        self.target = target
        self.maximumTime = maximumTime
        self.minimumTime = minimumTime
        self.isoRange = isoRange ?? noise.baseISO...(noise.baseISO * 64)
    }

    /// The centre-weighted mean green electron rate (e⁻/s) of a metering frame.
    ///
    /// Weights fall off as a Gaussian of the distance from the centre, σ = half the half-diagonal
    /// (our choice of "centre-weighted"). The frame's noise-free components are used when present,
    /// so a clipped or noisy metering frame does not bias the reading. With `camera`, readings are
    /// first corrected for its lens shading, as a phone's exposure statistics are: the developed
    /// picture, not the vignetted raw one, is what lands at mid-grey.
    public static func meteredRate(_ frame: RawFrame, camera: CameraModel? = nil) -> Double {
        let w = frame.width, h = frame.height
        let shading = camera.flatMap { $0.width == w && $0.height == h ? $0 : nil }
        let halfDiagonal = (Double(w * w + h * h)).squareRoot() / 2
        let sigma2 = 2 * (halfDiagonal / 2) * (halfDiagonal / 2)
        var sum = 0.0, weights = 0.0
        for y in 0..<h {
            let dy = Double(y) + 0.5 - Double(h) / 2
            for x in 0..<w {
                let dx = Double(x) + 0.5 - Double(w) / 2
                let weight = exp(-(dx * dx + dy * dy) / sigma2)
                let i = (y * w + x) * 3 + 1
                var e: Float
                if let ambient = frame.ambientElectrons {
                    e = ambient[i] + (frame.flashElectrons?[i] ?? 0)
                } else {
                    e = frame.electrons[i]
                }
                if let shading { e /= Float(shading.relativeIllumination(x: x, y: y)) }
                sum += weight * Double(e)
                weights += weight
            }
        }
        return weights > 0 ? sum / weights / frame.exposure.time : 0
    }

    /// Time and ISO for a metered green electron rate (e⁻/s) on a sensor.
    public func exposure(meteredRate rate: Double, noise: NoiseParameters) -> (time: Double, iso: Double) {
        guard rate > 0 else { return (maximumTime, isoRange.upperBound) }
        // target·(W − B) = rate·t·gain(ISO), gain = (W − B)/FW · ISO/base  ⇒  t·ISO = target·FW·base/rate.
        let product = target * noise.fullWellElectrons * noise.baseISO / rate
        var iso = isoRange.lowerBound
        var time = product / iso
        if time > maximumTime {
            time = maximumTime
            iso = min(max(product / time, isoRange.lowerBound), isoRange.upperBound)
        }
        return (max(time, minimumTime), iso)
    }

    /// Meters a quick frame from `meteringRenderer` (typically the same scene at a low resolution)
    /// and returns the exposure for the real capture.
    public func solve(meteringRenderer: Renderer, flash: Bool, seed: UInt64 = 0) -> Exposure {
        let probe = meteringRenderer.render(
            Exposure(time: 0.01, iso: meteringRenderer.camera.noise.baseISO, flash: flash, seed: seed))
        let (time, iso) = exposure(
            meteredRate: AutoExposure.meteredRate(probe, camera: meteringRenderer.camera),
            noise: meteringRenderer.camera.noise)
        return Exposure(time: time, iso: iso, flash: flash, seed: seed)
    }
}
