/// A spectral distribution on Obscura's fixed grid: 380–780 nm at 5 nm (81 samples).
///
/// Every spectrum in the project lives on this grid, so products and integrals are plain
/// element-wise loops. Data on other grids enters through `init(wavelengths:values:)`, which
/// resamples by linear interpolation and holds the end values outside the given range
/// (the CIE 15 recommendation for extrapolating short tables).
public struct Spectrum: Sendable, Hashable {
    /// First wavelength of the grid, in nanometres.
    public static let startWavelength: Double = 380
    /// Last wavelength of the grid, in nanometres.
    public static let endWavelength: Double = 780
    /// Grid step, in nanometres.
    public static let step: Double = 5
    /// Number of samples on the grid.
    public static let count = 81
    /// The grid's wavelengths, in nanometres.
    public static let wavelengths: [Double] = (0..<count).map { startWavelength + Double($0) * step }

    /// Values at `Spectrum.wavelengths`.
    public private(set) var values: [Double]

    /// A spectrum from values already on the grid.
    public init(values: [Double]) {
        precondition(values.count == Spectrum.count, "a Spectrum needs \(Spectrum.count) samples, got \(values.count)")
        self.values = values
    }

    /// A spectrum from samples on any increasing wavelength grid, resampled linearly.
    public init(wavelengths: [Double], values: [Double]) {
        precondition(wavelengths.count == values.count && !wavelengths.isEmpty, "wavelengths and values must pair up")
        precondition(zip(wavelengths, wavelengths.dropFirst()).allSatisfy { $0 < $1 }, "wavelengths must increase")
        var out = [Double](repeating: 0, count: Spectrum.count)
        var j = 0
        for i in 0..<Spectrum.count {
            let w = Spectrum.wavelengths[i]
            if w <= wavelengths[0] {
                out[i] = values[0]
            } else if w >= wavelengths[wavelengths.count - 1] {
                out[i] = values[values.count - 1]
            } else {
                while wavelengths[j + 1] < w { j += 1 }
                let t = (w - wavelengths[j]) / (wavelengths[j + 1] - wavelengths[j])
                out[i] = values[j] + t * (values[j + 1] - values[j])
            }
        }
        self.values = out
    }

    /// A spectrum from a function of wavelength in nanometres.
    public init(_ function: (Double) -> Double) {
        self.values = Spectrum.wavelengths.map(function)
    }

    /// The same value at every wavelength.
    public static func constant(_ value: Double) -> Spectrum {
        Spectrum(values: [Double](repeating: value, count: count))
    }

    /// The value at a wavelength, linearly interpolated; held constant outside the grid.
    public func value(at wavelength: Double) -> Double {
        let x = (wavelength - Spectrum.startWavelength) / Spectrum.step
        if x <= 0 { return values[0] }
        if x >= Double(Spectrum.count - 1) { return values[Spectrum.count - 1] }
        let i = Int(x)
        let t = x - Double(i)
        return values[i] + t * (values[i + 1] - values[i])
    }

    /// The sum of the element-wise product with another spectrum, times the grid step:
    /// the rectangle-rule integral ∫ a(λ) b(λ) dλ over 380–780 nm.
    public func integral(times other: Spectrum) -> Double {
        var sum = 0.0
        for i in 0..<Spectrum.count { sum += values[i] * other.values[i] }
        return sum * Spectrum.step
    }

    /// ∫ a(λ) dλ over the grid (rectangle rule).
    public var integral: Double { values.reduce(0, +) * Spectrum.step }

    /// The largest sample.
    public var maximum: Double { values.max() ?? 0 }

    /// This spectrum scaled so that its largest sample is 1.
    public var peakNormalized: Spectrum {
        let m = maximum
        precondition(m > 0, "cannot peak-normalise a spectrum with no positive sample")
        return self / m
    }

    /// Applies a function to every sample.
    public func map(_ transform: (Double) -> Double) -> Spectrum {
        Spectrum(values: values.map(transform))
    }
}

// MARK: - Arithmetic

extension Spectrum {
    public static func + (a: Spectrum, b: Spectrum) -> Spectrum {
        Spectrum(values: zip(a.values, b.values).map { $0 + $1 })
    }
    public static func - (a: Spectrum, b: Spectrum) -> Spectrum {
        Spectrum(values: zip(a.values, b.values).map { $0 - $1 })
    }
    /// Element-wise product (for example illuminant × reflectance).
    public static func * (a: Spectrum, b: Spectrum) -> Spectrum {
        Spectrum(values: zip(a.values, b.values).map { $0 * $1 })
    }
    public static func * (a: Spectrum, k: Double) -> Spectrum { a.map { $0 * k } }
    public static func * (k: Double, a: Spectrum) -> Spectrum { a.map { $0 * k } }
    public static func / (a: Spectrum, k: Double) -> Spectrum { a.map { $0 / k } }
    public static func += (a: inout Spectrum, b: Spectrum) { a = a + b }
    public static func *= (a: inout Spectrum, k: Double) { a = a * k }
}
