import Foundation
import ObscuraAV

/// A point in Vision's normalised coordinates (`VNPoint`).
open class VNPoint: NSObject, @unchecked Sendable {
    /// The point as a Core Graphics point.
    public let location: CGPoint
    public var x: Double { Double(location.x) }
    public var y: Double { Double(location.y) }

    public init(location: CGPoint) {
        self.location = location
        super.init()
    }

    public convenience init(x: Double, y: Double) { self.init(location: CGPoint(x: x, y: y)) }

    /// The origin.
    public class var zero: VNPoint { VNPoint(x: 0, y: 0) }

    /// The distance to another point.
    public func distance(_ point: VNPoint) -> Double { hypot(x - point.x, y - point.y) }

    /// The distance between two points.
    public class func distanceBetweenPoint(_ point1: VNPoint, _ point2: VNPoint) -> Double { point1.distance(point2) }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? VNPoint).map { $0.location == location } ?? false
    }
}

/// A circle in Vision's normalised coordinates (`VNCircle`).
open class VNCircle: NSObject, @unchecked Sendable {
    public let center: VNPoint
    public let radius: Double
    public var diameter: Double { 2 * radius }

    public init(center: VNPoint, radius: Double) {
        (self.center, self.radius) = (center, radius)
        super.init()
    }

    public convenience init(center: VNPoint, diameter: Double) { self.init(center: center, radius: diameter / 2) }

    /// The circle of no size at the origin.
    public class var zero: VNCircle { VNCircle(center: .zero, radius: 0) }

    /// Whether a point lies inside the circle or on it.
    public func containsPoint(_ point: VNPoint) -> Bool { center.distance(point) <= radius }

    /// Whether a point lies within half of `ringWidth` of the circle's circumference.
    public func containsPoint(_ point: VNPoint, inCircumferentialRingOfWidth ringWidth: Double) -> Bool {
        abs(center.distance(point) - radius) <= ringWidth / 2
    }
}

/// Measures of contours and point sets (`VNGeometryUtils`), in the normalised coordinates their points are given in
/// (spec §22.8 rule 31).
open class VNGeometryUtils: NSObject, @unchecked Sendable {
    /// The smallest circle holding every point of the contour.
    public class func boundingCircle(for contour: VNContour) throws -> VNCircle {
        try boundingCircle(contour.normalizedPoints.map { SIMD2<Double>(Double($0.x), Double($0.y)) })
    }

    /// The smallest circle holding every point.
    public class func boundingCircle(for points: [VNPoint]) throws -> VNCircle {
        try boundingCircle(points.map { SIMD2($0.x, $0.y) })
    }

    /// The smallest circle holding the `pointCount` points at `pointsArray`.
    public class func boundingCircle(for pointsArray: UnsafePointer<simd_float2>, pointCount: Int) throws -> VNCircle {
        try boundingCircle(
            UnsafeBufferPointer(start: pointsArray, count: max(0, pointCount)).map { SIMD2(Double($0.x), Double($0.y)) }
        )
    }

    /// The contour's area by the shoelace formula, into `area`: signed (positive where the points run
    /// counter-clockwise, origin at the bottom left) when `orientedArea`, else its size.
    public class func calculateArea(_ area: UnsafeMutablePointer<Double>, for contour: VNContour, orientedArea: Bool)
        throws
    {
        let p = contour.normalizedPoints.map { SIMD2<Double>(Double($0.x), Double($0.y)) }
        var twice = 0.0
        for k in p.indices {
            let (a, b) = (p[k], p[(k + 1) % p.count])
            twice += a.x * b.y - b.x * a.y
        }
        area.pointee = orientedArea ? twice / 2 : abs(twice) / 2
    }

    /// The length of the contour's closed outline, into `perimeter`.
    public class func calculatePerimeter(_ perimeter: UnsafeMutablePointer<Double>, for contour: VNContour) throws {
        let p = contour.normalizedPoints
        perimeter.pointee = p.indices.reduce(0) { sum, k in
            let d = p[(k + 1) % p.count] - p[k]
            return sum + hypot(Double(d.x), Double(d.y))
        }
    }

    /// Welzl's smallest enclosing circle (1991), iteratively: the points are taken in a fixed shuffled order, so the
    /// expected work is linear in their number and the answer the same on every run. No points fail with
    /// `VNErrorCode.invalidArgument`.
    static func boundingCircle(_ input: [SIMD2<Double>]) throws -> VNCircle {
        guard !input.isEmpty else {
            throw VisionFailure.error(.invalidArgument, "A bounding circle needs at least one point.")
        }
        var points = input
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in stride(from: points.count - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            points.swapAt(i, Int((state >> 33) % UInt64(i + 1)))
        }
        func holds(_ c: (SIMD2<Double>, Double), _ p: SIMD2<Double>) -> Bool {
            simd_length(p - c.0) <= c.1 * (1 + 1e-12) + 1e-15
        }
        func around(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> (SIMD2<Double>, Double) {
            ((a + b) / 2, simd_length(a - b) / 2)
        }
        func through(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> (SIMD2<Double>, Double) {
            let (ab, ac) = (b - a, c - a)
            let d = 2 * (ab.x * ac.y - ab.y * ac.x)
            // Points on one line: the circle on the two farthest apart.
            guard abs(d) > 1e-18 else {
                let (ab, ac, bc) = (around(a, b), around(a, c), around(b, c))
                return ab.1 >= ac.1 && ab.1 >= bc.1 ? ab : ac.1 >= bc.1 ? ac : bc
            }
            let (bb, cc) = (simd_length_squared(ab), simd_length_squared(ac))
            let centre = a + SIMD2((ac.y * bb - ab.y * cc) / d, (ab.x * cc - ac.x * bb) / d)
            return (centre, simd_length(centre - a))
        }
        var circle = (points[0], 0.0)
        for i in points.indices where !holds(circle, points[i]) {
            circle = (points[i], 0)
            for j in 0..<i where !holds(circle, points[j]) {
                circle = around(points[i], points[j])
                for k in 0..<j where !holds(circle, points[k]) { circle = through(points[i], points[j], points[k]) }
            }
        }
        return VNCircle(center: VNPoint(x: circle.0.x, y: circle.0.y), radius: circle.1)
    }
}
