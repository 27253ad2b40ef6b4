import Foundation
import Imaging
import Scenes
import Sensor

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
        /// The pixels between the points at which the irradiance is evaluated (`Sampling`); 1: every pixel.
        public let sampling: Int
        /// With `sampling` above 1, the irradiance at the sample points, row-major (`Sampling`); else empty.
        private(set) var samples: [Float]
        /// The sample points' columns and rows (pixels), and each pixel column's interpolation between them.
        let sampleColumns: [Int], sampleRows: [Int]
        let columnTaps: [Sampling.Tap]

        /// The cells' layout: picture size, cell side, cells across and down.
        struct Layout {
            let width: Int, height: Int, cell: Int, columns: Int, rows: Int
        }

        init?(irradiance: FlashIrradiance, camera: CameraModel, depth: [Float], cell: Int, sampling: Int = 1) {
            let width = camera.width, height = camera.height
            guard depth.count == width * height, width > 0, height > 0 else { return nil }
            let columns = (width + cell - 1) / cell, rows = (height + cell - 1) / cell
            let layout = Layout(width: width, height: height, cell: cell, columns: columns, rows: rows)
            let total = irradiance.sources.reduce(0) { $0 + $1.intensityCandela }
            guard total > 0 else { return nil }
            let centroid =
                irradiance.sources.reduce(Vector3.zero) { $0 + $1.positionInCamera * $1.intensityCandela }
                / total
            let rays = Self.cornerRays(camera: camera, layout: layout)
            let means = Self.meanDepths(depth, layout: layout)
            let points = Self.cellPoints(means: means, rays: rays, layout: layout)
            guard points.contains(where: { $0 != nil }) else { return nil }
            let (angular, cellE) = Self.cellValues(
                points: points, irradiance: irradiance, centroid: centroid, layout: layout)
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
            self.sampling = max(1, sampling)
            sampleColumns = Sampling.positions(count: width, step: self.sampling)
            sampleRows = Sampling.positions(count: height, step: self.sampling)
            columnTaps = Sampling.taps(count: width, step: self.sampling, positions: sampleColumns)
            samples = []
            if self.sampling > 1 { samples = Self.evaluateSamples(self) }
        }

        /// Undistorted normalised coordinates (x_u, y_u) at the cell corners.
        static func cornerRays(camera: CameraModel, layout: Layout) -> [SIMD2<Float>] {
            let width = layout.width, height = layout.height, cell = layout.cell
            let columns = layout.columns, rows = layout.rows
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
            return rays
        }

        /// Each cell's mean depth over its pixels with a depth, 0 where none has one.
        static func meanDepths(_ depth: [Float], layout: Layout) -> [Float] {
            let width = layout.width, height = layout.height, cell = layout.cell
            let columns = layout.columns, rows = layout.rows
            return depth.withUnsafeBufferPointer { buffer in
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

        }

        /// Each cell's point: its mean depth on the ray through its centre (nil where it has no depth).
        static func cellPoints(means: [Float], rays: [SIMD2<Float>], layout: Layout) -> [Vector3?] {
            let width = layout.width, height = layout.height, cell = layout.cell
            let columns = layout.columns, rows = layout.rows
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
            return points
        }

        /// Per cell, the beam factor and the irradiance at its point, the surface's normal from the points around;
        /// cells without depth take the mean of their known 4-neighbours, ring by ring (`TileFill`).
        static func cellValues(points: [Vector3?], irradiance: FlashIrradiance, centroid: Vector3, layout: Layout)
            -> ([Float], [Float])
        {
            let columns = layout.columns, rows = layout.rows
            // The tangent along one direction at a cell: central where both sides agree, else the
            // side with the smaller depth step.
            @Sendable func tangent(_ p: Vector3, _ before: Vector3?, _ after: Vector3?) -> Vector3? {
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
            // Rows of cells in parallel: each cell's value depends only on the points, and a 12 MP picture has
            // 190 000 cells of a dozen powers each.
            var cells = BandParallel.fill(count: columns * rows, rows: rows, of: SIMD2<Float>.self) { band, out in
                for cy in band {
                    for cx in 0..<columns {
                        guard let p = points[cy * columns + cx] else {
                            out[cy * columns + cx] = .zero
                            continue
                        }
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
                        out[cy * columns + cx] = SIMD2(Float(irradiance.beam(at: p, centre: centroid)), Float(e))
                    }
                }
            }
            var known = points.map { $0 != nil }
            // Cells without depth take the mean of their known 4-neighbours, ring by ring (`TileFill`).
            TileFill.fillInward(&cells, known: &known, width: columns, height: rows)
            return (cells.map { $0.x }, cells.map { $0.y })
        }

        /// The irradiance at pixel (x, y), lux.
        public func value(x: Int, y: Int) -> Double { Double(row(y)[x]) }

        /// The irradiance of every pixel of row `y`, lux.
        public func row(_ y: Int) -> [Float] {
            let rows = Rows(self)
            return [Float](unsafeUninitializedCapacity: width) { buffer, count in
                if let base = buffer.baseAddress { rows.irradiance(row: y, into: base) }
                count = width
            }
        }

        /// Per cell, the irradiance at its centre, lux (cells of `cell` pixels, row-major).
        public var cells: [Double] { cellIrradiance.map(Double.init) }
    }
}
