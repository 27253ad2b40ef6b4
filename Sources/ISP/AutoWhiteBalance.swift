import Foundation
import Imaging
import Sensor
import Spectra

/// Auto white balance as a phone can run it: the light is estimated from the frame alone and the
/// camera's nominal calibration (its spectral sensitivities), never from the scene's light spectra.
///
/// The method is ours, built from published parts:
/// 1. **Statistics.** The frame is cut into a grid of zones (`columns` × `rows`), as phone ISPs
///    gather AWB statistics per zone. Each zone keeps the mean black-subtracted camera RGB of its
///    unclipped pixels (a pixel with a channel at the white level has lost its colour). A zone is
///    left out when fewer than a quarter of its pixels are unclipped, or when its mean green is
///    below `darkFraction` of the range (noise and the black level's rounding would decide its
///    colour). Means, not per-pixel ratios, so a dim zone's noise averages out.
/// 2. **Candidates.** The lights searched are the Planckian radiators below 5,000 K and CIE daylight
///    from 5,000 K (CIE 15:2018, as `Illuminants.make(cct:)` picks them), from 1,800 K to 12,000 K
///    in steps even in mired. Each light's camera neutral comes from the camera's sensitivities.
/// 3. **Fit.** A zone's chromaticity is (ln R/G, ln B/G). Each candidate is scored by how well it
///    explains the zones as grey: the sum over zones of the Geman–McClure robust loss
///    d² / (d² + `limit`²) of the zone's distance d from the candidate's neutral. Near-neutral
///    zones pull the estimate; strongly coloured ones (a saturated surface, a wall under a coloured light) add
///    nearly the same constant to every candidate and barely pull at all. This is grey world
///    restricted to plausible neutrals (Buchsbaum 1980; Finlayson & Trezzi 2004 for the family),
///    searched along the light locus as Bayesian AWB does (Raspberry Pi camera tuning guide,
///    section "AWB"), with a smooth loss instead of a hard cut so the search always has a best point.
/// 4. **Prior.** A frame filled by one coloured surface (a navy cloth, a walnut table) explains
///    itself as grey under the wrong light, so the score adds a prior on the light from the scene's
///    brightness, as Bayesian AWB weighs its priors by lux: dim scenes are mostly lit by warm
///    incandescent light, bright ones by daylight. The illuminance is read from the frame as a phone reads it
///    from its exposure and its factory calibration: the frame's mean green electrons per second
///    over what the camera equation (`CameraEquation`) gives for a white diffuser under 1 lux of
///    D65, divided by 0.18, the average reflectance light meters assume. The prior is a Gaussian in mired
///    (width `priorWidth`) about a centre that runs from 2,900 K at 100 lux and below to 6,000 K at 1,000 lux
///    and above, linearly in log lux, weighted `priorWeight`
///    against the mean zone loss (all our choices).
/// 5. The balance is the best candidate's (its spectrum feeds the colour-correction matrix).
///
/// A frame with no usable zone is balanced for D65.
public struct AutoWhiteBalance: Sendable, Hashable {
    /// Zones across the frame.
    public var columns = 32
    /// Zones down the frame.
    public var rows = 24
    /// Zones whose mean green is below this share of the range above black are too dark to use (our
    /// choice: about 4.7 EV below the auto-exposure mid-grey; a zone's mean over a hundred pixels or
    /// more still has a few per cent noise there).
    public var darkFraction = 0.005
    /// The chromaticity distance (natural-log ratio units) at which a zone stops counting as grey:
    /// 0.1, about a 10 % difference in R/G or B/G (our choice: wide enough for an off-white wall,
    /// narrow enough that wood, skin and brick do not pass for grey).
    public var limit = 0.1
    /// Width of the prior on the light, mired.
    public var priorWidth = 120.0
    /// Weight of the prior against the mean zone loss (which runs from 0, every zone grey, to 1).
    public var priorWeight = 1.0
    /// The warmest light searched, kelvin.
    public static let warmest = 1_800.0
    /// The coolest light searched, kelvin.
    public static let coolest = 12_000.0
    /// Candidates along the locus (steps even in mired, about 1.9 mired apart).
    public static let steps = 240

    /// The default estimator.
    public init() {}

    /// One zone's statistics.
    public struct Zone: Sendable, Hashable {
        /// Mean black-subtracted camera RGB of the unclipped pixels, DN.
        public let mean: SIMD3<Double>
        /// How many pixels were unclipped.
        public let count: Int
    }

    /// The zones with usable statistics, row by row: one pass over the frame, summed in row order,
    /// so the result does not depend on how the frame was rendered.
    public func zones(_ frame: RawFrame, camera: CameraModel) -> [Zone] {
        let (width, height) = (frame.width, frame.height)
        guard width > 0, height > 0 else { return [] }
        let black = camera.noise.blackLevel
        let range = camera.noise.whiteLevel - black
        // The clip test of `BasicDevelop.PixelKernel`: half a code below the white level.
        let top = UInt16(max(0, min(camera.noise.whiteLevel, Double(UInt16.max)) - 0.5))
        let darkest = darkFraction * range
        let (nx, ny) = (min(columns, width), min(rows, height))
        var sums = [SIMD3<Double>](repeating: .zero, count: nx * ny)
        var counts = [Int](repeating: 0, count: nx * ny)
        var totals = [Int](repeating: 0, count: nx * ny)
        // Where each zone column starts: the first x with x·nx / width equal to it. A zone's pixels in a row are
        // one run of columns, summed in a register from the zone's running sum and stored back after the run, so
        // each value is added in the order a pixel-by-pixel pass adds it.
        let zoneStart = (0...nx).map { (zx: Int) in (zx * width + nx - 1) / nx }
        // Bands of whole zone rows, each summing its own zones in row order: the sums are those of one serial pass.
        frame.dn.withUnsafeBufferPointer { dn in
            withPointers(&sums, &counts, &totals) { sums, counts, totals in
                let dn = SharedReadPointer(dn)
                BandParallel.forEachBand(height: ny, rowsPerBand: 1) { zoneRows in
                    let firstRow = (zoneRows.lowerBound * height + ny - 1) / ny
                    let endRow = (zoneRows.upperBound * height + ny - 1) / ny
                    for y in firstRow..<endRow {
                        let zy = y * ny / height
                        for zx in 0..<nx {
                            let z = zy * nx + zx, run = zoneStart[zx]..<zoneStart[zx + 1]
                            var sum = sums.base[z], count = counts.base[z]
                            totals.base[z] += run.count
                            for x in run {
                                let p = 3 * (y * width + x)
                                let (r, g, b) = (dn.base[p], dn.base[p + 1], dn.base[p + 2])
                                guard r < top, g < top, b < top else { continue }
                                sum += SIMD3(Double(Int(r)), Double(Int(g)), Double(Int(b))) - black
                                count += 1
                            }
                            sums.base[z] = sum
                            counts.base[z] = count
                        }
                    }
                }
            }
        }
        var zones: [Zone] = []
        for z in 0..<(nx * ny) where counts[z] > 0 && 4 * counts[z] >= totals[z] {
            let mean = sums[z] / Double(counts[z])
            guard mean.y >= darkest, mean.x > 0, mean.z > 0 else { continue }
            zones.append(Zone(mean: mean, count: counts[z]))
        }
        return zones
    }

    /// A candidate light and its camera neutral.
    struct Candidate {
        let cct: Double
        let spectrum: Spectrum
        /// (ln R/G, ln B/G) of the camera neutral.
        let chroma: SIMD2<Double>
    }

    /// The candidates along the locus for a camera.
    static func candidates(camera: CameraModel) -> [Candidate] {
        let (lo, hi) = (1e6 / coolest, 1e6 / warmest)
        var out: [Candidate] = []
        for i in 0...steps {
            let cct = 1e6 / (lo + (hi - lo) * Double(i) / Double(steps))
            guard let spectrum = try? Illuminants.make(cct: cct) else { continue }
            let n = CameraResponse.neutral(illuminant: spectrum, camera: camera)
            guard n.x > 0, n.y > 0, n.z > 0 else { continue }
            out.append(Candidate(cct: cct, spectrum: spectrum, chroma: SIMD2(log(n.x / n.y), log(n.z / n.y))))
        }
        return out
    }

    /// What the estimator found.
    public struct Estimate: Sendable, Hashable {
        /// The balance for the estimated light.
        public let whiteBalance: WhiteBalance
        /// The estimated light's correlated colour temperature, kelvin; nil when no zone was usable.
        public let cct: Double?
        /// Zones that counted as grey for it (distance below `limit`).
        public let greyZones: Int
        /// Zones with usable statistics.
        public let usableZones: Int
        /// The scene illuminance the frame implies, lux (see the type's documentation); nil without
        /// usable zones.
        public let illuminance: Double?
    }

    /// The scene illuminance, lux, a frame's mean green implies at its exposure (see the type's
    /// documentation, step 4).
    static func illuminance(meanGreen: Double, frame: RawFrame, camera: CameraModel) -> Double {
        let t = frame.exposure.time
        let gain = camera.noise.gain(iso: frame.exposure.iso)
        // A white diffuser under 1 lux of D65: sensor irradiance ρ·E·T/(1 + 4N²), ρ = 1.
        let throughput = CameraEquation.throughput(fNumber: camera.fNumber, transmittance: camera.lensTransmittance)
        let perLux = CameraEquation.electronRate(
            sensorIrradiance: Photometry.scaled(Illuminants.d65, toIlluminance: 1) * throughput,
            quantumEfficiency: camera.quantumEfficiency.green, pixelPitchMicrometres: camera.pixelPitchMicrometres)
        guard t > 0, gain > 0, perLux > 0 else { return 0 }
        return meanGreen / gain / t / perLux / 0.18
    }

    /// The centre of the prior for a scene illuminance, mired.
    static func priorCentre(illuminance: Double) -> Double {
        let (dim, bright) = (100.0, 1_000.0)
        let (warm, cool) = (1e6 / 2_900, 1e6 / 6_000)
        let t = min(max(log(max(illuminance, 1e-9) / dim) / log(bright / dim), 0), 1)
        return warm + (cool - warm) * t
    }

    /// The estimate for a frame: see the type's documentation.
    public func estimate(_ frame: RawFrame, camera: CameraModel) -> Estimate {
        let zones = zones(frame, camera: camera)
        let chromas = zones.map { SIMD2(log($0.mean.x / $0.mean.y), log($0.mean.z / $0.mean.y)) }
        let candidates = Self.candidates(camera: camera)
        guard !chromas.isEmpty, !candidates.isEmpty else {
            return Estimate(
                whiteBalance: WhiteBalance(illuminant: Illuminants.d65, camera: camera), cct: nil, greyZones: 0,
                usableZones: zones.count, illuminance: nil)
        }
        let meanGreen = zones.reduce(0) { $0 + $1.mean.y } / Double(zones.count)
        let lux = Self.illuminance(meanGreen: meanGreen, frame: frame, camera: camera)
        let centre = Self.priorCentre(illuminance: lux)
        let l2 = limit * limit
        var best = (cost: Double.infinity, index: 0)
        for (i, candidate) in candidates.enumerated() {
            var loss = 0.0
            for c in chromas {
                let d = c - candidate.chroma
                let d2 = (d * d).sum()
                loss += d2 / (d2 + l2)
            }
            let offset = (1e6 / candidate.cct - centre) / priorWidth
            let cost = loss / Double(chromas.count) + priorWeight * 0.5 * offset * offset
            if cost < best.cost { best = (cost, i) }
        }
        let chosen = candidates[best.index]
        let grey = chromas.filter { c in
            let d = c - chosen.chroma
            return (d * d).sum() < l2
        }.count
        return Estimate(
            whiteBalance: WhiteBalance(illuminant: chosen.spectrum, camera: camera), cct: chosen.cct, greyZones: grey,
            usableZones: zones.count, illuminance: lux)
    }
}

extension WhiteBalance {
    /// The balance for the light on the locus that `AutoWhiteBalance` searches, at a colour
    /// temperature (kelvin, held within the searched range): Planckian below 5,000 K, CIE daylight from it.
    public init(locusCCT cct: Double, camera: CameraModel) {
        let clamped = min(max(cct, AutoWhiteBalance.warmest), AutoWhiteBalance.coolest)
        self.init(illuminant: (try? Illuminants.make(cct: clamped)) ?? Illuminants.d65, camera: camera)
    }

    /// The auto white balance of a frame: `AutoWhiteBalance`'s estimate with its default settings.
    public static func auto(_ frame: RawFrame, camera: CameraModel) -> WhiteBalance {
        AutoWhiteBalance().estimate(frame, camera: camera).whiteBalance
    }
}
