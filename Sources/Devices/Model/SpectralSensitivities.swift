import Foundation

/// The camera's RGB spectral sensitivities (quantum efficiency per channel).
public struct SpectralSensitivities: Sendable, Hashable, Codable {
    /// One Gaussian lobe of a channel's quantum-efficiency curve.
    public struct Lobe: Sendable, Hashable, Codable {
        /// Peak wavelength in nanometres.
        public var peakNM: Double
        /// Standard deviation in nanometres.
        public var sigmaNM: Double
        /// Quantum efficiency at the peak (0…1).
        public var peakQE: Double

        /// A lobe from its values.
        public init(peakNM: Double, sigmaNM: Double, peakQE: Double) {
            self.peakNM = peakNM
            self.sigmaNM = sigmaNM
            self.peakQE = peakQE
        }

        /// The lobe's value at a wavelength.
        public func value(at wavelength: Double) -> Double {
            let z = (wavelength - peakNM) / sigmaNM
            return peakQE * (-0.5 * z * z).exp
        }
    }

    /// How the curves are given.
    public enum Model: Sendable, Hashable, Codable {
        /// A sum of Gaussian lobes per channel: a smooth stand-in for a measured Bayer CFA × silicon
        /// QE curve. Secondary lobes give the red channel its blue leak, as real CFAs have.
        case gaussianMixture(red: [Lobe], green: [Lobe], blue: [Lobe])
        /// A measured set shipped with Spectra, by name (e.g. `nikon-d5100`, the NPL set),
        /// scaled so that the green peak equals `peakQE`.
        case named(String, peakQE: Double)
        /// Explicit samples on an increasing wavelength grid in nanometres.
        case samples(wavelengthsNM: [Double], red: [Double], green: [Double], blue: [Double])
    }

    /// The curves.
    public var model: Model
    /// Where they come from.
    public var provenance: ProvenanceMap

    /// Sensitivities from a model.
    public init(model: Model, provenance: ProvenanceMap) {
        self.model = model
        self.provenance = provenance
    }
}

extension Double {
    /// e raised to this value (spelled as a property to keep formulas readable).
    fileprivate var exp: Double { Foundation.exp(self) }
}
