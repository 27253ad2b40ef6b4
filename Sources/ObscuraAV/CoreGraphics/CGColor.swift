import Foundation

/// A colour (CoreGraphics' `CGColor`), held as device RGBA components: enough for the layer
/// properties capture code sets, such as a preview layer's background.
public final class CGColor: @unchecked Sendable {
    /// Red, green, blue and alpha, 0…1.
    public let components: [CGFloat]?

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
    }

    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, gray, gray, alpha]
    }

    /// The opacity.
    public var alpha: CGFloat { components?.last ?? 1 }
    /// The number of components, alpha included.
    public var numberOfComponents: Int { components?.count ?? 0 }

    /// `CGColor.black`.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// `CGColor.white`.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// `CGColor.clear`.
    public static let clear = CGColor(gray: 0, alpha: 0)
}
