#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the most prominent quadrilateral in an image: a print, card or document lying on a contrasting surface.
///
/// The method, for each polarity (object brighter or darker than its surroundings):
/// 1. Luma (Rec. 709 weights on the encoded values) on a working copy box-averaged to at most
///    `maximumWorkingSize` pixels a side.
/// 2. Otsu's threshold (Otsu 1979, IEEE SMC-9:62) on a 256-bin histogram.
/// 3. The largest 4-connected region on the object's side of the threshold that does not touch the image border.
/// 4. Sub-pixel edge points: wherever a region pixel has a 4-neighbour outside, the threshold crossing is
///    interpolated linearly between the two pixel centres.
/// 5. Initial corners from the convex hull of those points (the hull point farthest from the centroid, the point
///    farthest from it, and the farthest point on each side of the line through both).
/// 6. Each side is first found robustly among the edge points near it: of the lines through pairs of those points,
///    the one that the most points lie within a pixel of (a consensus search, as in Fischler and Bolles's RANSAC,
///    1981, over a fixed set of pairs so the answer is repeatable). A lamp's glare that joins part of an edge to the
///    background bends the region's outline there; those points leave the line and are outliers, where a
///    least-squares fit would tilt towards them. Then each side is refitted twice by total least squares to the
///    edge points near the line (excluding the ends, where corners are rounded or blurred), and the corners become
///    the intersections of adjacent lines.
/// The candidate with the higher confidence wins (see `DetectedQuadrilateral.confidence`).
public struct QuadrilateralDetector: Sendable, Equatable {
    /// The longest side of the working copy, in pixels; larger images are box-averaged down by an integer factor.
    public var maximumWorkingSize: Int
    /// The smallest quadrilateral reported, as a fraction of the image's shorter side (Vision's `minimumSize`):
    /// the region must cover at least `(minimumSize · shorter side)²` pixels.
    public var minimumSize: Double
    /// The lowest confidence reported.
    public var minimumConfidence: Float

    /// Makes a detector.
    public init(maximumWorkingSize: Int = 640, minimumSize: Double = 0.2, minimumConfidence: Float = 0.3) {
        precondition(maximumWorkingSize >= 16, "the working size must be at least 16 pixels")
        self.maximumWorkingSize = maximumWorkingSize
        self.minimumSize = minimumSize
        self.minimumConfidence = minimumConfidence
    }

    /// The best quadrilateral in `plane` (1–4 channels; alpha ignored), or nil when none passes the limits.
    @_specialize(where Component == UInt8)
    @_specialize(where Component == UInt16)
    @_specialize(where Component == Float)
    public func detect<Component: PixelComponent>(in plane: PixelPlane<Component>) -> DetectedQuadrilateral? {
        guard plane.width >= 8, plane.height >= 8 else { return nil }
        let factor = max(1, (max(plane.width, plane.height) + maximumWorkingSize - 1) / maximumWorkingSize)
        let luma = LumaImage(plane, factor: factor)
        let otsu = luma.otsuThreshold()
        let minimumArea = Int((minimumSize * Double(min(luma.width, luma.height))).rounded(.up))
        var best: (corners: [SIMD2<Double>], confidence: Float)?
        // Otsu's level first, then levels toward each extreme: glare or shading that joins the object to the
        // background at Otsu's level usually separates from it at a stricter one.
        let extremes = luma.values.reduce((Float.infinity, -Float.infinity)) { (min($0.0, $1), max($0.1, $1)) }
        for bright in [true, false] {
            let far = bright ? extremes.1 : extremes.0
            for step in 0..<4 {
                let threshold = otsu.threshold + (far - otsu.threshold) * Float(step) / 5
                guard let region = luma.largestInteriorRegion(threshold: threshold, bright: bright),
                      region.count >= minimumArea * minimumArea,
                      let fit = QuadrilateralFit(luma: luma, region: region, threshold: threshold, bright: bright)
                else { continue }
                let confidence = fit.coverage * otsu.separability
                if confidence > (best?.confidence ?? -1) + 0.02 { best = (fit.corners, confidence) }
            }
        }
        guard let best, best.confidence >= minimumConfidence else { return nil }
        let scale = Double(factor)
        return DetectedQuadrilateral(pixelCorners: best.corners.map { $0 * scale },
                                     width: plane.width, height: plane.height, confidence: best.confidence)
    }

    /// The fewest working pixels a region needs for `candidates(in:)` to fit it: 8 × 8, below which the sides have
    /// too few edge points for the line fits, whatever `minimumSize` allows.
    static let smallestFittedRegion = 64

    /// Every distinct quadrilateral in `plane` at or above `minimumConfidence`, most confident first: what
    /// `detect(in:)` chooses among, for callers that filter by their own rules (Vision's rectangle request keeps
    /// those of the aspect ratios, size and corner angles it is asked for).
    ///
    /// The search is `detect(in:)`'s, except that at each threshold every interior region of at least the minimum
    /// size is fitted, not only the largest, so separate prints on one table are separate candidates. The same
    /// object found at several thresholds is reported once, at its best confidence: two candidates are the same
    /// when every corner of one lies within `sameObjectTolerance` (a fraction of the image's shorter side) of the
    /// other's.
    @_specialize(where Component == UInt8)
    @_specialize(where Component == Float)
    public func candidates<Component: PixelComponent>(
        in plane: PixelPlane<Component>, sameObjectTolerance: Double = 0.02
    ) -> [DetectedQuadrilateral] {
        guard plane.width >= 8, plane.height >= 8 else { return [] }
        let factor = max(1, (max(plane.width, plane.height) + maximumWorkingSize - 1) / maximumWorkingSize)
        let luma = LumaImage(plane, factor: factor)
        let otsu = luma.otsuThreshold()
        let minimumArea = Int((minimumSize * Double(min(luma.width, luma.height))).rounded(.up))
        let extremes = luma.values.reduce((Float.infinity, -Float.infinity)) { (min($0.0, $1), max($0.1, $1)) }
        var found: [(corners: [SIMD2<Double>], confidence: Float)] = []
        let tolerance = sameObjectTolerance * Double(min(luma.width, luma.height))
        func isSame(_ a: [SIMD2<Double>], _ b: [SIMD2<Double>]) -> Bool {
            zip(a, b).allSatisfy { p, q in ((p - q) * (p - q)).sum() <= tolerance * tolerance }
        }
        for bright in [true, false] {
            let far = bright ? extremes.1 : extremes.0
            for step in 0..<4 {
                let threshold = otsu.threshold + (far - otsu.threshold) * Float(step) / 5
                luma.forEachInteriorRegion(threshold: threshold, bright: bright) { region in
                    guard region.count >= max(Self.smallestFittedRegion, minimumArea * minimumArea),
                          let fit = QuadrilateralFit(luma: luma, region: region, threshold: threshold, bright: bright)
                    else { return }
                    let confidence = fit.coverage * otsu.separability
                    guard confidence >= minimumConfidence else { return }
                    if let same = found.firstIndex(where: { isSame($0.corners, fit.corners) }) {
                        if confidence > found[same].confidence { found[same] = (fit.corners, confidence) }
                    } else {
                        found.append((fit.corners, confidence))
                    }
                }
            }
        }
        let scale = Double(factor)
        return found.sorted { $0.confidence > $1.confidence }.map {
            DetectedQuadrilateral(pixelCorners: $0.corners.map { $0 * scale },
                                  width: plane.width, height: plane.height, confidence: $0.confidence)
        }
    }
}

/// A single-channel luma copy of an image, box-averaged by an integer factor.
struct LumaImage {
    let width: Int
    let height: Int
    var values: [Float]

    /// Values already reduced, row by row.
    init(width: Int, height: Int, values: [Float]) {
        precondition(values.count == width * height, "one value per pixel")
        (self.width, self.height, self.values) = (width, height, values)
    }

    init<Component: PixelComponent>(_ plane: PixelPlane<Component>, factor: Int) {
        width = plane.width / factor
        height = plane.height / factor
        var values = [Float](repeating: 0, count: width * height)
        let channels = plane.channels
        let weights: [Float] = channels >= 3 ? [0.2126, 0.7152, 0.0722] : [1]
        let norm = 1 / Float(factor * factor)
        let (width, height, stride) = (width, height, plane.rowStride)
        plane.withUnsafeBufferPointer { buffer in
            for j in 0..<height {
                for i in 0..<width {
                    var sum: Float = 0
                    for y in (j * factor)..<((j + 1) * factor) {
                        let row = y * stride
                        for x in (i * factor)..<((i + 1) * factor) {
                            for (c, w) in weights.enumerated() {
                                sum += w * buffer[row + x * channels + c].normalizedValue
                            }
                        }
                    }
                    values[j * width + i] = sum * norm
                }
            }
        }
        self.values = values
    }

    @inline(__always) subscript(x: Int, y: Int) -> Float { values[y * width + x] }

    /// Luma at a continuous position (nearest pixel, clamped to the image).
    func sample(_ p: SIMD2<Double>) -> Float {
        let x = min(width - 1, max(0, Int(p.x.rounded(.down)))), y = min(height - 1, max(0, Int(p.y.rounded(.down))))
        return self[x, y]
    }

    /// Otsu's threshold over 256 bins of 0…1, and the separability η = σ²_between / σ²_total at it.
    func otsuThreshold() -> (threshold: Float, separability: Float) {
        var histogram = [Double](repeating: 0, count: 256)
        for v in values { histogram[min(255, max(0, Int(v * 255 + 0.5)))] += 1 }
        let total = Double(values.count)
        let mean = histogram.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element } / total
        let variance = histogram.enumerated().reduce(0) {
            $0 + (Double($1.offset) - mean) * (Double($1.offset) - mean) * $1.element
        } / total
        var weight0 = 0.0, sum0 = 0.0, bestBetween = -1.0, bestLevel = 0
        for level in 0..<255 {
            weight0 += histogram[level]
            sum0 += Double(level) * histogram[level]
            let weight1 = total - weight0
            guard weight0 > 0, weight1 > 0 else { continue }
            let mean0 = sum0 / weight0, mean1 = (mean * total - sum0) / weight1
            let between = weight0 * weight1 / (total * total) * (mean0 - mean1) * (mean0 - mean1)
            if between > bestBetween { bestBetween = between; bestLevel = level }
        }
        // Pixels at or below `bestLevel` form the dark class; the threshold sits halfway to the next bin.
        let separability = variance > 0 ? Float(bestBetween / variance) : 0
        return ((Float(bestLevel) + 0.5) / 255, separability)
    }

    /// Whether pixel `index` lies on the object's side of the threshold.
    @inline(__always) func isObject(_ index: Int, threshold: Float, bright: Bool) -> Bool {
        bright ? values[index] > threshold : values[index] <= threshold
    }

    /// The pixel indices of the largest 4-connected object region that does not touch the border.
    func largestInteriorRegion(threshold: Float, bright: Bool) -> [Int]? {
        var best: [Int]? = nil
        forEachInteriorRegion(threshold: threshold, bright: bright) { region in
            if region.count > (best?.count ?? 0) { best = region }
        }
        return best
    }

    /// Calls `body` with the pixel indices of each 4-connected object region that does not touch the border, in
    /// the order of their first pixel in raster order.
    func forEachInteriorRegion(threshold: Float, bright: Bool, _ body: ([Int]) -> Void) {
        var label = [Int32](repeating: 0, count: values.count)
        var stack: [Int] = []
        var current: [Int] = []
        var next: Int32 = 0
        for start in 0..<values.count where label[start] == 0 && isObject(start, threshold: threshold, bright: bright) {
            next += 1
            label[start] = next
            stack.append(start)
            current.removeAll(keepingCapacity: true)
            var touchesBorder = false
            while let index = stack.popLast() {
                current.append(index)
                let x = index % width, y = index / width
                if x == 0 || y == 0 || x == width - 1 || y == height - 1 { touchesBorder = true }
                for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let nx = x + dx, ny = y + dy
                    guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                    let n = ny * width + nx
                    if label[n] == 0 && isObject(n, threshold: threshold, bright: bright) {
                        label[n] = next
                        stack.append(n)
                    }
                }
            }
            if !touchesBorder { body(current) }
        }
    }
}

/// Four lines fitted to a region's outline, and how well the image supports them.
struct QuadrilateralFit {
    /// Corners in working pixel coordinates, top-left, top-right, bottom-right, bottom-left (as seen on screen).
    var corners: [SIMD2<Double>]
    /// Fraction of probe points along the sides where luma steps across the threshold.
    var coverage: Float

    init?(luma: LumaImage, region: [Int], threshold: Float, bright: Bool) {
        var inRegion = [Bool](repeating: false, count: luma.values.count)
        for index in region { inRegion[index] = true }
        // Sub-pixel threshold crossings between region pixels and their outside 4-neighbours.
        var points: [SIMD2<Double>] = []
        for index in region {
            let x = index % luma.width, y = index / luma.width
            let centre = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
            for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let n = (y + dy) * luma.width + (x + dx)
                guard !inRegion[n] else { continue }
                let inside = luma.values[index], outside = luma.values[n]
                let t = inside != outside ? Double((inside - threshold) / (inside - outside)) : 0.5
                points.append(centre + SIMD2(Double(dx), Double(dy)) * min(1, max(0, t)))
            }
        }
        guard points.count >= 8 else { return nil }
        let hull = ConvexHull.of(points)
        guard hull.count >= 4, var corners = QuadrilateralFit.initialCorners(hull) else { return nil }
        for pass in 0..<3 {
            var lines: [Line] = []
            for k in 0..<4 {
                let a = corners[k], b = corners[(k + 1) % 4]
                let line = pass == 0
                    ? Line.firstFit(points, near: a, b) : Line.fit(points, near: a, b, gate: pass == 1 ? 3.0 : 1.5)
                guard let line else { return nil }
                lines.append(line)
            }
            var refined: [SIMD2<Double>] = []
            for k in 0..<4 {
                guard let p = lines[(k + 3) % 4].intersection(lines[k]) else { return nil }
                refined.append(p)
            }
            corners = refined
        }
        self.corners = corners
        coverage = QuadrilateralFit.coverage(corners, luma: luma, threshold: threshold, bright: bright)
    }

    /// Four hull points spanning the largest quadrilateral found by farthest-point search, in screen order.
    static func initialCorners(_ hull: [SIMD2<Double>]) -> [SIMD2<Double>]? {
        func squaredDistance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum() }
        let centroid = hull.reduce(SIMD2<Double>.zero, +) / Double(hull.count)
        guard let first = hull.max(by: { squaredDistance($0, centroid) < squaredDistance($1, centroid) }),
              let second = hull.max(by: { squaredDistance($0, first) < squaredDistance($1, first) })
        else { return nil }
        let axis = second - first
        func side(_ p: SIMD2<Double>) -> Double { axis.x * (p.y - first.y) - axis.y * (p.x - first.x) }
        guard let third = hull.max(by: { side($0) < side($1) }), let fourth = hull.min(by: { side($0) < side($1) }),
              side(third) > 0, side(fourth) < 0
        else { return nil }
        return screenOrder([first, third, second, fourth])
    }

    /// Sorts four corners clockwise on screen (y down), starting from the one nearest the top-left.
    static func screenOrder(_ corners: [SIMD2<Double>]) -> [SIMD2<Double>] {
        let centre = corners.reduce(SIMD2<Double>.zero, +) / 4
        // atan2 with y down increases clockwise on screen.
        let clockwise = corners.sorted { atan2Approx($0 - centre) < atan2Approx($1 - centre) }
        let startIndex = clockwise.indices.min { clockwise[$0].sum() < clockwise[$1].sum() } ?? 0
        return (0..<4).map { clockwise[(startIndex + $0) % 4] }
    }

    /// A monotonic stand-in for atan2 (pseudo-angle in 0..<4), enough for sorting directions.
    static func atan2Approx(_ v: SIMD2<Double>) -> Double {
        let p = v.x / (abs(v.x) + abs(v.y))
        return v.y < 0 ? 3 + p : 1 - p
    }

    /// The fraction of 32 probes per side where luma 1.5 px inside is on the object side and 1.5 px outside is not.
    static func coverage(_ corners: [SIMD2<Double>], luma: LumaImage, threshold: Float, bright: Bool) -> Float {
        let centre = corners.reduce(SIMD2<Double>.zero, +) / 4
        var hits = 0, probes = 0
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            let direction = b - a
            let length = (direction * direction).sum().squareRoot()
            guard length > 0 else { return 0 }
            var normal = SIMD2(-direction.y, direction.x) / length
            if ((a - centre) * normal).sum() < 0 { normal = -normal }
            for s in 0..<32 {
                let p = a + direction * (0.05 + 0.9 * (Double(s) + 0.5) / 32)
                let inside = luma.sample(p - normal * 1.5), outside = luma.sample(p + normal * 1.5)
                let ok = bright
                    ? inside > threshold && outside <= threshold : inside <= threshold && outside > threshold
                if ok { hits += 1 }
                probes += 1
            }
        }
        return Float(hits) / Float(probes)
    }
}

/// A line `normal · p = offset` with a unit normal.
struct Line {
    var normal: SIMD2<Double>
    var offset: Double

    /// The first line of an edge: the gated least-squares fit, unless the consensus line has more of the
    /// edge's points within a pixel and a half of it. A clean edge keeps the least-squares fit, which uses
    /// every point; glare that bends part of the edge's points away loses to the consensus line.
    static func firstFit(_ points: [SIMD2<Double>], near a: SIMD2<Double>, _ b: SIMD2<Double>) -> Line? {
        let gated = fit(points, near: a, b, gate: 3.0)
        guard let robust = consensus(points, near: a, b) else { return gated }
        guard let gated else { return robust }
        func support(_ line: Line) -> Int {
            let direction = b - a
            let lengthSquared = (direction * direction).sum()
            guard lengthSquared > 0 else { return 0 }
            return points.reduce(0) { count, p in
                let t = ((p - a) * direction).sum() / lengthSquared
                guard t > 0.1, t < 0.9 else { return count }
                return count + (abs((p * line.normal).sum() - line.offset) <= 1.5 ? 1 : 0)
            }
        }
        return support(robust) > support(gated) + support(gated) / 10 ? robust : gated
    }

    /// The total-least-squares line through the points within `gate` of segment `a`–`b`, ignoring its outer 10 %.
    static func fit(_ points: [SIMD2<Double>], near a: SIMD2<Double>, _ b: SIMD2<Double>, gate: Double) -> Line? {
        let direction = b - a
        let lengthSquared = (direction * direction).sum()
        guard lengthSquared > 0 else { return nil }
        let length = lengthSquared.squareRoot()
        let normal = SIMD2(-direction.y, direction.x) / length
        var sum = SIMD2<Double>.zero, count = 0.0
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for p in points {
            let t = ((p - a) * direction).sum() / lengthSquared
            guard t > 0.1, t < 0.9, abs(((p - a) * normal).sum()) <= gate else { continue }
            sum += p
            count += 1
            sxx += p.x * p.x
            sxy += p.x * p.y
            syy += p.y * p.y
        }
        guard count >= 2 else { return nil }
        let mean = sum / count
        let cxx = sxx / count - mean.x * mean.x, cxy = sxy / count - mean.x * mean.y
        let cyy = syy / count - mean.y * mean.y
        // The normal is the eigenvector of the smaller eigenvalue of the 2 × 2 covariance.
        let angle = 0.5 * atan2(2 * cxy, cxx - cyy)
        let along = SIMD2(cos(angle), sin(angle))
        let fitted = SIMD2(-along.y, along.x)
        return Line(normal: fitted, offset: (fitted * mean).sum())
    }

    /// The line most of the edge points near segment `a`–`b` (within a fifth of its length, ignoring its outer
    /// 10 %) lie on: among the lines through fixed pairs of those points, the one with the most points within a
    /// pixel, refitted by total least squares to those points. Nil with too few points.
    static func consensus(_ points: [SIMD2<Double>], near a: SIMD2<Double>, _ b: SIMD2<Double>) -> Line? {
        let direction = b - a
        let lengthSquared = (direction * direction).sum()
        guard lengthSquared > 0 else { return nil }
        let length = lengthSquared.squareRoot()
        let normal = SIMD2(-direction.y, direction.x) / length
        let near = points.filter { p in
            let t = ((p - a) * direction).sum() / lengthSquared
            return t > 0.1 && t < 0.9 && abs(((p - a) * normal).sum()) <= 0.2 * length
        }.sorted { ($0 * direction).sum() < ($1 * direction).sum() }
        guard near.count >= 8 else { return nil }
        // Pairs a quarter to half the run apart, at 64 evenly spaced starts: long baselines, repeatable.
        var best: (inliers: Int, line: Line)?
        let n = near.count
        for s in 0..<64 {
            let i = s * n / 64
            for span in [n / 4, n / 3, n / 2] where i + span < n && span > 0 {
                let p = near[i], q = near[i + span]
                let d = q - p
                let l = (d * d).sum().squareRoot()
                guard l > 0 else { continue }
                let m = SIMD2(-d.y, d.x) / l
                let offset = (m * p).sum()
                let inliers = near.reduce(0) { $0 + (abs(($1 * m).sum() - offset) <= 1 ? 1 : 0) }
                if inliers > (best?.inliers ?? 0) { best = (inliers, Line(normal: m, offset: offset)) }
            }
        }
        guard let best else { return nil }
        let kept = near.filter { abs(($0 * best.line.normal).sum() - best.line.offset) <= 1 }
        return total(kept) ?? best.line
    }

    /// The total-least-squares line through the points; nil with fewer than two.
    static func total(_ points: [SIMD2<Double>]) -> Line? {
        guard points.count >= 2 else { return nil }
        let count = Double(points.count)
        let mean = points.reduce(SIMD2<Double>.zero, +) / count
        var cxx = 0.0, cxy = 0.0, cyy = 0.0
        for p in points {
            let d = p - mean
            cxx += d.x * d.x
            cxy += d.x * d.y
            cyy += d.y * d.y
        }
        let angle = 0.5 * atan2(2 * cxy, cxx - cyy)
        let along = SIMD2(cos(angle), sin(angle))
        let fitted = SIMD2(-along.y, along.x)
        return Line(normal: fitted, offset: (fitted * mean).sum())
    }

    /// The point on both lines, or nil for (nearly) parallel lines.
    func intersection(_ other: Line) -> SIMD2<Double>? {
        let det = normal.x * other.normal.y - normal.y * other.normal.x
        guard abs(det) > 1e-9 else { return nil }
        return SIMD2((offset * other.normal.y - normal.y * other.offset) / det,
                     (normal.x * other.offset - offset * other.normal.x) / det)
    }
}

/// Andrew's monotone chain convex hull, counter-clockwise in a y-up frame.
enum ConvexHull {
    static func of(_ points: [SIMD2<Double>]) -> [SIMD2<Double>] {
        let sorted = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count > 2 else { return sorted }
        func cross(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var hull: [SIMD2<Double>] = []
        for pass in 0..<2 {
            let start = hull.count
            for p in pass == 0 ? sorted : sorted.reversed() {
                while hull.count >= start + 2 && cross(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 {
                    hull.removeLast()
                }
                hull.append(p)
            }
            hull.removeLast()
        }
        return hull
    }
}
