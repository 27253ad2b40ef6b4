import Imaging
import Scenes

/// Primary hits: the nearest surface along each ray of a tile, depth and ids, and the bounds of
/// each primitive's hit points.
extension GeometryPass {
    /// Primary rays of one tile: nearest hits, surface lookup, depth and ids, and the per-primitive
    /// bounds of hit points (`groups`).
    @inline(never) func primaryHits(
        _ tile: Tile, candidates: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>,
        shapes: UnsafeBufferPointer<PrimaryShape>, prepared: UnsafeBufferPointer<Primitive.Prepared>,
        texels: UnsafeBufferPointer<UInt16>, s: Scratch, rays: PrimaryRays, groups: inout [Int], output: Output
    ) {
        // Two sweeps: the single-precision search alone first (its winner parked in `hitPrim`),
        // then the double-precision distance and the bookkeeping: two short loops measured faster
        // than one that does both.
        GeometryPass.nearestShapes(tile, candidates: candidates, shapes: shapes, s: s, rays: rays)
        let t = GeometryCache.tileSize
        let width = tile.x1 &- tile.x0

        // The second sweep finishes misses and untextured flat hits, which need no call (a call in the
        // loop cost every pixel, not only the ones that made it). Other hits (textured,
        // curved, or a grazing ray the double-precision distance does not confirm) go to
        // `rays.deferred` and the general path after it. Bounds do not depend on the order of hits;
        // `groups` lists the groups in the order of their first slots, the order one raster sweep
        // finds them in. The buffers' bases are read once, not through `s` and `output` per pixel.
        let (hitPrim, hitMaterial, hitSkip) = (s.hitPrim, s.hitMaterial, s.hitSkip)
        let (hitPoint, hitNormal) = (s.hitPoint, s.hitNormal)
        let (dirs, axial) = (s.dirs, s.axial)
        let (depth, objects, materials) = (output.depth.base, output.objects.base, output.materials.base)
        var deferred = 0
        var found = 0
        // A run of hits on one primitive keeps its bounds in locals (misses and deferred slots
        // do not end it); it widens its group's bounds when another primitive is hit.
        var run = -1
        var runStart = 0
        var lo = Vector3.zero
        var hi = Vector3.zero
        for y in tile.y0..<tile.y1 {
            let row = (y &- tile.y0) &* t
            let rowPixel = y &* camera.width &+ tile.x0
            for x in 0..<width {
                let k = row &+ x
                let g = hitPrim[k]
                let pixel = rowPixel &+ x
                // A miss is no group's member: the light loops never read its scratch slots.
                guard g >= 0 else {
                    depth[pixel] = .nan
                    objects[pixel] = RawFrame.none
                    materials[pixel] = RawFrame.none
                    continue
                }
                let d = dirs[k]
                let best = shapes[g].finish ? shapes[g].flatDistance(d) : .infinity
                guard best < .infinity else {
                    rays.deferred[deferred] = k
                    deferred &+= 1
                    continue
                }
                let p = origin + best * d
                var n = shapes[g].facing
                if !(best <= shapes[g].facingReach) {
                    n = shapes[g].normal
                    if n.dot(d) > 0 { n = -n }
                }
                var material = shapes[g].material
                var materialID = shapes[g].materialID
                if shapes[g].grid {
                    material &+= shapes[g].gridMaterial(at: p)
                    materialID = UInt16(truncatingIfNeeded: material)
                }
                hitSkip[k] = g
                hitPoint[k] = p
                hitNormal[k] = n
                hitMaterial[k] = material
                depth[pixel] = Float(best * axial[k])
                objects[pixel] = shapes[g].object
                materials[pixel] = materialID
                if g == run {
                    lo = GeometryPass.lower(lo, p)
                    hi = GeometryPass.upper(hi, p)
                } else {
                    if run >= 0 {
                        GeometryPass.widen(
                            run, lo: lo, hi: hi, slot: runStart, s: s, rays: rays, found: &found, inOrder: true)
                    }
                    (run, runStart, lo, hi) = (g, k, p, p)
                }
            }
        }
        if run >= 0 {
            GeometryPass.widen(run, lo: lo, hi: hi, slot: runStart, s: s, rays: rays, found: &found, inOrder: true)
        }
        for j in 0..<deferred {
            let k = rays.deferred[j]
            let (g, p) = primaryHit(
                x: tile.x0 &+ k % t, y: tile.y0 &+ k / t, tile, candidates: candidates, primitives: primitives,
                shapes: shapes, prepared: prepared, texels: texels, s: s, output: output)
            if g >= 0 { GeometryPass.widen(g, lo: p, hi: p, slot: k, s: s, rays: rays, found: &found, inOrder: false) }
        }
        for j in 0..<found { groups.append(rays.found[j]) }
        guard deferred > 0 else { return }
        // Insertion sort by first slot: a tile holds a handful of groups.
        for j in groups.indices.dropFirst() {
            let g = groups[j]
            var i = j
            while i > 0 && rays.firstSlot[groups[i - 1]] > rays.firstSlot[g] {
                groups[i] = groups[i - 1]
                i -= 1
            }
            groups[i] = g
        }
    }

    /// Widens group `g`'s bounds of hit points to [lo, hi], from hits whose first slot is `slot`,
    /// listing the group in `rays.found` on its first hit and keeping its least slot (`inOrder`:
    /// slots come in increasing order, so the first is the least).
    @inline(__always) static func widen(
        _ g: Int, lo p: Vector3, hi q: Vector3, slot: Int, s: Scratch, rays: PrimaryRays, found: inout Int,
        inOrder: Bool
    ) {
        let lo = s.groupLo[g]
        let hi = s.groupHi[g]
        if lo.x > hi.x {
            rays.found[found] = g
            found &+= 1
            rays.firstSlot[g] = slot
        } else if !inOrder && slot < rays.firstSlot[g] {
            rays.firstSlot[g] = slot
        }
        s.groupLo[g] = lower(lo, p)
        s.groupHi[g] = upper(hi, q)
    }

    /// The componentwise least of a and b, b where it is below.
    @inline(__always) static func lower(_ a: Vector3, _ b: Vector3) -> Vector3 {
        Vector3(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z)
    }

    /// The componentwise greatest of a and b, b where it is above.
    @inline(__always) static func upper(_ a: Vector3, _ b: Vector3) -> Vector3 {
        Vector3(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y, b.z > a.z ? b.z : a.z)
    }

    /// The image index of tile slot `k` (row-major, `GeometryCache.tileSize` wide) for the tile at
    /// (x0, y0). k ≥ 0 and the index lies in the image, so unsigned division and wrapping
    /// arithmetic are exact; they spare the signed division's fix-ups and the overflow checks.
    @inline(__always) static func pixel(_ k: Int, x0: Int, y0: Int, width: Int) -> Int {
        let u = UInt(bitPattern: k)
        let t = UInt(GeometryCache.tileSize)
        return (y0 &+ Int(bitPattern: u / t)) &* width &+ x0 &+ Int(bitPattern: u % t)
    }

    /// The nearest hit in double precision alone, for the rare ray whose single-precision winner
    /// the double-precision distance does not confirm.
    @inline(never) func nearestHit(
        _ d: Vector3, candidates: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>,
        prepared: UnsafeBufferPointer<Primitive.Prepared>
    ) -> (Double, Int) {
        var best = Double.infinity
        var bestPrim = -1
        for i in candidates {
            let h = primitives[i].distance(prepared[i], direction: d, tMin: 1e-9, tMax: best)
            if h < best {
                best = h
                bestPrim = i
            }
        }
        return (best, bestPrim)
    }

    /// The primitive a primary ray along `d` meets first by the single-precision tests, or −1.
    @inline(__always) static func nearestShape(
        _ d: Vector3, candidates: UnsafeBufferPointer<Int>, shapes: UnsafeBufferPointer<PrimaryShape>
    ) -> Int {
        let dx = SIMD4<Float>(repeating: Float(d.x))
        let dy = SIMD4<Float>(repeating: Float(d.y))
        let dz = SIMD4<Float>(repeating: Float(d.z))
        var nearest = Float.infinity
        var bestPrim = -1
        for i in candidates {
            // Sorted by bound: every later candidate's hit lies beyond the nearest one found.
            if shapes[i].nearBound >= nearest { break }
            let h = shapes[i].distance(dx, dy, dz, tMax: nearest)
            if h < nearest {
                nearest = h
                bestPrim = i
            }
        }
        return bestPrim
    }

    /// The single-precision search for every ray of a tile, its winner parked in `s.hitPrim`: on
    /// packets of four neighbouring rays of a row (a row's last few alone). Out of line: inlined
    /// into its caller it measured slower.
    @inline(never) static func nearestShapes(
        _ tile: Tile, candidates: UnsafeBufferPointer<Int>, shapes: UnsafeBufferPointer<PrimaryShape>, s: Scratch,
        rays: PrimaryRays
    ) {
        let t = GeometryCache.tileSize
        let width = tile.x1 &- tile.x0
        for y in tile.y0..<tile.y1 {
            let row = (y &- tile.y0) &* t
            var x = 0
            while x &+ 4 <= width {
                let k = row &+ x
                let (dx, dy, dz) = rays.load(k)
                let hits = GeometryPass.nearestShapes(dx, dy, dz, candidates: candidates, shapes: shapes)
                s.hitPrim[k] = Int(hits[0])
                s.hitPrim[k &+ 1] = Int(hits[1])
                s.hitPrim[k &+ 2] = Int(hits[2])
                s.hitPrim[k &+ 3] = Int(hits[3])
                x &+= 4
            }
            while x < width {
                s.hitPrim[row &+ x] = GeometryPass.nearestShape(
                    s.dirs[row &+ x], candidates: candidates, shapes: shapes)
                x &+= 1
            }
        }
    }

    /// `nearestShape` for four rays, one per lane: each lane's winner is the one `nearestShape`
    /// picks for that ray. The packet stops at the first candidate whose bound lies beyond every
    /// lane's nearest hit; a lane tested against a shape past its own bound keeps its winner (the
    /// shape's hit is no nearer than the bound), so the extra tests change nothing.
    @inline(__always) static func nearestShapes(
        _ dx: SIMD4<Float>, _ dy: SIMD4<Float>, _ dz: SIMD4<Float>, candidates: UnsafeBufferPointer<Int>,
        shapes: UnsafeBufferPointer<PrimaryShape>
    ) -> SIMD4<Int32> {
        var nearest = SIMD4<Float>(repeating: .infinity)
        var best = SIMD4<Int32>(repeating: -1)
        for i in candidates {
            if all(nearest .<= shapes[i].nearBound) { break }
            let h = shapes[i].distances(dx, dy, dz, tMax: nearest)
            let closer = h .< nearest
            nearest.replace(with: h, where: closer)
            best.replace(with: Int32(truncatingIfNeeded: i), where: closer)
        }
        return best
    }

    @inline(__always) func primaryHit(
        x: Int, y: Int, _ tile: Tile, candidates: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>,
        shapes: UnsafeBufferPointer<PrimaryShape>, prepared: UnsafeBufferPointer<Primitive.Prepared>,
        texels: UnsafeBufferPointer<UInt16>, s: Scratch, output: Output
    ) -> (Int, Vector3) {
        // Tile slots and image indices lie well inside Int: wrapping arithmetic spares the
        // overflow checks.
        let k = (y &- tile.y0) &* GeometryCache.tileSize &+ (x &- tile.x0)
        let d = s.dirs[k]
        // Which primitive the ray meets (the single-precision search); then its distance in double.
        var bestPrim = s.hitPrim[k]
        var best = Double.infinity
        if bestPrim >= 0 {
            best = primitives[bestPrim].refinedDistance(prepared[bestPrim], direction: d)
            if best == .infinity {
                // The two precisions disagree on a grazing ray: decide it in double.
                (best, bestPrim) = nearestHit(d, candidates: candidates, primitives: primitives, prepared: prepared)
            }
        }
        let pixel = y &* camera.width &+ x
        guard bestPrim >= 0 else {
            s.hitMaterial[k] = -1
            s.hitPrim[k] = -1
            output.depth.base[pixel] = .nan
            output.objects.base[pixel] = RawFrame.none
            output.materials.base[pixel] = RawFrame.none
            return (-1, .zero)
        }
        let p = origin + best * d
        let shape = shapes[bestPrim]
        var n: Vector3
        var material: Int
        if shape.plain {
            (n, material) = (shape.normal, shape.material)
        } else {
            (n, material) = GeometryPass.surface(primitives, bestPrim, at: p, texels: texels)
        }
        var inside = false
        if n.dot(d) > 0 {
            n = -n
            inside = true
        }
        s.hitSkip[k] = shape.flat || !inside ? bestPrim : -1
        s.hitPoint[k] = p
        s.hitNormal[k] = n
        s.hitMaterial[k] = material
        s.hitPrim[k] = bestPrim
        output.depth.base[pixel] = Float(best * s.axial[k])
        output.objects.base[pixel] = shape.object
        output.materials.base[pixel] = UInt16(material)
        return (bestPrim, p)
    }

    /// The surface lookup of a textured or curved hit, out of line so the pixel loop does not copy
    /// the whole `Primitive` for the common untextured flat hit.
    @inline(never) static func surface(
        _ primitives: UnsafeBufferPointer<Primitive>, _ i: Int, at p: Vector3, texels: UnsafeBufferPointer<UInt16>
    ) -> (Vector3, Int) {
        let r = primitives[i].surface(at: p, texels: texels)
        return (r.normal, r.material)
    }
}
