import Foundation

extension NSValue {
    /// Marks a value made by `init(time:)`: "CMTime" in ASCII.
    private static let timeMark: UInt64 = 0x434D_5469_6D65

    /// A value holding a time, as AVFoundation takes lists of times (`generateCGImagesAsynchronously(forTimes:)`).
    ///
    /// Foundation on Linux stores no structures of its own in a value, only its geometric ones, so the time's
    /// fields travel as the bit patterns of a rectangle's four numbers, copied and never computed with: its value,
    /// its timescale and flags, its epoch, and a mark.
    public convenience init(time: CMTime) {
        let scaleAndFlags = UInt64(UInt32(bitPattern: time.timescale)) << 32 | UInt64(time.flags.rawValue)
        self.init(
            rect: NSRect(
                x: CGFloat(Double(bitPattern: UInt64(bitPattern: time.value))),
                y: CGFloat(Double(bitPattern: scaleAndFlags)),
                width: CGFloat(Double(bitPattern: UInt64(bitPattern: time.epoch))),
                height: CGFloat(Double(bitPattern: Self.timeMark))))
    }

    /// The time a value made with `init(time:)` holds; invalid for any other value.
    public var timeValue: CMTime {
        let r = rectValue
        guard Double(r.size.height).bitPattern == Self.timeMark else { return CMTime() }
        let scaleAndFlags = Double(r.origin.y).bitPattern
        return CMTime(
            value: Int64(bitPattern: Double(r.origin.x).bitPattern),
            timescale: Int32(bitPattern: UInt32(truncatingIfNeeded: scaleAndFlags >> 32)),
            flags: CMTimeFlags(rawValue: UInt32(truncatingIfNeeded: scaleAndFlags)),
            epoch: Int64(bitPattern: Double(r.size.width).bitPattern))
    }
}
