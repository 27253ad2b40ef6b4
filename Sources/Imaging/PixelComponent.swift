/// A sample type a `PixelPlane` can hold, with a normalised mapping to `Float`.
///
/// Integer components map their full range onto 0...1 (`UInt8` 255 → 1.0, `UInt16` 65535 → 1.0). Floating-point
/// components are already normalised and pass through unchanged, so values outside 0...1 (HDR, negative
/// out-of-gamut colours) survive conversions between floating-point planes.
public protocol PixelComponent: Sendable, Hashable {
    /// The value a new plane is filled with by default.
    static var zero: Self { get }

    /// The component as a normalised `Float`.
    var normalizedValue: Float { get }

    /// Makes a component from a normalised value.
    ///
    /// Integer components clamp to 0...1 and round to the nearest code value; NaN becomes 0.
    init(normalized value: Float)
}

extension Float: PixelComponent {
    /// The value itself.
    @inlinable public var normalizedValue: Float { self }

    /// The value itself, without clamping.
    @inlinable public init(normalized value: Float) { self = value }
}

#if !(os(macOS) && arch(x86_64))
extension Float16: PixelComponent {
    /// The value widened to `Float` (exact).
    @inlinable public var normalizedValue: Float { Float(self) }

    /// The value rounded to the nearest `Float16`; magnitudes above 65504 become infinity (IEEE 754 binary16).
    @inlinable public init(normalized value: Float) { self = Float16(value) }
}
#endif

extension UInt8: PixelComponent {
    /// `self / 255`.
    @inlinable public var normalizedValue: Float { Float(self) * (1 / 255) }

    /// `round(clamp(value, 0, 1) × 255)`; NaN becomes 0.
    @inlinable public init(normalized value: Float) {
        self = UInt8(normalizedCode(value, maximum: 255))
    }
}

extension UInt16: PixelComponent {
    /// `self / 65535`.
    @inlinable public var normalizedValue: Float { Float(self) * (1 / 65535) }

    /// `round(clamp(value, 0, 1) × 65535)`; NaN becomes 0.
    @inlinable public init(normalized value: Float) {
        self = UInt16(normalizedCode(value, maximum: 65535))
    }
}

/// Clamps a normalised value to 0...1 and scales it to the nearest integer code in 0...maximum.
@usableFromInline
func normalizedCode(_ value: Float, maximum: Float) -> Int {
    // `!(value > 0)` also catches NaN.
    guard value > 0 else { return 0 }
    guard value < 1 else { return Int(maximum) }
    return Int((value * maximum).rounded(.toNearestOrEven))
}
