import Imaging
import Scenes

/// A primitive's primary-ray test in single precision, with the camera origin folded in.
///
/// Primary rays all leave the camera, so the origin's terms are fixed per primitive. The test
/// picks which primitive a pixel sees; the winner's distance is then recomputed in double
/// precision (`Primitive.refinedDistance`), so depth keeps double accuracy. Single precision moves
/// an outline by about 10⁻⁷ of the distance (a few thousandths of a pixel at 12 MP), which decides
/// only rays that graze an edge; four Float lanes test four rays in the time a `SIMD3<Double>`
/// tests one.
struct PrimaryShape {
    /// The columns of the world-to-local rotation with the camera's offset from the centre in w:
    /// for a direction d, dx·c0 + dy·c1 + dz·c2 holds the local direction in xyz and b = oc·d in w.
    var c0: SIMD4<Float>
    var c1: SIMD4<Float>
    var c2: SIMD4<Float>
    /// The camera in the local frame (w = 0).
    var local: SIMD4<Float>
    /// Half extents (plane, box) or radius (sphere, disc) in x; w = 0.
    var size: SIMD4<Float>
    /// |oc|² − R² of the bounding sphere (R widened by 10⁻⁵ so single-precision rounding never
    /// rejects a ray the exact test would keep).
    var c: Float
    /// |oc|² − r² of a sphere itself.
    var sphereC: Float
    var kind: Primitive.Kind
    /// Whether the shape is flat (a ray leaving its visible side never meets it again).
    var flat: Bool
    /// An untextured flat shape: one world normal and one material for every hit, so the hit
    /// needs no surface lookup (and no copy of the whole `Primitive`).
    var plain: Bool
    var normal: Vector3
    var material: Int
    /// `material` as the geometry cache stores it (the renderer keeps material indices below 65535).
    var materialID: UInt16
    var object: UInt16
    /// A lower bound on the distance of any hit: |oc| − R, and for a flat shape the camera's height
    /// above its plane (t·|d_z| = |o_z| with |d_z| ≤ 1), less 10⁻⁵ of itself for rounding. Candidates
    /// sorted by it let a pixel stop at the first whose bound is beyond its nearest hit.
    var nearBound: Float
    /// The double-precision terms of a flat shape's hit distance (`Primitive.refinedDistance`): the
    /// local frame's normal row and the camera's local height, as `Primitive.prepare` computes it.
    var row2: Vector3
    var localZ: Double
    /// A flat shape whose hits the primary rays' second sweep finishes itself: untextured, or a
    /// grid card (`card`; its cell lookup needs the local point, `toLocal` of the offset from
    /// `position`, as `Primitive.surface` computes it).
    var finish: Bool
    var grid: Bool
    var card: GridCard
    var toLocal: Rotation
    var position: Vector3
    /// The world normal as a primary hit of a flat shape reports it: turned towards the camera.
    /// Every ray leaving the camera meets the plane from the camera's side, so where that side is
    /// decided beyond rounding the per-pixel test n·d > 0 gives this sign for every hit up to
    /// `facingReach`.
    var facing: Vector3
    /// The distance up to which `facing` holds; −1 where it is not shown (the per-pixel test decides).
    var facingReach: Double
    /// The packet test's terms (`distances`) broadcast to all four lanes once here, not per test:
    /// the columns' local x, y, z and w rows, the camera's local point (z negated), the half sizes
    /// and their negations, the disc's squared radius and the sphere's c.
    var lanes: Broadcast

    struct Broadcast {
        var x0, x1, x2, y0, y1, y2, z0, z1, z2, w0, w1, w2: SIMD4<Float>
        var localX, localY, minusLocalZ: SIMD4<Float>
        var sizeX, sizeY, minusSizeX, minusSizeY, radiusSquared, sphereC: SIMD4<Float>
    }

    init(_ p: Primitive, origin: Vector3) {
        let oc = origin - p.position
        let r0 = p.toLocal.row0
        let r1 = p.toLocal.row1
        let r2 = p.toLocal.row2
        c0 = SIMD4(Float(r0.x), Float(r1.x), Float(r2.x), Float(oc.x))
        c1 = SIMD4(Float(r0.y), Float(r1.y), Float(r2.y), Float(oc.y))
        c2 = SIMD4(Float(r0.z), Float(r1.z), Float(r2.z), Float(oc.z))
        let o = p.toLocal.rotate(oc)
        local = SIMD4(Float(o.x), Float(o.y), Float(o.z), 0)
        size = SIMD4(Float(p.size.x), Float(p.size.y), Float(p.size.z), 0)
        let wide = p.boundingRadius * (1 + 1e-5)
        c = Float(oc.dot(oc) - wide * wide)
        sphereC = Float(oc.dot(oc) - p.size.x * p.size.x)
        kind = p.kind
        flat = p.kind == .plane || p.kind == .disc
        plain = flat && p.texture == .none
        material = p.materialBase
        materialID = UInt16(p.materialBase)
        object = p.object
        var bound = oc.length - p.boundingRadius
        if flat { bound = max(bound, abs(o.z)) }
        nearBound = Float(max(bound, 0) * (1 - 1e-5))
        row2 = p.toLocal.row2
        localZ = p.prepare(origin: origin).local.z
        grid = p.kind == .plane && p.texture == .grid
        finish = plain || grid
        card = GridCard(p)
        toLocal = p.toLocal
        position = p.position
        // The normal `Primitive.surface` gives a textured flat hit (the plane normal otherwise).
        let n = p.texture == .none ? p.planeNormal : p.toWorld.rotate(Vector3(0, 0, 1))
        normal = n
        // A hit the second sweep finishes has t = −localZ / (row2·d) > 0, so row2·d has the sign
        // opposite to localZ. For a hit at t ≤ D (twice the farthest point's distance, which holds
        // every hit inside the shape), |row2·d| ≥ |localZ| / D. Where that margin exceeds 10⁻¹² and
        // n matches row2 to 10⁻¹⁴, n·d has the same sign as row2·d. The caller checks t ≤ D on the
        // double-precision distance itself: a grazing ray that the Float test let through may have a
        // larger one.
        let far = 2 * (oc.length + p.boundingRadius)
        let gap = n - row2
        let rowGap = max(abs(gap.x), abs(gap.y), abs(gap.z))
        let known = flat && abs(localZ) / far > 1e-12 && rowGap < 1e-14
        facing = known && localZ < 0 ? -n : n
        facingReach = known ? far : -1
        let (c0, c1, c2, local, size) = (c0, c1, c2, local, size)
        func all(_ v: Float) -> SIMD4<Float> { SIMD4(repeating: v) }
        lanes = Broadcast(
            x0: all(c0.x), x1: all(c1.x), x2: all(c2.x), y0: all(c0.y), y1: all(c1.y), y2: all(c2.y),
            z0: all(c0.z), z1: all(c1.z), z2: all(c2.z), w0: all(c0.w), w1: all(c1.w), w2: all(c2.w),
            localX: all(local.x), localY: all(local.y), minusLocalZ: all(-local.z),
            sizeX: all(size.x), sizeY: all(size.y), minusSizeX: all(-size.x), minusSizeY: all(-size.y),
            radiusSquared: all(size.x * size.x), sphereC: all(sphereC))
    }

    /// The grid card's material index (before `material`) at world hit point `p`.
    @inline(__always) func gridMaterial(at p: Vector3) -> Int {
        card.material(at: toLocal.rotate(p - position))
    }

    /// `Primitive.refinedDistance` of a flat shape, operation for operation, from this shape's copy
    /// of its terms.
    @inline(__always) func flatDistance(_ direction: Vector3) -> Double {
        let t = -localZ / (row2 * direction).sum()
        return t > 1e-9 && t < .infinity ? t : .infinity
    }

    /// The approximate hit distance along the unit direction whose components are broadcast in
    /// `dx`, `dy`, `dz`, if below `tMax`; else `.infinity`.
    @inline(__always) func distance(
        _ dx: SIMD4<Float>, _ dy: SIMD4<Float>, _ dz: SIMD4<Float>, tMax: Float
    ) -> Float {
        let ld = dx * c0 + dy * c1 + dz * c2
        let b = ld.w
        // The bounding-sphere cut only pays before the slab test of a box: a flat shape's own
        // test is as cheap as the cut, and a sphere's is the cut (see below), so they skip it.
        switch kind {
        case .plane, .disc:
            guard abs(ld.z) > 1e-9 else { return .infinity }
            let t = -local.z / ld.z
            guard t > 0 && t < tMax else { return .infinity }
            let p = local + t * ld
            if kind == .plane {
                if abs(p.x) > size.x || abs(p.y) > size.y { return .infinity }
            } else if p.x * p.x + p.y * p.y > size.x * size.x {
                return .infinity
            }
            return t
        case .sphere:
            // Seen from outside (|oc|² > r²) with b > 0, both roots are negative: -b ± s < 0.
            let disc = b * b - sphereC
            guard disc >= 0 else { return .infinity }
            let s = disc.squareRoot()
            let t = -b - s > 0 ? -b - s : -b + s
            return t > 0 && t < tMax ? t : .infinity
        case .box:
            return PrimaryShape.box(ld, local: local, size: size, c: c, tMax: tMax)
        }
    }

    /// The box test of `distance` on the local direction `ld` (b = oc·d in w), from the terms it
    /// needs alone, so a caller per lane passes no copy of the whole shape.
    @inline(__always) static func box(
        _ ld: SIMD4<Float>, local: SIMD4<Float>, size: SIMD4<Float>, c: Float, tMax: Float
    ) -> Float {
        let b = ld.w
        if c > 0 && (b > 0 || b * b - c < 0) { return .infinity }
        let inv = 1 / ld
        let t1 = (-size - local) * inv
        let t2 = (size - local) * inv
        let lo = Primitive.lower(t1, t2)
        let hi = Primitive.upper(t1, t2)
        let near = max(lo.x, max(lo.y, lo.z))
        let far = min(hi.x, min(hi.y, hi.z))
        guard near <= far else { return .infinity }
        let t = near > 0 ? near : far
        return t > 0 && t < tMax ? t : .infinity
    }

    /// `distance` for four rays at once, one per lane (their directions' components in `dx`, `dy`,
    /// `dz`), each against its own `tMax`. Flat shapes and spheres run lane-wise the same Float
    /// operations in the same order as `distance`, so every lane gives the bits `distance` gives;
    /// a box runs `box`, the scalar test, lane by lane (its slab test's min and max would need the
    /// scalar functions' tie and NaN rules per lane).
    @inline(__always) func distances(
        _ dx: SIMD4<Float>, _ dy: SIMD4<Float>, _ dz: SIMD4<Float>, tMax: SIMD4<Float>
    ) -> SIMD4<Float> {
        let none = SIMD4<Float>(repeating: .infinity)
        let l = lanes
        switch kind {
        case .plane, .disc:
            let lz = dx * l.z0 + dy * l.z1 + dz * l.z2
            let t = l.minusLocalZ / lz
            // abs(lz) > 1e-9 and the range test; a lane whose t is NaN fails both as in `distance`.
            var ok = (lz .> 1e-9 .| lz .< -1e-9) .& (t .> 0) .& (t .< tMax)
            guard any(ok) else { return none }
            let px = l.localX + t * (dx * l.x0 + dy * l.x1 + dz * l.x2)
            let py = l.localY + t * (dx * l.y0 + dy * l.y1 + dz * l.y2)
            if kind == .plane {
                // abs(p) > size as p > size or p < −size: negation is exact.
                ok .&= .!(px .> l.sizeX .| px .< l.minusSizeX .| py .> l.sizeY .| py .< l.minusSizeY)
            } else {
                ok .&= .!(px * px + py * py .> l.radiusSquared)
            }
            return none.replacing(with: t, where: ok)
        case .sphere:
            let b = dx * l.w0 + dy * l.w1 + dz * l.w2
            let disc = b * b - l.sphereC
            let real = disc .>= 0
            guard any(real) else { return none }
            // Lane by lane: the generic vector square root is far slower on the baseline target.
            let s = SIMD4(disc[0].squareRoot(), disc[1].squareRoot(), disc[2].squareRoot(), disc[3].squareRoot())
            let near = -b - s
            let t = (-b + s).replacing(with: near, where: near .> 0)
            return none.replacing(with: t, where: real .& (t .> 0) .& (t .< tMax))
        case .box:
            var h = none
            for j in 0..<4 {
                let ld = SIMD4(repeating: dx[j]) * c0 + SIMD4(repeating: dy[j]) * c1 + SIMD4(repeating: dz[j]) * c2
                h[j] = PrimaryShape.box(ld, local: local, size: size, c: c, tMax: tMax[j])
            }
            return h
        }
    }
}
