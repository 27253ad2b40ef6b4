import Foundation
import Imaging
import Spectra

/// Wide-colour frames: Display P3 → extended linear sRGB, and the wide-gamut highlight filter.
///
/// Extended linear sRGB is linear light on sRGB's primaries (IEC 61966-2-1) with no clamping: colours that Display P3
/// can show and sRGB cannot come out with a channel below 0 or above 1, with its sign, as in Apple's
/// `extendedLinearSRGB` colour space. This lives in ISP rather than Imaging because the matrix is derived by Spectra
/// from the primaries (SMPTE EG 432-1 for P3, ITU-R BT.709 for sRGB, both D65), never typed in.
public enum WideColor {
    /// Linear Display P3 → linear sRGB, derived from the primaries and the D65 white.
    public static let displayP3ToLinearSRGB = RGBColorSpace.conversion(from: .linearDisplayP3, to: .linearSRGB)

    /// Linear sRGB → linear Display P3.
    public static let linearSRGBToDisplayP3 = RGBColorSpace.conversion(from: .linearSRGB, to: .linearDisplayP3)

    /// The luminance weights of linear sRGB: the Y row of its RGB → XYZ matrix (0.2126, 0.7152, 0.0722).
    public static let sRGBLuminance = SIMD3<Float>(
        Float(RGBColorSpace.sRGB.toXYZ[1, 0]), Float(RGBColorSpace.sRGB.toXYZ[1, 1]),
        Float(RGBColorSpace.sRGB.toXYZ[1, 2]))

    /// A Display P3 frame (encoded with the sRGB curve, 3 or 4 channels) as extended linear sRGB floats.
    ///
    /// Alpha, when present, is copied. Values outside 0…1 keep their sign and magnitude.
    public static func extendedLinearSRGB<Component: PixelComponent>(
        fromDisplayP3 frame: PixelPlane<Component>, threads: Int? = nil
    ) -> FloatPlane {
        frame.mapPixels(to: Float.self, outputChannels: frame.channels, threads: threads,
                        displayP3ToExtendedLinearSRGB(channels: frame.channels))
    }

    /// An sRGB-encoded frame (3 or 4 channels) as linear sRGB floats; alpha is copied.
    public static func extendedLinearSRGB<Component: PixelComponent>(
        fromSRGB frame: PixelPlane<Component>, threads: Int? = nil
    ) -> FloatPlane {
        precondition(frame.channels == 3 || frame.channels == 4, "a colour frame has 3 or 4 channels")
        return frame.mapPixels(to: Float.self, outputChannels: frame.channels, threads: threads) { p in
            SIMD4(decodeSRGBCurve(p.x), decodeSRGBCurve(p.y), decodeSRGBCurve(p.z), p.w)
        }
    }

    #if !(os(macOS) && arch(x86_64))
    /// The same conversion into half-float pixels (as a `kCVPixelFormatType_64RGBAHalf` buffer would hold them).
    public static func extendedLinearSRGBHalf<Component: PixelComponent>(
        fromDisplayP3 frame: PixelPlane<Component>, threads: Int? = nil
    ) -> HalfPlane {
        frame.mapPixels(to: Float16.self, outputChannels: frame.channels, threads: threads,
                        displayP3ToExtendedLinearSRGB(channels: frame.channels))
    }
    #endif

    /// Extended linear sRGB → Display P3 encoded with the sRGB curve (extended: signs kept, no clamping).
    public static func displayP3(fromExtendedLinearSRGB frame: FloatPlane, threads: Int? = nil) -> FloatPlane {
        let m = floatRows(linearSRGBToDisplayP3)
        let hasAlpha = frame.channels == 4
        return frame.mapPixels(to: Float.self, outputChannels: frame.channels, threads: threads) { p in
            let rgb = SIMD3(p.x, p.y, p.z)
            let linear = SIMD3((m.0 * rgb).sum(), (m.1 * rgb).sum(), (m.2 * rgb).sum())
            return SIMD4(encodeSRGBCurve(linear.x), encodeSRGBCurve(linear.y), encodeSRGBCurve(linear.z),
                         hasAlpha ? p.w : 0)
        }
    }

    /// Whether an extended linear sRGB colour lies outside sRGB: some channel below `−tolerance` or above
    /// `1 + tolerance`.
    @inlinable
    public static func isOutsideSRGB(_ rgb: SIMD3<Float>, tolerance: Float) -> Bool {
        rgb.min() < -tolerance || rgb.max() > 1 + tolerance
    }

    /// The wide-gamut highlight filter on extended linear sRGB: pixels outside sRGB keep their colour, the others
    /// become the grey of equal luminance (`Y = 0.2126 R + 0.7152 G + 0.0722 B`).
    ///
    /// - Parameter tolerance: how far outside 0…1 a channel must be to count, absorbing float rounding of colours on
    ///   the sRGB boundary (P3 white maps to 1 ± 1e-7); 0.001 by default.
    public static func highlightOutOfGamut(
        _ extendedLinearSRGB: FloatPlane, tolerance: Float = 0.001, threads: Int? = nil
    ) -> FloatPlane {
        let weights = sRGBLuminance
        let hasAlpha = extendedLinearSRGB.channels == 4
        return extendedLinearSRGB.mapPixels(to: Float.self, outputChannels: extendedLinearSRGB.channels,
                                            threads: threads) { p in
            let rgb = SIMD3(p.x, p.y, p.z)
            if isOutsideSRGB(rgb, tolerance: tolerance) { return p }
            let y = (weights * rgb).sum()
            return SIMD4(y, y, y, hasAlpha ? p.w : 0)
        }
    }

    static func displayP3ToExtendedLinearSRGB(channels: Int) -> @Sendable (SIMD4<Float>) -> SIMD4<Float> {
        precondition(channels == 3 || channels == 4, "a colour frame has 3 or 4 channels, got \(channels)")
        let m = floatRows(displayP3ToLinearSRGB)
        return { p in
            let linear = SIMD3(decodeSRGBCurve(p.x), decodeSRGBCurve(p.y), decodeSRGBCurve(p.z))
            return SIMD4((m.0 * linear).sum(), (m.1 * linear).sum(), (m.2 * linear).sum(), p.w)
        }
    }

    static func floatRows(_ m: Matrix3) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        func row(_ r: Int) -> SIMD3<Float> { SIMD3(Float(m[r, 0]), Float(m[r, 1]), Float(m[r, 2])) }
        return (row(0), row(1), row(2))
    }
}

/// The IEC 61966-2-1 curve, encoded → linear, extended to negative values by symmetry (as Spectra's
/// `TransferFunction.sRGB`, in `Float` for pixel loops).
@inline(__always)
func decodeSRGBCurve(_ v: Float) -> Float {
    let m = abs(v)
    let linear = m <= 0.04045 ? m / 12.92 : powf((m + 0.055) / 1.055, 2.4)
    return v < 0 ? -linear : linear
}

/// The IEC 61966-2-1 curve, linear → encoded, extended to negative values by symmetry.
@inline(__always)
func encodeSRGBCurve(_ v: Float) -> Float {
    let m = abs(v)
    let encoded = m <= 0.0031308 ? 12.92 * m : 1.055 * powf(m, 1 / 2.4) - 0.055
    return v < 0 ? -encoded : encoded
}
