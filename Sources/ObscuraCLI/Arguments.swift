import Foundation
import ArgumentParser
import Spectra

/// A CIELAB colour written as `L,a,b`.
struct LabArgument: ExpressibleByArgument {
    var lab: Lab

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        // L* from 0 to 100 (a surface's lightness) and a*, b* within ±500, beyond every real colour's: larger
        // values overflow the formulas into NaN.
        guard parts.count == 3, let L = parts[0], let a = parts[1], let b = parts[2],
              (0...100).contains(L), abs(a) <= 500, abs(b) <= 500
        else { return nil }
        lab = Lab(L: L, a: a, b: b)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// An illuminant written as `D65`, `A`, `K` or `K,Duv`.
struct IlluminantArgument: ExpressibleByArgument, CustomStringConvertible {
    enum Kind: Equatable {
        case d65, a
        case cct(Double, duv: Double)
    }

    var kind: Kind

    init(kind: Kind) { self.kind = kind }

    init?(argument: String) {
        switch argument.uppercased() {
        case "D65": kind = .d65
        case "A": kind = .a
        default:
            let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard (1...2).contains(parts.count), let k = parts[0], k.isFinite else { return nil }
            var duv = 0.0
            if parts.count == 2 {
                guard let d = parts[1], d.isFinite else { return nil }
                duv = d
            }
            kind = .cct(k, duv: duv)
        }
    }

    var description: String {
        switch kind {
        case .d65: return "D65"
        case .a: return "A"
        case .cct(let k, let duv): return duv == 0 ? "\(format(k, 0)) K" : "\(format(k, 0)) K, Duv \(signed(duv, 4))"
        }
    }

    /// The illuminant's spectrum; a CCT uses the automatic model of `Illuminants.make`.
    func spectrum() throws -> Spectrum {
        switch kind {
        case .d65: return Illuminants.d65
        case .a: return Illuminants.a
        case .cct(let k, let duv):
            guard k >= 1000, k <= 25000, abs(duv) <= 0.05 else {
                throw CommandFailure.badInput("illuminant \(description): CCT must be 1000–25000 K and |Duv| ≤ 0.05")
            }
            do {
                return try Illuminants.make(cct: k, duv: duv)
            } catch {
                throw CommandFailure.badInput("illuminant \(description): \(error)")
            }
        }
    }
}
