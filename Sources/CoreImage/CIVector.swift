import Foundation

/// A list of floating-point values (`CIVector`): the type of Core Image's vector, point and
/// rectangle parameters.
///
/// A rectangle is held as `[x, y, width, height]` and a point as `[x, y]`, as Core Image holds them.
/// Reading past the end gives 0, as Apple's `value(at:)` does.
public final class CIVector: NSObject, @unchecked Sendable {
    private let values: [CGFloat]

    /// A vector of `count` values read from `values`.
    public init(values: UnsafePointer<CGFloat>, count: Int) {
        self.values = Array(UnsafeBufferPointer(start: values, count: max(0, count)))
    }

    /// A vector of the values of an array (a Swift convenience with the same meaning).
    init(_ values: [CGFloat]) { self.values = values }

    /// A one-component vector.
    public convenience init(x: CGFloat) { self.init([x]) }
    /// A two-component vector.
    public convenience init(x: CGFloat, y: CGFloat) { self.init([x, y]) }
    /// A three-component vector.
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat) { self.init([x, y, z]) }
    /// A four-component vector.
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { self.init([x, y, z, w]) }
    /// A point: `[x, y]`.
    public convenience init(cgPoint p: CGPoint) { self.init([p.x, p.y]) }
    /// A rectangle: `[x, y, width, height]`.
    public convenience init(cgRect r: CGRect) { self.init([r.origin.x, r.origin.y, r.size.width, r.size.height]) }
    /// An affine transform: `[a, b, c, d, tx, ty]`.
    public convenience init(cgAffineTransform t: CGAffineTransform) { self.init([t.a, t.b, t.c, t.d, t.tx, t.ty]) }

    /// The number of values.
    public var count: Int { values.count }
    /// The value at an index; 0 past the end.
    public func value(at index: Int) -> CGFloat { values.indices.contains(index) ? values[index] : 0 }
    /// The first value.
    public var x: CGFloat { value(at: 0) }
    /// The second value.
    public var y: CGFloat { value(at: 1) }
    /// The third value.
    public var z: CGFloat { value(at: 2) }
    /// The fourth value.
    public var w: CGFloat { value(at: 3) }
    /// The first two values as a point.
    public var cgPointValue: CGPoint { CGPoint(x: x, y: y) }
    /// The first four values as a rectangle.
    public var cgRectValue: CGRect { CGRect(x: x, y: y, width: z, height: w) }
    /// The first six values as an affine transform.
    public var cgAffineTransformValue: CGAffineTransform {
        CGAffineTransform(a: value(at: 0), b: value(at: 1), c: value(at: 2), d: value(at: 3), tx: value(at: 4), ty: value(at: 5))
    }
    /// The values in brackets, as Core Image writes them: `[1 0 0 0]`.
    public var stringRepresentation: String {
        "[" + values.map { v in v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }.joined(separator: " ") + "]"
    }

    public override var description: String { "CIVector\(stringRepresentation)" }

    public override func isEqual(_ object: Any?) -> Bool { (object as? CIVector)?.values == values }

    /// The four values as floats (the colour filters' parameters).
    var simd4: SIMD4<Float> { SIMD4(Float(x), Float(y), Float(z), Float(w)) }
}
