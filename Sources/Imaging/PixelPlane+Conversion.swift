extension PixelPlane {
    /// Converts a plane between component types through their normalised values.
    ///
    /// `UInt8` 255 and `UInt16` 65535 become 1.0; floats going to integers are clamped to 0...1 and rounded to
    /// the nearest code (NaN → 0); floats going to `Float16` round to nearest and may overflow to infinity.
    public init<Source: PixelComponent>(converting source: PixelPlane<Source>) {
        self = source.map { Component(normalized: $0.normalizedValue) }
    }

    /// Channel `index` as a single-channel plane.
    public func channel(_ index: Int) -> PixelPlane {
        precondition(index >= 0 && index < channels, "channel \(index) is outside 0..<\(channels)")
        return PixelPlane(width: width, height: height, channels: 1) { x, y, _ in self[x, y, index] }
    }

    /// Interleaves planes of one size into one plane; its channels are theirs, in order.
    public init(mergingChannelsOf planes: [PixelPlane]) {
        precondition(!planes.isEmpty, "merging needs at least one plane")
        let width = planes[0].width
        let height = planes[0].height
        precondition(planes.allSatisfy { $0.width == width && $0.height == height },
                     "merged planes must share one size")
        // Maps each output channel to (plane, channel within it).
        let sources = planes.indices.flatMap { p in (0..<planes[p].channels).map { (p, $0) } }
        self.init(width: width, height: height, channels: sources.count) { x, y, c in
            planes[sources[c].0][x, y, sources[c].1]
        }
    }
}
