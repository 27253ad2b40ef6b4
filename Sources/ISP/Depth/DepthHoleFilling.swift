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
    /// The fast path: `fillReference`'s arithmetic in the same order, over flat arrays, visiting only the holes,
    /// with the spatial weights taken from a table of the same `exp` of the same arguments, so that it gives the
    /// reference's bits (`DepthFilteringTests`). A stream's depth frames spend most of their time here.
    public func fill(_ map: DepthMap, guide: PixelPlane<Float>) -> DepthMap {
        precondition(guide.width == map.width && guide.height == map.height, "the guide must have the map's size")
        let (w, h) = (map.width, map.height)
        let guideValues = (0..<(w * h)).map { guide[$0 % w, $0 / w] }
        var values = map.values
        var holes = values.indices.filter { values[$0].isNaN }
        let spatial = spatialWeights()
        var guided = true
        while !holes.isEmpty {
            let (next, left) = values.withUnsafeBufferPointer { current in
                guideValues.withUnsafeBufferPointer { g in
                    pass(current, width: w, height: h, guide: guided ? g : nil, holes: holes, spatial: spatial)
                }
            }
            let changed = left.count < holes.count
            values = next
            holes = left
            if !changed {
                // Nothing more can be reached through similar pixels: finish by distance alone.
                guard guided else { break }
                guided = false
            }
        }
        var out = map.replacingValues(values)
        out.isFiltered = true
        return out
    }

    /// exp(−d² / 2σ_s²) for each offset of the window, row by row from (−radius, −radius).
    private func spatialWeights() -> [Double] {
        let s2 = 2 * spatialSigma * spatialSigma
        return (-radius...radius).flatMap { dy in
            (-radius...radius).map { dx in exp(-Double(dx * dx + dy * dy) / s2) }
        }
    }

    /// One pass over the holes: the filled values, and the holes still left.
    private func pass(
        _ values: UnsafeBufferPointer<Float>, width w: Int, height h: Int, guide: UnsafeBufferPointer<Float>?,
        holes: [Int], spatial: [Double]
    ) -> ([Float], [Int]) {
        var out = Array(values)
        var left: [Int] = []
        let r2 = 2 * rangeSigma * rangeSigma
        let side = 2 * radius + 1
        let least = guide == nil ? 1e-12 : minimumWeight
        for p in holes {
            let (x, y) = (p % w, p / w)
            var sum = 0.0
            var weight = 0.0
            let g = guide.map { Double($0[p]) } ?? 0
            for qy in max(0, y - radius)...min(h - 1, y + radius) {
                let row = (qy - y + radius) * side + radius - x
                for qx in max(0, x - radius)...min(w - 1, x + radius) {
                    let v = values[qy * w + qx]
                    guard !v.isNaN else { continue }
                    var k = spatial[row + qx]
                    if let guide {
                        let dg = Double(guide[qy * w + qx]) - g
                        k *= exp(-dg * dg / r2)
                    }
                    sum += k * Double(v)
                    weight += k
                }
            }
            if weight >= least {
                out[p] = Float(sum / weight)
            } else {
                left.append(p)
            }
        }
        return (out, left)
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
