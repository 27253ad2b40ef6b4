/// `CMTimeRange`: a start and a duration, covering `start ..< start + duration` (spec §18.1 [D]).
public struct CMTimeRange: Sendable, Hashable {
    public var start: CMTime
    public var duration: CMTime

    /// All zero: an invalid range.
    public init() {
        start = .invalid
        duration = .invalid
    }

    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// The range from `start` up to, not including, `end`.
    public init(start: CMTime, end: CMTime) {
        self.init(start: start, duration: CMTimeSubtract(end, start))
    }

    /// `start + duration`.
    public var end: CMTime { CMTimeAdd(start, duration) }

    /// Both times valid, the duration numeric or +∞, and not negative (CMTimeRange.h's `CMTIMERANGE_IS_VALID`).
    public var isValid: Bool {
        start.isValid && duration.isValid && duration.epoch == 0 && !duration.isNegativeInfinity
            && !(duration.isNumeric && duration.value < 0)
    }

    /// Valid, but with an indefinite start or duration.
    public var isIndefinite: Bool { isValid && (start.isIndefinite || duration.isIndefinite) }

    /// Valid and zero long.
    public var isEmpty: Bool { isValid && CMTimeCompare(duration, .zero) == 0 }

    /// Whether `time` falls in the half-open range `start ..< end`.
    public func containsTime(_ time: CMTime) -> Bool { CMTimeRangeContainsTime(self, time: time) }

    /// Whether `range` lies wholly inside this one.
    public func containsTimeRange(_ range: CMTimeRange) -> Bool {
        CMTimeRangeContainsTimeRange(self, otherRange: range)
    }

    /// The overlap with `otherRange`; empty when they do not overlap.
    public func intersection(_ otherRange: CMTimeRange) -> CMTimeRange {
        CMTimeRangeGetIntersection(self, otherRange: otherRange)
    }

    /// The smallest range covering both.
    public func union(_ otherRange: CMTimeRange) -> CMTimeRange { CMTimeRangeGetUnion(self, otherRange: otherRange) }

    /// The invalid range.
    public static let invalid = CMTimeRange()
    /// An empty range at zero.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
}

/// `kCMTimeRangeZero`.
public let kCMTimeRangeZero = CMTimeRange.zero
/// `kCMTimeRangeInvalid`.
public let kCMTimeRangeInvalid = CMTimeRange.invalid

/// `CMTimeRangeMake`.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, duration: duration)
}

/// `CMTimeRangeFromTimeToTime`.
public func CMTimeRangeFromTimeToTime(start: CMTime, end: CMTime) -> CMTimeRange { CMTimeRange(start: start, end: end) }

/// `CMTimeRangeGetEnd`.
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime { range.end }

/// `CMTimeRangeContainsTime`: `start ≤ time < end`; false for an invalid range or time.
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool {
    guard range.isValid, time.isValid else { return false }
    return CMTimeCompare(range.start, time) <= 0 && CMTimeCompare(time, range.end) < 0
}

/// `CMTimeRangeContainsTimeRange`: `otherRange` starts and ends inside `range`.
public func CMTimeRangeContainsTimeRange(_ range: CMTimeRange, otherRange: CMTimeRange) -> Bool {
    guard range.isValid, otherRange.isValid else { return false }
    return CMTimeCompare(range.start, otherRange.start) <= 0 && CMTimeCompare(otherRange.end, range.end) <= 0
}

/// `CMTimeRangeGetIntersection`: the overlap; an empty range at the later start when there is none.
public func CMTimeRangeGetIntersection(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    let start = CMTimeMaximum(range.start, otherRange.start)
    let end = CMTimeMinimum(range.end, otherRange.end)
    if CMTimeCompare(end, start) <= 0 { return CMTimeRange(start: start, duration: .zero) }
    return CMTimeRange(start: start, end: end)
}

/// `CMTimeRangeGetUnion`: from the earlier start to the later end.
public func CMTimeRangeGetUnion(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    return CMTimeRange(
        start: CMTimeMinimum(range.start, otherRange.start), end: CMTimeMaximum(range.end, otherRange.end))
}

/// `CMTimeRangeEqual`.
public func CMTimeRangeEqual(_ range1: CMTimeRange, _ range2: CMTimeRange) -> Bool {
    CMTimeCompare(range1.start, range2.start) == 0 && CMTimeCompare(range1.duration, range2.duration) == 0
}
