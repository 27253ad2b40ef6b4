import Foundation

/// The sRGB transfer curve (IEC 61966-2-1), which Core Image's default context uses between
/// sRGB-encoded images and its linear working space. Extended values keep their sign, as in
/// `extendedSRGB`.
enum SRGBCurve {
    static func decode(_ v: Float) -> Float {
        let a = abs(v)
        let l = a <= 0.04045 ? a / 12.92 : powf((a + 0.055) / 1.055, 2.4)
        return v < 0 ? -l : l
    }

    static func encode(_ v: Float) -> Float {
        let a = abs(v)
        let e = a <= 0.0031308 ? a * 12.92 : 1.055 * powf(a, 1 / 2.4) - 0.055
        return v < 0 ? -e : e
    }

    /// Every 8-bit code decoded to linear.
    static let decodeTable: [Float] = (0..<256).map { decode(Float($0) / 255) }

    /// Linear 0…1 in steps of 1/`encodeSteps` to the nearest 8-bit code. The curve is steepest in its
    /// linear toe, 12.92 × 255 codes per unit, so a step moves the code by at most 0.2 and the table is
    /// within 0.1 code of the exact curve before rounding.
    static let encodeSteps = 16384
    static let encodeTable: [UInt8] = (0...encodeSteps).map {
        UInt8((encode(Float($0) / Float(encodeSteps)) * 255).rounded())
    }
}

/// How a context treats colour: Core Image's default, a linear working space with sRGB-encoded
/// inputs and outputs, or none at all (a `workingColorSpace` of `NSNull`), when values pass through
/// as they are.
struct RenderContext: Sendable {
    /// Whether images tagged sRGB are decoded to linear on input and results encoded on output.
    var managesColor: Bool
    /// Whether the output is sRGB-encoded (false for a linear output colour space).
    var encodesOutput: Bool
}
