import Foundation

extension NSValue {
    /// A value holding a time, as AVFoundation takes lists of times (`generateCGImagesAsynchronously(forTimes:)`,
    /// Capture rules §25 rule 4).
    ///
    /// Foundation on Linux stores no structures of its own in a value, only its geometric ones, so the time's
    /// 192 bits (value, epoch, timescale and flags) travel as a rectangle's four numbers, 48 bits each: whole
    /// numbers below 2⁴⁸, which a `Double` holds exactly, so that equal times make equal values.
    public convenience init(time: CMTime) {
        let chunks = Self.chunks(of: time)
        self.init(
            rect: NSRect(
                x: CGFloat(Double(chunks.0)), y: CGFloat(Double(chunks.1)), width: CGFloat(Double(chunks.2)),
                height: CGFloat(Double(chunks.3))))
    }

    /// The time a value made with `init(time:)` holds; an invalid time for a value that holds no rectangle.
    public var timeValue: CMTime {
        guard String(cString: objCType) == String(cString: NSValue(rect: .zero).objCType) else { return CMTime() }
        let r = rectValue
        let parts = [r.origin.x, r.origin.y, r.size.width, r.size.height].map { Double($0) }
        guard parts.allSatisfy({ $0 >= 0 && $0 < 0x1p48 && $0 == $0.rounded() }) else { return CMTime() }
        return Self.time(UInt64(parts[0]), UInt64(parts[1]), UInt64(parts[2]), UInt64(parts[3]))
    }

    private static let low48: UInt64 = (1 << 48) - 1

    /// The time's bits, value, epoch, then timescale and flags, cut into four 48-bit pieces.
    private static func chunks(of time: CMTime) -> (UInt64, UInt64, UInt64, UInt64) {
        let value = UInt64(bitPattern: time.value), epoch = UInt64(bitPattern: time.epoch)
        let scaleAndFlags = UInt64(UInt32(bitPattern: time.timescale)) << 32 | UInt64(time.flags.rawValue)
        return (
            value & low48, value >> 48 | (epoch & 0xFFFF_FFFF) << 16, epoch >> 32 | (scaleAndFlags & 0xFFFF) << 32,
            scaleAndFlags >> 16
        )
    }

    /// The time whose pieces `chunks(of:)` gives.
    private static func time(_ c0: UInt64, _ c1: UInt64, _ c2: UInt64, _ c3: UInt64) -> CMTime {
        let value = c0 | (c1 & 0xFFFF) << 48
        let epoch = c1 >> 16 | (c2 & 0xFFFF_FFFF) << 32
        let scaleAndFlags = c2 >> 32 | c3 << 16
        return CMTime(
            value: Int64(bitPattern: value), timescale: Int32(bitPattern: UInt32(truncatingIfNeeded: scaleAndFlags >> 32)),
            flags: CMTimeFlags(rawValue: UInt32(truncatingIfNeeded: scaleAndFlags)), epoch: Int64(bitPattern: epoch))
    }

    /// The Objective-C type of a value holding a time range: eight 64-bit integers (Foundation on Linux holds arrays
    /// of numbers, not structures).
    private static let timeRangeType = "[8q]"

    /// A value holding a time range, as AVFoundation takes lists of them (`reset(forReadingTimeRanges:)`, Capture
    /// rules §25 rule 9): the start's and the duration's value, timescale, flags and epoch.
    public convenience init(timeRange: CMTimeRange) {
        var fields: [Int64] = [timeRange.start, timeRange.duration].flatMap {
            [$0.value, Int64($0.timescale), Int64($0.flags.rawValue), $0.epoch]
        }
        self.init(bytes: &fields, objCType: Self.timeRangeType)
    }

    /// The time range a value made with `init(timeRange:)` holds; an invalid range for any other value.
    public var timeRangeValue: CMTimeRange {
        let invalid = CMTimeRange(start: CMTime(), duration: CMTime())
        guard String(cString: objCType) == Self.timeRangeType else { return invalid }
        var fields = [Int64](repeating: 0, count: 8)
        fields.withUnsafeMutableBytes { if let base = $0.baseAddress { getValue(base) } }
        func time(_ i: Int) -> CMTime {
            CMTime(
                value: fields[i], timescale: Int32(truncatingIfNeeded: fields[i + 1]),
                flags: CMTimeFlags(rawValue: UInt32(truncatingIfNeeded: fields[i + 2])), epoch: fields[i + 3])
        }
        return CMTimeRange(start: time(0), duration: time(4))
    }
}
