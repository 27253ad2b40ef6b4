import Imaging

extension CameraCalibration {
    /// The undistorted (rectilinear) version of an image or map of this camera (spec §10 [D]).
    ///
    /// Inverse mapping: each output pixel centre goes through the forward table to the point of
    /// the distorted input it comes from, which is sampled bilinearly between the four nearest
    /// pixel centres. A NaN among those four (a depth hole) makes the sample the nearest pixel
    /// instead, so holes neither spread nor get averaged into depths. Points outside the input
    /// take `fill`.
    public func rectify(_ plane: PixelPlane<Float>, fill: Float = .nan) -> PixelPlane<Float> {
        remap(plane, fill: fill) { distort($0, width: plane.width, height: plane.height) }
    }

    /// The distorted version of a rectilinear image or map: the opposite of `rectify`, walking
    /// the distorted output through the inverse table.
    public func applyDistortion(to plane: PixelPlane<Float>, fill: Float = .nan) -> PixelPlane<Float> {
        remap(plane, fill: fill) { undistort($0, width: plane.width, height: plane.height) }
    }

    /// A depth map without lens distortion, ready for geometry (spec §9: maps carry the
    /// distortion of their image [D]).
    public func rectify(_ map: DepthMap) -> DepthMap {
        map.replacingValues(rectify(map.float32Plane).packedElements)
    }

    private func remap(
        _ plane: PixelPlane<Float>, fill: Float, source: (SIMD2<Double>) -> SIMD2<Double>
    ) -> PixelPlane<Float> {
        guard hasDistortion else { return plane }
        let (w, h, channels) = (plane.width, plane.height, plane.channels)
        return PixelPlane(width: w, height: h, channels: channels) { x, y, c in
            let s = source(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
            let u = s.x - 0.5
            let v = s.y - 0.5
            guard u > -0.5, v > -0.5, u < Double(w) - 0.5, v < Double(h) - 0.5 else { return fill }
            let x0 = min(max(Int(u.rounded(.down)), 0), w - 1)
            let y0 = min(max(Int(v.rounded(.down)), 0), h - 1)
            let x1 = min(x0 + 1, w - 1)
            let y1 = min(y0 + 1, h - 1)
            let fu = Float(min(max(u - Double(x0), 0), 1))
            let fv = Float(min(max(v - Double(y0), 0), 1))
            let a = plane[x0, y0, c], b = plane[x1, y0, c], d = plane[x0, y1, c], e = plane[x1, y1, c]
            if a.isNaN || b.isNaN || d.isNaN || e.isNaN {
                let nx = min(max(Int(u.rounded()), 0), w - 1)
                let ny = min(max(Int(v.rounded()), 0), h - 1)
                return plane[nx, ny, c]
            }
            return (1 - fv) * ((1 - fu) * a + fu * b) + fv * ((1 - fu) * d + fu * e)
        }
    }
}
