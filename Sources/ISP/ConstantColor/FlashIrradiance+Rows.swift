import Foundation
import Imaging
import Sensor

extension FlashIrradiance.Map {
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
        private let map: FlashIrradiance.Map
        /// Points of the ring's rows, `width` each, z = 0 where the depth is unknown.
        private let points: UnsafeMutablePointer<SIMD4<Float>>
        private var rowOfSlot: [Int]
        private let slots: Int

        init(_ map: FlashIrradiance.Map) {
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

        /// The irradiance of row `y`, lux, into `out` (`width` values): evaluated at every pixel, or interpolated
        /// between the map's sample points where it has them (`FlashIrradiance.Map.Sampling`).
        func irradiance(row y: Int, into out: UnsafeMutablePointer<Float>) {
            if map.sampling > 1 {
                interpolate(row: y, into: out)
            } else {
                evaluate(row: y, columns: nil, into: out)
            }
        }

        /// The irradiance of row `y` between the sample points: bilinear in the samples of the two sample rows
        /// around it.
        private func interpolate(row y: Int, into out: UnsafeMutablePointer<Float>) {
            let rowsAt = map.sampleRows, n = map.sampleColumns.count
            let j0 = rowsAt.count > 1 ? min(y / map.sampling, rowsAt.count - 2) : 0
            let j1 = min(j0 + 1, rowsAt.count - 1)
            let b = j1 > j0 ? Float(y - rowsAt[j0]) / Float(rowsAt[j1] - rowsAt[j0]) : 0
            map.samples.withUnsafeBufferPointer { samples in
                map.columnTaps.withUnsafeBufferPointer { taps in
                    guard let base = samples.baseAddress, let taps = taps.baseAddress else { return }
                    let top = base + j0 * n, bottom = base + j1 * n
                    for x in 0..<map.width {
                        let i0 = taps[x].lower, i1 = min(i0 + 1, n - 1), a = taps[x].weight
                        let upper = top[i0] + a * (top[i1] - top[i0])
                        let lower = bottom[i0] + a * (bottom[i1] - bottom[i0])
                        out[x] = upper + b * (lower - upper)
                    }
                }
            }
        }

        /// The irradiance of row `y`, lux, evaluated at each of `columns` (every pixel where nil) into `out`, one
        /// value per column in order.
        func evaluate(row y: Int, columns wanted: UnsafeBufferPointer<Int>?, into out: UnsafeMutablePointer<Float>) {
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
                    @inline(__always) func value(_ x: Int) -> Float {
                        let u = (Float(x) + 0.5) / c - 0.5
                        let c0 = columns > 1 ? min(max(Int(u.rounded(.down)), 0), columns - 2) : 0
                        let c1 = min(c0 + 1, columns - 1)
                        let a = columns > 1 ? u - Float(c0) : 0
                        let p = here[x]
                        guard p.z > 0 else {
                            let top = e0[c0] * (1 - a) + e0[c1] * a, bottom = e1[c0] * (1 - a) + e1[c1] * a
                            return max(top * (1 - b) + bottom * b, 0)
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
                        return g * max(cosine, minimum) / d2
                    }
                    if let wanted {
                        for (j, x) in wanted.enumerated() { out[j] = value(x) }
                    } else {
                        for x in 0..<width { out[x] = value(x) }
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
        /// background pixel between two nearer objects takes the smaller of two depth edges for its slope, and
        /// Lambert's cosine of that false slope makes it more than half again too bright.
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
