import Devices
import Foundation
import Scenes
import Sensor

/// The irradiance the calibrated flash delivers to the surface each pixel sees, from the capture's
/// depth (color-science spec §3.4, the renderer's point-source law seen from the other side).
///
/// A module at L with on-axis intensity I (cd) and a cos^m α beam lights a surface point P with
/// normal n with E = I · cos^m α · cos θ / d² (lux), d = |P − L|, α the angle between P − L and the
/// beam axis, θ the angle between n and L − P. Across a flat chart filling the frame E falls to a
/// fifth in the corners (beam and obliquity), and between surfaces by the square of their distance:
/// dividing the flash-only signal by E turns it into reflectance, which no global exposure can.
///
/// Where it comes from:
/// - P = z · (x_u, y_u, 1), z the depth along the optical axis at the pixel (distorted like the
///   image, as `RawFrame.depth`), (x_u, y_u) the pixel's undistorted normalised coordinates;
/// - n from the depth map's gradient: the tangents are the differences between the points half a
///   cell (`cell` / 2 pixels) to either side and above and below, central where the two sides agree,
///   or the one-sided difference with the smaller depth step where they differ by more than a
///   factor 2 (a depth edge, or the crease where a wall meets a desk), so a surface's normal is
///   never taken across the edge of another. The normal thus spans one cell (8 pixels in the
///   pipeline): enough for the renderer's depth, whose noise is Float rounding; a noisy depth map
///   (a dual camera's disparity) would need its depth smoothed over a few cells first;
/// - the modules' positions and beams from the profile's flash geometry, their intensities from
///   its factory calibration (`FlashCalibration`);
/// - cos θ is held at least `minimumCosine`: at grazing incidence a few degrees of normal error
///   change it by more than itself, and the surface's confidence is low there anyway.
///
/// The beam factor Σ I cos^m α varies slowly across the picture, so it is computed per cell (each
/// cell's point its mean depth on the ray through its centre) and interpolated; the distance and the
/// obliquity, which jump at depth edges and creases, are the pixel's own (all modules at their
/// intensity-weighted centroid: the modules lie within a few millimetres, a relative error of order
/// (spread / d)²). Lens shading is not part of E: the camera's relative
/// illumination (its cos⁴ and vignetting) is corrected before, by `LensShadingCorrection`.
///
/// Where a pixel has no depth (NaN: nothing hit, or a hole of the depth map) its irradiance is that
/// of the nearest cells that have depth (each cell's normal from its neighbours' points), filled ring
/// by ring outwards, as the fill's ambient ratio is; a picture with no depth at all has no map, and
/// the pipeline keeps its single exposure.
public struct FlashIrradiance: Sendable, Hashable {
    /// One flash module as the phone believes it is.
    public struct Source: Sendable, Hashable {
        /// Position relative to the camera's optical centre, metres, camera frame (+X right, +Y down,
        /// +Z along the optical axis).
        public var positionInCamera: Vector3
        /// Unit beam axis, camera frame.
        public var axisInCamera: Vector3
        /// m of the cos^m α beam.
        public var beamExponent: Double
        /// On-axis luminous intensity, cd.
        public var intensityCandela: Double

        /// A module.
        public init(
            positionInCamera: Vector3, axisInCamera: Vector3 = Vector3(0, 0, 1), beamExponent: Double,
            intensityCandela: Double
        ) {
            self.positionInCamera = positionInCamera
            self.axisInCamera = axisInCamera.normalized
            self.beamExponent = beamExponent
            self.intensityCandela = intensityCandela
        }

        /// Its irradiance, lux, at `p` (camera frame, metres) on a surface with unit normal `n`, cos θ
        /// held at least `minimumCosine` (and the back of the beam dark).
        public func irradiance(at p: Vector3, normal n: Vector3) -> Double {
            let v = p - positionInCamera
            let d2 = v.dot(v)
            guard d2 > 0 else { return 0 }
            let d = d2.squareRoot()
            let cosAlpha = v.dot(axisInCamera) / d
            guard cosAlpha > 0 else { return 0 }
            let cosTheta = max(-n.dot(v) / d, FlashIrradiance.minimumCosine)
            return intensityCandela * pow(cosAlpha, beamExponent) * cosTheta / d2
        }
    }

    /// The least cos θ used (our choice: 0.25, 75.5° from the normal).
    public static let minimumCosine = 0.25

    /// The modules.
    public let sources: [Source]

    /// The flash of `sources`.
    public init(sources: [Source]) { self.sources = sources }

    /// The flash's geometry with the calibration's total intensity shared as the true modules share
    /// theirs: for a pipeline built from values, which has no per-module calibration.
    public init(flash: FlashModel, calibration: FlashCalibration) {
        let total = flash.modules.reduce(0) { $0 + $1.intensityCandela }
        let scale = total > 0 ? calibration.intensityCandela / total : 0
        self.init(
            sources: flash.modules.map {
                Source(
                    positionInCamera: $0.positionInCamera, axisInCamera: $0.axisInCamera,
                    beamExponent: $0.beamExponent, intensityCandela: $0.intensityCandela * scale)
            })
    }

    /// The flash of a profile for one camera: each module where the profile puts it (the positions
    /// of `FlashModel(device:camera:)`, in the camera's frame), with its beam, and the on-axis
    /// intensity of its factory calibration entry (the true one when the calibration lists none).
    public init?(device: DeviceProfile, camera: CameraProfile) {
        guard let flash = FlashModel(device: device, camera: camera), let hardware = device.flash,
            hardware.modules.count == flash.modules.count
        else { return nil }
        self.init(
            sources: zip(hardware.modules, flash.modules).map { entry, module in
                let calibrated = hardware.calibration.first { $0.module == entry.id }?.intensityCD
                return Source(
                    positionInCamera: module.positionInCamera, axisInCamera: module.axisInCamera,
                    beamExponent: module.beamExponent, intensityCandela: calibrated ?? module.intensityCandela)
            })
    }

    /// The irradiance, lux, at `p` on a surface with unit normal `n` (facing the camera).
    public func irradiance(at p: Vector3, normal n: Vector3) -> Double {
        sources.reduce(0) { $0 + $1.irradiance(at: p, normal: n) }
    }

    /// The beam factor Σ I cos^m α · d_c² / d² at `p`, cd: the intensity the modules send towards it,
    /// each module's own distance d folded in relative to the distance d_c from `centre`.
    func beam(at p: Vector3, centre: Vector3) -> Double {
        let dc2 = (p - centre).dot(p - centre)
        return sources.reduce(0) { sum, s in
            let v = p - s.positionInCamera
            let d2 = v.dot(v)
            guard d2 > 0 else { return sum }
            let c = v.dot(s.axisInCamera) / d2.squareRoot()
            return c > 0 ? sum + s.intensityCandela * pow(c, s.beamExponent) * dc2 / d2 : sum
        }
    }

    /// The irradiance of every pixel of a picture from its depth (`RawFrame.depth`, metres along the
    /// optical axis, NaN where unknown); nil when no pixel has a depth.
    public func map(camera: CameraModel, depth: [Float], cell: Int) -> Map? {
        Map(irradiance: self, camera: camera, depth: depth, cell: max(1, cell))
    }
}

extension FlashIrradiance {
    /// The flash's irradiance at each pixel of one picture.
    public struct Map: Sendable {
        /// Picture size, pixels, and the cell side.
        public let width: Int, height: Int, cell: Int
        /// Cells across and down.
        let columns: Int, rows: Int
        /// Per cell, the beam factor Σ I cos^m α · d_c² / d² (cd, `FlashIrradiance.beam`) at its centre,
        /// filled where it had no depth.
        let angular: [Float]
        /// The step of the normal's differences, pixels.
        let step: Int
        /// Per cell, the irradiance at its centre (lux), filled where it had no depth.
        let cellIrradiance: [Float]
        /// Undistorted normalised coordinates (x_u, y_u) at the cell corners, (columns + 1) × (rows + 1).
        let rays: [SIMD2<Float>]
        /// The modules' intensity-weighted centroid, camera frame.
        let centre: SIMD3<Float>
        /// The depth plane.
        let depth: [Float]

        init?(irradiance: FlashIrradiance, camera: CameraModel, depth: [Float], cell: Int) {
            let width = camera.width, height = camera.height
            guard depth.count == width * height, width > 0, height > 0 else { return nil }
            let columns = (width + cell - 1) / cell, rows = (height + cell - 1) / cell
            let total = irradiance.sources.reduce(0) { $0 + $1.intensityCandela }
            guard total > 0 else { return nil }
            let centroid =
                irradiance.sources.reduce(Vector3.zero) { $0 + $1.positionInCamera * $1.intensityCandela }
                / total

            // The undistorted normalised coordinates of a point of the image.
            func undistorted(_ px: Double, _ py: Double) -> SIMD2<Double> {
                var p = SIMD2(px, py)
                if let distortion = camera.distortion {
                    // The forward table inverted by fixed-point steps: the magnification changes by a few
                    // per cent across the image, so each step gains two digits.
                    let target = p
                    for _ in 0..<12 { p += target - distortion.distort(p, width: width, height: height) }
                }
                return SIMD2((p.x - camera.cx) / camera.fx, (p.y - camera.cy) / camera.fy)
            }
            var rays: [SIMD2<Float>] = []
            rays.reserveCapacity((columns + 1) * (rows + 1))
            for j in 0...rows {
                for i in 0...columns {
                    let u = undistorted(Double(i * cell), Double(j * cell))
                    rays.append(SIMD2(Float(u.x), Float(u.y)))
                }
            }

            // Each cell's point: its mean depth on the ray through its centre.
            var points = [Vector3?](repeating: nil, count: columns * rows)
            for cy in 0..<rows {
                for cx in 0..<columns {
                    let x0 = cx * cell, x1 = min(width, x0 + cell), y0 = cy * cell, y1 = min(height, y0 + cell)
                    var sum = 0.0, n = 0
                    for y in y0..<y1 {
                        for x in x0..<x1 {
                            let z = depth[y * width + x]
                            guard z.isFinite, z > 0 else { continue }
                            sum += Double(z)
                            n += 1
                        }
                    }
                    guard n > 0 else { continue }
                    let u = undistorted(Double(x0 + x1) / 2, Double(y0 + y1) / 2)
                    let z = sum / Double(n)
                    points[cy * columns + cx] = Vector3(u.x * z, u.y * z, z)
                }
            }
            guard points.contains(where: { $0 != nil }) else { return nil }

            // The tangent along one direction at a cell: central where both sides agree, else the
            // side with the smaller depth step.
            func tangent(_ p: Vector3, _ before: Vector3?, _ after: Vector3?) -> Vector3? {
                switch (before, after) {
                case let (b?, a?):
                    let back = p - b, forward = a - p
                    let sb = abs(back.z), sf = abs(forward.z)
                    if max(sb, sf) <= 2 * min(sb, sf) + 1e-9 * p.z { return (a - b) / 2 }
                    return sb < sf ? back : forward
                case let (b?, nil): return p - b
                case let (nil, a?): return a - p
                case (nil, nil): return nil
                }
            }
            var angular = [Float](repeating: 0, count: columns * rows)
            var cellE = [Float](repeating: 0, count: columns * rows)
            var known = [Bool](repeating: false, count: columns * rows)
            for cy in 0..<rows {
                for cx in 0..<columns {
                    guard let p = points[cy * columns + cx] else { continue }
                    let left = cx > 0 ? points[cy * columns + cx - 1] : nil
                    let right = cx + 1 < columns ? points[cy * columns + cx + 1] : nil
                    let up = cy > 0 ? points[(cy - 1) * columns + cx] : nil
                    let down = cy + 1 < rows ? points[(cy + 1) * columns + cx] : nil
                    // Without a neighbour in a direction, the surface is taken square to the ray there.
                    var normal = -p.normalized
                    if let tx = tangent(p, left, right), let ty = tangent(p, up, down) {
                        let c = tx.cross(ty).normalized
                        if c.length > 0 { normal = c.dot(p) < 0 ? c : -c }
                    }
                    let e = irradiance.irradiance(at: p, normal: normal)
                    angular[cy * columns + cx] = Float(irradiance.beam(at: p, centre: centroid))
                    cellE[cy * columns + cx] = Float(e)
                    known[cy * columns + cx] = true
                }
            }
            // Cells without depth take the mean of their known 4-neighbours, ring by ring.
            var changed = true
            while changed {
                changed = false
                let previous = known
                for cy in 0..<rows {
                    for cx in 0..<columns where !previous[cy * columns + cx] {
                        var a: Float = 0, e: Float = 0, n: Float = 0
                        for (nx, ny) in [(cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)]
                        where nx >= 0 && nx < columns && ny >= 0 && ny < rows && previous[ny * columns + nx] {
                            a += angular[ny * columns + nx]
                            e += cellE[ny * columns + nx]
                            n += 1
                        }
                        guard n > 0 else { continue }
                        angular[cy * columns + cx] = a / n
                        cellE[cy * columns + cx] = e / n
                        known[cy * columns + cx] = true
                        changed = true
                    }
                }
            }
            self.width = width
            self.height = height
            self.cell = cell
            self.columns = columns
            self.rows = rows
            self.angular = angular
            self.step = max(1, cell / 2)
            self.cellIrradiance = cellE
            self.rays = rays
            self.centre = SIMD3(Float(centroid.x), Float(centroid.y), Float(centroid.z))
            self.depth = depth
        }

        /// The irradiance at pixel (x, y), lux.
        public func value(x: Int, y: Int) -> Double {
            var out: Float = 0
            row(y, from: x, count: 1) { _, e in out = e }
            return Double(out)
        }

        /// Per cell, the irradiance at its centre, lux (cells of `cell` pixels, row-major).
        public var cells: [Double] { cellIrradiance.map(Double.init) }

        /// Undistorted normalised coordinates of the centre of pixel (x, y), interpolated between cell corners.
        @inline(__always)
        func ray(_ x: Int, _ y: Int) -> SIMD2<Float> {
            let c = Float(cell), stride = columns + 1
            let t = (Float(x) + 0.5) / c, w = (Float(y) + 0.5) / c
            let i0 = min(Int(t), columns - 1), k0 = min(Int(w), rows - 1)
            let ia = t - Float(i0), kb = w - Float(k0)
            let q00 = rays[k0 * stride + i0], q10 = rays[k0 * stride + i0 + 1]
            let q01 = rays[(k0 + 1) * stride + i0], q11 = rays[(k0 + 1) * stride + i0 + 1]
            let top = q00 + ia * (q10 - q00), bottom = q01 + ia * (q11 - q01)
            return top + kb * (bottom - top)
        }

        /// Calls `body(x, E)` for pixels `x ..< x + count` of row `y`.
        ///
        /// The beam factor is interpolated between cell centres (linearly beyond the outer ones: it is
        /// smooth); the distance and the normal are the pixel's own. The normal comes from the points
        /// `step` pixels to either side and above and below, each pair's central difference, or the side
        /// with the smaller depth step where the two differ by more than a factor 2 (a depth edge or a
        /// crease), so no normal is taken across the edge of another surface.
        @inline(__always)
        func row(_ y: Int, from start: Int = 0, count: Int? = nil, _ body: (Int, Float) -> Void) {
            let end = min(width, start + (count ?? width))
            let c = Float(cell)
            let v = (Float(y) + 0.5) / c - 0.5
            let r0 = rows > 1 ? min(max(Int(v.rounded(.down)), 0), rows - 2) : 0
            let r1 = min(r0 + 1, rows - 1)
            let b = rows > 1 ? v - Float(r0) : 0
            let k = step
            let minimum = Float(FlashIrradiance.minimumCosine)
            depth.withUnsafeBufferPointer { dp in
                @inline(__always) func point(_ x: Int, _ y: Int) -> SIMD3<Float>? {
                    guard x >= 0, x < width, y >= 0, y < height else { return nil }
                    let z = dp[y * width + x]
                    guard z.isFinite, z > 0 else { return nil }
                    let r = ray(x, y)
                    return SIMD3(r.x * z, r.y * z, z)
                }
                @inline(__always) func tangent(_ p: SIMD3<Float>, _ before: SIMD3<Float>?, _ after: SIMD3<Float>?)
                    -> SIMD3<Float>?
                {
                    switch (before, after) {
                    case let (bp?, ap?):
                        let back = p - bp, forward = ap - p
                        let sb = abs(back.z), sf = abs(forward.z)
                        if max(sb, sf) <= 2 * min(sb, sf) + 1e-6 * p.z { return (ap - bp) / 2 }
                        return sb < sf ? back : forward
                    case let (bp?, nil): return p - bp
                    case let (nil, ap?): return ap - p
                    case (nil, nil): return nil
                    }
                }
                for x in start..<end {
                    let u = (Float(x) + 0.5) / c - 0.5
                    let c0 = columns > 1 ? min(max(Int(u.rounded(.down)), 0), columns - 2) : 0
                    let c1 = min(c0 + 1, columns - 1)
                    let a = columns > 1 ? u - Float(c0) : 0
                    guard let p = point(x, y) else {
                        let e0 = cellIrradiance[r0 * columns + c0] * (1 - a) + cellIrradiance[r0 * columns + c1] * a
                        let e1 = cellIrradiance[r1 * columns + c0] * (1 - a) + cellIrradiance[r1 * columns + c1] * a
                        body(x, max(e0 * (1 - b) + e1 * b, 0))
                        continue
                    }
                    let g0 = angular[r0 * columns + c0] * (1 - a) + angular[r0 * columns + c1] * a
                    let g1 = angular[r1 * columns + c0] * (1 - a) + angular[r1 * columns + c1] * a
                    let g = max(g0 * (1 - b) + g1 * b, 0)
                    let toPoint = p - centre
                    let d2 = (toPoint * toPoint).sum()
                    // Square to the ray where no neighbour has depth.
                    var cosine: Float = 1
                    // The wide step smooths; where it disagrees with the immediate neighbours (a surface
                    // seen edge-on, thinner than the step), the immediate neighbours decide.
                    @inline(__always) func along(_ dx: Int, _ dy: Int) -> SIMD3<Float>? {
                        let near = tangent(p, point(x - dx, y - dy), point(x + dx, y + dy))
                        guard k > 1, let n1 = near else { return near }
                        guard let wide = tangent(p, point(x - k * dx, y - k * dy), point(x + k * dx, y + k * dy))
                        else { return near }
                        let scale = Float(k)
                        let lateral = (n1.x * n1.x + n1.y * n1.y).squareRoot()
                        let agrees = abs(wide.z / scale - n1.z) <= 0.5 * abs(n1.z) + 0.1 * lateral
                        return agrees ? wide : near
                    }
                    if let tx = along(1, 0), let ty = along(0, 1) {
                        let n = SIMD3(tx.y * ty.z - tx.z * ty.y, tx.z * ty.x - tx.x * ty.z, tx.x * ty.y - tx.y * ty.x)
                        let length = ((n * n).sum() * d2).squareRoot()
                        if length > 0 { cosine = abs((n * toPoint).sum()) / length }
                    }
                    body(x, g * max(cosine, minimum) / d2)
                }
            }
        }
    }
}
