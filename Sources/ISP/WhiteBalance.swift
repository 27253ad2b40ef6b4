import Foundation
import Imaging
import Sensor
import Spectra

/// White balance: the illuminant the picture is balanced for, and the camera-RGB gains that make
/// its white neutral.
///
/// Ways to get the illuminant, all documented choices of ours (phones use proprietary AWB):
/// - `auto(_:camera:)`: the light estimated from the frame's near-grey zones along the camera's
///   light locus (`AutoWhiteBalance`), what photos and every stream use.
/// - `init(illuminant:camera:)`: the light is known (a synthetic scene knows its ambient spectrum;
///   with flash, the mix of ambient and flash in proportion to their metered shares), for comparison.
/// - `greyWorld(_:camera:)`: the mean of the unclipped pixels is taken as the neutral (Buchsbaum
///   1980), and the illuminant is the blackbody or daylight source (CIE 15:2018) whose camera
///   neutral lies closest in angle, searched from 1,800 K to 12,000 K. The CCM needs a spectrum,
///   which the grey-world average alone cannot give.
public struct WhiteBalance: Sendable, Hashable {
    /// The illuminant the picture is balanced for.
    public let illuminant: Spectrum
    /// The camera's response to that illuminant's white, scaled so that green is 1.
    public let cameraNeutral: SIMD3<Double>

    /// Per-channel gains (green = 1) that turn the neutral into equal RGB.
    public var gains: SIMD3<Double> { SIMD3(1 / cameraNeutral.x, 1, 1 / cameraNeutral.z) }

    /// Balance for a known illuminant.
    public init(illuminant: Spectrum, camera: CameraModel) {
        self.illuminant = illuminant
        let n = CameraResponse.neutral(illuminant: illuminant, camera: camera)
        cameraNeutral = n / n.y
    }

    /// The relative power of several lights mixed into one illuminant, each first normalised to
    /// unit luminance-weighted power (∫ S ȳ = 1) and then weighted by `weight`.
    public static func mix(_ parts: [(spectrum: Spectrum, weight: Double)]) -> Spectrum {
        var sum = Spectrum.constant(0)
        for part in parts where part.weight > 0 {
            let y = part.spectrum.integral(times: CIE1931.yBar)
            guard y > 0 else { continue }
            sum += part.spectrum * (part.weight / y)
        }
        return sum
    }

    /// Grey-world balance of a frame: see the type's documentation.
    public static func greyWorld(_ frame: RawFrame, camera: CameraModel) -> WhiteBalance {
        let black = camera.noise.blackLevel
        let clip = UInt16(min(camera.noise.whiteLevel, Double(UInt16.max))) &- 1
        var sum = SIMD3<Double>(0, 0, 0)
        frame.dn.withUnsafeBufferPointer { dn in
            for p in 0..<(frame.width * frame.height) {
                let r = dn[3 * p], g = dn[3 * p + 1], b = dn[3 * p + 2]
                guard r < clip, g < clip, b < clip else { continue }
                sum += SIMD3(Double(r) - black, Double(g) - black, Double(b) - black)
            }
        }
        guard sum.x > 0, sum.y > 0, sum.z > 0 else {
            return WhiteBalance(illuminant: Illuminants.d65, camera: camera)
        }
        return WhiteBalance(nearestTo: sum, camera: camera)
    }

    /// The balance for the Planckian/daylight illuminant whose camera neutral is closest in angle
    /// to `neutral`.
    public init(nearestTo neutral: SIMD3<Double>, camera: CameraModel) {
        let target = neutral / (neutral * neutral).sum().squareRoot()
        var best = (angle: Double.infinity, spectrum: Illuminants.d65)
        // Steps even in mired (1e6/T), the scale on which colour differences between nearby
        // blackbodies are roughly uniform.
        let steps = 120
        let (lo, hi) = (1e6 / 12_000, 1e6 / 1_800)
        for i in 0...steps {
            let cct = 1e6 / (lo + (hi - lo) * Double(i) / Double(steps))
            guard let spectrum = try? Illuminants.make(cct: cct) else { continue }
            let n = CameraResponse.neutral(illuminant: spectrum, camera: camera)
            let u = n / (n * n).sum().squareRoot()
            let angle = acos(min(1, (u * target).sum()))
            if angle < best.angle { best = (angle, spectrum) }
        }
        self.init(illuminant: best.spectrum, camera: camera)
    }
}
