import Foundation

/// A colour with red, green, blue and alpha components (`CIColor`).
///
/// Components are in sRGB, encoded with its curve, as a colour made with `init(red:green:blue:alpha:)`
/// is on iOS; a context converts them to its working colour space (linear sRGB by default) when the
/// colour is drawn. Components are not clamped, so extended-range colours survive.
public final class CIColor: NSObject, @unchecked Sendable {
    /// The red component.
    public let red: CGFloat
    /// The green component.
    public let green: CGFloat
    /// The blue component.
    public let blue: CGFloat
    /// The alpha component.
    public let alpha: CGFloat

    /// A colour from sRGB components and alpha.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// An opaque colour from sRGB components.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: 1)
    }

    /// The number of components: four.
    public var numberOfComponents: Int { 4 }

    /// The components as Core Image writes them: `"1 0 0 1"`.
    public var stringRepresentation: String {
        [red, green, blue, alpha].map { "\($0)" }.joined(separator: " ")
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? CIColor else { return false }
        return (o.red, o.green, o.blue, o.alpha) == (red, green, blue, alpha)
    }

    // Named colours, opaque except `clear`.
    public static let black = CIColor(red: 0, green: 0, blue: 0)
    public static let white = CIColor(red: 1, green: 1, blue: 1)
    public static let gray = CIColor(red: 0.5, green: 0.5, blue: 0.5)
    public static let red = CIColor(red: 1, green: 0, blue: 0)
    public static let green = CIColor(red: 0, green: 1, blue: 0)
    public static let blue = CIColor(red: 0, green: 0, blue: 1)
    public static let cyan = CIColor(red: 0, green: 1, blue: 1)
    public static let magenta = CIColor(red: 1, green: 0, blue: 1)
    public static let yellow = CIColor(red: 1, green: 1, blue: 0)
    public static let clear = CIColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The encoded components as floats.
    var simd4: SIMD4<Float> { SIMD4(Float(red), Float(green), Float(blue), Float(alpha)) }
}
