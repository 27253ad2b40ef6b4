import Imaging

extension FramePair {
    /// The lowest and the highest ambient rates within reach of each pixel's registered position, one output row at a
    /// time: per channel, the least and the greatest of the 3 × 3 ambient pixels around the one nearest x + d (clamped
    /// at the frame's border), 3 per pixel.
    ///
    /// Why: the registration is one translation, and what it leaves is not zero. The device's roll turns the picture
    /// about its centre (a fifth of a pixel at the edge of a small crop, pixels at the corners of a full frame), and
    /// each frame samples the scene at its pixel centres, so an edge that moved by a fraction of a pixel lands whole
    /// pixels apart in the two frames, which no interpolation between pixels can undo. The ambient sample that belongs
    /// to a pixel is therefore any of these nine. Two consequences:
    /// - a flash-only value is impossible (the scene moved) only when the flash frame is darker than every ambient
    ///   pixel the residual could have put there: that tells motion of more than a pixel from sub-pixel
    ///   misregistration (`ConfidenceMap.consistency`);
    /// - where the nine differ by much more than the flash-only value's noise, the pixel's ambient sample may come
    ///   from across an edge, and its flash-only value is off by up to that range (`PairStatistics.isNearEdge`).
    final class Reach {
        /// The lowest ambient rates within reach, 3 per pixel (one value to spare).
        let lowest: UnsafeMutablePointer<Float>
        /// The highest ambient rates within reach, 3 per pixel (one value to spare).
        let highest: UnsafeMutablePointer<Float>
        /// Three source rows' horizontal minima and maxima (4 values per pixel), row r in slot r mod 3, and which rows
        /// they hold.
        private let minima: [UnsafeMutablePointer<Float>], maxima: [UnsafeMutablePointer<Float>]
        private var slotRows = [-1, -1, -1]
        private let pair: FramePair
        /// The whole-pixel shift nearest d, which centres the 3 × 3 block.
        private let nearest: (x: Int, y: Int)

        init(_ pair: FramePair) {
            self.pair = pair
            let w = pair.width
            nearest = (pair.ix + (pair.ax > 0.5 ? 1 : 0), pair.iy + (pair.ay > 0.5 ? 1 : 0))
            lowest = .allocate(capacity: 3 * w + 1)
            highest = .allocate(capacity: 3 * w + 1)
            minima = (0..<3).map { _ in .allocate(capacity: 4 * w) }
            maxima = (0..<3).map { _ in .allocate(capacity: 4 * w) }
        }

        deinit {
            for p in [lowest, highest] + minima + maxima { p.deallocate() }
        }

        /// Fills `lowest` and `highest` for output row `y`: the per-channel extremes of three source rows' horizontal
        /// extremes.
        func load(_ y: Int) {
            let w = pair.width, h = pair.height
            let black = SIMD4<Float>(repeating: pair.black), scaleA = pair.scaleA
            // Three consecutive source rows have three different remainders modulo 3: each row's slot.
            var slots = [0, 0, 0]
            for k in 0..<3 {
                let source = min(max(y + nearest.y + k - 1, 0), h - 1)
                slots[k] = source % 3
                if slotRows[source % 3] != source {
                    horizontalExtremes(source, minima: minima[source % 3], maxima: maxima[source % 3])
                    slotRows[source % 3] = source
                }
            }
            @inline(__always) func vertical(
                _ rows: [UnsafeMutablePointer<Float>], into out: UnsafeMutablePointer<Float>,
                _ extreme: (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>
            ) {
                let r0 = UnsafeRawPointer(rows[slots[0]]), r1 = UnsafeRawPointer(rows[slots[1]])
                let r2 = UnsafeRawPointer(rows[slots[2]])
                let target = UnsafeMutableRawPointer(out)
                for x in 0..<w {
                    let v = extreme(
                        extreme(r0.loadUnaligned(fromByteOffset: 16 &* x, as: SIMD4<Float>.self),
                            r1.loadUnaligned(fromByteOffset: 16 &* x, as: SIMD4<Float>.self)),
                        r2.loadUnaligned(fromByteOffset: 16 &* x, as: SIMD4<Float>.self))
                    // Four lanes stored, the fourth overwritten by the next pixel (the buffer has one value to spare).
                    target.storeBytes(of: (v - black) * scaleA, toByteOffset: 12 &* x, as: SIMD4<Float>.self)
                }
            }
            // The lane operations, not the standard library's generic pointwise functions, which an unspecialised
            // call runs lane by lane.
            vertical(minima, into: lowest) { Lanes.minimum($0, $1) }
            vertical(maxima, into: highest) { Lanes.maximum($0, $1) }
        }

        /// Per output column x, the per-channel least and greatest DN of ambient source row `y` over the columns
        /// around the one nearest x + dₓ (x + n − 1 … x + n + 1, clamped), 4 values per pixel.
        private func horizontalExtremes(
            _ y: Int, minima: UnsafeMutablePointer<Float>, maxima: UnsafeMutablePointer<Float>
        ) {
            let w = pair.width, n = nearest.x
            let row = pair.ambient + 3 * y * w
            @inline(__always) func pixel(_ i: Int) -> SIMD4<Float> {
                let p = row + 3 &* min(max(i, 0), w - 1)
                return SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), 0)
            }
            let low = UnsafeMutableRawPointer(minima), high = UnsafeMutableRawPointer(maxima)
            var left = pixel(n - 1), centre = pixel(n)
            for x in 0..<w {
                let right = pixel(x + n + 1)
                low.storeBytes(
                    of: Lanes.minimum(Lanes.minimum(left, centre), right), toByteOffset: 16 &* x, as: SIMD4<Float>.self)
                high.storeBytes(
                    of: Lanes.maximum(Lanes.maximum(left, centre), right), toByteOffset: 16 &* x, as: SIMD4<Float>.self)
                left = centre
                centre = right
            }
        }
    }
}
