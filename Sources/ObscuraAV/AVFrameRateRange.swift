import Foundation

/// A range of frame rates a format supports (spec §2.3).
open class AVFrameRateRange: NSObject, @unchecked Sendable {
    /// The lowest rate, frames per second.
    public let minFrameRate: Float64
    /// The highest rate, frames per second.
    public let maxFrameRate: Float64

    init(minFrameRate: Float64, maxFrameRate: Float64) {
        self.minFrameRate = minFrameRate
        self.maxFrameRate = maxFrameRate
    }

    /// 1 / `maxFrameRate`.
    public var minFrameDuration: CMTime { AVFrameRateRange.duration(fps: maxFrameRate) }
    /// 1 / `minFrameRate`.
    public var maxFrameDuration: CMTime { AVFrameRateRange.duration(fps: minFrameRate) }

    /// One frame at `fps`, exact for whole rates (1/30) and on a 1/1,000,000 s grid otherwise.
    static func duration(fps: Double) -> CMTime {
        if fps == fps.rounded(), fps >= 1, fps < Double(Int32.max) { return CMTime(value: 1, timescale: Int32(fps)) }
        return CMTime(seconds: 1 / fps, preferredTimescale: 1_000_000)
    }

    /// Whether a frame duration lies in the range (with a small tolerance for rounded timescales).
    func contains(duration: CMTime) -> Bool {
        guard duration.isNumeric, duration.seconds > 0 else { return false }
        let fps = 1 / duration.seconds
        return fps >= minFrameRate * (1 - 1e-6) && fps <= maxFrameRate * (1 + 1e-6)
    }
}
