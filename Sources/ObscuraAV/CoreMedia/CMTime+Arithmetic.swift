// CMTime arithmetic with CoreMedia's documented results at the edges (spec §18.1): exact on the
// common timescale when it fits, rounded otherwise, ±∞ on overflow, never a trap.

/// `kCMTimeMaxTimescale`: the largest timescale a result is given (0x7fffffff).
public let kCMTimeMaxTimescale: Int = 0x7fff_ffff

/// `CMTimeRoundingMethod`: how a value that does not fit the new timescale exactly is rounded.
public enum CMTimeRoundingMethod: UInt32, Sendable {
    /// To the nearest value; halves go away from zero.
    case roundHalfAwayFromZero = 1
    /// Towards zero (truncation).
    case roundTowardZero = 2
    /// Away from zero.
    case roundAwayFromZero = 3
    /// Towards zero when the timescale grows, half away from zero when it shrinks.
    case quickTime = 4
    /// Towards +∞ (ceiling).
    case roundTowardPositiveInfinity = 5
    /// Towards −∞ (floor).
    case roundTowardNegativeInfinity = 6

    /// `kCMTimeRoundingMethod_Default`: half away from zero.
    public static var `default`: CMTimeRoundingMethod { .roundHalfAwayFromZero }
}

/// `kCMTimeZero`.
public let kCMTimeZero = CMTime.zero
/// `kCMTimeInvalid`.
public let kCMTimeInvalid = CMTime.invalid
/// `kCMTimePositiveInfinity`.
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
/// `kCMTimeNegativeInfinity`.
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity
/// `kCMTimeIndefinite`.
public let kCMTimeIndefinite = CMTime.indefinite

/// The exact quotient `n / d` (d > 0) rounded as `method` says; `growing` tells QuickTime rounding the
/// direction of the scale change.
private func divide(_ n: Int128, _ d: Int128, _ method: CMTimeRoundingMethod, growing: Bool) -> Int128 {
    let q = n / d, r = n % d
    guard r != 0 else { return q }
    let away: Int128 = n < 0 ? q - 1 : q + 1
    let halfOrMore = 2 * r.magnitude >= d.magnitude
    switch method {
    case .roundTowardZero: return q
    case .roundAwayFromZero: return away
    case .roundHalfAwayFromZero: return halfOrMore ? away : q
    case .quickTime: return growing ? q : (halfOrMore ? away : q)
    case .roundTowardPositiveInfinity: return n > 0 ? q + 1 : q
    case .roundTowardNegativeInfinity: return n < 0 ? q - 1 : q
    }
}

extension CMTime {
    /// The time `n / d` seconds (d > 0) on `timescale`, rounded by `method`. A value too large for 64 bits halves
    /// the timescale until it fits; at a timescale of 1 it becomes ±∞ (spec §18.1 [D]).
    static func fitting(
        _ n: Int128, over d: Int128, timescale: CMTimeScale, method: CMTimeRoundingMethod = .default,
        epoch: CMTimeEpoch = 0, rounded: Bool = false, from oldTimescale: CMTimeScale? = nil
    ) -> CMTime {
        var scale = timescale
        while true {
            let product = n * Int128(scale)
            let value = divide(product, d, method, growing: oldTimescale.map { scale > $0 } ?? false)
            if let fitted = Int64(exactly: value) {
                var flags: CMTimeFlags = .valid
                if rounded || product % d != 0 { flags.insert(.hasBeenRounded) }
                return CMTime(value: fitted, timescale: scale, flags: flags, epoch: epoch)
            }
            if scale == 1 { return n > 0 ? .positiveInfinity : .negativeInfinity }
            scale /= 2
        }
    }

    /// `seconds` (finite) on `timescale` (> 0), halving the timescale while the value overflows.
    static func fitting(
        seconds: Double, timescale: CMTimeScale, method: CMTimeRoundingMethod = .default, rounded: Bool = false
    ) -> CMTime {
        var scale = timescale
        // Int64.max is 2^63 − 1; every double below 2^63 in magnitude converts.
        let limit = 9_223_372_036_854_775_808.0
        while true {
            let product = seconds * Double(scale)
            let value: Double =
                switch method {
                case .roundTowardZero: product.rounded(.towardZero)
                case .roundAwayFromZero: product.rounded(.awayFromZero)
                case .roundTowardPositiveInfinity: product.rounded(.up)
                case .roundTowardNegativeInfinity: product.rounded(.down)
                case .roundHalfAwayFromZero, .quickTime: product.rounded(.toNearestOrAwayFromZero)
                }
            if abs(value) < limit {
                var flags: CMTimeFlags = .valid
                // spec §18.1 [D]: rounded means the value, read back as seconds, is not the seconds given.
                if rounded || value / Double(scale) != seconds { flags.insert(.hasBeenRounded) }
                return CMTime(value: Int64(value), timescale: scale, flags: flags, epoch: 0)
            }
            if scale == 1 { return seconds > 0 ? .positiveInfinity : .negativeInfinity }
            scale /= 2
        }
    }

    /// `convertScale(_:method:)`, the Swift overlay's `CMTimeConvertScale`.
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        CMTimeConvertScale(self, timescale: newTimescale, method: method)
    }

    public static func * (time: CMTime, multiplier: Int32) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }
    public static func * (multiplier: Int32, time: CMTime) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }
    public static func * (time: CMTime, multiplier: Float64) -> CMTime {
        CMTimeMultiplyByFloat64(time, multiplier: multiplier)
    }
    public static func *= (time: inout CMTime, multiplier: Int32) {
        time = CMTimeMultiply(time, multiplier: multiplier)
    }
}

/// `CMTimeMakeWithEpoch`.
public func CMTimeMakeWithEpoch(value: Int64, timescale: Int32, epoch: Int64) -> CMTime {
    CMTime(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [], epoch: epoch)
}

/// `CMTimeAdd`: exact on the least common timescale; above `kCMTimeMaxTimescale` the result is rounded onto
/// it; a value that overflows halves the timescale, then becomes ±∞ (spec §18.1 [D]). +∞ + −∞ and any invalid
/// operand give an invalid time; indefinite with a valid operand gives indefinite (CMTime.h).
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { combine(lhs, rhs, negateB: false) }

/// `CMTimeSubtract`: `lhs − rhs`, with `CMTimeAdd`'s rules.
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { combine(lhs, rhs, negateB: true) }

private func combine(_ a: CMTime, _ b: CMTime, negateB: Bool) -> CMTime {
    guard a.isValid, b.isValid else { return .invalid }
    if a.isIndefinite || b.isIndefinite { return .indefinite }
    let bPositive = negateB ? b.isNegativeInfinity : b.isPositiveInfinity
    let bNegative = negateB ? b.isPositiveInfinity : b.isNegativeInfinity
    if (a.isPositiveInfinity && bNegative) || (a.isNegativeInfinity && bPositive) { return .invalid }
    if a.isPositiveInfinity || bPositive { return .positiveInfinity }
    if a.isNegativeInfinity || bNegative { return .negativeInfinity }
    // Times of different epochs have no common timeline; a numeric time needs a positive timescale
    // (spec §18.1 [I]).
    guard a.epoch == b.epoch, a.timescale > 0, b.timescale > 0 else { return .invalid }
    let lcm = CMTime.lcm(a.timescale, b.timescale)
    let scale = CMTimeScale(min(lcm, Int64(kCMTimeMaxTimescale)))
    let va = Int128(a.value) * Int128(b.timescale), vb = Int128(b.value) * Int128(a.timescale)
    return CMTime.fitting(
        negateB ? va - vb : va + vb, over: Int128(a.timescale) * Int128(b.timescale), timescale: scale,
        epoch: a.epoch, rounded: a.hasBeenRounded || b.hasBeenRounded)
}

/// The sign rule of multiplying an infinite time: ±∞ by a positive factor keeps its sign, by a negative one
/// flips it, and by zero (or NaN) is invalid. Nil for a time that is not infinite.
private func infiniteProduct(_ time: CMTime, sign: Int) -> CMTime? {
    guard time.isPositiveInfinity || time.isNegativeInfinity else { return nil }
    if sign == 0 { return .invalid }
    return time.isPositiveInfinity == (sign > 0) ? .positiveInfinity : .negativeInfinity
}

/// `CMTimeMultiply`: the product on the same timescale, halving it on overflow, then ±∞ (spec §18.1 [D]).
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    if let infinite = infiniteProduct(time, sign: Int(multiplier.signum())) { return infinite }
    guard time.isNumeric else { return time }
    guard time.timescale > 0 else { return .invalid }
    return CMTime.fitting(
        Int128(time.value) * Int128(multiplier), over: Int128(time.timescale), timescale: time.timescale,
        epoch: time.epoch, rounded: time.hasBeenRounded)
}

/// `CMTimeMultiplyByFloat64`: the product on the same timescale, rounded, halving the timescale on overflow,
/// then ±∞; a NaN multiplier gives an invalid time (spec §18.1 [D], NaN [I]).
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    if multiplier.isNaN { return .invalid }
    let sign = multiplier > 0 ? 1 : (multiplier < 0 ? -1 : 0)
    if let infinite = infiniteProduct(time, sign: sign) { return infinite }
    guard time.isNumeric else { return time }
    guard time.timescale > 0 else { return .invalid }
    if multiplier.isInfinite {
        if time.value == 0 { return .invalid }
        return (time.value > 0) == (multiplier > 0) ? .positiveInfinity : .negativeInfinity
    }
    var result = CMTime.fitting(
        seconds: Double(time.value) * multiplier / Double(time.timescale), timescale: time.timescale,
        rounded: time.hasBeenRounded)
    if result.isNumeric { result.epoch = time.epoch }
    return result
}

/// `CMTimeMultiplyByRatio`: `time × multiplier / divisor`, exact when it fits the time's timescale, else
/// rounded; overflow halves the timescale, then gives ±∞; a zero divisor gives an invalid time
/// (spec §18.1 [D]).
public func CMTimeMultiplyByRatio(_ time: CMTime, multiplier: Int32, divisor: Int32) -> CMTime {
    guard divisor != 0 else { return .invalid }
    if let infinite = infiniteProduct(time, sign: Int(multiplier.signum() * divisor.signum())) { return infinite }
    guard time.isNumeric else { return time }
    guard time.timescale > 0 else { return .invalid }
    var n = Int128(time.value) * Int128(multiplier), d = Int128(time.timescale) * Int128(divisor)
    if d < 0 { (n, d) = (-n, -d) }
    return CMTime.fitting(n, over: d, timescale: time.timescale, epoch: time.epoch, rounded: time.hasBeenRounded)
}

/// `CMTimeConvertScale`: the time on `newTimescale`, rounded by `method` (flagged `hasBeenRounded` when
/// inexact). Non-numeric times come back unchanged; a timescale that is not positive gives an invalid time;
/// a value that overflows the new timescale gives ±∞ (spec §18.1 [D], overflow [I]).
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    guard time.isNumeric else { return time }
    guard newTimescale > 0, time.timescale > 0 else { return .invalid }
    let n = Int128(time.value) * Int128(newTimescale)
    let value = divide(n, Int128(time.timescale), method, growing: newTimescale > time.timescale)
    guard let fitted = Int64(exactly: value) else { return time.value > 0 ? .positiveInfinity : .negativeInfinity }
    var flags: CMTimeFlags = .valid
    if time.hasBeenRounded || n % Int128(time.timescale) != 0 { flags.insert(.hasBeenRounded) }
    return CMTime(value: fitted, timescale: newTimescale, flags: flags, epoch: time.epoch)
}

/// `CMTimeAbsoluteValue`: |time|; −∞ becomes +∞, other non-numeric times come back unchanged.
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    if time.isNegativeInfinity { return .positiveInfinity }
    guard time.isNumeric, time.value < 0 else { return time }
    return CMTimeMultiply(time, multiplier: -1)
}

/// `CMTimeMinimum`: the earlier time in `CMTimeCompare`'s order (an invalid time sorts last).
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTimeCompare(time1, time2) <= 0 ? time1 : time2
}

/// `CMTimeMaximum`: the later time in `CMTimeCompare`'s order.
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTimeCompare(time1, time2) >= 0 ? time1 : time2
}

/// `CMTIME_IS_VALID`.
public func CMTIME_IS_VALID(_ time: CMTime) -> Bool { time.isValid }
/// `CMTIME_IS_INVALID`.
public func CMTIME_IS_INVALID(_ time: CMTime) -> Bool { !time.isValid }
/// `CMTIME_IS_NUMERIC`.
public func CMTIME_IS_NUMERIC(_ time: CMTime) -> Bool { time.isNumeric }
/// `CMTIME_IS_POSITIVEINFINITY`.
public func CMTIME_IS_POSITIVEINFINITY(_ time: CMTime) -> Bool { time.isPositiveInfinity }
/// `CMTIME_IS_NEGATIVEINFINITY`.
public func CMTIME_IS_NEGATIVEINFINITY(_ time: CMTime) -> Bool { time.isNegativeInfinity }
/// `CMTIME_IS_INDEFINITE`.
public func CMTIME_IS_INDEFINITE(_ time: CMTime) -> Bool { time.isIndefinite }
/// `CMTIME_HAS_BEEN_ROUNDED`.
public func CMTIME_HAS_BEEN_ROUNDED(_ time: CMTime) -> Bool { time.hasBeenRounded }
