import Imaging

extension FlashIrradiance.Map {
    /// Where the map evaluates the irradiance when the measured depth is coarser than the picture.
    ///
    /// A phone's depth map is far coarser than its photo (the iPhone 15 Pro's LiDAR map is densified at no more
    /// than 192 samples across, `ConstantColorDepthSensor`, about 21 photo pixels apart at 12 MP). The depth plane
    /// interpolates it bilinearly, so the distance and the normal that decide the irradiance change only on the
    /// scale of that spacing. The map then evaluates the irradiance on a grid of sample points and interpolates
    /// bilinearly between them. The points are a power of two pixels apart, at most:
    /// - half the depth samples' spacing, so that every depth sample's patch has points of its own;
    /// - one confidence cell;
    /// - `maximumAngle` of view, so that the smooth terms (the beam's cos^m α, the distance's 1/d², the
    ///   obliquity) interpolate within 10⁻⁴: linear interpolation over h radians errs by h²/8 times the relative
    ///   second derivative, which is below 20 per radian² for beams up to m = 10 and planes up to 60° from square.
    ///
    /// A 12 MP photo with a LiDAR map evaluates 1/64 of its pixels. Where the depth is as fine as the picture, or
    /// the picture so small that a pixel spans more than half that angle, every pixel is evaluated.
    enum Sampling {
        /// A pixel column's place between two sample columns: the lower one's index and the upper one's weight.
        struct Tap: Sendable {
            let lower: Int
            let weight: Float
        }

        /// The largest angle between sample points, radians (0.005 rad: h²/8 · 20 = 6·10⁻⁵).
        static let maximumAngle = 0.005

        /// The step for a picture `pictureWidth` pixels wide, `focal` pixels per radian at its centre, whose depth
        /// was measured `depthWidth` samples across: the largest power of two within half the samples' spacing, one
        /// `cell` and `maximumAngle`; 1 where the depth is as fine as the picture.
        static func step(pictureWidth: Int, depthWidth: Int, cell: Int, focal: Double) -> Int {
            guard depthWidth > 0, pictureWidth > depthWidth else { return 1 }
            let half = Double(pictureWidth) / Double(depthWidth) / 2
            let bound = min(half, Double(max(1, cell)), maximumAngle * focal)
            var step = 1
            while Double(step * 2) <= bound { step *= 2 }
            return step
        }

        /// The sample points along `count` pixels: every `step`-th pixel from the first, and the last pixel.
        static func positions(count: Int, step: Int) -> [Int] {
            guard count > 0 else { return [] }
            var out = Array(stride(from: 0, to: count, by: max(1, step)))
            if out.last != count - 1 { out.append(count - 1) }
            return out
        }

        /// Each pixel's tap between the sample `positions` (`step` apart but for the last).
        static func taps(count: Int, step: Int, positions: [Int]) -> [Tap] {
            (0..<count).map { x in
                guard positions.count > 1 else { return Tap(lower: 0, weight: 0) }
                let i = min(x / max(1, step), positions.count - 2)
                return Tap(lower: i, weight: Float(x - positions[i]) / Float(positions[i + 1] - positions[i]))
            }
        }
    }

    /// The irradiance at the sample points (`Sampling`), row by row in parallel, evaluated as at any pixel.
    static func evaluateSamples(_ map: Self) -> [Float] {
        let across = map.sampleColumns.count, down = map.sampleRows.count
        return BandParallel.fill(count: across * down, rows: down, of: Float.self) { band, out in
            let rows = Rows(map)
            map.sampleColumns.withUnsafeBufferPointer { columns in
                for j in band { rows.evaluate(row: map.sampleRows[j], columns: columns, into: out + j * across) }
            }
        }
    }
}
