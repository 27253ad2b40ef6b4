/// The geometric primitive of an object, in its local frame (metres).
public enum Shape: Sendable, Hashable {
    /// A rectangle in the local XY plane, centred on the origin, facing +Z (seen from both sides).
    case plane(width: Double, height: Double)
    /// An axis-aligned box centred on the origin.
    case box(width: Double, height: Double, depth: Double)
    /// A sphere centred on the origin.
    case sphere(radius: Double)
    /// A disc in the local XY plane, centred on the origin, facing +Z (seen from both sides).
    case disc(radius: Double)

    /// The radius of a sphere around the local origin that holds the whole shape.
    public var boundingRadius: Double {
        switch self {
        case let .plane(w, h): return 0.5 * (w * w + h * h).squareRoot()
        case let .box(w, h, d): return 0.5 * (w * w + h * h + d * d).squareRoot()
        case let .sphere(r): return r
        case let .disc(r): return r
        }
    }
}
