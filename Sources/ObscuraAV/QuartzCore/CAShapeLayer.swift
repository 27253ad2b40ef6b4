import Foundation

/// A layer that draws a path (QuartzCore's `CAShapeLayer`), as capture apps outline a face, a code or a document
/// over the preview. The path and its style are kept with Core Animation's defaults; nothing is drawn, as for every
/// layer here.
open class CAShapeLayer: CALayer, @unchecked Sendable {
    /// The shape, in the layer's coordinates (default nil: nothing).
    open var path: CGPath?
    /// The fill (default opaque black; nil for none).
    open var fillColor: CGColor? = .black
    /// Which parts of the path are filled (default `.nonZero`).
    open var fillRule: CAShapeLayerFillRule = .nonZero
    /// The stroke (default nil: none).
    open var strokeColor: CGColor?
    /// Where along the path the stroke starts, 0…1 (default 0).
    open var strokeStart: CGFloat = 0
    /// Where along the path the stroke ends, 0…1 (default 1).
    open var strokeEnd: CGFloat = 1
    /// The stroke's width (default 1).
    open var lineWidth: CGFloat = 1
    /// The longest mitre, as a multiple of the line width, before a join is bevelled (default 10).
    open var miterLimit: CGFloat = 10
    /// How open ends are drawn (default `.butt`).
    open var lineCap: CAShapeLayerLineCap = .butt
    /// How corners are drawn (default `.miter`).
    open var lineJoin: CAShapeLayerLineJoin = .miter
    /// How far into the dash pattern the stroke starts (default 0).
    open var lineDashPhase: CGFloat = 0
    /// Lengths of painted and unpainted dashes in turn (default nil: a solid line).
    open var lineDashPattern: [NSNumber]?

    public required init() { super.init() }

    /// A copy of `layer`, its shape and style included when it is a shape layer.
    public override init(layer: Any) {
        super.init(layer: layer)
    }

    override func copyState(from other: CALayer) {
        super.copyState(from: other)
        guard let other = other as? CAShapeLayer else { return }
        (path, fillColor, fillRule, strokeColor) = (other.path, other.fillColor, other.fillRule, other.strokeColor)
        (strokeStart, strokeEnd, lineWidth, miterLimit) = (other.strokeStart, other.strokeEnd, other.lineWidth, other.miterLimit)
        (lineCap, lineJoin, lineDashPhase, lineDashPattern) = (other.lineCap, other.lineJoin, other.lineDashPhase, other.lineDashPattern)
    }

    override func keyPathValue(_ keyPath: String) -> Any? {
        switch keyPath {
        case "path": path
        case "fillColor": fillColor
        case "strokeColor": strokeColor
        case "strokeStart": Double(strokeStart)
        case "strokeEnd": Double(strokeEnd)
        case "lineWidth": Double(lineWidth)
        case "miterLimit": Double(miterLimit)
        case "lineDashPhase": Double(lineDashPhase)
        default: super.keyPathValue(keyPath)
        }
    }

    override func setKeyPathValue(_ value: Any?, _ keyPath: String) -> Bool {
        switch keyPath {
        case "path": path = value as? CGPath
        case "fillColor": fillColor = value as? CGColor
        case "strokeColor": strokeColor = value as? CGColor
        case "strokeStart": strokeStart = LayerKeyPaths.cgFloat(value) ?? strokeStart
        case "strokeEnd": strokeEnd = LayerKeyPaths.cgFloat(value) ?? strokeEnd
        case "lineWidth": lineWidth = LayerKeyPaths.cgFloat(value) ?? lineWidth
        case "miterLimit": miterLimit = LayerKeyPaths.cgFloat(value) ?? miterLimit
        case "lineDashPhase": lineDashPhase = LayerKeyPaths.cgFloat(value) ?? lineDashPhase
        default: return super.setKeyPathValue(value, keyPath)
        }
        return true
    }
}

/// How a shape layer decides its inside (`CAShapeLayerFillRule`).
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Inside where the path winds round a non-zero number of times.
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    /// Inside where a ray crosses the path an odd number of times.
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// How a shape layer ends open lines (`CAShapeLayerLineCap`).
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Square at the end point.
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    /// A half disc beyond the end point.
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    /// Half a line width beyond the end point, square.
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// How a shape layer joins lines (`CAShapeLayerLineJoin`).
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A sharp corner, up to the mitre limit.
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    /// A rounded corner.
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    /// A cut corner.
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}
