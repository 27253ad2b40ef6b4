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

extension PixelPlane where Component == UInt8 {
    /// Writes this three-channel plane's R, G, B bytes as opaque B, G, R, A pixels into `height` rows of
    /// `bytesPerRow` bytes from `base` (a 32-bit BGRA pixel buffer's layout).
    ///
    /// A byte shuffle, kept here in the optimised layer: a decoded movie frame goes through it on every picture an
    /// asset reader, player or export hands over, also in a dependent's debug build.
    public func writeBGRA(to base: UnsafeMutableRawPointer, bytesPerRow: Int) {
        precondition(channels == 3, "writeBGRA needs an RGB plane, not \(channels) channels")
        withUnsafeBufferPointer { source in
            for y in 0..<height {
                let row = base.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let from = y * rowStride
                for x in 0..<width {
                    let s = from + 3 * x
                    row[4 * x] = source[s + 2]
                    row[4 * x + 1] = source[s + 1]
                    row[4 * x + 2] = source[s]
                    row[4 * x + 3] = 255
                }
            }
        }
    }

    /// The R, G, B bytes of `height` rows of `width` 32-bit B, G, R, A pixels, `bytesPerRow` bytes apart from
    /// `base`, as a three-channel plane: `writeBGRA`'s inverse, for a pixel buffer an app filled (alpha dropped).
    public init(bgra base: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        self.init(uninitializedWidth: width, height: height, channels: 3)
        withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = base.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    let d = 3 * (y * width + x)
                    out[d] = row[4 * x + 2]
                    out[d + 1] = row[4 * x + 1]
                    out[d + 2] = row[4 * x]
                }
            }
        }
    }
}
