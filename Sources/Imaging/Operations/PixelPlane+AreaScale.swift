extension PixelPlane where Component == UInt8 {
    /// The plane scaled to `width × height`, each output pixel the mean of the source pixels its footprint
    /// touches (a box filter, which does not alias when shrinking, unlike point sampling), rounded half up.
    /// Previews, embedded thumbnails and ImageIO's thumbnails are made with it; `AreaScaleTests` checks it
    /// against the mean computed pixel by pixel.
    public func areaScaled(width: Int, height: Int) -> PixelPlane<UInt8> {
        let sx = Double(self.width) / Double(width), sy = Double(self.height) / Double(height)
        // Each output column's and row's footprint: the source pixels from its left edge to past its right one.
        func spans(_ count: Int, _ scale: Double, _ limit: Int) -> [(Int, Int)] {
            (0..<count).map { i in
                let start = Int((Double(i) * scale).rounded(.down))
                return (start, Swift.max(start + 1, Swift.min(limit, Int((Double(i + 1) * scale).rounded(.up)))))
            }
        }
        let columns = spans(width, sx, self.width), rows = spans(height, sy, self.height)
        let c = channels, stride = rowStride
        var out = [UInt8](repeating: 0, count: width * height * c)
        withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                var sums = [Int](repeating: 0, count: c)
                for (y, (y0, y1)) in rows.enumerated() {
                    for (x, (x0, x1)) in columns.enumerated() {
                        for k in 0..<c { sums[k] = 0 }
                        for v in y0..<y1 {
                            let line = v * stride
                            for u in x0..<x1 {
                                for k in 0..<c { sums[k] += Int(source[line + u * c + k]) }
                            }
                        }
                        let count = (x1 - x0) * (y1 - y0), o = (y * width + x) * c
                        for k in 0..<c { target[o + k] = UInt8((sums[k] + count / 2) / count) }
                    }
                }
            }
        }
        return PixelPlane<UInt8>(width: width, height: height, channels: c, elements: out)
    }
}
