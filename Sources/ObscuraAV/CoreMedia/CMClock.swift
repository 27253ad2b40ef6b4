import Foundation

/// A source of time (CoreMedia's `CMClock`): read-only, it can be neither started, stopped nor set;
/// its one job is to say what time it is now.
///
/// Two kinds exist here. The host time clock counts the machine's uptime in nanoseconds, the
/// timescale the hardware's host clock reports in. A session's clock is the session's own timeline:
/// the one every sample buffer's presentation time stamp is on, which runs from zero when the
/// session is first configured and advances as frames are made (spec §18.6); an input port hands it
/// out as `AVCaptureInput.Port.clock`.
public final class CMClock: @unchecked Sendable, Hashable {
    // @unchecked: `now` is set once and reads only thread-safe state.
    private let now: () -> CMTime

    init(now: @escaping () -> CMTime) { self.now = now }

    /// The clock's current time.
    public var time: CMTime { now() }

    /// The singleton clock of host time: the machine's uptime, on a nanosecond timescale.
    public static let hostTimeClock = CMClock {
        CMTime(seconds: ProcessInfo.processInfo.systemUptime, preferredTimescale: 1_000_000_000)
    }

    /// Whether this clock may drift relative to another: two different clocks here are driven
    /// differently (a session's timeline advances with its frames, not with host time), so only a
    /// clock compared with itself cannot drift.
    public func mightDrift(relativeTo otherClock: CMClock) -> Bool { otherClock !== self }

    public static func == (lhs: CMClock, rhs: CMClock) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A clock or a timebase (CoreMedia's `CMClockOrTimebase`); timebases are not offered here.
public typealias CMClockOrTimebase = AnyObject

/// The singleton host time clock (`CMClock.hostTimeClock`).
public func CMClockGetHostTimeClock() -> CMClock { CMClock.hostTimeClock }

/// The current time of a clock (`clock.time`).
public func CMClockGetTime(_ clock: CMClock) -> CMTime { clock.time }

/// The current time of a clock or timebase; `.invalid` for anything that is neither.
public func CMSyncGetTime(_ clockOrTimebase: CMClockOrTimebase) -> CMTime {
    (clockOrTimebase as? CMClock)?.time ?? .invalid
}

/// `CMSyncConvertTime`: `time` on one clock as the same instant on another, both read now: a clock here runs at
/// its own pace (a session's timeline advances with its frames), so the instant is carried by the clocks' current
/// offset. The same time on the same clock; `.invalid` when either is not a clock (timebases are not offered).
public func CMSyncConvertTime(_ time: CMTime, from fromClockOrTimebase: CMClockOrTimebase,
                              to toClockOrTimebase: CMClockOrTimebase) -> CMTime {
    guard let from = fromClockOrTimebase as? CMClock, let to = toClockOrTimebase as? CMClock, time.isValid else {
        return .invalid
    }
    if from === to { return time }
    let (a, b) = (from.time, to.time)
    return CMTimeAdd(time, CMTimeSubtract(b, a))
}
