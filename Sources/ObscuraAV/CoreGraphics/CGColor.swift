import Foundation

/// A colour (CoreGraphics' `CGColor`): its components and alpha, in a colour space or in device RGB: enough for the
/// layer properties capture code sets, such as a preview layer's background or an overlay's stroke.
public final class CGColor: @unchecked Sendable {
    /// The colour space's components then alpha, 0…1; red, green, blue and alpha for the device initialisers.
    public let components: [CGFloat]?

    /// The colour space the components are in; nil for the device RGB and grey initialisers.
    public let colorSpace: CGColorSpace?

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
        colorSpace = nil
    }

    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, gray, gray, alpha]
        colorSpace = nil
    }

    /// A colour of `space`: reads the space's number of components and then alpha from `components` (an array
    /// literal passes as the pointer, as on Apple's platforms).
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let count = space.numberOfComponents + 1
        self.components = (0..<count).map { components[$0] }
        colorSpace = space
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
