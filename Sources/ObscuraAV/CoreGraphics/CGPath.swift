import Foundation

/// How a path's inside is decided (CoreGraphics' `CGPathFillRule`).
public enum CGPathFillRule: Int, Sendable {
    /// Inside where the path winds round the point a non-zero number of times.
    case winding = 0
    /// Inside where a ray from the point crosses the path an odd number of times.
    case evenOdd = 1
}

/// The kind of one path element (CoreGraphics' `CGPathElementType`).
public enum CGPathElementType: Int32, Sendable {
    case moveToPoint = 0
    case addLineToPoint = 1
    case addQuadCurveToPoint = 2
    case addCurveToPoint = 3
    case closeSubpath = 4
}

/// One element as `CGPath.applyWithBlock(_:)` hands it out: its kind and its points (one for a move or a line, the
/// control point then the end for a quadratic curve, two controls then the end for a cubic one, none for a close).
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>
}

/// An immutable vector path (CoreGraphics' `CGPath`): subpaths of lines and quadratic and cubic Bézier curves.
///
/// Capture code builds one to outline what it found in a frame (a face, a code, a document) and hands it to a
/// `CAShapeLayer`. Nothing here is drawn; the path answers the geometric questions CoreGraphics answers: its bounds,
/// whether it contains a point under either fill rule, its elements. Ellipses and arcs are made of cubic Béziers, at
/// most a quarter turn each, as CoreGraphics makes them.
open class CGPath: Equatable, @unchecked Sendable {
    /// One element with its points, in the path's own coordinates.
    enum Element: Equatable {
        case move(CGPoint)
        case line(CGPoint)
        case quad(CGPoint, CGPoint)
        case cubic(CGPoint, CGPoint, CGPoint)
        case close
    }

    var elements: [Element]

    init(elements: [Element]) { self.elements = elements }

    /// A rectangle, as `CGMutablePath.addRect(_:transform:)` draws it.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// The ellipse inside `rect`, as `CGMutablePath.addEllipse(in:transform:)` draws it.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// A rectangle with rounded corners, as `CGMutablePath.addRoundedRect(in:cornerWidth:cornerHeight:transform:)`
    /// draws it.
    public convenience init(
        roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
        transform: UnsafePointer<CGAffineTransform>?
    ) {
        let path = CGMutablePath()
        path.addRoundedRect(
            in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// An immutable copy.
    public func copy() -> CGPath? { CGPath(elements: elements) }

    /// An immutable copy with every point mapped through `transform`.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        CGPath(elements: elements.map { $0.applying(transform?.pointee ?? .identity) })
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(elements: elements) }

    /// A mutable copy with every point mapped through `transform`.
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        CGMutablePath(elements: elements.map { $0.applying(transform?.pointee ?? .identity) })
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The end of the last element: the last subpath's start after a close, `.zero` for an empty path.
    public var currentPoint: CGPoint {
        var start = CGPoint.zero
        var point = CGPoint.zero
        for element in elements {
            switch element {
            case .move(let p): (start, point) = (p, p)
            case .line(let p), .quad(_, let p), .cubic(_, _, let p): point = p
            case .close: point = start
            }
        }
        return point
    }

    /// The smallest rectangle holding every point of the path, control points included; `.null` for an empty path.
    public var boundingBox: CGRect {
        Self.bounds(of: elements.flatMap(\.points))
    }

    /// The smallest rectangle holding the path itself: curves by their extremes, not their control points; `.null`
    /// for an empty path.
    public var boundingBoxOfPath: CGRect {
        var points: [CGPoint] = []
        var current = CGPoint.zero
        var start = CGPoint.zero
        for element in elements {
            switch element {
            case .move(let p):
                (current, start) = (p, p)
                points.append(p)
            case .line(let p):
                points.append(p)
                current = p
            case .quad(let c, let p):
                // A quadratic Bézier is the cubic with controls two thirds of the way to its control point.
                points += Bezier(current, current + (c - current) * (2.0 / 3), p + (c - p) * (2.0 / 3), p).extremes
                current = p
            case .cubic(let c1, let c2, let p):
                points += Bezier(current, c1, c2, p).extremes
                current = p
            case .close: current = start
            }
        }
        return Self.bounds(of: points)
    }

    /// Whether the path, as a shape filled by `rule`, covers `point` (mapped through `transform` first, as
    /// CoreGraphics does). Subpaths are closed for the test, and curves followed to within a thousandth of a unit.
    public func contains(
        _ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity
    ) -> Bool {
        let p = point.applying(transform)
        var winding = 0
        var crossings = 0
        for polygon in polygons(tolerance: 1e-3) where polygon.count > 1 {
            for (a, b) in zip(polygon, polygon.dropFirst() + [polygon[0]]) {
                // A ray to the right of p crosses the edge a → b where it spans p's height (half-open at the top).
                guard (a.y <= p.y) != (b.y <= p.y) else { continue }
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                guard x > p.x else { continue }
                crossings += 1
                winding += b.y > a.y ? 1 : -1
            }
        }
        return rule == .winding ? winding != 0 : crossings % 2 == 1
    }

    /// Whether the path is a single rectangle (a move, three lines to the other corners and a close, or the closing
    /// line back to the start), and which.
    public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
        var corners: [CGPoint] = []
        for (index, element) in elements.enumerated() {
            switch element {
            case .move(let p) where index == 0: corners.append(p)
            case .line(let p): corners.append(p)
            case .close where index == elements.count - 1: break
            default: return false
            }
        }
        if corners.count == 5, corners[4] == corners[0] { corners.removeLast() }
        guard corners.count == 4 else { return false }
        let sides = zip(corners, corners.dropFirst() + [corners[0]])
        let axisAligned = sides.allSatisfy { $0.x == $1.x || $0.y == $1.y }
        let alternating =
            (corners[0].x == corners[1].x) == (corners[2].x == corners[3].x)
            && (corners[0].x == corners[1].x) != (corners[1].x == corners[2].x)
        guard axisAligned, alternating else { return false }
        rect?.pointee = Self.bounds(of: corners)
        return true
    }

    /// Hands each element to `block` in order. The points live only for the call.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        // Room for the most points an element has (a cubic's three), so that a close hands out a valid pointer too.
        var points = [CGPoint](repeating: .zero, count: 3)
        for element in elements {
            for (index, point) in element.points.enumerated() { points[index] = point }
            points.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                var handed = CGPathElement(type: element.type, points: base)
                withUnsafePointer(to: &handed) { block($0) }
            }
        }
    }

    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs.elements == rhs.elements }

    /// The closed polygons the subpaths make, each curve cut into lines no farther than `tolerance` from it.
    func polygons(tolerance: CGFloat) -> [[CGPoint]] {
        var polygons: [[CGPoint]] = []
        var current: [CGPoint] = []
        func finish() {
            if !current.isEmpty { polygons.append(current) }
            current = []
        }
        for element in elements {
            let last = current.last ?? polygons.last?.first ?? .zero
            switch element {
            case .move(let p):
                finish()
                current = [p]
            case .line(let p):
                if current.isEmpty { current = [last] }
                current.append(p)
            case .quad(let c, let p):
                if current.isEmpty { current = [last] }
                current += Bezier(last, last + (c - last) * (2.0 / 3), p + (c - p) * (2.0 / 3), p).flattened(tolerance)
            case .cubic(let c1, let c2, let p):
                if current.isEmpty { current = [last] }
                current += Bezier(last, c1, c2, p).flattened(tolerance)
            case .close:
                finish()
            }
        }
        finish()
        return polygons
    }

    static func bounds(of points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .null }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for p in points.dropFirst() {
            (minX, maxX) = (min(minX, p.x), max(maxX, p.x))
            (minY, maxY) = (min(minY, p.y), max(maxY, p.y))
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// A path that can grow (CoreGraphics' `CGMutablePath`). Each `transform` maps the points given before they are added.
open class CGMutablePath: CGPath, @unchecked Sendable {
    /// An empty path.
    public init() { super.init(elements: []) }

    override init(elements: [Element]) { super.init(elements: elements) }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.move(point.applying(transform)))
    }

    /// A straight line from the current point to `point`.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.line(point.applying(transform)))
    }

    /// A quadratic Bézier curve from the current point to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.quad(control.applying(transform), end.applying(transform)))
    }

    /// A cubic Bézier curve from the current point to `end`.
    public func addCurve(
        to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity
    ) {
        elements.append(.cubic(control1.applying(transform), control2.applying(transform), end.applying(transform)))
    }

    /// Closes the current subpath with a line back to its start.
    public func closeSubpath() { elements.append(.close) }

    /// A closed rectangle: from its origin corner along the x axis first (anticlockwise with the y axis up, as
    /// CoreGraphics draws it).
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.maxY), transform: transform)
        closeSubpath()
    }

    /// One closed rectangle per entry.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// An open polyline through `points`, as a new subpath.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for point in points.dropFirst() { addLine(to: point, transform: transform) }
    }

    /// The closed ellipse inside `rect`: four quarter arcs from the middle of its right side, clockwise with the y
    /// axis up, as CoreGraphics draws it.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let centre = CGPoint(x: r.midX, y: r.midY)
        let unit = CGAffineTransform(a: r.width / 2, b: 0, c: 0, d: r.height / 2, tx: centre.x, ty: centre.y)
            .concatenating(transform)
        move(to: CGPoint(x: 1, y: 0), transform: unit)
        for quarter in 0..<4 {
            appendArc(from: -CGFloat(quarter) * .pi / 2, sweep: -.pi / 2, transform: unit)
        }
        closeSubpath()
    }

    /// A closed rectangle, drawn as `addRect` draws it, whose corners are quarter ellipses `cornerWidth` wide and `cornerHeight` high (each at
    /// most half the side); with either 0 it is a plain rectangle.
    public func addRoundedRect(
        in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity
    ) {
        let r = rect.standardized
        let (w, h) = (min(max(cornerWidth, 0), r.width / 2), min(max(cornerHeight, 0), r.height / 2))
        guard w > 0, h > 0 else { return addRect(r, transform: transform) }
        move(to: CGPoint(x: r.minX + w, y: r.minY), transform: transform)
        let corners: [(x: CGFloat, y: CGFloat, from: CGFloat)] = [
            (r.maxX - w, r.minY + h, -.pi / 2), (r.maxX - w, r.maxY - h, 0),
            (r.minX + w, r.maxY - h, .pi / 2), (r.minX + w, r.minY + h, .pi),
        ]
        for corner in corners {
            let unit = CGAffineTransform(a: w, b: 0, c: 0, d: h, tx: corner.x, ty: corner.y).concatenating(transform)
            addLine(to: CGPoint(x: cos(corner.from), y: sin(corner.from)), transform: unit)
            appendArc(from: corner.from, sweep: .pi / 2, transform: unit)
        }
        closeSubpath()
    }

    /// A circular arc about `center` from `startAngle` to `endAngle` (radians from the x axis towards the y axis),
    /// going the way `clockwise` says in CoreGraphics' sense (towards decreasing angle when true), joined to the
    /// current point by a line, or starting a subpath when there is none.
    public func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
        transform: CGAffineTransform = .identity
    ) {
        var sweep = endAngle - startAngle
        let turn = 2 * CGFloat.pi
        if clockwise {
            if sweep > 0 { sweep -= turn * (sweep / turn).rounded(.up) }
            sweep = max(sweep, -turn)
        } else {
            if sweep < 0 { sweep += turn * (-sweep / turn).rounded(.up) }
            sweep = min(sweep, turn)
        }
        appendCircularArc(center: center, radius: radius, start: startAngle, sweep: sweep, transform: transform)
    }

    /// A circular arc about `center` from `startAngle` through `delta` radians, joined as `addArc` joins.
    public func addRelativeArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat, transform: CGAffineTransform = .identity
    ) {
        appendCircularArc(center: center, radius: radius, start: startAngle, sweep: delta, transform: transform)
    }

    /// Every element of `path`, mapped through `transform`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        elements += path.elements.map { $0.applying(transform) }
    }

    private func appendCircularArc(
        center: CGPoint, radius: CGFloat, start: CGFloat, sweep: CGFloat, transform: CGAffineTransform
    ) {
        let unit = CGAffineTransform(a: radius, b: 0, c: 0, d: radius, tx: center.x, ty: center.y)
            .concatenating(transform)
        let first = CGPoint(x: cos(start), y: sin(start))
        if isEmpty { move(to: first, transform: unit) } else { addLine(to: first, transform: unit) }
        let pieces = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        for k in 0..<pieces {
            appendArc(from: start + sweep * CGFloat(k) / CGFloat(pieces), sweep: sweep / CGFloat(pieces), transform: unit)
        }
    }

    /// One cubic Bézier along the unit circle from angle `a` through `sweep` (at most a quarter turn), mapped by
    /// `transform`: the controls lie on the tangents at 4/3 · tan(sweep / 4) of the radius, the usual approximation,
    /// whose distance from the circle is under 0.03 % of the radius for a quarter turn.
    private func appendArc(from a: CGFloat, sweep: CGFloat, transform: CGAffineTransform) {
        let k = 4.0 / 3.0 * tan(sweep / 4)
        let b = a + sweep
        let p0 = CGPoint(x: cos(a), y: sin(a))
        let p3 = CGPoint(x: cos(b), y: sin(b))
        addCurve(
            to: p3, control1: CGPoint(x: p0.x - k * p0.y, y: p0.y + k * p0.x),
            control2: CGPoint(x: p3.x + k * p3.y, y: p3.y - k * p3.x), transform: transform)
    }
}

extension CGPath.Element {
    var type: CGPathElementType {
        switch self {
        case .move: .moveToPoint
        case .line: .addLineToPoint
        case .quad: .addQuadCurveToPoint
        case .cubic: .addCurveToPoint
        case .close: .closeSubpath
        }
    }

    var points: [CGPoint] {
        switch self {
        case .move(let p), .line(let p): [p]
        case .quad(let c, let p): [c, p]
        case .cubic(let c1, let c2, let p): [c1, c2, p]
        case .close: []
        }
    }

    func applying(_ t: CGAffineTransform) -> Self {
        switch self {
        case .move(let p): .move(p.applying(t))
        case .line(let p): .line(p.applying(t))
        case .quad(let c, let p): .quad(c.applying(t), p.applying(t))
        case .cubic(let c1, let c2, let p): .cubic(c1.applying(t), c2.applying(t), p.applying(t))
        case .close: .close
        }
    }
}

/// A cubic Bézier segment, for the path's bounds and flattening.
private struct Bezier {
    let p0: CGPoint, p1: CGPoint, p2: CGPoint, p3: CGPoint

    init(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) { (self.p0, self.p1, self.p2, self.p3) = (p0, p1, p2, p3) }

    func point(_ t: CGFloat) -> CGPoint {
        let u = 1 - t
        return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
    }

    /// The end points and every point where the curve turns in x or in y (the roots in (0, 1) of the derivative's
    /// components, each a quadratic).
    var extremes: [CGPoint] {
        func roots(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> [CGFloat] {
            // d/dt of the cubic in one coordinate, divided by 3: A t² + B t + C.
            let qa = -a + 3 * b - 3 * c + d
            let qb = 2 * (a - 2 * b + c)
            let qc = b - a
            if abs(qa) < 1e-12 { return abs(qb) < 1e-12 ? [] : [-qc / qb] }
            let disc = qb * qb - 4 * qa * qc
            guard disc >= 0 else { return [] }
            let s = disc.squareRoot()
            return [(-qb + s) / (2 * qa), (-qb - s) / (2 * qa)]
        }
        let ts = roots(p0.x, p1.x, p2.x, p3.x) + roots(p0.y, p1.y, p2.y, p3.y)
        return [p0, p3] + ts.filter { $0 > 0 && $0 < 1 }.map(point)
    }

    /// Points along the curve after its start, its end last, at equal steps of the parameter, enough that each chord
    /// stays within `tolerance` of the curve: n steps of a cubic whose control polygon bends by at most M (the larger
    /// of |p0 − 2p1 + p2| and |p1 − 2p2 + p3|) keep within 3M / (4n²) of it (Wang's bound).
    func flattened(_ tolerance: CGFloat) -> [CGPoint] {
        let bend = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
        let pieces = min(1024, max(1, Int((0.75 * bend / tolerance).squareRoot().rounded(.up))))
        return (1...pieces).map { point(CGFloat($0) / CGFloat(pieces)) }
    }
}

private func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
private func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
private func * (a: CGPoint, s: CGFloat) -> CGPoint { CGPoint(x: a.x * s, y: a.y * s) }
private extension CGPoint {
    var length: CGFloat { (x * x + y * y).squareRoot() }
}
