import Imaging

extension DepthMap {
    /// The map turned or mirrored into an orientation, with its calibration turned alike
    /// (spec §9 `applyingExifOrientation(_:)` [D]).
    public func applying(_ orientation: ExifOrientation) -> DepthMap {
        let outWidth = orientation.swapsAxes ? height : width
        let outHeight = orientation.swapsAxes ? width : height
        var out = [Float](repeating: .nan, count: values.count)
        for y in 0..<height {
            for x in 0..<width {
                let q = orientation.transform(
                    SIMD2(Double(x) + 0.5, Double(y) + 0.5), width: Double(width), height: Double(height))
                out[Int(q.y) * outWidth + Int(q.x)] = values[y * width + x]
            }
        }
        return DepthMap(
            width: outWidth, height: outHeight, format: format, values: out, accuracy: accuracy, quality: quality,
            isFiltered: isFiltered, calibration: calibration?.applying(orientation))
    }
}
