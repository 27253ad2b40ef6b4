import Imaging

/// The inverse of a distortion table's radial map r ↦ r·(1 + m(r)), tabulated once per camera so
/// that each distorted pixel finds its undistorted ray without iterating.
struct RadialInverse: Sendable {
    private let table: [Double]
    private let step: Double
    private let inverseStep: Double
    private let tailScale: Double
    private let distortedLimit: Double
    /// u(r)/r sampled uniformly in r² up to the distorted limit, so a pixel finds its ray's
    /// scale from its squared radius without a square root or a division.
    private let ratio: [Double]
    private let inverseSquaredStep: Double

    /// Inverts by a monotone scan over a fine forward sampling (the map must increase, as any
    /// physical distortion table does over the image).
    init(_ distortion: LensDistortion, width: Int, height: Int, samples: Int = 8192) {
        let rMax = distortion.maximumRadius(width: width, height: height)
        func forward(_ r: Double) -> Double { r * (1 + distortion.magnification(radius: r, maximumRadius: rMax)) }
        let fine = 4 * samples
        var us = [Double](repeating: 0, count: fine + 1)
        var ds = [Double](repeating: 0, count: fine + 1)
        for i in 0...fine {
            us[i] = rMax * Double(i) / Double(fine)
            ds[i] = i == fine ? rMax * (1 + distortion.lookupTable[distortion.lookupTable.count - 1]) : forward(us[i])
        }
        distortedLimit = ds[fine]
        step = distortedLimit / Double(samples)
        inverseStep = Double(samples) / distortedLimit
        tailScale = 1 / (1 + distortion.lookupTable[distortion.lookupTable.count - 1])
        var out = [Double](repeating: 0, count: samples + 1)
        var j = 0
        for k in 0...samples {
            let target = Double(k) * step
            while j < fine - 1 && ds[j + 1] < target { j += 1 }
            let span = ds[j + 1] - ds[j]
            let f = span > 0 ? min(max((target - ds[j]) / span, 0), 1) : 0
            out[k] = us[j] + f * (us[j + 1] - us[j])
        }
        table = out
        // The ratio's limit at r = 0 is the slope of the first interval, u(step)/step.
        let squaredSamples = 4 * samples
        let squaredLimit = distortedLimit * distortedLimit
        inverseSquaredStep = Double(squaredSamples) / squaredLimit
        var ratio = [Double](repeating: 0, count: squaredSamples + 1)
        ratio[0] = out[1] / step
        for k in 1...squaredSamples {
            let r = (squaredLimit * Double(k) / Double(squaredSamples)).squareRoot()
            let x = min(r * inverseStep, Double(samples) - 1e-9)
            let i = Int(x)
            let f = x - Double(i)
            ratio[k] = (out[i] + f * (out[i + 1] - out[i])) / r
        }
        self.ratio = ratio
    }

    /// u(r)/r for a distorted radius r given as r²: the factor that moves a distorted pixel
    /// offset onto its undistorted one. Interpolated linearly in r²: for tables of a few percent
    /// it stays within 4·10⁻⁷ (quadratic tables) to 2·10⁻⁴ (tables with a linear term, near the
    /// centre only) of `undistortedRadius(r)/r`, a shift of at most 2·10⁻³ pixel.
    @inline(__always) func undistortedScale(squaredRadius r2: Double) -> Double {
        let x = r2 * inverseSquaredStep
        guard x < Double(ratio.count - 1) else { return tailScale }
        let i = RadialInverse.slot(x)
        let f = x - Double(i)
        return ratio[i] + f * (ratio[i + 1] - ratio[i])
    }

    /// The table slot of 0 ≤ x < 2⁵⁰ without the checked conversion `Int(x)`: x − ½ + 1.5·2⁵²
    /// rounds to an integer in [2⁵², 2⁵³), whose low 51 mantissa bits are ⌊x⌋. An exact integer x
    /// is a tie and may round down a slot, where f = 1 gives the same table value (the table is
    /// continuous and piecewise linear).
    @inline(__always) static func slot(_ x: Double) -> Int {
        Int(truncatingIfNeeded: ((x - 0.5) + 0x1.8p52).bitPattern & 0x7_FFFF_FFFF_FFFF)
    }

    /// `body` with the terms of `undistortedScale(squaredRadius:)` unpacked, for a pixel loop that
    /// should neither retain the table nor test an optional per pixel.
    @inline(__always) func withScaleTable<R>(_ body: (ScaleTable) -> R) -> R {
        ratio.withUnsafeBufferPointer { ratio in
            body(ScaleTable(ratio: ratio, inverseSquaredStep: inverseSquaredStep, tailScale: tailScale))
        }
    }

    /// The undistorted radius whose distorted radius is `r`.
    func undistortedRadius(_ r: Double) -> Double {
        if r >= distortedLimit { return r * tailScale }
        let x = min(r * inverseStep, Double(table.count - 1) - 1e-9)
        let i = Int(x)
        let f = x - Double(i)
        return table[i] + f * (table[i + 1] - table[i])
    }
}

extension RadialInverse {
    /// The scale table of one `RadialInverse` as plain values: `scale(squaredRadius:)` is
    /// `undistortedScale(squaredRadius:)` operation for operation. `identity` (no distortion)
    /// sends every radius to the tail scale 1.
    struct ScaleTable {
        let ratio: UnsafeBufferPointer<Double>
        let inverseSquaredStep: Double
        let tailScale: Double
        /// The last interval's start: `ratio.count − 1`, or −1 for an empty table.
        let limit: Double

        init(ratio: UnsafeBufferPointer<Double>, inverseSquaredStep: Double, tailScale: Double) {
            self.ratio = ratio
            self.inverseSquaredStep = inverseSquaredStep
            self.tailScale = tailScale
            limit = Double(ratio.count - 1)
        }

        static var identity: ScaleTable {
            ScaleTable(ratio: UnsafeBufferPointer(start: nil, count: 0), inverseSquaredStep: 0, tailScale: 1)
        }

        /// `scale(squaredRadius:)` for two radii at once, lane by lane the same value: the slot's
        /// start as a double is y − 1.5·2⁵² (exact, the integer `slot` takes from y's low bits), so
        /// the fraction needs no integer conversion; a lane past the table takes the scalar path.
        @inline(__always) func scales(squaredRadii r2: SIMD2<Double>) -> SIMD2<Double> {
            let x = r2 * inverseSquaredStep
            guard x[0] < limit && x[1] < limit else {
                return SIMD2(scale(squaredRadius: r2[0]), scale(squaredRadius: r2[1]))
            }
            let y = (x - 0.5) + 0x1.8p52
            let f = x - (y - 0x1.8p52)
            let i0 = Int(truncatingIfNeeded: y[0].bitPattern & 0x7_FFFF_FFFF_FFFF)
            let i1 = Int(truncatingIfNeeded: y[1].bitPattern & 0x7_FFFF_FFFF_FFFF)
            let a = SIMD2(ratio[i0], ratio[i1])
            let b = SIMD2(ratio[i0 &+ 1], ratio[i1 &+ 1])
            return a + f * (b - a)
        }

        @inline(__always) func scale(squaredRadius r2: Double) -> Double {
            let x = r2 * inverseSquaredStep
            guard x < limit else { return tailScale }
            let i = RadialInverse.slot(x)
            let f = x - Double(i)
            return ratio[i] + f * (ratio[i &+ 1] - ratio[i])
        }
    }
}
