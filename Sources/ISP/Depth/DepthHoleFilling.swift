import Foundation
import Imaging
import Sensor

/// Edge-aware hole filling of a depth or disparity map, guided by its image: a joint bilateral
/// filter (Kopf et al. 2007, "Joint bilateral upsampling") applied only to the holes.
///
/// Each hole takes the average of the valid values around it, weighted by distance
/// (σ_s, pixels) and by how alike the guide image is at the two pixels (σ_r, guide units). A
/// hole with too little weight around it (all its valid neighbours lie across an image edge)
/// waits for a later pass, when holes on its own side have been filled, so values grow into a
/// hole from the side of the edge they belong to instead of leaking across. Passes use the
/// previous pass's values only, so the result does not depend on scan order. Holes that no
/// guided pass reaches (a region unlike any valid pixel) are filled at the end by distance
/// alone, so a filtered map has no holes (spec §7 `isFilteringEnabled` [D]).
public struct DepthHoleFilling: Sendable, Hashable {
    /// Half-size of the square window, pixels.
    public var radius: Int
    /// Spatial standard deviation, pixels.
    public var spatialSigma: Double
    /// Standard deviation of guide differences (guide values are typically 0…1).
    public var rangeSigma: Double
    /// The least total weight that lets a hole be filled in a guided pass.
    public var minimumWeight: Double

    /// A filter from its values.
    public init(radius: Int = 3, spatialSigma: Double = 2, rangeSigma: Double = 0.05, minimumWeight: Double = 0.05) {
        self.radius = max(1, radius)
        self.spatialSigma = spatialSigma
        self.rangeSigma = rangeSigma
        self.minimumWeight = minimumWeight
    }

    /// The map with its holes filled and `isFiltered` set; `guide` has the map's size.
    ///
    /// The fast path gives `fillReference`'s bits (`DepthFilteringTests`); a stream's depth frames spend most of their
    /// time here. It does the reference's arithmetic in the same order, over flat arrays, with the spatial weights
    /// taken from a table of the same `exp` of the same arguments, and it skips the work whose outcome is already
    /// known (`passes`).
    public func fill(_ map: DepthMap, guide: PixelPlane<Float>) -> DepthMap {
        var values = map.values
        passes(over: &values, width: map.width, height: map.height, guide: guide) {
            current, _, neighbours, weights, total in
            var sum = 0.0
            for i in neighbours.indices { sum += weights[i] * Double(current[Int(neighbours[i])]) }
            return Float(sum / total)
        }
        var out = map.replacingValues(values)
        out.isFiltered = true
        return out
    }

    /// How the maps with `map`'s holes are filled under `guide`: the filling of every such map as a list of weighted
    /// sums, so that a stream whose maps keep their holes from frame to frame computes the weights once.
    ///
    /// Which holes a pass fills, from which neighbours and with which weights, follows from where the holes are and
    /// from the guide alone, never from the values: the plan records them, and `Plan.fill` replays the sums in
    /// `fill`'s order, so that it gives `fill`'s bits.
    public func plan(forHolesOf map: DepthMap, guide: PixelPlane<Float>) -> Plan {
        var values = map.values
        var plan = Plan(guide: guide, holes: values.indices.filter { values[$0].isNaN })
        passes(over: &values, width: map.width, height: map.height, guide: guide) {
            _, hole, neighbours, weights, total in
            plan.filled.append(Int32(hole))
            plan.neighbours.append(contentsOf: neighbours)
            plan.weights.append(contentsOf: weights)
            plan.ends.append(Int32(plan.neighbours.count))
            plan.totals.append(total)
            return 0
        }
        return plan
    }

    /// The filling of every map with given holes under one guide (`DepthHoleFilling.plan(forHolesOf:guide:)`), by
    /// the filter that made it.
    public struct Plan: Sendable {
        /// The guide of the maps it fills.
        let guide: PixelPlane<Float>
        /// The holes of the maps it fills, in increasing order.
        let holes: [Int]
        /// The holes it fills, in the order the passes fill them; for each, where its neighbours end in `neighbours`
        /// and `weights`, and the sum of its weights.
        var filled: [Int32] = []
        var ends: [Int32] = []
        var totals: [Double] = []
        var neighbours: [Int32] = []
        var weights: [Double] = []

        init(guide: PixelPlane<Float>, holes: [Int]) {
            (self.guide, self.holes) = (guide, holes)
        }

        /// The map filled as `DepthHoleFilling.fill` fills it under `guide`, or nil when the guide or the map's holes
        /// are not the plan's, or a value is infinite (a sum with an infinity could come out not-a-number, which the
        /// passes would treat as a hole).
        public func fill(_ map: DepthMap, guide: PixelPlane<Float>) -> DepthMap? {
            guard map.width == guide.width, map.height == guide.height, guide == self.guide else { return nil }
            var values = map.values
            var next = 0
            for (i, v) in values.enumerated() where !v.isFinite {
                guard v.isNaN, next < holes.count, holes[next] == i else { return nil }
                next += 1
            }
            guard next == holes.count else { return nil }
            // A hole's neighbours were all valid before its pass, so a hole filled earlier in the list is never read
            // in the same pass, and the values can be written in place.
            var start = 0
            for (i, hole) in filled.enumerated() {
                let end = Int(ends[i])
                var sum = 0.0
                for j in start..<end { sum += weights[j] * Double(values[Int(neighbours[j])]) }
                values[Int(hole)] = Float(sum / totals[i])
                start = end
            }
            var out = map.replacingValues(values)
            out.isFiltered = true
            return out
        }
    }

    /// The passes over a map's holes that `fill` and `plan` share. Each pass reads the values of the pass before;
    /// `value` gives a hole that has enough weight around it its value from the values of the pass before, the hole,
    /// its valid neighbours (pixel indices, row by row), their weights and the weights' sum.
    ///
    /// It skips the work whose outcome is already known: a hole's outcome depends only on its window, so a hole with
    /// no value in its window is not visited, and a hole that stayed a hole is visited again only after a pixel of
    /// its window was filled (or when the unguided finish begins).
    private func passes(
        over values: inout [Float], width w: Int, height h: Int, guide: PixelPlane<Float>,
        value: (UnsafeBufferPointer<Float>, Int, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Double>, Double) ->
            Float
    ) {
        precondition(guide.width == w && guide.height == h, "the guide must have the map's size")
        let guideValues = (0..<(w * h)).map { guide[$0 % w, $0 / w] }
        var holes = values.indices.filter { values[$0].isNaN }
        // The pass in which a pixel's window last gained a value, or was found to hold one.
        var touched = [Int](repeating: -1, count: w * h)
        var passNumber = 0
        var candidates = reachable(holes, in: values, width: w, height: h, stamp: passNumber, touched: &touched)
        let spatial = spatialWeights()
        var guided = true
        while !holes.isEmpty {
            let filled = values.withUnsafeBufferPointer { current in
                guideValues.withUnsafeBufferPointer { g in
                    spatial.withUnsafeBufferPointer { s in
                        pass(
                            current, width: w, height: h, guide: guided ? g : nil, holes: candidates, spatial: s,
                            value: value)
                    }
                }
            }
            passNumber += 1
            if filled.isEmpty {
                // Nothing more can be reached through similar pixels: finish by distance alone.
                guard guided else { break }
                guided = false
                candidates = reachable(holes, in: values, width: w, height: h, stamp: passNumber, touched: &touched)
                continue
            }
            for (p, v) in filled { values[p] = v }
            holes.removeAll { !values[$0].isNaN }
            mark(filled.lazy.map(\.0), width: w, height: h, stamp: passNumber, touched: &touched)
            candidates = holes.filter { touched[$0] == passNumber }
        }
    }

    /// The holes with a valid value in their window: the others have no weight, so a pass need not visit them.
    /// Whichever is less work: marking the windows of the valid pixels, or looking around each hole.
    private func reachable(
        _ holes: [Int], in values: [Float], width w: Int, height h: Int, stamp: Int, touched: inout [Int]
    ) -> [Int] {
        guard values.count - holes.count < holes.count else { return holes }
        mark(values.indices.lazy.filter { !values[$0].isNaN }, width: w, height: h, stamp: stamp, touched: &touched)
        return holes.filter { touched[$0] == stamp }
    }

    /// Stamps every pixel whose window holds one of `pixels`.
    private func mark(
        _ pixels: some Sequence<Int>, width w: Int, height h: Int, stamp: Int, touched: inout [Int]
    ) {
        touched.withUnsafeMutableBufferPointer { t in
            for p in pixels {
                let (x, y) = (p % w, p / w)
                let (x0, x1) = (max(0, x - radius), min(w - 1, x + radius))
                for qy in max(0, y - radius)...min(h - 1, y + radius) {
                    t[(qy * w + x0)...(qy * w + x1)].update(repeating: stamp)
                }
            }
        }
    }

    /// exp(−d² / 2σ_s²) for each offset of the window, row by row from (−radius, −radius).
    private func spatialWeights() -> [Double] {
        let s2 = 2 * spatialSigma * spatialSigma
        return (-radius...radius).flatMap { dy in
            (-radius...radius).map { dx in exp(-Double(dx * dx + dy * dy) / s2) }
        }
    }

    /// One pass over some holes: the ones it fills, with their values.
    private func pass(
        _ values: UnsafeBufferPointer<Float>, width w: Int, height h: Int, guide: UnsafeBufferPointer<Float>?,
        holes: [Int], spatial: UnsafeBufferPointer<Double>,
        value: (UnsafeBufferPointer<Float>, Int, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Double>, Double) ->
            Float
    ) -> [(Int, Float)] {
        var filled: [(Int, Float)] = []
        let r2 = 2 * rangeSigma * rangeSigma
        let side = 2 * radius + 1
        let least = guide == nil ? 1e-12 : minimumWeight
        var neighbours = [Int32](repeating: 0, count: side * side)
        var weights = [Double](repeating: 0, count: side * side)
        neighbours.withUnsafeMutableBufferPointer { n in
            weights.withUnsafeMutableBufferPointer { k in
                for p in holes {
                    let (x, y) = (p % w, p / w)
                    var count = 0
                    var weight = 0.0
                    let g = guide.map { Double($0[p]) } ?? 0
                    for qy in max(0, y - radius)...min(h - 1, y + radius) {
                        let row = (qy - y + radius) * side + radius - x
                        for qx in max(0, x - radius)...min(w - 1, x + radius) {
                            let q = qy * w + qx
                            guard !values[q].isNaN else { continue }
                            var kq = spatial[row + qx]
                            if let guide {
                                let dg = Double(guide[q]) - g
                                kq *= exp(-dg * dg / r2)
                            }
                            n[count] = Int32(q)
                            k[count] = kq
                            count += 1
                            weight += kq
                        }
                    }
                    guard weight >= least else { continue }
                    let used = (UnsafeBufferPointer(rebasing: n[..<count]), UnsafeBufferPointer(rebasing: k[..<count]))
                    filled.append((p, value(values, p, used.0, used.1, weight)))
                }
            }
        }
        return filled
    }

    /// The plain statement of the filter, pixel by pixel over the whole map in every pass, with each weight computed
    /// where it is used: what `fill` is tested against.
    public func fillReference(_ map: DepthMap, guide: PixelPlane<Float>) -> DepthMap {
        precondition(guide.width == map.width && guide.height == map.height, "the guide must have the map's size")
        var values = map.values
        var guided = true
        while values.contains(where: \.isNaN) {
            let (next, changed) = referencePass(
                values, width: map.width, height: map.height, guide: guided ? guide : nil)
            values = next
            if !changed {
                guard guided else { break }
                guided = false
            }
        }
        var out = map.replacingValues(values)
        out.isFiltered = true
        return out
    }

    private func referencePass(_ values: [Float], width w: Int, height h: Int, guide: PixelPlane<Float>?) -> (
        [Float], Bool
    ) {
        var out = values
        var changed = false
        let s2 = 2 * spatialSigma * spatialSigma
        let r2 = 2 * rangeSigma * rangeSigma
        for y in 0..<h {
            for x in 0..<w where values[y * w + x].isNaN {
                var sum = 0.0
                var weight = 0.0
                let g = guide.map { Double($0[x, y]) } ?? 0
                for qy in max(0, y - radius)...min(h - 1, y + radius) {
                    for qx in max(0, x - radius)...min(w - 1, x + radius) {
                        let v = values[qy * w + qx]
                        guard !v.isNaN else { continue }
                        let d2 = Double((qx - x) * (qx - x) + (qy - y) * (qy - y))
                        var k = exp(-d2 / s2)
                        if let guide {
                            let dg = Double(guide[qx, qy]) - g
                            k *= exp(-dg * dg / r2)
                        }
                        sum += k * Double(v)
                        weight += k
                    }
                }
                if weight >= (guide == nil ? 1e-12 : minimumWeight) {
                    out[y * w + x] = Float(sum / weight)
                    changed = true
                }
            }
        }
        return (out, changed)
    }
}
