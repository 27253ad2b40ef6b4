import Foundation
import Sensor

/// The two exposures of a Constant Color capture, chosen from pre-flash metering.
///
/// - The **flash frame** is exposed to the right: its 98th-percentile pixel (brightest channel) is
///   put at 85 % of the full well, so mid-tones and the flash increment get the most signal the
///   well allows while the brightest 2 % (specular highlights) may clip; they get zero confidence
///   anyway. Shot noise depends on electrons, not gain, so time grows first (up to
///   `maximumFlashTime`, a flash pulse and hand-held limit) and ISO only beyond it.
/// - The **ambient frame** uses the flash frame's time and ISO without the flash, the classic
///   flash/no-flash pair (Petschnigg et al. 2004): it can then never clip where the flash frame does
///   not, so the subtraction is valid wherever the flash frame is, and the noise of the difference is
///   the color-science spec §3.4 S_f + 2S_a + 2σ_r². The ordinary photo developed from it gets the
///   digital gain `fallbackGain` that brings it to the auto-exposure level (`AutoExposure`).
public struct ConstantColorCapturePlan: Sendable, Hashable {
    /// The no-flash frame.
    public var ambient: Exposure
    /// The flash frame.
    public var flash: Exposure
    /// Seconds from the ambient frame to the flash frame.
    public var interval: Double
    /// Digital gain that brings the ambient frame to the ordinary auto-exposure level.
    public var fallbackGain: Double

    /// A plan from explicit exposures.
    public init(ambient: Exposure, flash: Exposure, interval: Double, fallbackGain: Double = 1) {
        self.ambient = ambient
        self.flash = flash
        self.interval = interval
        self.fallbackGain = fallbackGain
    }

    /// Share of the full well the flash frame's 98th-percentile pixel should reach.
    public static let flashHeadroom = 0.85

    /// Meters a pre-flash and an ambient probe (low-resolution frames rendered without noise-free
    /// components, so only what a sensor reports is used).
    ///
    /// `maximumExposureTime` is the longest exposure auto-exposure may choose, nil for its default: the pair's
    /// time is at most the smaller of it and `maximumFlashTime` (ISO makes up the rest), and the ordinary exposure
    /// the fallback photo is brought to is auto-exposure's under the same limit.
    public static func meter(
        meteringRenderer: Renderer, seed: UInt64, maximumFlashTime: Double, interval: Double,
        maximumExposureTime: Double? = nil
    ) -> ConstantColorCapturePlan {
        let maximumFlashTime = min(maximumFlashTime, maximumExposureTime ?? .infinity)
        let noise = meteringRenderer.camera.noise
        let base = noise.baseISO
        // Pre-flash: shorten the probe until it no longer clips (sunlight), at most three times.
        var time = 0.01
        var rate = 0.0
        for attempt in 0..<4 {
            let probe = meteringRenderer.render(
                Exposure(time: time, iso: base, flash: true, seed: seed, frameIndex: 100 + UInt64(attempt)))
            let (p98, clipped) = brightRate(probe, noise: noise)
            rate = p98
            if clipped < 0.02 || attempt == 3 { break }
            time /= 16
        }
        // Effective exposure at base gain: t · ISO / base.
        let product = rate > 0 ? flashHeadroom * noise.fullWellElectrons / rate : maximumFlashTime
        let flashTime = min(product, maximumFlashTime)
        let iso = min(max(base * product / flashTime, base), base * 64)
        let ambientProbe = meteringRenderer.render(
            Exposure(time: 0.01, iso: base, flash: false, seed: seed, frameIndex: 110))
        let auto = AutoExposure(noise: noise, maximumTime: maximumExposureTime ?? AutoExposure.defaultMaximumTime)
        let (t, s) = auto.exposure(
            meteredRate: AutoExposure.meteredRate(ambientProbe, camera: meteringRenderer.camera), noise: noise)
        // The ordinary photo's exposure, t·ISO, against the pair's.
        let gain = (t * s) / (flashTime * iso)
        return ConstantColorCapturePlan(
            ambient: Exposure(time: flashTime, iso: iso, flash: false, seed: seed, frameIndex: 0),
            flash: Exposure(time: flashTime, iso: iso, flash: true, seed: seed, frameIndex: 1),
            interval: interval, fallbackGain: gain.isFinite && gain > 0 ? gain : 1)
    }

    /// The 98th-percentile brightest-channel electron rate (e⁻/s) and the clipped share.
    static func brightRate(_ frame: RawFrame, noise: NoiseParameters) -> (Double, Double) {
        let gain = noise.gain(iso: frame.exposure.iso)
        let white = UInt16(min(noise.whiteLevel, 65535))
        var rates: [Double] = []
        rates.reserveCapacity(frame.width * frame.height)
        var clipped = 0
        for p in 0..<(frame.width * frame.height) {
            let m = max(frame.dn[3 * p], frame.dn[3 * p + 1], frame.dn[3 * p + 2])
            if m >= white { clipped += 1 }
            rates.append((Double(m) - noise.blackLevel) / gain / frame.exposure.time)
        }
        rates.sort()
        let p98 = rates.isEmpty ? 0 : rates[min(rates.count - 1, Int(Double(rates.count) * 0.98))]
        return (p98, Double(clipped) / Double(max(1, rates.count)))
    }
}
