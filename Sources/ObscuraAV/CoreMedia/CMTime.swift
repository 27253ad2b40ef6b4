/// `CMTimeValue`: the numerator of a `CMTime`.
public typealias CMTimeValue = Int64
/// `CMTimeScale`: units per second.
public typealias CMTimeScale = Int32
/// `CMTimeEpoch`: distinguishes otherwise equal times from different loops.
public typealias CMTimeEpoch = Int64

/// `CMTimeFlags`.
public struct CMTimeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The time is valid.
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    /// The value was rounded.
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    /// +∞.
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    /// −∞.
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    /// Unknown.
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// valid | infinite | indefinite: the flags that make a time non-numeric.
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// A rational time, `value / timescale` seconds (CoreMedia's `CMTime`).
///
/// Comparison and equality are by the time represented, so `1/2 == 2/4`, as `CMTimeCompare`.
/// Order: −∞ < numeric < +∞ < indefinite; invalid times are equal to each other and less than
/// every valid time (CMTime.h).
public struct CMTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var value: CMTimeValue
    public var timescale: CMTimeScale
    public var flags: CMTimeFlags
    public var epoch: CMTimeEpoch

    /// All zero: an invalid time.
    public init() {
        value = 0
        timescale = 0
        flags = []
        epoch = 0
    }

    /// A time from all its fields.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// `value / timescale` seconds; valid when the timescale is positive.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.init(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [], epoch: 0)
    }

    /// The nearest time to `seconds` in units of `1 / preferredTimescale` (spec §18.1 [D]).
    ///
    /// A timescale that is not positive gives an invalid time; NaN gives an invalid time and ±∞ the infinite
    /// times. A value too large for 64 bits halves the timescale until it fits, and becomes ±∞ when it
    /// still does not fit at a timescale of 1. `hasBeenRounded` says the seconds were not exact.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        if seconds.isNaN || preferredTimescale <= 0 {
            self = .invalid
        } else if seconds.isInfinite {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
        } else {
            self = CMTime.fitting(seconds: seconds, timescale: preferredTimescale)
        }
    }

    /// The invalid time.
    public static let invalid = CMTime()
    /// Zero seconds.
    public static let zero = CMTime(value: 0, timescale: 1)
    /// +∞.
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// −∞.
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)
    /// Unknown.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)

    public var isValid: Bool { flags.contains(.valid) }
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    /// Valid and neither infinite nor indefinite.
    public var isNumeric: Bool { isValid && flags.isDisjoint(with: .impliedValueFlagsMask) }
    public var hasBeenRounded: Bool { flags.contains(.hasBeenRounded) }

    /// The time in seconds; NaN when invalid or indefinite, ±∞ when infinite.
    public var seconds: Double {
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        guard isNumeric else { return .nan }
        return Double(value) / Double(timescale)
    }


    public static func < (a: CMTime, b: CMTime) -> Bool { CMTimeCompare(a, b) < 0 }
    public static func == (a: CMTime, b: CMTime) -> Bool { CMTimeCompare(a, b) == 0 }

    /// Hashes as `==` compares: equal times hash alike, and no time traps, a hand-made one with a
    /// timescale of zero or less included (it sorts as invalid, `rankForCompare`).
    public func hash(into hasher: inout Hasher) {
        let rank = rankForCompare
        hasher.combine(rank)
        if rank == 1 {
            // Equal times hash alike: reduce the fraction.
            let g = Self.gcd(value.magnitude, UInt64(timescale))
            hasher.combine(epoch)
            hasher.combine(value / Int64(g))
            hasher.combine(Int64(timescale) / Int64(g))
        }
    }

    /// `CMTimeCopyDescription`-like: `{value/timescale = seconds}`.
    public var description: String {
        if !isValid { return "{INVALID}" }
        if isNegativeInfinity { return "{-INFINITY}" }
        if isPositiveInfinity { return "{+INFINITY}" }
        if isIndefinite { return "{INDEFINITE}" }
        return "{\(value)/\(timescale) = \(seconds)}"
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }

    static func lcm(_ a: Int32, _ b: Int32) -> Int64 {
        let g = gcd(UInt64(a), UInt64(b))
        return Int64(a) / Int64(g) * Int64(b)
    }

    public static func + (a: CMTime, b: CMTime) -> CMTime { CMTimeAdd(a, b) }
    public static func - (a: CMTime, b: CMTime) -> CMTime { CMTimeSubtract(a, b) }
    public static func += (a: inout CMTime, b: CMTime) { a = CMTimeAdd(a, b) }
    public static func -= (a: inout CMTime, b: CMTime) { a = CMTimeSubtract(a, b) }
}

/// `CMTimeMake(value, timescale)`.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }

/// `CMTimeMakeWithSeconds(seconds, preferredTimescale)`.
public func CMTimeMakeWithSeconds(_ seconds: Double, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// `CMTimeGetSeconds`.
public func CMTimeGetSeconds(_ time: CMTime) -> Double { time.seconds }

/// `CMTimeCompare`: −1, 0 or 1, comparing the times represented (not their representation).
public func CMTimeCompare(_ a: CMTime, _ b: CMTime) -> Int32 {
    let ra = a.rankForCompare, rb = b.rankForCompare
    if ra != rb { return ra < rb ? -1 : 1 }
    guard ra == 1 else { return 0 }
    if a.epoch != b.epoch { return a.epoch < b.epoch ? -1 : 1 }
    // Cross-multiply in 128 bits so that no representable time overflows.
    let l = Int128(a.value) * Int128(b.timescale)
    let r = Int128(b.value) * Int128(a.timescale)
    return l < r ? -1 : (l > r ? 1 : 0)
}

extension CMTime {
    /// The order `CMTimeCompare` sorts by, as Apple documents it: −∞ < every finite time < indefinite
    /// < +∞ < invalid. A time flagged valid and numeric with a timescale of zero or less has no value
    /// to compare; it sorts with the invalid ones, so comparing and hashing never trap.
    var rankForCompare: Int {
        if !isValid { return 4 }
        if isNegativeInfinity { return 0 }
        if isPositiveInfinity { return 3 }
        if isIndefinite { return 2 }
        return timescale > 0 ? 1 : 4
    }
}
