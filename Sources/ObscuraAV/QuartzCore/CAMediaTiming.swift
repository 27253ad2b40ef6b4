import Foundation

/// The timing of an animation (QuartzCore's `CAMediaTiming`): when it begins, how long one pass lasts, how fast and how
/// often it plays, and what it shows outside its active time (spec §19.4).
public protocol CAMediaTiming: AnyObject {
    /// When the animation begins, in its layer's time (the host clock's, `CACurrentMediaTime()`, unless the layer or
    /// an ancestor has timing of its own); 0 when added: now.
    var beginTime: CFTimeInterval { get set }
    /// One pass, seconds; 0 when added: the transaction's duration (0.25 s unless set).
    var duration: CFTimeInterval { get set }
    /// How fast local time runs against its layer's (default 1; 0 holds the animation where it is).
    var speed: Float { get set }
    /// Where in its local time the animation starts (default 0).
    var timeOffset: CFTimeInterval { get set }
    /// How many passes play, fractions allowed (default 0: one; `.infinity`: for ever).
    var repeatCount: Float { get set }
    /// How long the passes play, seconds, instead of a count (default 0: by `repeatCount`).
    var repeatDuration: CFTimeInterval { get set }
    /// Whether each pass plays forwards then backwards (default false).
    var autoreverses: Bool { get set }
    /// What the animation shows before it begins and after it ends (default `.removed`: nothing).
    var fillMode: CAMediaTimingFillMode { get set }
}

/// What an animation shows outside its active time (`CAMediaTimingFillMode`).
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Nothing: the layer shows its model values outside the active time.
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// The last frame, after the end (while the animation stays on its layer).
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// The first frame, before the beginning.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both.
    public static let both = CAMediaTimingFillMode(rawValue: "both")

    var fillsBefore: Bool { self == .backwards || self == .both }
    var fillsAfter: Bool { self == .forwards || self == .both }
}

/// The name of one of Core Animation's timing curves (`CAMediaTimingFunctionName`).
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Even pace.
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// Slow start.
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// Slow end.
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// Slow start and end.
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// The curve of the system's own animations.
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// A timing curve (QuartzCore's `CAMediaTimingFunction`): a cubic Bézier from (0, 0) to (1, 1) through two control
/// points, mapping the fraction of a pass's time to the fraction of its change.
open class CAMediaTimingFunction: NSObject, @unchecked Sendable {
    /// The two inner control points.
    private let c1: (x: Double, y: Double)
    private let c2: (x: Double, y: Double)

    /// A curve from its two inner control points.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        c1 = (Double(c1x), Double(c1y))
        c2 = (Double(c2x), Double(c2y))
        super.init()
    }

    /// One of the named curves, with the control points Apple documents for them.
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        default: self.init(controlPoints: 0, 0, 1, 1)
        }
    }

    /// Writes control point `idx` (0 to 3, the first (0, 0) and the last (1, 1)) as two floats at `ptr`.
    open func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        let points = [(0.0, 0.0), c1, c2, (1.0, 1.0)]
        let point = points[min(max(idx, 0), 3)]
        (ptr[0], ptr[1]) = (Float(point.0), Float(point.1))
    }

    /// The fraction of the change at a fraction `t` (0…1) of the time: the curve's y where its x is `t`.
    func progress(_ t: Double) -> Double {
        guard t > 0 else { return 0 }
        guard t < 1 else { return 1 }
        func bezier(_ a: Double, _ b: Double, _ s: Double) -> Double {
            let r = 1 - s
            return 3 * r * r * s * a + 3 * r * s * s * b + s * s * s
        }
        // x(s) rises from 0 to 1 whenever the control points' x lie in 0…1, so bisection finds the s with x(s) = t.
        var (low, high) = (0.0, 1.0)
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if bezier(c1.x, c2.x, mid) < t { low = mid } else { high = mid }
        }
        return bezier(c1.y, c2.y, (low + high) / 2)
    }
}

/// The times of one animation placed on its layer's clock: where its local time stands at a layer time, and where
/// its passes are (the `CAMediaTiming` arithmetic, spec §19.4).
struct AnimationClock {
    /// The layer time at which local time is `timeOffset`.
    var begin: CFTimeInterval
    var duration: CFTimeInterval
    var speed: Double
    var timeOffset: CFTimeInterval
    var repeatCount: Double
    var repeatDuration: CFTimeInterval
    var autoreverses: Bool
    var fillMode: CAMediaTimingFillMode

    init(_ timing: CAMediaTiming, begin: CFTimeInterval, duration: CFTimeInterval) {
        (self.begin, self.duration) = (begin, duration)
        speed = Double(timing.speed)
        timeOffset = timing.timeOffset
        repeatCount = Double(timing.repeatCount)
        repeatDuration = timing.repeatDuration
        autoreverses = timing.autoreverses
        fillMode = timing.fillMode
    }

    /// One pass there and, when it autoreverses, back.
    var iteration: CFTimeInterval { duration * (autoreverses ? 2 : 1) }

    /// How long the passes play, in local time.
    var active: CFTimeInterval {
        if repeatDuration > 0 { return repeatDuration }
        return iteration * (repeatCount > 0 ? repeatCount : 1)
    }

    /// The layer time at which the passes end; infinite for an animation that never ends (a speed of 0 or an
    /// endless repeat).
    var end: CFTimeInterval {
        guard speed > 0, active.isFinite else { return .infinity }
        return begin + max(0, active - timeOffset) / speed
    }

    /// The layer time at which the animation starts to play.
    var start: CFTimeInterval { speed > 0 ? begin + max(0, -timeOffset) / speed : begin }

    /// Where the animation stands at layer time `now`: the fraction of the current pass (0…1, backwards on the way
    /// back of an autoreversing pass) and the number of whole passes before it; nil when it shows nothing then.
    func position(at now: CFTimeInterval) -> (fraction: Double, iteration: Int)? {
        var local = (now - begin) * speed + timeOffset
        if local < 0 {
            guard fillMode.fillsBefore else { return nil }
            local = 0
        }
        var ended = false
        if local >= active {
            guard fillMode.fillsAfter else { return nil }
            local = active
            ended = true
        }
        guard duration > 0 else { return (1, 0) }
        var k = (local / iteration).rounded(.down)
        var within = local - k * iteration
        // The end of a whole number of passes is the end of the last one, not the start of another.
        if ended, within == 0, k > 0 {
            k -= 1
            within = iteration
        }
        if autoreverses, within > duration { within = iteration - within }
        return (min(1, max(0, within / duration)), Int(k))
    }
}
