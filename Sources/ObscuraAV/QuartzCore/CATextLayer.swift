import Foundation

/// A layer that draws a string (QuartzCore's `CATextLayer`), as capture apps label what they found in a frame. The
/// text and its style are kept with Core Animation's defaults; nothing is drawn, as for every layer here.
open class CATextLayer: CALayer, @unchecked Sendable {
    /// The text: a `String` or an `NSAttributedString` (default nil).
    open var string: Any?
    /// The font, by name or font object (default nil: Helvetica).
    open var font: AnyObject?
    /// The font size (default 36).
    open var fontSize: CGFloat = 36
    /// The text colour (default opaque white).
    open var foregroundColor: CGColor? = .white
    /// Whether the text wraps at the bounds (default false).
    open var isWrapped = false
    /// Where text that does not fit is cut (default `.none`).
    open var truncationMode: CATextLayerTruncationMode = .none
    /// How lines are aligned in the bounds (default `.natural`).
    open var alignmentMode: CATextLayerAlignmentMode = .natural
    /// Whether glyphs may sit on fractional pixels (default false).
    open var allowsFontSubpixelQuantization = false

    public required init() { super.init() }

    /// A copy of `layer`, its text and style included when it is a text layer.
    public override init(layer: Any) {
        super.init(layer: layer)
    }

    override func copyState(from other: CALayer) {
        super.copyState(from: other)
        guard let other = other as? CATextLayer else { return }
        (string, font, fontSize, foregroundColor) = (other.string, other.font, other.fontSize, other.foregroundColor)
        (isWrapped, truncationMode, alignmentMode) = (other.isWrapped, other.truncationMode, other.alignmentMode)
        allowsFontSubpixelQuantization = other.allowsFontSubpixelQuantization
    }

    override func keyPathValue(_ keyPath: String) -> Any? {
        switch keyPath {
        case "string": string
        case "fontSize": Double(fontSize)
        case "foregroundColor": foregroundColor
        default: super.keyPathValue(keyPath)
        }
    }

    override func setKeyPathValue(_ value: Any?, _ keyPath: String) -> Bool {
        switch keyPath {
        case "string": string = value
        case "fontSize": fontSize = LayerKeyPaths.cgFloat(value) ?? fontSize
        case "foregroundColor": foregroundColor = value as? CGColor
        default: return super.setKeyPathValue(value, keyPath)
        }
        return true
    }
}

/// Where a text layer cuts text that does not fit (`CATextLayerTruncationMode`).
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let none = CATextLayerTruncationMode(rawValue: "none")
    public static let start = CATextLayerTruncationMode(rawValue: "start")
    public static let end = CATextLayerTruncationMode(rawValue: "end")
    public static let middle = CATextLayerTruncationMode(rawValue: "middle")
}

/// How a text layer aligns its lines (`CATextLayerAlignmentMode`).
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}
