import Foundation

/// Told when an animation starts and stops (QuartzCore's `CAAnimationDelegate`), on the main queue (Capture rules
/// §19.4). Both methods are optional.
public protocol CAAnimationDelegate: NSObjectProtocol {
    /// The animation began to play.
    func animationDidStart(_ anim: CAAnimation)
    /// The animation stopped: `flag` is true when it played to its end, false when it was removed before.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// An animation (QuartzCore's `CAAnimation`): its timing, its curve, its delegate and whether it leaves its layer at
/// its end. A layer plays a copy of it against the host clock (`CALayer.add(_:forKey:)`, spec §19.4).
open class CAAnimation: NSObject, CAMediaTiming, NSCopying, @unchecked Sendable {
    open var beginTime: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var repeatDuration: CFTimeInterval = 0
    open var autoreverses = false
    open var fillMode: CAMediaTimingFillMode = .removed
    /// The curve of each pass (default nil: linear).
    open var timingFunction: CAMediaTimingFunction?
    /// Told when the animation starts and stops. The animation keeps it alive, as Core Animation's does.
    open var delegate: CAAnimationDelegate?
    /// Whether the animation leaves its layer when it ends (default true).
    open var isRemovedOnCompletion = true
    /// Values set by key, as apps tag an animation to know it again in the delegate.
    private var tags: [String: Any] = [:]

    public required override init() { super.init() }

    /// A new animation of this class.
    open class func animation() -> Self { Self() }

    /// The default value of a property by key: nil, as every property here has its own default.
    open class func defaultValue(forKey key: String) -> Any? { nil }

    /// A value set with `setValue(_:forKey:)`.
    open func value(forKey key: String) -> Any? { tags[key] }

    /// Keeps a value by key with the animation; its copies keep it too.
    open func setValue(_ value: Any?, forKey key: String) { tags[key] = value }

    /// Whether the property `key` is archived: every property is.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = type(of: self).init()
        copy.take(self)
        return copy
    }

    /// Takes `other`'s properties; subclasses take theirs too.
    func take(_ other: CAAnimation) {
        (beginTime, duration, speed, timeOffset) = (other.beginTime, other.duration, other.speed, other.timeOffset)
        (repeatCount, repeatDuration, autoreverses) = (other.repeatCount, other.repeatDuration, other.autoreverses)
        (fillMode, timingFunction, delegate) = (other.fillMode, other.timingFunction, other.delegate)
        (isRemovedOnCompletion, tags) = (other.isRemovedOnCompletion, other.tags)
    }

    /// The fraction of the change at `fraction` of a pass of `duration` seconds.
    func eased(_ fraction: Double, duration: Double) -> Double { timingFunction?.progress(fraction) ?? fraction }
}

/// An animation of one layer property, named by key path (QuartzCore's `CAPropertyAnimation`).
open class CAPropertyAnimation: CAAnimation, @unchecked Sendable {
    /// The animated property: `opacity`, `position`, `position.x`, `bounds.size.width`, `transform.scale`,
    /// `transform.rotation.z`, `backgroundColor`, `strokeEnd`, …
    open var keyPath: String?
    /// Whether the values are added to the property's value instead of replacing it (default false).
    open var isAdditive = false
    /// Whether each repeat starts where the one before ended (default false).
    open var isCumulative = false
    /// A function applied to the values before they are set; kept, as the values of the supported key paths need
    /// none.
    open var valueFunction: CAValueFunction?

    /// An animation of `path`.
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    override func take(_ other: CAAnimation) {
        super.take(other)
        guard let other = other as? CAPropertyAnimation else { return }
        (keyPath, isAdditive, isCumulative, valueFunction) =
            (other.keyPath, other.isAdditive, other.isCumulative, other.valueFunction)
    }

    /// The property's value at `progress` (the curve's fraction of the change) of pass `iteration`, given its value
    /// without this animation; nil to leave it.
    func value(at progress: Double, iteration: Int, current: Any?) -> Any? { nil }

    /// `value` added to the property's value without the animation when the animation is additive, and to the whole
    /// change of every earlier pass when it is cumulative.
    func combined(_ value: Any, iteration: Int, change: (Any, Any)?, current: Any?) -> Any {
        var result = value
        if isCumulative, iteration > 0, let (first, last) = change,
            let step = AnimatedValue.subtract(last, first),
            let added = AnimatedValue.add(result, step, times: iteration)
        {
            result = added
        }
        if isAdditive, let current, let added = AnimatedValue.add(current, result, times: 1) { result = added }
        return result
    }
}

/// A function of an animation's values (QuartzCore's `CAValueFunction`), by name.
open class CAValueFunction: NSObject, @unchecked Sendable {
    public let name: CAValueFunctionName
    public init?(name: CAValueFunctionName) {
        self.name = name
        super.init()
    }
}

/// The name of a value function (`CAValueFunctionName`).
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let rotateX = CAValueFunctionName(rawValue: "rotateX")
    public static let rotateY = CAValueFunctionName(rawValue: "rotateY")
    public static let rotateZ = CAValueFunctionName(rawValue: "rotateZ")
    public static let scale = CAValueFunctionName(rawValue: "scale")
    public static let translate = CAValueFunctionName(rawValue: "translate")
}

/// An animation between two values (QuartzCore's `CABasicAnimation`). Which two follows Apple's rules: from and to;
/// from and from + by; to − by and to; from and the current value; the current value and to; the current value and
/// current + by.
open class CABasicAnimation: CAPropertyAnimation, @unchecked Sendable {
    open var fromValue: Any?
    open var toValue: Any?
    open var byValue: Any?

    override func take(_ other: CAAnimation) {
        super.take(other)
        guard let other = other as? CABasicAnimation else { return }
        (fromValue, toValue, byValue) = (other.fromValue, other.toValue, other.byValue)
    }

    override func value(at progress: Double, iteration: Int, current: Any?) -> Any? {
        let ends: (Any?, Any?)
        switch (fromValue, toValue, byValue) {
        case (let from?, let to?, _): ends = (from, to)
        case (let from?, nil, let by?): ends = (from, AnimatedValue.add(from, by, times: 1))
        case (nil, let to?, let by?): ends = (AnimatedValue.subtract(to, by), to)
        case (let from?, nil, nil): ends = (from, isAdditive ? nil : current)
        case (nil, let to?, nil): ends = (isAdditive ? nil : current, to)
        case (nil, nil, let by?):
            ends = (
                isAdditive ? nil : current, isAdditive ? by : current.flatMap { AnimatedValue.add($0, by, times: 1) }
            )
        case (nil, nil, nil): ends = (current, current)
        }
        guard let from = ends.0 ?? ends.1.flatMap(AnimatedValue.zero(like:)),
            let to = ends.1 ?? AnimatedValue.zero(like: from)
        else { return nil }
        let value = AnimatedValue.interpolate(from, to, progress)
        return combined(value, iteration: iteration, change: (from, to), current: current)
    }
}

/// A damped spring's motion between two values (QuartzCore's `CASpringAnimation`): the change follows a mass on a
/// spring, released at rest from the start (spec §19.4).
open class CASpringAnimation: CABasicAnimation, @unchecked Sendable {
    /// The mass on the spring (default 1).
    open var mass: CGFloat = 1
    /// The spring's stiffness (default 100).
    open var stiffness: CGFloat = 100
    /// The damping coefficient (default 10).
    open var damping: CGFloat = 10
    /// The initial velocity, in changes per second (default 0).
    open var initialVelocity: CGFloat = 0
    /// Whether a damping above the critical one slows the spring further (default false: it is taken as critical).
    open var allowsOverdamping = false

    /// A spring that settles in about `perceptualDuration` seconds with the given bounce (−1…1; 0 for none), as
    /// iOS 17's initialiser maps them: stiffness (2π / duration)², damping from the bounce.
    public convenience init(perceptualDuration: CFTimeInterval, bounce: CGFloat) {
        self.init()
        let omega = 2 * Double.pi / max(perceptualDuration, 1e-6)
        stiffness = CGFloat(omega * omega)
        let b = Double(bounce)
        damping = CGFloat(
            b >= 0
                ? (1 - b) * 4 * Double.pi / max(perceptualDuration, 1e-6)
                : 4 * Double.pi / (max(perceptualDuration, 1e-6) * (1 + b)))
    }

    /// The time the spring takes to come to rest: until its distance from the end stays below 0.1 % of the change
    /// (our choice of threshold).
    open var settlingDuration: CFTimeInterval {
        var t = 0.0
        var lastOutside = 0.0
        while t < 60 {
            if abs(1 - displacement(at: t)) >= 0.001 { lastOutside = t }
            t += 1.0 / 600
        }
        return (lastOutside * 600).rounded(.up) / 600
    }

    override func take(_ other: CAAnimation) {
        super.take(other)
        guard let other = other as? CASpringAnimation else { return }
        (mass, stiffness, damping, initialVelocity) = (
            other.mass, other.stiffness, other.damping, other.initialVelocity
        )
        allowsOverdamping = other.allowsOverdamping
    }

    override func eased(_ fraction: Double, duration: Double) -> Double { displacement(at: fraction * duration) }

    /// The fraction of the change reached `t` seconds after release: the closed form of m·x″ + c·x′ + k·x = 0 for
    /// the distance from the end, starting at 1 with velocity −`initialVelocity`.
    func displacement(at t: Double) -> Double {
        let (m, k, c) = (max(Double(mass), 1e-9), max(Double(stiffness), 1e-9), max(Double(damping), 0))
        let omega0 = (k / m).squareRoot()
        let critical = 2 * (k * m).squareRoot()
        let zeta = allowsOverdamping ? c / critical : min(1, c / critical)
        let v0 = -Double(initialVelocity)
        let x: Double
        if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            x = exp(-zeta * omega0 * t) * (cos(omegaD * t) + (zeta * omega0 + v0) / omegaD * sin(omegaD * t))
        } else if zeta == 1 {
            x = exp(-omega0 * t) * (1 + (omega0 + v0) * t)
        } else {
            let root = omega0 * (zeta * zeta - 1).squareRoot()
            let (r1, r2) = (-zeta * omega0 + root, -zeta * omega0 - root)
            // x(0) = 1 and x'(0) = v0 fix the two exponentials' weights.
            let b = (v0 - r1) / (r2 - r1)
            x = (1 - b) * exp(r1 * t) + b * exp(r2 * t)
        }
        return 1 - x
    }
}

/// An animation through a list of values (QuartzCore's `CAKeyframeAnimation`).
open class CAKeyframeAnimation: CAPropertyAnimation, @unchecked Sendable {
    /// The values, in order.
    open var values: [Any]?
    /// A path the point follows instead of `values` (for point properties such as `position`).
    open var path: CGPath?
    /// When each value is reached, as fractions of the pass (default: evenly spaced).
    open var keyTimes: [NSNumber]?
    /// The curve of each segment between two values.
    open var timingFunctions: [CAMediaTimingFunction]?
    /// How the values between keyframes are found (default `.linear`).
    open var calculationMode: CAAnimationCalculationMode = .linear
    /// Kept: the cubic modes here run through the values as a Catmull–Rom spline.
    open var tensionValues: [NSNumber]?
    open var continuityValues: [NSNumber]?
    open var biasValues: [NSNumber]?
    /// Kept: nothing is drawn, so nothing turns along the path.
    open var rotationMode: CAAnimationRotationMode?

    override func take(_ other: CAAnimation) {
        super.take(other)
        guard let other = other as? CAKeyframeAnimation else { return }
        (values, path, keyTimes, timingFunctions) = (other.values, other.path, other.keyTimes, other.timingFunctions)
        (calculationMode, rotationMode) = (other.calculationMode, other.rotationMode)
        (tensionValues, continuityValues, biasValues) = (other.tensionValues, other.continuityValues, other.biasValues)
    }

    /// The keyframes: `values`, or the corners of `path` (its curves taken as lines between their end points).
    private var frames: [Any] {
        guard let path else { return values ?? [] }
        var points: [CGPoint] = []
        path.applyWithBlock { element in
            let e = element.pointee
            switch e.type {
            case .moveToPoint, .addLineToPoint: points.append(e.points[0])
            case .addQuadCurveToPoint: points.append(e.points[1])
            case .addCurveToPoint: points.append(e.points[2])
            case .closeSubpath: if let first = points.first { points.append(first) }
            @unknown default: break
            }
        }
        return points
    }

    override func value(at progress: Double, iteration: Int, current: Any?) -> Any? {
        let frames = frames
        guard let first = frames.first, let last = frames.last else { return nil }
        let n = frames.count
        let mode = path != nil && calculationMode == .linear ? CAAnimationCalculationMode.paced : calculationMode
        let given = keyTimes?.map(\.doubleValue)
        let value: Any
        if mode == .discrete {
            // n values hold over n intervals: the key times, when given, bound them.
            let bounds = given.flatMap { $0.count >= n ? $0 : nil } ?? (0..<n).map { Double($0) / Double(n) }
            let index = bounds.prefix(n).lastIndex { $0 <= progress } ?? 0
            value = frames[index]
        } else if n == 1 {
            value = first
        } else {
            let times: [Double]
            if mode == .paced || mode == .cubicPaced {
                var lengths = [0.0]
                for i in 1..<n { lengths.append(lengths[i - 1] + AnimatedValue.distance(frames[i - 1], frames[i])) }
                times =
                    lengths.last! > 0 ? lengths.map { $0 / lengths.last! } : (0..<n).map { Double($0) / Double(n - 1) }
            } else {
                times = given.flatMap { $0.count == n ? $0 : nil } ?? (0..<n).map { Double($0) / Double(n - 1) }
            }
            let segment = min(n - 2, max(0, (times.lastIndex { $0 <= progress } ?? 0)))
            let span = times[segment + 1] - times[segment]
            var local = span > 0 ? min(1, max(0, (progress - times[segment]) / span)) : 1
            if let functions = timingFunctions, segment < functions.count { local = functions[segment].progress(local) }
            if mode == .cubic || mode == .cubicPaced {
                value = AnimatedValue.catmullRom(
                    frames[max(0, segment - 1)], frames[segment], frames[segment + 1], frames[min(n - 1, segment + 2)],
                    local)
            } else {
                value = AnimatedValue.interpolate(frames[segment], frames[segment + 1], local)
            }
        }
        return combined(value, iteration: iteration, change: (first, last), current: current)
    }
}

/// How a keyframe animation finds the values between keyframes (`CAAnimationCalculationMode`).
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

/// Whether a layer animated along a path turns with it (`CAAnimationRotationMode`).
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// Animations played together on one clock (QuartzCore's `CAAnimationGroup`): each runs in the group's local time,
/// from its own `beginTime`; one whose duration is 0 lasts the group's pass (our choice).
open class CAAnimationGroup: CAAnimation, @unchecked Sendable {
    open var animations: [CAAnimation]?

    override func take(_ other: CAAnimation) {
        super.take(other)
        guard let other = other as? CAAnimationGroup else { return }
        animations = other.animations?.map { $0.copy() as! CAAnimation }
    }
}

/// A transition between a layer's states (QuartzCore's `CATransition`): nothing is drawn, so it changes no value, but
/// it is timed, and its delegate is told, like every animation.
open class CATransition: CAAnimation, @unchecked Sendable {
    open var type: CATransitionType = .fade
    open var subtype: CATransitionSubtype?
    open var startProgress: Float = 0
    open var endProgress: Float = 1

    override func take(_ other: CAAnimation) {
        super.take(other)
        guard let other = other as? CATransition else { return }
        (type, subtype, startProgress, endProgress) = (
            other.type, other.subtype, other.startProgress, other.endProgress
        )
    }
}

/// The kind of a transition (`CATransitionType`).
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let fade = CATransitionType(rawValue: "fade")
    public static let moveIn = CATransitionType(rawValue: "moveIn")
    public static let push = CATransitionType(rawValue: "push")
    public static let reveal = CATransitionType(rawValue: "reveal")
}

/// The direction of a transition (`CATransitionSubtype`).
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}

/// The values animations interpolate, as lists of numbers: numbers, points, sizes, rectangles, 3D transforms and
/// colours of the same space. Other values cannot be interpolated: they change halfway (our choice).
enum AnimatedValue {
    private enum Kind: Equatable {
        case number, point, size, rect, transform
        case color(CGColorSpace?)

        static func == (a: Kind, b: Kind) -> Bool {
            switch (a, b) {
            case (.number, .number), (.point, .point), (.size, .size), (.rect, .rect), (.transform, .transform): true
            case (.color(let x), .color(let y)): x === y || x?.name == y?.name
            default: false
            }
        }
    }

    private static func parts(_ value: Any) -> (Kind, [Double])? {
        if let number = LayerKeyPaths.number(value) { return (.number, [number]) }
        switch value {
        case let p as CGPoint: return (.point, [p.x, p.y].map(Double.init))
        case let s as CGSize: return (.size, [s.width, s.height].map(Double.init))
        case let r as CGRect: return (.rect, [r.origin.x, r.origin.y, r.width, r.height].map(Double.init))
        case let t as CATransform3D:
            let m =
                [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24]
                + [t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
            return (.transform, m.map(Double.init))
        case let c as CGColor: return c.components.map { (.color(c.colorSpace), $0.map(Double.init)) }
        case let v as NSValue:
            // A point, size or rectangle boxed as Foundation boxes them; `objCType` tells which.
            let type = String(cString: v.objCType)
            if type.hasPrefix("{CGRect") || type.hasPrefix("{NSRect") { return parts(v.rectValue) }
            if type.hasPrefix("{CGSize") || type.hasPrefix("{NSSize") { return parts(v.sizeValue) }
            if type.hasPrefix("{CGPoint") || type.hasPrefix("{NSPoint") { return parts(v.pointValue) }
            return nil
        default: return nil
        }
    }

    private static func make(_ kind: Kind, _ c: [Double]) -> Any {
        let f = c.map { CGFloat($0) }
        switch kind {
        case .number: return c[0]
        case .point: return CGPoint(x: f[0], y: f[1])
        case .size: return CGSize(width: f[0], height: f[1])
        case .rect: return CGRect(x: f[0], y: f[1], width: f[2], height: f[3])
        case .transform:
            return CATransform3D(
                m11: f[0], m12: f[1], m13: f[2], m14: f[3], m21: f[4], m22: f[5], m23: f[6], m24: f[7],
                m31: f[8], m32: f[9], m33: f[10], m34: f[11], m41: f[12], m42: f[13], m43: f[14], m44: f[15])
        case .color(let space):
            guard let space, f.count == space.numberOfComponents + 1 else {
                return CGColor(
                    red: f[0], green: f[min(1, f.count - 1)], blue: f[min(2, f.count - 1)], alpha: f[f.count - 1])
            }
            return f.withUnsafeBufferPointer { CGColor(colorSpace: space, components: $0.baseAddress!)! }
        }
    }

    /// Both values' parts, when they are of one kind.
    private static func pair(_ a: Any, _ b: Any) -> (Kind, [Double], [Double])? {
        guard let (ka, pa) = parts(a), let (kb, pb) = parts(b), ka == kb, pa.count == pb.count else { return nil }
        return (ka, pa, pb)
    }

    /// The value `t` of the way from `a` to `b`.
    static func interpolate(_ a: Any, _ b: Any, _ t: Double) -> Any {
        guard let (kind, pa, pb) = pair(a, b) else { return t < 0.5 ? a : b }
        return make(kind, zip(pa, pb).map { $0 + ($1 - $0) * t })
    }

    /// The Catmull–Rom spline through `p1` and `p2` with neighbours `p0` and `p3`, at `t`.
    static func catmullRom(_ p0: Any, _ p1: Any, _ p2: Any, _ p3: Any, _ t: Double) -> Any {
        guard let (kind, a, b) = pair(p0, p1), let (_, c, d) = pair(p2, p3), pair(p1, p2) != nil else {
            return interpolate(p1, p2, t)
        }
        let (t2, t3) = (t * t, t * t * t)
        let values = (0..<a.count).map { i in
            0.5
                * (2 * b[i] + (c[i] - a[i]) * t + (2 * a[i] - 5 * b[i] + 4 * c[i] - d[i]) * t2
                    + (3 * b[i] - a[i] - 3 * c[i] + d[i]) * t3)
        }
        return make(kind, values)
    }

    /// `a` plus `times` × `b`, when they are of one kind.
    static func add(_ a: Any, _ b: Any, times: Int) -> Any? {
        guard let (kind, pa, pb) = pair(a, b) else { return nil }
        return make(kind, zip(pa, pb).map { $0 + Double(times) * $1 })
    }

    /// `a` minus `b`, when they are of one kind.
    static func subtract(_ a: Any, _ b: Any) -> Any? {
        guard let (kind, pa, pb) = pair(a, b) else { return nil }
        return make(kind, zip(pa, pb).map { $0 - $1 })
    }

    /// The zero of `value`'s kind (the start of an additive animation given only an end).
    static func zero(like value: Any) -> Any? {
        guard let (kind, p) = parts(value) else { return nil }
        return make(kind, p.map { _ in 0 })
    }

    /// The Euclidean distance between two values of one kind (for paced keyframes); 0 between others.
    static func distance(_ a: Any, _ b: Any) -> Double {
        guard let (_, pa, pb) = pair(a, b) else { return 0 }
        return zip(pa, pb).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
    }
}
