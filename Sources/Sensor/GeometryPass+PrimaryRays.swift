import Imaging
import Scenes

/// The primary rays: one through each pixel centre, undistorted, and a tile's rays with the cone
/// that holds them.
extension GeometryPass {
    /// The world direction of the ray through the centre of pixel (x, y) and its optical-axis
    /// component (depth = distance × that component). Pixel centres sit at (x + 0.5, y + 0.5).
    @inline(__always) func ray(x: Int, y: Int) -> (Vector3, Double) {
        ray(at: Double(x) + 0.5, Double(y) + 0.5)
    }

    /// The world direction of the ray through image point (px, py), in pixels from the image's
    /// top-left corner, and its optical-axis component: `ray(x:y:)` anywhere inside a pixel.
    @inline(__always) func ray(at imageX: Double, _ imageY: Double) -> (Vector3, Double) {
        var px = imageX
        var py = imageY
        if let inverse {
            let vx = px - distortionCenter.x
            let vy = py - distortionCenter.y
            let s = inverse.undistortedScale(squaredRadius: vx * vx + vy * vy)
            px = distortionCenter.x + vx * s
            py = distortionCenter.y + vy * s
        }
        // One square root and one division: the camera-frame vector has z = 1, so its
        // normalised z is the reciprocal length itself.
        let c = Vector3((px - camera.cx) * inverseFocal.x, (py - camera.cy) * inverseFocal.y, 1)
        let inverseLength = 1 / c.dot(c).squareRoot()
        return (rotation.rotate(c * inverseLength), inverseLength)
    }

    /// The rays of a tile (as `ray(x:y:)`, with its terms folded into world space) and the least
    /// cosine between them and the unit vector `axis`: the cone about `axis` that holds them all.
    ///
    /// The camera-frame vector of pixel offset v = (vx, vy) from the distortion centre, undistorted
    /// by the scale s(|v|²), is c = ((centre_x − cx)/fx, (centre_y − cy)/fy, 1) + s·(vx/fx, vy/fy, 0),
    /// so its world image is A + s·(vx·U + vy·V) with A, U, V fixed per camera and vy·V fixed per
    /// row. |R·c| = |c| and c_z = 1, so the optical-axis component of the unit ray is 1/|c|.
    @inline(never) func tileRays(_ tile: Tile, s: Scratch, rays: PrimaryRays, axis: Vector3) -> Double {
        guard let inverse else { return tileRays(tile, s: s, rays: rays, axis: axis, scales: .identity) }
        return inverse.withScaleTable { tileRays(tile, s: s, rays: rays, axis: axis, scales: $0) }
    }

    /// `tileRays` with the distortion's scale table unpacked (identity without distortion).
    @inline(__always) func tileRays(
        _ tile: Tile, s: Scratch, rays: PrimaryRays, axis: Vector3, scales: RadialInverse.ScaleTable
    ) -> Double {
        let t = GeometryCache.tileSize
        var cosHalf = 1.0
        for y in tile.y0..<tile.y1 {
            let vy = Double(y) + 0.5 - distortionCenter.y
            let row = vy * rayV
            var k = (y - tile.y0) * t
            // Two neighbouring pixels in the lanes of `SIMD2<Double>`: lane by lane the same
            // operations in the same order as the single pixel below (the square root lane by lane:
            // the generic vector one is far slower on the baseline target).
            var x = tile.x0
            // The pair's columns as doubles (whole numbers, so stepping by 2 is exact) and the
            // least cosine per lane, folded into `cosHalf` after the row (the least of a set).
            var columns = SIMD2(Double(x), Double(x) + 1)
            var least = SIMD2<Double>(repeating: cosHalf)
            while x &+ 2 <= tile.x1 {
                let vx = columns + 0.5 - distortionCenter.x
                columns += 2
                let scale = scales.scales(squaredRadii: vx * vx + vy * vy)
                let wx = rayA.x + scale * (vx * rayU.x + row.x)
                let wy = rayA.y + scale * (vx * rayU.y + row.y)
                let wz = rayA.z + scale * (vx * rayU.z + row.z)
                let squared = wx * wx + wy * wy + wz * wz
                let inverseLength = 1 / SIMD2(squared[0].squareRoot(), squared[1].squareRoot())
                let dx = wx * inverseLength
                let dy = wy * inverseLength
                let dz = wz * inverseLength
                s.dirs[k] = Vector3(dx[0], dy[0], dz[0])
                s.dirs[k &+ 1] = Vector3(dx[1], dy[1], dz[1])
                s.axial[k] = inverseLength[0]
                s.axial[k &+ 1] = inverseLength[1]
                rays.x[k] = Float(dx[0])
                rays.x[k &+ 1] = Float(dx[1])
                rays.y[k] = Float(dy[0])
                rays.y[k &+ 1] = Float(dy[1])
                rays.z[k] = Float(dz[0])
                rays.z[k &+ 1] = Float(dz[1])
                let cosine = dx * axis.x + dy * axis.y + dz * axis.z
                least.replace(with: cosine, where: cosine .< least)
                k &+= 2
                x &+= 2
            }
            cosHalf = min(cosHalf, min(least[0], least[1]))
            for x in x..<tile.x1 {
                let vx = Double(x) + 0.5 - distortionCenter.x
                let scale = scales.scale(squaredRadius: vx * vx + vy * vy)
                let w = rayA + scale * (vx * rayU + row)
                let inverseLength = 1 / w.dot(w).squareRoot()
                let d = w * inverseLength
                s.dirs[k] = d
                s.axial[k] = inverseLength
                rays.x[k] = Float(d.x)
                rays.y[k] = Float(d.y)
                rays.z[k] = Float(d.z)
                cosHalf = min(cosHalf, d.dot(axis))
                k &+= 1
            }
        }
        return cosHalf
    }
}
