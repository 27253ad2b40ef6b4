import Devices
import Foundation
import Imaging
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
            @Sendable func undistorted(_ px: Double, _ py: Double) -> SIMD2<Double> {
                var p = SIMD2(px, py)
                if let distortion = camera.distortion {
                    // The forward table inverted by fixed-point steps: the magnification changes by a few
                    // per cent across the image, so each step gains more than one digit; six reach 10⁻⁶ px.
                    let target = p
                    for _ in 0..<6 { p += target - distortion.distort(p, width: width, height: height) }
                }
                return SIMD2((p.x - camera.cx) / camera.fx, (p.y - camera.cy) / camera.fy)
            }
            let rays = BandParallel.fill(count: (columns + 1) * (rows + 1), rows: rows + 1, of: SIMD2<Float>.self) {
                band, out in
                for j in band {
                    for i in 0...columns {
                        let u = undistorted(Double(i * cell), Double(j * cell))
                        out[j * (columns + 1) + i] = SIMD2(Float(u.x), Float(u.y))
                    }
                }
            }
            // Each cell's mean depth over its pixels with a depth, 0 where none has one.
            let means = depth.withUnsafeBufferPointer { buffer in
                let plane = SharedReadPointer(buffer)
                return BandParallel.fill(count: columns * rows, rows: rows, of: Float.self) { band, out in
                    for cy in band {
                        for cx in 0..<columns {
                            let x0 = cx * cell, x1 = min(width, x0 + cell), y0 = cy * cell, y1 = min(height, y0 + cell)
                            var sum = 0.0, n = 0
                            for y in y0..<y1 {
                                for x in x0..<x1 {
                                    let z = plane.base[y * width + x]
                                    guard z.isFinite, z > 0 else { continue }
                                    sum += Double(z)
                                    n += 1
                                }
                            }
                            out[cy * columns + cx] = n > 0 ? Float(sum / Double(n)) : 0
                        }
                    }
                }
            }

            // Each cell's point: its mean depth on the ray through its centre.
            var points = [Vector3?](repeating: nil, count: columns * rows)
            for cy in 0..<rows {
                for cx in 0..<columns where means[cy * columns + cx] > 0 {
                    let x0 = cx * cell, x1 = min(width, x0 + cell), y0 = cy * cell, y1 = min(height, y0 + cell)
                    // The ray through the cell's centre, interpolated between its corners (a partial cell
                    // at the border has its centre off the corners' middle).
                    let fx = Float(x1 - x0) / Float(2 * cell), fy = Float(y1 - y0) / Float(2 * cell)
                    let stride = columns + 1
                    let q00 = rays[cy * stride + cx], q10 = rays[cy * stride + cx + 1]
                    let q01 = rays[(cy + 1) * stride + cx], q11 = rays[(cy + 1) * stride + cx + 1]
                    let top = q00 + fx * (q10 - q00), bottom = q01 + fx * (q11 - q01)
                    let ray = top + fy * (bottom - top)
                    let u = SIMD2(Double(ray.x), Double(ray.y))
                    let z = Double(means[cy * columns + cx])
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
            // Cells without depth take the mean of their known 4-neighbours, ring by ring (`TileFill`).
            var cells = zip(angular, cellE).map { SIMD2($0, $1) }
            TileFill.fillInward(&cells, known: &known, width: columns, height: rows)
            angular = cells.map { $0.x }
            cellE = cells.map { $0.y }
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
            let rows = Rows(self)
            let out = UnsafeMutablePointer<Float>.allocate(capacity: width)
            defer { out.deallocate() }
            rows.irradiance(row: y, into: out)
            return Double(out[x])
        }

        /// Per cell, the irradiance at its centre, lux (cells of `cell` pixels, row-major).
        public var cells: [Double] { cellIrradiance.map(Double.init) }

        /// One row of the map at a time, from the camera-frame points of the rows around it, each
        /// point computed once per band of rows (a ring of the 2·step + 1 rows a normal reads).
        ///
        /// The beam factor is interpolated between cell centres (linearly beyond the outer ones: it is
        /// smooth); the distance and the normal are the pixel's own. The normal comes from the points
        /// `step` pixels to either side and above and below, each pair's central difference, or the side
        /// with the smaller depth step where the two differ by more than a factor 2 (a depth edge or a
        /// crease), so no normal is taken across the edge of another surface; where that wide
        /// difference disagrees with the immediate neighbours' (a surface seen edge-on, thinner than
        /// the step) the immediate neighbours decide. A neighbour more than `edgeStep` of the depth away
        /// per pixel is another surface and does not count (no neighbour on an axis: no slope there).
        final class Rows {
            private let map: Map
            /// Points of the ring's rows, `width` each, z = 0 where the depth is unknown.
            private let points: UnsafeMutablePointer<SIMD4<Float>>
            private var rowOfSlot: [Int]
            private let slots: Int

            init(_ map: Map) {
                self.map = map
                slots = 2 * map.step + 1
                points = .allocate(capacity: slots * map.width)
                rowOfSlot = [Int](repeating: -1, count: slots)
            }

            deinit { points.deallocate() }

            /// The points of image row `y` (which must lie inside the image).
            @inline(__always)
            private func pointRow(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
                let slot = y % slots
                let row = points + slot * map.width
                if rowOfSlot[slot] != y {
                    fill(y, into: row)
                    rowOfSlot[slot] = y
                }
                return row
            }

            private func fill(_ y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
                let width = map.width, cell = map.cell, c = Float(cell), stride = map.columns + 1
                let w = (Float(y) + 0.5) / c
                let k0 = min(Int(w), map.rows - 1)
                let kb = w - Float(k0)
                map.rays.withUnsafeBufferPointer { rays in
                    map.depth.withUnsafeBufferPointer { depth in
                        guard let r = rays.baseAddress, let d = depth.baseAddress else { return }
                        let top = r + k0 * stride, bottom = top + stride
                        let z0 = d + y * width
                        for x in 0..<width {
                            let z = z0[x]
                            guard z.isFinite, z > 0 else {
                                row[x] = SIMD4(0, 0, 0, 0)
                                continue
                            }
                            let t = (Float(x) + 0.5) / c
                            let i0 = min(Int(t), map.columns - 1)
                            let ia = t - Float(i0)
                            let upper = top[i0] + ia * (top[i0 + 1] - top[i0])
                            let lower = bottom[i0] + ia * (bottom[i0 + 1] - bottom[i0])
                            let ray = upper + kb * (lower - upper)
                            row[x] = SIMD4(ray.x * z, ray.y * z, z, 0)
                        }
                    }
                }
            }

            /// The irradiance of row `y`, lux, into `out` (`width` values).
            func irradiance(row y: Int, into out: UnsafeMutablePointer<Float>) {
                let width = map.width, height = map.height, columns = map.columns, k = map.step
                let c = Float(map.cell)
                let v = (Float(y) + 0.5) / c - 0.5
                let r0 = map.rows > 1 ? min(max(Int(v.rounded(.down)), 0), map.rows - 2) : 0
                let r1 = min(r0 + 1, map.rows - 1)
                let b = map.rows > 1 ? v - Float(r0) : 0
                let minimum = Float(FlashIrradiance.minimumCosine)
                let here = pointRow(y)
                let empty = SIMD4<Float>(0, 0, 0, 0)
                // Rows outside the image read as unknown.
                let up1 = y >= 1 ? pointRow(y - 1) : nil, down1 = y + 1 < height ? pointRow(y + 1) : nil
                let upK = y >= k ? pointRow(y - k) : nil, downK = y + k < height ? pointRow(y + k) : nil
                let centre = SIMD4(map.centre, 0)
                map.angular.withUnsafeBufferPointer { angular in
                    map.cellIrradiance.withUnsafeBufferPointer { cellE in
                        guard let ga = angular.baseAddress, let ea = cellE.baseAddress else { return }
                        let g0 = ga + r0 * columns, g1 = ga + r1 * columns
                        let e0 = ea + r0 * columns, e1 = ea + r1 * columns
                        for x in 0..<width {
                            let u = (Float(x) + 0.5) / c - 0.5
                            let c0 = columns > 1 ? min(max(Int(u.rounded(.down)), 0), columns - 2) : 0
                            let c1 = min(c0 + 1, columns - 1)
                            let a = columns > 1 ? u - Float(c0) : 0
                            let p = here[x]
                            guard p.z > 0 else {
                                let top = e0[c0] * (1 - a) + e0[c1] * a, bottom = e1[c0] * (1 - a) + e1[c1] * a
                                out[x] = max(top * (1 - b) + bottom * b, 0)
                                continue
                            }
                            let top = g0[c0] * (1 - a) + g0[c1] * a, bottom = g1[c0] * (1 - a) + g1[c1] * a
                            let g = max(top * (1 - b) + bottom * b, 0)
                            let toPoint = p - centre
                            let d2 = (toPoint * toPoint).sum()
                            @inline(__always) func at(_ row: UnsafeMutablePointer<SIMD4<Float>>?, _ x: Int)
                                -> SIMD4<Float>
                            {
                                guard let row, x >= 0, x < width else { return empty }
                                return row[x]
                            }
                            let tx = Self.tangent(
                                p, near: (at(here, x - 1), at(here, x + 1)), wide: (at(here, x - k), at(here, x + k)),
                                step: k)
                            let ty = Self.tangent(
                                p, near: (at(up1, x), at(down1, x)), wide: (at(upK, x), at(downK, x)), step: k)
                            // Square to the ray where no neighbour has depth.
                            var cosine: Float = 1
                            if let tx, let ty {
                                let n = SIMD4(
                                    tx.y * ty.z - tx.z * ty.y, tx.z * ty.x - tx.x * ty.z, tx.x * ty.y - tx.y * ty.x, 0)
                                let length = ((n * n).sum() * d2).squareRoot()
                                if length > 0 { cosine = abs((n * toPoint).sum()) / length }
                            }
                            out[x] = g * max(cosine, minimum) / d2
                        }
                    }
                }
            }

            /// One tangent per pixel step: from the wide pair where it agrees with the near pair, else
            /// from the near pair; nil without a neighbour on either side.
            @inline(__always)
            static func tangent(
                _ p: SIMD4<Float>, near: (SIMD4<Float>, SIMD4<Float>), wide: (SIMD4<Float>, SIMD4<Float>), step: Int
            ) -> SIMD4<Float>? {
                guard let n1 = difference(p, near.0, near.1, within: edgeStep * p.z) else { return nil }
                guard step > 1, let wideStep = difference(p, wide.0, wide.1, within: edgeStep * Float(step) * p.z)
                else { return n1 }
                let t = wideStep / Float(step)
                let lateral = (n1.x * n1.x + n1.y * n1.y).squareRoot()
                return abs(t.z - n1.z) <= 0.5 * abs(n1.z) + 0.1 * lateral ? t : n1
            }

            /// A neighbour whose depth differs from the pixel's by more than this share of it per pixel is
            /// another surface, and says nothing of the pixel's normal (our choice: a plane seen at 87° from
            /// its normal steps by about 5 % a pixel at 640 pixels wide, less at more pixels). Without it, a
            /// pixel of wall with a stem on one side and a flower on the other took the smaller of two depth
            /// edges for its slope and came out more than half again too bright.
            static let edgeStep: Float = 0.05

            /// The difference per step between `p` and its neighbours (z = 0: unknown; a depth more than
            /// `limit` from p's: another surface): central where both sides agree within a factor 2 in
            /// depth step, else the side with the smaller step.
            @inline(__always)
            static func difference(
                _ p: SIMD4<Float>, _ before: SIMD4<Float>, _ after: SIMD4<Float>, within limit: Float
            ) -> SIMD4<Float>?
            {
                switch (before.z > 0 && abs(before.z - p.z) <= limit, after.z > 0 && abs(after.z - p.z) <= limit) {
                case (true, true):
                    let back = p - before, forward = after - p
                    let sb = abs(back.z), sf = abs(forward.z)
                    if max(sb, sf) <= 2 * min(sb, sf) + 1e-6 * p.z { return (after - before) / 2 }
                    return sb < sf ? back : forward
                case (true, false): return p - before
                case (false, true): return after - p
                case (false, false): return nil
                }
            }
        }
    }
}
