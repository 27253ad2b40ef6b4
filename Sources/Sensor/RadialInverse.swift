/// The inverse of a distortion table's radial map r ↦ r·(1 + m(r)), tabulated once per camera so
/// that each distorted pixel finds its undistorted ray without iterating.
struct RadialInverse: Sendable {
    private let table: [Double]
    private let step: Double
    private let inverseStep: Double
    private let tailScale: Double
    private let distortedLimit: Double

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
