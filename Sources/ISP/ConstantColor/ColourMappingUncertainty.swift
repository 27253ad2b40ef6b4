import Foundation
import Imaging
import Scenes
import Sensor
import Spectra

/// How far the Constant Color colour mapping can be trusted for a colour the camera recorded: the colour error
/// the mapping is expected to make there, and the cap it puts on the confidence map.
///
/// Three camera channels cannot tell apart every pair of surfaces the eye tells apart (metamerism: the camera's
/// sensitivities are not a linear combination of the CIE colour-matching functions). Near the grey axis a fitted
/// mapping is accurate to a ΔE00 or two, but where the channels are far apart, as for a saturated red that only one
/// channel sees, surfaces with the same camera colour have hues that differ widely, and no mapping of the camera's
/// values can be right for all of them. The flash's signal-to-noise ratio says nothing of this, so a confidence
/// map built on it alone would trust such a colour fully while it is off by ΔE00 10 or more.
///
/// The device knows its own mapping: the expected error at a camera chromaticity is measured once, as a phone
/// maker characterises a colour pipeline, on reflectances that are not its training set. Two families of
/// plausible surfaces serve: a fresh draw of smooth natural-like reflectances (`TrainingReflectances.smooth` with
/// another seed), and dye- and paint-like ones, the sigmoid-of-a-quadratic spectra of Jakob & Hanika (2019) that
/// reproduce every colour of a 10 × 10 × 10 grid over the sRGB cube (`SmoothReflectance`); the second family
/// reaches the saturated corners of the gamut, which the first seldom draws. Skin, which a phone's colour tuning
/// weighs, counts as it does in the mapping's training set (the set's even half, with the same weight against the
/// smooth draws), so near skin's colours the error expected is skin's. Each probe's error is the ΔE00 between the
/// mapped colour and its CIELAB under D65 at matched lightness (hue and chroma: lightness is the flash's
/// exposure, not the mapping's). At a chromaticity q = (r, g)/(r + g + b) of the neutral-normalised camera RGB the
/// expected error is the Gaussian-weighted root mean square of the probes' errors around it (σ = 0.015 in
/// chromaticity, our choice: about the spread of one paint's camera colour between its shadow and its lit side),
/// with a prior of ΔE00 10 at weight 1 where few probes land: colours the characterisation hardly saw are
/// colours the mapping extrapolates to (our choice).
///
/// The cap (our choice): confidence is left alone up to an expected ΔE00 of 2.5, about a just-noticeable
/// difference for a patch, and falls linearly to 0 at 7; at ΔE00 3.4 it is 0.8, the level Apple's advice
/// trusts, which leaves room for the spread of single paints around the expected value below the ΔE00 5 that
/// the narrow-band check allows.
public struct ColourMappingUncertainty: Sendable {
    /// Cells per side of the chromaticity grid.
    static let side = 50
    /// The kernel's standard deviation in chromaticity.
    static let sigma = 0.015
    /// Expected ΔE00 where no probe lands, and its weight in probes.
    static let prior = (deltaE: 10.0, weight: 1.0)
    /// Expected ΔE00 up to which the confidence is not capped, and where the cap reaches 0.
    static let trusted = 2.5, untrusted = 7.0
    /// Number of smooth probes and their seed (not the training set's), and the sRGB grid's steps per axis.
    static let probeCount = 4000, probeSeed: UInt64 = 0x5EED_C0DE, gridSteps = 10
    /// Grids already made, by camera and illuminant: a capture makes a pipeline, and the grid costs a
    /// few hundred milliseconds.
    nonisolated(unsafe) private static var cache: [Key: [Double]] = [:]
    private static let lock = NSLock()
    private struct Key: Hashable {
        let correction: RootPolynomialCorrection
        let spectra: [[Double]]
    }

    /// Expected ΔE00 at the centre of each cell, row-major; row i is g, column j is r.
    let grid: [Double]

    /// The uncertainty of `correction`, a mapping from camera RGB under `illuminant`, divided by that illuminant's
    /// camera neutral, to XYZ under D65.
    public init(correction: RootPolynomialCorrection, camera: CameraModel, illuminant: Spectrum) {
        let qe = camera.quantumEfficiency
        let key = Key(correction: correction, spectra: [illuminant.values, qe.red.values, qe.green.values, qe.blue.values])
        if let grid = Self.lock.withLock({ Self.cache[key] }) {
            self.grid = grid
            return
        }
        grid = Self.measure(correction: correction, camera: camera, illuminant: illuminant)
        Self.lock.withLock { Self.cache[key] = grid }
    }

    /// The probes' errors, smoothed onto the grid.
    static func measure(correction: RootPolynomialCorrection, camera: CameraModel, illuminant: Spectrum) -> [Double] {
        let steps = (0..<gridSteps).map { Double($0) / Double(gridSteps - 1) }
        let paints = steps.flatMap { r in
            steps.flatMap { g in steps.map { b in SmoothReflectance.fit(rgb: SIMD3(r, g, b), in: .sRGB).reflectance } }
        }
        let neutral = CameraResponse.neutral(illuminant: illuminant, camera: camera)
        let white = Colorimetry.whitePoint(of: Illuminants.d65)
        // The two families weigh the same in all (a paint counts for as many smooth draws as there are per paint).
        let paintWeight = Double(probeCount) / Double(paints.count)
        // Skin weighs as it does in the mapping's training (`TrainingReflectances.constantColor`), relative to the
        // smooth draws: where a camera colour is most often skin, the error on skin is what to expect there.
        let skinWeight = 40 * Double(probeCount) / 2000
        let skin = SkinTones.patches.enumerated().filter { $0.offset % 2 == 0 }.map { ($0.element.reflectance, skinWeight) }
        let weighted = TrainingReflectances.smooth(count: probeCount, seed: probeSeed).map { ($0, 1.0) }
            + paints.map { ($0, paintWeight) } + skin
        let probes = weighted.map { reflectance, weight in
            let rgb = CameraResponse.rgb(reflectance: reflectance, illuminant: illuminant, camera: camera) / neutral
            let truth = Colorimetry.xyz(reflectance: reflectance, illuminant: Illuminants.d65)
            let mapped = correction.apply(rgb)
            let matched = mapped * (truth.Y / 100 / max(mapped.y, 1e-12))
            let error = DeltaE.ciede2000(
                Lab(XYZ(matched * 100), white: white), Colorimetry.lab(reflectance: reflectance, illuminant: Illuminants.d65))
            return (chromaticity(rgb), error, weight)
        }
        return smoothed(probes)
    }

    /// The kernel-weighted RMS error of the probes at each cell centre, with the prior.
    static func smoothed(_ probes: [(SIMD2<Double>, Double, Double)]) -> [Double] {
        let n = side
        var weights = [Double](repeating: prior.weight, count: n * n)
        var squares = [Double](repeating: prior.weight * prior.deltaE * prior.deltaE, count: n * n)
        let reach = Int((4 * sigma * Double(n)).rounded(.up))
        for (q, error, weight) in probes {
            let cj = Int(q.x * Double(n)), ci = Int(q.y * Double(n))
            for i in max(0, ci - reach)...min(n - 1, ci + reach) {
                for j in max(0, cj - reach)...min(n - 1, cj + reach) {
                    let d = SIMD2((Double(j) + 0.5) / Double(n), (Double(i) + 0.5) / Double(n)) - q
                    let w = weight * exp(-0.5 * (d * d).sum() / (sigma * sigma))
                    weights[i * n + j] += w
                    squares[i * n + j] += w * error * error
                }
            }
        }
        return zip(squares, weights).map { ($0 / $1).squareRoot() }
    }

    /// (r, g) / (r + g + b), clamped to the unit square; black maps to the grey point.
    static func chromaticity(_ rgb: SIMD3<Double>) -> SIMD2<Double> {
        let c = SIMD3(max(rgb.x, 0), max(rgb.y, 0), max(rgb.z, 0))
        let sum = c.x + c.y + c.z
        guard sum > 0 else { return SIMD2(1.0 / 3, 1.0 / 3) }
        return SIMD2(min(c.x / sum, 1), min(c.y / sum, 1))
    }

    /// The expected ΔE00 of the mapping for a neutral-normalised camera RGB (bilinear between cell centres).
    public func expectedDeltaE(_ rgb: SIMD3<Double>) -> Double {
        let n = Self.side
        let q = Self.chromaticity(rgb)
        let u = min(max(q.x * Double(n) - 0.5, 0), Double(n - 1)), v = min(max(q.y * Double(n) - 0.5, 0), Double(n - 1))
        let j0 = Int(u), i0 = Int(v), j1 = min(j0 + 1, n - 1), i1 = min(i0 + 1, n - 1)
        let a = u - Double(j0), b = v - Double(i0)
        let top = grid[i0 * n + j0] * (1 - a) + grid[i0 * n + j1] * a
        let bottom = grid[i1 * n + j0] * (1 - a) + grid[i1 * n + j1] * a
        return top * (1 - b) + bottom * b
    }

    /// The most confidence a region of this camera colour may have: 1 up to the trusted error, 0 from the
    /// untrusted one, linear between.
    public func confidenceCap(_ rgb: SIMD3<Double>) -> Double {
        min(1, max(0, (Self.untrusted - expectedDeltaE(rgb)) / (Self.untrusted - Self.trusted)))
    }
}

extension ColourMappingUncertainty {
    /// The confidence map with each tile held at or below the cap of its flash-only colour (the tile's flash-only
    /// sums divided by the calibrated flash's camera neutral). The photo is not touched: the cap says how far its
    /// colours can be trusted, not how they are made.
    func capped(_ map: ConfidenceMap, statistics: PairStatistics, flashNeutral: SIMD3<Double>) -> ConfidenceMap {
        var values = map.values
        for t in values.indices {
            values[t] = min(values[t], confidenceCap(statistics.tiles[t].flashOnly / flashNeutral))
        }
        return ConfidenceMap(
            values: values, snr: map.snr, consistency: map.consistency, width: map.plane.width,
            height: map.plane.height, tileSize: map.tileSize)
    }
}
