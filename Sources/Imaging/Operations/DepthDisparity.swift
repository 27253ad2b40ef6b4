/// Conversion between depth maps (metres) and disparity maps (1/metres), as Apple's depth data converts them.
///
/// Disparity here is normalised disparity, `1 / depth` (the unit `kCVPixelFormatType_DisparityFloat32` uses), not
/// pixels. Holes survive both ways: a NaN stays NaN and a 0 stays 0 (a zero or NaN sample means "no measurement"
/// in depth maps from dual cameras and TrueDepth). An infinite depth becomes disparity 0, and disparity 0 becomes
/// depth 0 (a hole), never infinity; negative values are invalid and become NaN.
public enum DepthDisparity {
    /// `1 / depth` for every sample of a single-channel plane, keeping holes.
    public static func disparity(fromDepth depth: FloatPlane, threads: Int? = nil) -> FloatPlane {
        reciprocal(depth, threads: threads)
    }

    /// `1 / disparity` for every sample of a single-channel plane, keeping holes.
    public static func depth(fromDisparity disparity: FloatPlane, threads: Int? = nil) -> FloatPlane {
        reciprocal(disparity, threads: threads)
    }

    /// The reciprocal of one sample with the hole rules above.
    @inlinable
    public static func reciprocal(_ value: Float) -> Float {
        if value.isNaN || value == 0 { return value }
        if value < 0 { return .nan }
        return value.isInfinite ? 0 : 1 / value
    }

    static func reciprocal(_ plane: FloatPlane, threads: Int?) -> FloatPlane {
        precondition(plane.channels == 1, "depth and disparity maps have one channel, got \(plane.channels)")
        var output = plane
        let width = plane.width, stride = plane.rowStride
        output.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let shared = SharedPointer(base: base)
            BandParallel.forEachBand(height: plane.height, threads: threads) { rows in
                for y in rows {
                    let row = shared.base + y * stride
                    for x in 0..<width { row[x] = reciprocal(row[x]) }
                }
            }
        }
        return output
    }
}
