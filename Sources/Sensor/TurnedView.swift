import Imaging
import Scenes

/// Where each pixel of a camera that turned slightly after a frame looks in that frame's image.
///
/// A camera that turns about its optical centre sees the same surfaces along new rays: pixel p of the later view
/// shows what the earlier view shows at the image point q(p), whatever the depth, where q undistorts p, turns its
/// ray into the earlier camera and projects it back through the lens. When the optical centre also moves by t (a
/// camera away from the device's pivot), a point at depth z shifts further by f·(t_xy − t_z·a)/z pixels (a the
/// ray's slope): the parallax, which needs each pixel's depth.
///
/// Both terms vary slowly across the image, so they are computed exactly at nodes `step` pixels apart and
/// interpolated bilinearly in between; the parallax is divided by the depth the earlier frame measured where the
/// turn alone points.
struct TurnedView: Sendable {
    let width: Int
    let height: Int
    /// Node spacing, pixels.
    let step: Int
    let columns: Int
    let rows: Int
    /// Per node: the turned image point (x, y) and the parallax numerators (x, y), pixels·metres.
    let nodes: [SIMD4<Double>]

    /// The map from a camera at (`later`) to the same camera at (`earlier`), both as optical centre and
    /// camera-to-world rotation.
    init(
        camera: CameraModel, earlier: (origin: Vector3, rotation: Rotation),
        later: (origin: Vector3, rotation: Rotation), step: Int = 16
    ) {
        width = camera.width
        height = camera.height
        self.step = step
        columns = (camera.width + step - 1) / step + 1
        rows = (camera.height + step - 1) / step + 1
        let inverse = camera.distortion.map { RadialInverse($0, width: camera.width, height: camera.height) }
        let centre = camera.distortion?.center ?? .zero
        let toEarlier = earlier.rotation.inverse
        // The later centre in the earlier camera's frame.
        let t = toEarlier.apply(later.origin - earlier.origin)
        var nodes: [SIMD4<Double>] = []
        nodes.reserveCapacity(columns * rows)
        for j in 0..<rows {
            for i in 0..<columns {
                var p = SIMD2(Double(i * step), Double(j * step))
                if let inverse {
                    let v = p - centre
                    p = centre + v * inverse.undistortedScale(squaredRadius: (v * v).sum())
                }
                let ray = later.rotation.apply(Vector3((p.x - camera.cx) / camera.fx, (p.y - camera.cy) / camera.fy, 1))
                let c = toEarlier.apply(ray)
                let a = SIMD2(c.x / c.z, c.y / c.z)
                var q = SIMD2(camera.fx * a.x + camera.cx, camera.fy * a.y + camera.cy)
                if let distortion = camera.distortion {
                    q = distortion.distort(q, width: camera.width, height: camera.height)
                }
                nodes.append(SIMD4(q.x, q.y, camera.fx * (t.x - t.z * a.x), camera.fy * (t.y - t.z * a.y)))
            }
        }
        self.nodes = nodes
    }

    /// The earlier image point (pixels from the top-left corner, pixel centres at +0.5) that the later pixel
    /// (x, y)'s centre shows, given the earlier frame's depth plane (metres along the axis; NaN where nothing was
    /// hit, which takes no parallax).
    @inline(__always) func source(x: Int, y: Int, depth: UnsafeBufferPointer<Float>) -> SIMD2<Double> {
        let u = (Double(x) + 0.5) / Double(step), v = (Double(y) + 0.5) / Double(step)
        let i = min(Int(u), columns - 2), j = min(Int(v), rows - 2)
        let fu = u - Double(i), fv = v - Double(j)
        let k = j * columns + i
        let top = nodes[k] + (nodes[k + 1] - nodes[k]) * fu
        let bottom = nodes[k + columns] + (nodes[k + columns + 1] - nodes[k + columns]) * fu
        let n = top + (bottom - top) * fv
        var q = SIMD2(n.x, n.y)
        if n.z != 0 || n.w != 0 {
            let px = min(max(Int(q.x), 0), width - 1), py = min(max(Int(q.y), 0), height - 1)
            let z = Double(depth[py * width + px])
            if z > 0 { q += SIMD2(n.z, n.w) / z }
        }
        return q
    }
}
