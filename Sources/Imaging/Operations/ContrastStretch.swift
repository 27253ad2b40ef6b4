/// Per-channel linear contrast stretch with ends-in clipping.
///
/// For each colour channel, the darkest `lowClip` and brightest `highClip` fractions of the pixels are saturated and
/// the range between is stretched linearly onto the full range: `out = (v − low) / (high − low)`, clamped to 0…1.
/// Stretching each channel on its own removes a global colour cast (a tungsten-lit print's orange), the classic
/// "ends-in search" of digital image processing (Gonzalez & Woods, *Digital Image Processing*, §3.2–3.3).
///
/// The levels, exactly: with `N` pixels and `k = ⌊lowClip · N⌋`, `low` is the smallest value `v` such that more
/// than `k` pixels are `≤ v` (the `k`-th smallest value, counting from 0). `high` is the mirror image with
/// `highClip`. With zero clipping they are the channel's minimum and maximum. A channel whose `high ≤ low` (flat)
/// is left unchanged. With 2 or 4 channels, the last one is alpha and passes through untouched. Non-finite float
/// samples are ignored when finding the levels.
public struct ContrastStretch: Sendable, Equatable {
    /// Fraction of pixels saturated to black in each channel, in `0..<0.5`.
    public var lowClip: Double
    /// Fraction of pixels saturated to white in each channel, in `0..<0.5`.
    public var highClip: Double

    /// Makes a stretch that clips `lowClip` at the dark end and `highClip` at the bright end (1 % each by default).
    public init(lowClip: Double = 0.01, highClip: Double = 0.01) {
        precondition(lowClip >= 0 && lowClip < 0.5 && highClip >= 0 && highClip < 0.5,
                     "clip fractions must lie in 0..<0.5 (got \(lowClip), \(highClip))")
        self.lowClip = lowClip
        self.highClip = highClip
    }

    /// Makes a stretch that clips the same fraction at both ends.
    public init(clip: Double) {
        self.init(lowClip: clip, highClip: clip)
    }

    /// The number of colour channels stretched in a plane of `channels` channels (alpha excluded).
    static func colorChannels(_ channels: Int) -> Int {
        channels == 2 || channels == 4 ? channels - 1 : channels
    }

    /// Indices of the `low` and `high` levels among `count` sorted samples.
    func levelRanks(count: Int) -> (low: Int, high: Int) {
        let low = min(count - 1, Int((lowClip * Double(count)).rounded(.down)))
        let high = max(0, count - 1 - Int((highClip * Double(count)).rounded(.down)))
        return (low, high)
    }

    /// The `low…high` levels of each colour channel, as normalised values.
    public func levels(of plane: UInt8Image, threads: Int? = nil) -> [ClosedRange<Float>] {
        integerLevels(of: plane, threads: threads).map { Float($0.low) / 255...Float(max($0.low, $0.high)) / 255 }
    }

    /// The `low…high` levels of each colour channel, as normalised values.
    public func levels(of plane: UInt16Image, threads: Int? = nil) -> [ClosedRange<Float>] {
        integerLevels(of: plane, threads: threads).map {
            Float($0.low) / 65535...Float(max($0.low, $0.high)) / 65535
        }
    }

    /// The `low…high` levels of each colour channel; `0...0` for a channel without finite samples.
    ///
    /// The levels are exact order statistics, found by radix selection (`FloatRankSelection`) rather than a sort.
    public func levels(of plane: FloatPlane) -> [ClosedRange<Float>] {
        var keys = [UInt32](repeating: 0, count: plane.width * plane.height)
        return (0..<ContrastStretch.colorChannels(plane.channels)).map { c in
            var count = 0
            plane.withUnsafeBufferPointer { buffer in
                for y in 0..<plane.height {
                    let start = y * plane.rowStride + c
                    for x in 0..<plane.width {
                        let v = buffer[start + x * plane.channels]
                        if v.isFinite {
                            keys[count] = FloatRankSelection.key(v)
                            count += 1
                        }
                    }
                }
            }
            guard count > 0 else { return 0...0 }
            let ranks = levelRanks(count: count)
            let values = keys.withUnsafeBufferPointer {
                FloatRankSelection.select([ranks.low, ranks.high], among: UnsafeBufferPointer(rebasing: $0[0..<count]))
            }
            return values[0]...max(values[0], values[1])
        }
    }

    /// The plane with each colour channel stretched (see the type's documentation).
    public func apply(to plane: UInt8Image, threads: Int? = nil) -> UInt8Image {
        applyLookup(to: plane, levels: integerLevels(of: plane, threads: threads), threads: threads)
    }

    /// The plane with each colour channel stretched (see the type's documentation).
    public func apply(to plane: UInt16Image, threads: Int? = nil) -> UInt16Image {
        applyLookup(to: plane, levels: integerLevels(of: plane, threads: threads), threads: threads)
    }

    /// The plane with each colour channel stretched and clamped to 0…1 (see the type's documentation).
    public func apply(to plane: FloatPlane, threads: Int? = nil) -> FloatPlane {
        let levels = levels(of: plane)
        var output = plane
        let channels = plane.channels, colorChannels = levels.count, stride = plane.rowStride
        let width = plane.width
        let gains = levels.map { $0.upperBound > $0.lowerBound ? 1 / ($0.upperBound - $0.lowerBound) : 0 }
        let offsets = levels.map(\.lowerBound)
        output.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let shared = SharedPointer(base: base)
            BandParallel.forEachBand(height: plane.height, threads: threads) { rows in
                for y in rows {
                    let row = shared.base + y * stride
                    for c in 0..<colorChannels where gains[c] > 0 {
                        let gain = gains[c], offset = offsets[c]
                        for x in 0..<width {
                            let v = row[x * channels + c]
                            guard v.isFinite else { continue }
                            row[x * channels + c] = min(1, max(0, (v - offset) * gain))
                        }
                    }
                }
            }
        }
        return output
    }

    /// Integer levels from per-band histograms; integer counts make the merge order irrelevant.
    func integerLevels<C: FixedWidthInteger & UnsignedInteger & PixelComponent>(
        of plane: PixelPlane<C>, threads: Int?
    ) -> [(low: Int, high: Int)] {
        let bins = Int(C.max) + 1
        let colorChannels = ContrastStretch.colorChannels(plane.channels)
        let histogram = IntegerHistogram.compute(plane, bins: bins, channels: colorChannels, threads: threads)
        let count = plane.width * plane.height
        guard count > 0 else { return [(low: 0, high: 0)] }
        let ranks = levelRanks(count: count)
        return (0..<colorChannels).map { c in
            let counts = histogram[(c * bins)..<((c + 1) * bins)]
            var seen = 0, low = 0, high = bins - 1
            // low: first value whose cumulative count exceeds the low rank; high: same from the top.
            for (v, n) in counts.enumerated() {
                seen += n
                if seen > ranks.low { low = v; break }
            }
            seen = 0
            for v in stride(from: bins - 1, through: 0, by: -1) {
                seen += counts[counts.startIndex + v]
                if seen > count - 1 - ranks.high { high = v; break }
            }
            return (low: low, high: high)
        }
    }

    /// Applies per-channel lookup tables built from integer levels.
    func applyLookup<C: FixedWidthInteger & UnsignedInteger & PixelComponent>(
        to plane: PixelPlane<C>, levels: [(low: Int, high: Int)], threads: Int?
    ) -> PixelPlane<C> {
        let bins = Int(C.max) + 1
        let channels = plane.channels, colorChannels = levels.count
        var table = [C](repeating: 0, count: bins * colorChannels)
        for (c, level) in levels.enumerated() {
            let span = Float(level.high - level.low)
            for v in 0..<bins {
                // A flat channel maps to itself.
                table[c * bins + v] = span > 0
                    ? C(normalized: (Float(v - level.low)) / span) : C(truncatingIfNeeded: v)
            }
        }
        // A new packed plane written band by band from the source: mutating a copy of `plane` would first copy all
        // of it (36 MB at 12 MP) on one thread, and that serial copy cost more than the lookups.
        var output = PixelPlane<C>(uninitializedWidth: plane.width, height: plane.height, channels: channels)
        let width = plane.width, sourceStride = plane.rowStride, outputStride = output.rowStride
        table.withUnsafeBufferPointer { lookup in
            plane.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { buffer in
                    guard let lookupBase = lookup.baseAddress, let sourceBase = source.baseAddress,
                        let base = buffer.baseAddress
                    else { return }
                    let shared = SharedReadPointer(base: lookupBase), input = SharedReadPointer(base: sourceBase)
                    let target = SharedPointer(base: base)
                    BandParallel.forEachBand(height: plane.height, threads: threads) { rows in
                        for y in rows {
                            let from = input.base + y * sourceStride, row = target.base + y * outputStride
                            if channels == 3 {
                                let t0 = shared.base, t1 = shared.base + bins, t2 = shared.base + 2 * bins
                                for x in 0..<width {
                                    let p = from + 3 * x, q = row + 3 * x
                                    q[0] = t0[Int(p[0])]
                                    q[1] = t1[Int(p[1])]
                                    q[2] = t2[Int(p[2])]
                                }
                            } else {
                                // Every element is written: colour channels through their tables, alpha as it is.
                                for x in 0..<width {
                                    for c in 0..<channels {
                                        let i = x * channels + c
                                        row[i] = c < colorChannels ? shared.base[c * bins + Int(from[i])] : from[i]
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return output
    }
}

/// Per-channel histograms of an integer plane, counted in parallel bands.
enum IntegerHistogram {
    /// `channels × bins` counts, channel-major.
    static func compute<C: FixedWidthInteger & UnsignedInteger & PixelComponent>(
        _ plane: PixelPlane<C>, bins: Int, channels colorChannels: Int, threads: Int?
    ) -> [Int] {
        let height = plane.height, width = plane.width, channels = plane.channels, stride = plane.rowStride
        // At most 16 bands, so 16-bit histograms stay small; integer counts sum to the same total in any order.
        let rowsPerBand = max(BandParallel.rowsPerBand, (height + 15) / 16)
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        let size = bins * colorChannels
        var partial = [Int32](repeating: 0, count: max(1, bands) * size)
        plane.withUnsafeBufferPointer { buffer in
            guard let sourceBase = buffer.baseAddress else { return }
            let source = SharedReadPointer(base: sourceBase)
            partial.withUnsafeMutableBufferPointer { counts in
                guard let countsBase = counts.baseAddress else { return }
                let target = SharedPointer(base: countsBase)
                BandParallel.forEachBand(height: height, rowsPerBand: rowsPerBand, threads: threads) { rows in
                    let h = target.base + (rows.lowerBound / rowsPerBand) * size
                    for y in rows {
                        let row = source.base + y * stride
                        if channels == 3 && colorChannels == 3 {
                            let h1 = h + bins, h2 = h + 2 * bins
                            for x in 0..<width {
                                let p = row + 3 * x
                                h[Int(p[0])] &+= 1
                                h1[Int(p[1])] &+= 1
                                h2[Int(p[2])] &+= 1
                            }
                        } else {
                            for x in 0..<width {
                                for c in 0..<colorChannels { h[c * bins + Int(row[x * channels + c])] &+= 1 }
                            }
                        }
                    }
                }
            }
        }
        var total = [Int](repeating: 0, count: size)
        for b in 0..<bands {
            for i in 0..<size { total[i] += Int(partial[b * size + i]) }
        }
        return total
    }
}
