import Imaging

extension PixelPlane {
    /// The plane turned or mirrored into an orientation: the upright picture a viewer shows for a
    /// stored image tagged with it (the rule `DepthMap.applying(_:)` follows for depth).
    public func applying(_ orientation: ExifOrientation) -> PixelPlane {
        let outWidth = orientation.swapsAxes ? height : width
        let outHeight = orientation.swapsAxes ? width : height
        var out = PixelPlane(width: outWidth, height: outHeight, channels: channels)
        for y in 0..<height {
            for x in 0..<width {
                let q = orientation.transform(
                    SIMD2(Double(x) + 0.5, Double(y) + 0.5), width: Double(width), height: Double(height))
                for c in 0..<channels { out[Int(q.x), Int(q.y), c] = self[x, y, c] }
            }
        }
        return out
    }
}
