import Imaging
import Sensor

/// Whether the depth map puts something between a pixel's surface and the flash: the geometric half of
/// `FlashShadow`'s test.
///
/// `FlashShadow` finds a flash shadow by its photometric signature, a flash-only value far below what the
/// ambient frame predicts. A surface the flash grazes while the room light (or a coloured spot) falls on it
/// squarely has the same signature: a violet's limb turned towards a red spot keeps a quarter of the
/// predicted flash-only green, and was taken for a shadow and given the wall's colour, an orange rim. A
/// flash shadow also has a cause the capture can see: an occluder nearer the camera, between the surface
/// and the flash. The segment from the surface point P to a flash module L projects to a straight line
/// in the image, starting at the pixel and running away from the flash's side; a point Q = P + s(L − P)
/// of it lies at depth Q_z, and the line passes behind an occluder where the depth map holds a surface
/// nearer than Q_z there. The walk stops where the segment leaves the picture or `reach` pixels away; a
/// pixel with no occluder on any module's segment is lit, whatever its values say.
///
/// The back-projection and the projection are the pinhole's (the lens's distortion moves both ends of a
/// few-pixel walk alike). An occluder counts when it is nearer than Q_z by more than `margin` of Q_z (our
/// choice: well above the depth's noise, below the gap between a flower and the wall behind it). The
/// depth map samples each pixel at its centre, so an occluder's edge may lie up to a pixel beyond its last
/// sample: from the second step on, the depth there is compared with Q_z one step back. (Not on the first:
/// that would compare a neighbour with the pixel's own depth, and a surface receding by 1 % a pixel, a
/// sphere's limb, would shadow itself.) The depth is the flash frame's, as `FlashIrradiance` uses it.
public struct FlashOcclusion: Sendable {
    let fx: Float, fy: Float, cx: Float, cy: Float
    let width: Int, height: Int
    /// The flash modules' positions in camera coordinates (metres) and their shares of the intensity.
    let modules: [(position: SIMD3<Float>, share: Float)]
    /// How far the walk goes, in pixels (our choice: an eighth of the picture's width, far beyond the few
    /// pixels a flash a centimetre from the lens shifts a shadow at room distances).
    let reach: Int
    static let margin: Float = 0.01

    /// The test for a camera and its flash's modules; nil when the modules have no intensity.
    public init?(camera: CameraModel, irradiance: FlashIrradiance) {
        let total = irradiance.sources.reduce(0) { $0 + $1.intensityCandela }
        guard total > 0 else { return nil }
        fx = Float(camera.fx)
        fy = Float(camera.fy)
        cx = Float(camera.cx)
        cy = Float(camera.cy)
        width = camera.width
        height = camera.height
        modules = irradiance.sources.map {
            let p = $0.positionInCamera
            return (SIMD3(Float(p.x), Float(p.y), Float(p.z)), Float($0.intensityCandela / total))
        }
        reach = max(8, camera.width / 8)
    }

    /// The share of the flash's intensity that the depth map blocks from the surface seen at pixel
    /// (`x`, `y`), 0…1; 0 where the pixel has no depth. `depth` is the whole depth plane.
    public func blocked(x: Int, y: Int, depth: UnsafePointer<Float>) -> Float {
        let z = depth[y * width + x]
        guard z.isFinite, z > 0 else { return 0 }
        let p = SIMD3((Float(x) + 0.5 - cx) / fx * z, (Float(y) + 0.5 - cy) / fy * z, z)
        var share: Float = 0
        for module in modules where isBlocked(from: p, to: module.position, x: x, y: y, depth: depth) {
            share += module.share
        }
        return share
    }

    /// Whether the segment from `p` (seen at pixel `x`, `y`) to `light` passes behind a nearer surface.
    func isBlocked(from p: SIMD3<Float>, to light: SIMD3<Float>, x: Int, y: Int, depth: UnsafePointer<Float>)
        -> Bool
    {
        let d = light - p
        // The line's direction in the image: where a point a little towards the light projects.
        let s0: Float = 1e-3
        let q = p + s0 * d
        guard q.z > 0 else { return false }
        let start = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
        var direction = SIMD2(fx * q.x / q.z + cx, fy * q.y / q.z + cy) - start
        let length = (direction * direction).sum().squareRoot()
        guard length > 0 else { return false }
        direction /= length
        // For a point of the image line, the segment's parameter s from whichever image axis the line
        // moves along more: Q_x / Q_z = (u − c_x) / f_x, solved for s.
        let alongX = abs(direction.x) >= abs(direction.y)
        // Q_z one step back (the pixel's own depth before the first step).
        var previous = p.z
        for step in 1...reach {
            let u = start + Float(step) * direction
            let px = Int(u.x.rounded(.down)), py = Int(u.y.rounded(.down))
            guard px >= 0, px < width, py >= 0, py < height else { return false }
            let s: Float
            if alongX {
                let r = (u.x - cx) / fx
                let denominator = d.x - r * d.z
                guard denominator != 0 else { return false }
                s = (r * p.z - p.x) / denominator
            } else {
                let r = (u.y - cy) / fy
                let denominator = d.y - r * d.z
                guard denominator != 0 else { return false }
                s = (r * p.z - p.y) / denominator
            }
            guard s > 0, s < 1 else { return false }
            let qz = p.z + s * d.z
            let there = depth[py * width + px]
            let segment = step == 1 ? qz : previous
            if there.isFinite, there > 0, there < segment * (1 - Self.margin) { return true }
            previous = qz
        }
        return false
    }
}
