import Sensor

/// Temporal smoothing of a depth stream: an exponential moving average per pixel that starts
/// over where the scene changes.
///
/// out = previous + α · (new − previous), except where |new − previous| exceeds
/// `resetThreshold` · |previous| (something moved), where the new value is taken as is so
/// motion draws no trail. A hole on either side takes the other value. A change of size or
/// format restarts the whole filter.
public struct DepthTemporalFilter: Sendable {
    /// The weight α of the newest frame, 0…1.
    public var weight: Float
    /// The relative change beyond which a pixel restarts.
    public var resetThreshold: Float
    private var previous: DepthMap?

    /// A filter with no history.
    public init(weight: Float = 0.3, resetThreshold: Float = 0.1) {
        self.weight = weight
        self.resetThreshold = resetThreshold
    }

    /// Forgets the history (for example when the stream stops).
    public mutating func reset() { previous = nil }

    /// The smoothed version of the next map of the stream.
    public mutating func filter(_ map: DepthMap) -> DepthMap {
        guard let last = previous, last.width == map.width, last.height == map.height, last.format == map.format
        else {
            previous = map
            return map
        }
        var values = map.values
        for i in values.indices {
            let new = values[i]
            let old = last.values[i]
            if new.isNaN {
                values[i] = old
            } else if !old.isNaN, abs(new - old) <= resetThreshold * abs(old) {
                values[i] = old + weight * (new - old)
            }
        }
        let out = map.replacingValues(values)
        previous = out
        return out
    }
}
