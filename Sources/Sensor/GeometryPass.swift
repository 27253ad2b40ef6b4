import Foundation
import Imaging
import Scenes

/// Casts primary and shadow rays for one band of tiles and writes the geometry cache.
///
/// Each 32×32 tile first culls objects against the cone that holds its rays, then, per light,
/// culls occluders against the capsule joining the tile's hit points to the light. Both tests
/// are conservative, so culling never changes a pixel.
struct GeometryPass: Sendable {
    struct Output: Sendable {
        let depth: SharedPointer<Float>
        let objects: SharedPointer<UInt16>
        let materials: SharedPointer<UInt16>
        let factors: SharedPointer<Float>
    }

    let camera: CameraModel
    let origin: Vector3
    let rotation: Rotation
    let primitives: [Primitive]
    let emitters: [Emitter]
    /// Per material, the lobe's terms (see `LobeTerm`).
    let lobeTerms: [LobeTerm]
    let diffuseSlot: [Int]
    let specularSlot: [Int]
    let slotCount: Int
    let softSamples: Int
    let inverse: RadialInverse?
    let distortionCenter: SIMD2<Double>
    /// 1/fx, 1/fy.
    let inverseFocal: SIMD2<Double>
    /// Unit-disc sample offsets for soft shadows (Vogel's golden-angle spiral).
    let discSamples: [SIMD2<Double>]
    /// Per emitter, the frame of a directional light's disc (two unit vectors across the
    /// direction) and its radius tan(spread) at unit distance: fixed per light, so soft shadows
    /// compute them once instead of per pixel. Zero for other emitters.
    let discFrames: [(e1: Vector3, e2: Vector3, radius: Double)]
    /// World-space ray terms (see `tileRays`).
    let rayA: Vector3
    let rayU: Vector3
    let rayV: Vector3
    /// Single-precision primary-ray tests, one per primitive (see `PrimaryShape`).
    let shapes: [PrimaryShape]
    /// The emitters in the order the pass lights them: co-located beams share one pass
    /// (see `BeamGroup`).
    let lightBatches: [LightBatch]

    init(
        camera: CameraModel, origin: Vector3, rotation: Rotation, primitives: [Primitive], emitters: [Emitter],
        shininess: [Double], diffuseSlot: [Int], specularSlot: [Int], slotCount: Int, softSamples: Int
    ) {
        self.camera = camera
        self.origin = origin
        self.rotation = rotation
        self.primitives = primitives
        self.emitters = emitters
        lobeTerms = shininess.map(LobeTerm.init(exponent:))
        self.diffuseSlot = diffuseSlot
        self.specularSlot = specularSlot
        self.slotCount = slotCount
        self.softSamples = softSamples
        inverse = camera.distortion.map { RadialInverse($0, width: camera.width, height: camera.height) }
        distortionCenter = camera.distortion?.center ?? .zero
        inverseFocal = SIMD2(1 / camera.fx, 1 / camera.fy)
        rayA = rotation.rotate(
            Vector3((distortionCenter.x - camera.cx) / camera.fx, (distortionCenter.y - camera.cy) / camera.fy, 1))
        rayU = rotation.rotate(Vector3(1 / camera.fx, 0, 0))
        rayV = rotation.rotate(Vector3(0, 1 / camera.fy, 0))
        let golden = Double.pi * (3 - 5.0.squareRoot())
        discSamples = (0..<softSamples).map { k in
            let r = ((Double(k) + 0.5) / Double(softSamples)).squareRoot()
            let a = Double(k) * golden
            return SIMD2(r * cos(a), r * sin(a))
        }
        shapes = primitives.map { PrimaryShape($0, origin: origin) }
        discFrames = emitters.map { emitter in
            guard case let .directional(l, spread) = emitter.geometry else { return (.zero, .zero, 0) }
            let e1 = (abs(l.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)).cross(l).normalized
            return (e1, l.cross(e1), tan(spread))
        }
        lightBatches = GeometryPass.batches(
            emitters, diffuseSlot: diffuseSlot, specularSlot: specularSlot)
    }

    /// The world direction of the ray through the centre of pixel (x, y) and its optical-axis
    /// component (depth = distance × that component). Pixel centres sit at (x + 0.5, y + 0.5).
    @inline(__always) func ray(x: Int, y: Int) -> (Vector3, Double) {
        var px = Double(x) + 0.5
        var py = Double(y) + 0.5
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
    @inline(never) private func tileRays(_ tile: Tile, s: Scratch, rays: PrimaryRays, axis: Vector3) -> Double {
        guard let inverse else { return tileRays(tile, s: s, rays: rays, axis: axis, scales: .identity) }
        return inverse.withScaleTable { tileRays(tile, s: s, rays: rays, axis: axis, scales: $0) }
    }

    /// `tileRays` with the distortion's scale table unpacked (identity without distortion).
    @inline(__always) private func tileRays(
        _ tile: Tile, s: Scratch, rays: PrimaryRays, axis: Vector3, scales: RadialInverse.ScaleTable
    ) -> Double {
        let t = GeometryCache.tileSize
        var cosHalf = 1.0
        for y in tile.y0..<tile.y1 {
            let vy = Double(y) + 0.5 - distortionCenter.y
            let row = vy * rayV
            var k = (y - tile.y0) * t
            // Two neighbouring pixels in the lanes of `SIMD2<Double>`: lane by lane the same
            // operations in the same order as the single pixel below (the square root per lane:
            // one instruction, where the vector one is a library call on the SSE2 baseline).
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

    func run(band: Int, texels: UnsafeBufferPointer<UInt16>, output: Output) {
        primitives.withUnsafeBufferPointer { primitives in
            shapes.withUnsafeBufferPointer { shapes in
                run(band: band, primitives: primitives, shapes: shapes, texels: texels, output: output)
            }
        }
    }

    /// Per-tile scratch as raw buffers: the pixel loops then pay no bounds or uniqueness checks.
    struct Scratch {
        let dirs: UnsafeMutableBufferPointer<Vector3>
        let axial: UnsafeMutableBufferPointer<Double>
        let hitPoint: UnsafeMutableBufferPointer<Vector3>
        let hitNormal: UnsafeMutableBufferPointer<Vector3>
        let hitMaterial: UnsafeMutableBufferPointer<Int>
        /// The hit primitive when a shadow ray may skip it (see `sampledVisibility`), else -1.
        let hitSkip: UnsafeMutableBufferPointer<Int>
        let hitPrim: UnsafeMutableBufferPointer<Int>
        let members: UnsafeMutableBufferPointer<Int>
        let groupLo: UnsafeMutableBufferPointer<Vector3>
        let groupHi: UnsafeMutableBufferPointer<Vector3>

        /// The base addresses of the per-pixel arrays the light loops read, unpacked into locals at the top
        /// of each loop so the pixel loops neither reload nor check them.
        let lightInputs: (
            members: UnsafeMutablePointer<Int>, normals: UnsafeMutablePointer<Vector3>,
            points: UnsafeMutablePointer<Vector3>, skips: UnsafeMutablePointer<Int>,
            dirs: UnsafeMutablePointer<Vector3>, materials: UnsafeMutablePointer<Int>
        )

        init(tile t: Int, primitives: Int) {
            func scratch<T>(_ value: T, _ count: Int) -> UnsafeMutableBufferPointer<T> {
                let b = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
                b.initialize(repeating: value)
                return b
            }
            dirs = scratch(Vector3.zero, t * t)
            axial = scratch(0.0, t * t)
            hitPoint = scratch(Vector3.zero, t * t)
            hitNormal = scratch(Vector3.zero, t * t)
            hitMaterial = scratch(-1, t * t)
            hitSkip = scratch(-1, t * t)
            hitPrim = scratch(-1, t * t)
            members = scratch(0, t * t)
            groupLo = scratch(Vector3(repeating: .infinity), primitives)
            groupHi = scratch(Vector3(repeating: -.infinity), primitives)
            guard let m = members.baseAddress, let n = hitNormal.baseAddress, let p = hitPoint.baseAddress,
                  let k = hitSkip.baseAddress, let d = dirs.baseAddress, let h = hitMaterial.baseAddress
            else { preconditionFailure("a tile has at least one pixel") }
            lightInputs = (m, n, p, k, d, h)
        }

        func deallocate() {
            for b in [dirs, hitPoint, hitNormal, groupLo, groupHi] { b.deallocate() }
            for b in [hitMaterial, hitSkip, hitPrim, members] { b.deallocate() }
            axial.deallocate()
        }
    }

    /// The primary rays' own scratch: a tile's ray directions in single precision, one array per
    /// component (slots as in `Scratch`), so four neighbouring rays load as the lanes of one
    /// `SIMD4<Float>` each; the slots left to the general hit path; the groups in the order found
    /// and each group's least slot (per primitive).
    struct PrimaryRays {
        let x: UnsafeMutablePointer<Float>
        let y: UnsafeMutablePointer<Float>
        let z: UnsafeMutablePointer<Float>
        let deferred: UnsafeMutablePointer<Int>
        let firstSlot: UnsafeMutablePointer<Int>
        let found: UnsafeMutablePointer<Int>

        init(tile t: Int, primitives: Int) {
            x = .allocate(capacity: t * t)
            y = .allocate(capacity: t * t)
            z = .allocate(capacity: t * t)
            deferred = .allocate(capacity: t * t)
            firstSlot = .allocate(capacity: max(primitives, 1))
            found = .allocate(capacity: max(primitives, 1))
        }

        /// The components of the rays in slots k..<k + 4.
        @inline(__always) func load(_ k: Int) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
            (UnsafeRawPointer(x + k).loadUnaligned(as: SIMD4<Float>.self),
             UnsafeRawPointer(y + k).loadUnaligned(as: SIMD4<Float>.self),
             UnsafeRawPointer(z + k).loadUnaligned(as: SIMD4<Float>.self))
        }

        func deallocate() {
            x.deallocate()
            y.deallocate()
            z.deallocate()
            deferred.deallocate()
            firstSlot.deallocate()
            found.deallocate()
        }
    }

    /// The pixels of one tile: columns x0..<x1 of rows y0..<y1, scratch index (y − y0)·t + (x − x0).
    struct Tile {
        let x0: Int, x1: Int, y0: Int, y1: Int
    }

    private func run(
        band: Int, primitives: UnsafeBufferPointer<Primitive>, shapes: UnsafeBufferPointer<PrimaryShape>,
        texels: UnsafeBufferPointer<UInt16>, output: Output
    ) {
        let t = GeometryCache.tileSize
        let y0 = band * t
        let y1 = min(y0 + t, camera.height)
        let s = Scratch(tile: t, primitives: primitives.count)
        let rays = PrimaryRays(tile: t, primitives: primitives.count)
        defer {
            s.deallocate()
            rays.deallocate()
        }
        // Hit points are bounded per (tile, primitive): a tile that spans a depth step (a leaf
        // against the wall) would otherwise cull occluders with one sphere around both surfaces.
        var groups: [Int] = []
        let prepared = primitives.map { $0.prepare(origin: origin) }
        var candidates: [Int] = []
        var occluders: [Int] = []
        candidates.reserveCapacity(primitives.count)
        occluders.reserveCapacity(primitives.count)
        var x0 = 0
        while x0 < camera.width {
            let x1 = min(x0 + t, camera.width)
            let tile = Tile(x0: x0, x1: x1, y0: y0, y1: y1)
            // Rays and their bounding cone about the ray of the tile's middle pixel (any axis gives
            // a cone that holds every ray; one near the middle keeps it narrow), in one sweep.
            let axis = ray(x: (x0 + x1) / 2, y: (y0 + y1) / 2).0
            let cosHalf = tileRays(tile, s: s, rays: rays, axis: axis)
            let halfAngle = acos(min(max(cosHalf, -1), 1))
            candidates.removeAll(keepingCapacity: true)
            for (i, p) in primitives.enumerated() {
                let v = p.position - origin
                let dist = v.length
                if dist <= p.boundingRadius {
                    candidates.append(i)
                    continue
                }
                let angle = acos(min(max(v.dot(axis) / dist, -1), 1))
                if angle <= halfAngle + asin(min(p.boundingRadius / dist, 1)) + 1e-6 { candidates.append(i) }
            }
            // Nearest bound first (stable, so equal bounds keep the scene's order).
            for j in candidates.indices.dropFirst() {
                let c = candidates[j]
                var i = j
                while i > 0 && shapes[candidates[i - 1]].nearBound > shapes[c].nearBound {
                    candidates[i] = candidates[i - 1]
                    i -= 1
                }
                candidates[i] = c
            }
            for g in groups {
                s.groupLo[g] = Vector3(repeating: .infinity)
                s.groupHi[g] = Vector3(repeating: -.infinity)
            }
            groups.removeAll(keepingCapacity: true)
            candidates.withUnsafeBufferPointer { candidates in
                prepared.withUnsafeBufferPointer { prepared in
                    primaryHits(
                        tile, candidates: candidates, primitives: primitives, shapes: shapes, prepared: prepared,
                        texels: texels, s: s, rays: rays, groups: &groups, output: output)
                }
            }
            for g in groups {
                let lo = s.groupLo[g]
                let hi = s.groupHi[g]
                let tileCentre = (lo + hi) / 2
                let tileRadius = (hi - lo).length / 2 + 1e-6
                // This group's pixels, in raster order.
                var count = 0
                for y in y0..<y1 {
                    let row = (y &- y0) &* t
                    for x in 0..<(x1 - x0) where s.hitPrim[row &+ x] == g {
                        s.members[count] = row &+ x
                        count &+= 1
                    }
                }
                for batch in lightBatches {
                    cullOccluders(
                        emitters[batch.lead], primitives, tileCentre: tileCentre, tileRadius: tileRadius,
                        reach: hi - tileCentre, into: &occluders)
                    // Every pixel of a flat group skips its own shape (`hitSkip`).
                    if shapes[g].flat, let own = occluders.firstIndex(of: g) { occluders.remove(at: own) }
                    occluders.withUnsafeBufferPointer { occluders in
                        if let group = batch.group {
                            group.members.withUnsafeBufferPointer { members in
                                beamGroupFactors(
                                    group, members: members, tile: tile, count: count, s: s, occluders: occluders,
                                    primitives: primitives, output: output)
                            }
                        } else {
                            lightFactors(
                                batch.lead, tile: tile, cone: (axis, halfAngle), count: count, s: s,
                                occluders: occluders, primitives: primitives, output: output)
                        }
                    }
                }
            }
            x0 = x1
        }
    }

    /// Primary rays of one tile: nearest hits, surface lookup, depth and ids, and the per-primitive
    /// bounds of hit points (`groups`).
    @inline(never) private func primaryHits(
        _ tile: Tile, candidates: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>,
        shapes: UnsafeBufferPointer<PrimaryShape>, prepared: UnsafeBufferPointer<Primitive.Prepared>,
        texels: UnsafeBufferPointer<UInt16>, s: Scratch, rays: PrimaryRays, groups: inout [Int], output: Output
    ) {
        // Two sweeps: the single-precision search alone first (its winner parked in `hitPrim`),
        // then the double-precision distance and the bookkeeping. Each loop then keeps its own
        // values in registers; in one loop they spilled to the stack around the search.
        GeometryPass.nearestShapes(tile, candidates: candidates, shapes: shapes, s: s, rays: rays)
        let t = GeometryCache.tileSize
        let width = tile.x1 &- tile.x0

        // The second sweep finishes misses and untextured flat hits, which need no call, so its values
        // stay in registers (any call in the loop spilled them every pixel). Other hits (textured,
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
        // A run of hits on one primitive keeps its bounds in registers (misses and deferred slots
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

    /// The componentwise least of a and b, b where it is below: each component one minsd.
    @inline(__always) static func lower(_ a: Vector3, _ b: Vector3) -> Vector3 {
        Vector3(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z)
    }

    /// The componentwise greatest of a and b, b where it is above: each component one maxsd.
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
    @inline(never) private func nearestHit(
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
    /// packets of four neighbouring rays of a row (a row's last few alone). Out of line, so the
    /// packet loop keeps its own registers.
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

    @inline(__always) private func primaryHit(
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

    /// One emitter's factors for the `count` pixels of a group (`s.members`), occluders culled.
    /// `cone` holds every primary ray of the tile: each direction d has d·axis ≥ cos(halfAngle).
    @inline(never) private func lightFactors(
        _ e: Int, tile: Tile, cone: (axis: Vector3, halfAngle: Double), count: Int, s: Scratch,
        occluders: UnsafeBufferPointer<Int>,
        primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        switch emitters[e].geometry {
        case let .hemisphere(sky):
            // No shadow and no lobe: the factor needs only the normal.
            let dSlot = diffuseSlot[e]
            let (x0, y0) = (tile.x0, tile.y0)
            for j in 0..<count {
                let k = s.members[j]
                let pixel = GeometryPass.pixel(k, x0: x0, y0: y0, width: camera.width)
                let factor = (1 + s.hitNormal[k].dot(sky)) / 2
                output.factors.base[pixel &* slotCount &+ dSlot] = Float(factor)
            }
        case let .directional(l, spread) where spread == 0 || softSamples <= 1:
            hardLightFactors(e, l: l, tile: tile, cone: cone, count: count, s: s, occluders: occluders,
                             primitives: primitives, output: output)
        case let .positional(position, axis, m):
            positionalLightFactors(
                e, position: position, axis: axis, exponent: m, tile: tile, count: count, s: s, occluders: occluders,
                primitives: primitives, output: output)
        case let .directional(l, _):
            softLightFactors(e, l: l, tile: tile, count: count, s: s, occluders: occluders, primitives: primitives,
                             output: output)
        }
    }

    /// A soft key light (a disc of angular radius > 0, sampled by `discSamples`): the cone test
    /// (`ConeOccluder`) with the light's terms per occluder hoisted out of the pixel loop; pixels
    /// it leaves undecided take the general path and its rays.
    @inline(never) private func softLightFactors(
        _ e: Int, l: Vector3, tile: Tile, count: Int, s: Scratch, occluders: UnsafeBufferPointer<Int>,
        primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        let r = discFrames[e].radius
        let cones = occluders.map { ConeOccluder(primitives[$0], index: $0, towards: l, radius: r) }
        lobeTerms.withUnsafeBufferPointer { terms in
            cones.withUnsafeBufferPointer { cones in
                // As `hardLightFactors`: a copy without the visibility test where there is nothing
                // to test (most groups), with the scratch and table pointers in locals.
                // The lobe's flag is a constant in each copy of the loop.
                let lobe = emitters[e].hasSpecular && specularSlot[e] >= 0
                if cones.isEmpty && lobe {
                    softLightLoop(e, l: l, tile: tile, count: count, s: s, shadows: false, lobe: true, cones: cones,
                                  terms: terms, occluders: occluders, primitives: primitives, output: output)
                } else if cones.isEmpty {
                    softLightLoop(e, l: l, tile: tile, count: count, s: s, shadows: false, lobe: false, cones: cones,
                                  terms: terms, occluders: occluders, primitives: primitives, output: output)
                } else {
                    softLightLoop(e, l: l, tile: tile, count: count, s: s, shadows: true, lobe: lobe, cones: cones,
                                  terms: terms, occluders: occluders, primitives: primitives, output: output)
                }
            }
        }
    }

    /// The pixel loop of `softLightFactors`, with the visibility test only where `shadows`.
    @inline(__always) private func softLightLoop(
        _ e: Int, l: Vector3, tile: Tile, count: Int, s: Scratch, shadows: Bool, lobe: Bool,
        cones: UnsafeBufferPointer<ConeOccluder>, terms: UnsafeBufferPointer<LobeTerm>,
        occluders: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        let (x0, y0) = (tile.x0, tile.y0)
        let width = camera.width
        let slots = slotCount
        let dSlot = diffuseSlot[e]
        let sSlot = specularSlot[e]
        let r = discFrames[e].radius
        let factors = output.factors.base
        let (members, normals, points, skips, dirs, materials) = s.lightInputs
        guard let table = terms.baseAddress else { return }
        for j in 0..<count {
            let k = members[j]
            let pixel = GeometryPass.pixel(k, x0: x0, y0: y0, width: width)
            let n = normals[k]
            let cosTheta = n.dot(l)
            var gd = 0.0
            var gs = 0.0
            if cosTheta > 0 {
                var visibility = 1.0
                if shadows {
                    let start = points[k] + n * 1e-6
                    visibility = ConeOccluder.visibility(
                        start: start, cosTheta: cosTheta, radius: r, skip: skips[k], cones)
                        ?? sampledVisibility(
                            towards: l, disc: discFrames[e], start: start, normal: n, skip: skips[k],
                            occluders: occluders, primitives: primitives, pixel: pixel)
                }
                gd = cosTheta * visibility
                if lobe && visibility > 0 {
                    gs = GeometryPass.lobe(l: l, ray: dirs[k], normal: n, term: table[materials[k]]) * gd
                }
            }
            factors[pixel &* slots &+ dSlot] = Float(gd)
            if lobe || sSlot >= 0 { factors[pixel &* slots &+ sSlot] = Float(gs) }
        }
    }

    /// A hard key light: g = cos θ · visibility, the same l for every pixel.
    @inline(never) private func hardLightFactors(
        _ e: Int, l: Vector3, tile: Tile, cone: (axis: Vector3, halfAngle: Double), count: Int, s: Scratch,
        occluders: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        guard count > 0 else { return }
        let bound = LobeBound(towards: l, cone: cone)
        // As `positionalLightFactors`: a copy without the shadow test where there is nothing to test.
        // With occluders, their terms for this direction are prepared first (`RayOccluder`).
        lobeTerms.withUnsafeBufferPointer { terms in
            // The lobe's slot exists only when some material is glossy. Without occluders (most
            // pixels) the loop is copied per lobe flag, so neither copy tests it per pixel.
            let none = (UnsafeBufferPointer<SphereBound>(start: nil, count: 0),
                        UnsafeBufferPointer<RayOccluder>(start: nil, count: 0))
            if occluders.isEmpty && emitters[e].hasSpecular && specularSlot[e] >= 0 {
                hardLightLoop(e, l: l, tile: tile, bound: bound, count: count, s: s, shadows: false, lobe: true,
                              near: none.0, exact: none.1, terms: terms, primitives: primitives, output: output)
            } else if occluders.isEmpty {
                hardLightLoop(e, l: l, tile: tile, bound: bound, count: count, s: s, shadows: false, lobe: false,
                              near: none.0, exact: none.1, terms: terms, primitives: primitives, output: output)
            } else {
                withUnsafeTemporaryAllocation(of: SphereBound.self, capacity: occluders.count) { near in
                    withUnsafeTemporaryAllocation(of: RayOccluder.self, capacity: occluders.count) { exact in
                        for (j, i) in occluders.enumerated() {
                            near.initializeElement(at: j, to: SphereBound(primitives[i], index: i))
                            exact.initializeElement(at: j, to: RayOccluder(primitives[i], direction: l))
                        }
                        hardLightLoop(e, l: l, tile: tile, bound: bound, count: count, s: s, shadows: true,
                                      lobe: emitters[e].hasSpecular && specularSlot[e] >= 0,
                                      near: UnsafeBufferPointer(near), exact: UnsafeBufferPointer(exact),
                                      terms: terms, primitives: primitives, output: output)
                    }
                }
            }
        }
    }

    /// The pixel loop of `hardLightFactors`, with the shadow test only where `shadows`. The scratch
    /// and table pointers are taken into locals once, so the loop reloads none of them per pixel.
    @inline(__always) private func hardLightLoop(
        _ e: Int, l: Vector3, tile: Tile, bound: LobeBound, count: Int, s: Scratch, shadows: Bool, lobe: Bool,
        near: UnsafeBufferPointer<SphereBound>, exact: UnsafeBufferPointer<RayOccluder>,
        terms: UnsafeBufferPointer<LobeTerm>,
        primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        let (x0, y0) = (tile.x0, tile.y0)
        let width = camera.width
        let slots = slotCount
        let dSlot = diffuseSlot[e]
        let sSlot = specularSlot[e]
        let factors = output.factors.base
        var last = -1
        let (members, normals, points, skips, dirs, materials) = s.lightInputs
        guard let table = terms.baseAddress else { return }
        for j in 0..<count {
            let k = members[j]
            let pixel = GeometryPass.pixel(k, x0: x0, y0: y0, width: width)
            let n = normals[k]
            let cosTheta = n.dot(l)
            var gd = 0.0
            var gs = 0.0
            if cosTheta > 0 {
                var lit = true
                if shadows {
                    // `occluded` with the occluders' direction terms prepared (`RayOccluder`).
                    let o = points[k] + n * 1e-6
                    let skip = skips[k]
                    // Neighbouring pixels tend to share a blocker: the last one found is tried first
                    // (any blocker shadows, so the order changes no answer).
                    if let exact = exact.baseAddress {
                        if last >= 0 && near[last].index != skip && RayOccluder.blocks(o, l, near[last], exact + last) {
                            lit = false
                        } else {
                            for (j, q) in near.enumerated() where j != last && q.index != skip
                                && RayOccluder.blocks(o, l, q, exact + j)
                            {
                                lit = false
                                last = j
                                break
                            }
                        }
                    }
                }
                if lit {
                    gd = cosTheta
                    // The group's bound first: where it shows the lobe below its cut, `lobe` gives 0.
                    let term = table[materials[k]]
                    if lobe && !(n.dot(bound.half) <= term.cutCosine - bound.turn) {
                        gs = GeometryPass.lobe(l: l, view: -dirs[k], normal: n, term: term) * gd
                    }
                }
            }
            factors[pixel &* slots &+ dSlot] = Float(gd)
            if lobe || sSlot >= 0 { factors[pixel &* slots &+ sSlot] = Float(gs) }
        }
    }

    /// A point or spot light (the flash among them).
    @inline(never) private func positionalLightFactors(
        _ e: Int, position: Vector3, axis: Vector3, exponent m: Double, tile: Tile, count: Int, s: Scratch,
        occluders: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        // Without occluders the loop is a copy with no shadow test: the values that had to
        // survive the occluder loop then stay in registers instead of going through the stack.
        // A beam (m > 0) takes pixels in pairs, for its power in vector lanes; a point light
        // (m ≤ 0), with no power to share, keeps the one-pixel loop, which is cheaper for it.
        let none = UnsafeBufferPointer<PointOccluder>(start: nil, count: 0)
        if m <= 0 {
            if occluders.isEmpty {
                positionalLoop(
                    e, position: position, axis: axis, exponent: m, tile: tile, count: count, s: s, shadows: false,
                    pairs: false, occluders: occluders, near: none, primitives: primitives, output: output)
            } else {
                positionalLoop(
                    e, position: position, axis: axis, exponent: m, tile: tile, count: count, s: s, shadows: true,
                    pairs: false, occluders: occluders, near: none, primitives: primitives, output: output)
            }
        } else if occluders.isEmpty {
            positionalLoop(
                e, position: position, axis: axis, exponent: m, tile: tile, count: count, s: s, shadows: false,
                pairs: true, occluders: occluders, near: none, primitives: primitives, output: output)
        } else {
            withUnsafeTemporaryAllocation(of: PointOccluder.self, capacity: occluders.count) { near in
                for (j, i) in occluders.enumerated() {
                    near.initializeElement(at: j, to: PointOccluder(primitives[i], index: i, light: position))
                }
                positionalLoop(
                    e, position: position, axis: axis, exponent: m, tile: tile, count: count, s: s, shadows: true,
                    pairs: true, occluders: occluders, near: UnsafeBufferPointer(near), primitives: primitives,
                    output: output)
            }
        }
    }

    /// The pixel loop of `positionalLightFactors`, with the shadow test only where `shadows`.
    @inline(__always) private func positionalLoop(
        _ e: Int, position: Vector3, axis: Vector3, exponent m: Double, tile: Tile, count: Int, s: Scratch,
        shadows: Bool, pairs: Bool, occluders: UnsafeBufferPointer<Int>, near: UnsafeBufferPointer<PointOccluder>,
        primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        let (x0, y0) = (tile.x0, tile.y0)
        let dSlot = diffuseSlot[e]
        let sSlot = specularSlot[e]
        let lobe = emitters[e].hasSpecular && sSlot >= 0
        let factors = output.factors.base
        // Two pixels at a time in the lanes of `SIMD2<Double>`: lane by lane the same operations in
        // the same order as `positionalFactors`, so the factors are its own bit for bit. The beam
        // power's logarithm and exponential, most of a lit pixel's arithmetic, then cost one pass
        // for both.
        var j = 0
        while pairs && j &+ 2 <= count {
            let k = SIMD2(s.members[j], s.members[j &+ 1])
            j &+= 2
            let p0 = s.hitPoint[k[0]]
            let p1 = s.hitPoint[k[1]]
            let n0 = s.hitNormal[k[0]]
            let n1 = s.hitNormal[k[1]]
            let tx = position.x - SIMD2(p0.x, p1.x)
            let ty = position.y - SIMD2(p0.y, p1.y)
            let tz = position.z - SIMD2(p0.z, p1.z)
            let d2 = tx * tx + ty * ty + tz * tz
            let dist = SIMD2(d2[0].squareRoot(), d2[1].squareRoot())
            let (lx, ly, lz) = (tx / dist, ty / dist, tz / dist)
            let cosTheta = SIMD2(n0.x, n1.x) * lx + SIMD2(n0.y, n1.y) * ly + SIMD2(n0.z, n1.z) * lz
            let cosAlpha = -(axis.x * lx + axis.y * ly + axis.z * lz)
            // Per lane: facing the light, inside the beam (a point light, m ≤ 0, shines all round)
            // and not shadowed.
            var lit = cosTheta .> 0
            if m > 0 { lit .&= cosAlpha .> 0 }
            // The lanes are unpacked with constant indices: an index variable sends the vectors
            // through the stack.
            let l0 = Vector3(lx[0], ly[0], lz[0])
            let l1 = Vector3(lx[1], ly[1], lz[1])
            if shadows && any(lit) {
                // Both shadow rays against each occluder at once: `PointOccluder.mayBlock` in the
                // lanes, the full test only for a lane it keeps (the answer per ray is `occluded`'s).
                let (skip0, skip1) = (s.hitSkip[k[0]], s.hitSkip[k[1]])
                for q in near {
                    let wl = q.w.x * lx + q.w.y * ly + q.w.z * lz
                    let may = lit .& (wl .<= q.reach) .& (dist + wl .>= -q.reach) .& (q.w2 - wl * wl .<= q.reach2)
                    guard any(may) else { continue }
                    if may[0] && q.index != skip0
                        && GeometryPass.blocks(primitives, q.index, p0 + n0 * 1e-6, l0, dist[0] * (1 - 1e-9))
                    {
                        lit[0] = false
                    }
                    if may[1] && q.index != skip1
                        && GeometryPass.blocks(primitives, q.index, p1 + n1 * 1e-6, l1, dist[1] * (1 - 1e-9))
                    {
                        lit[1] = false
                    }
                    if !any(lit) { break }
                }
            }
            var scale = 1 / d2
            if m > 0 && any(lit) {
                let normal = cosAlpha .>= InlinePower.smallestNormal
                if all(normal) {
                    let y = m * InlinePower.binaryLog(normal: cosAlpha)
                    // Lane by lane: `min()` and `max()` add NaN checks.
                    if y[0] > -1022 && y[1] > -1022 && y[0] < 1023 && y[1] < 1023 {
                        scale = InlinePower.binaryExp(inRange: y) / d2
                    } else {
                        scale = SIMD2(InlinePower.binaryExp(y[0]), InlinePower.binaryExp(y[1])) / d2
                    }
                } else {
                    if lit[0] { scale[0] = InlinePower.of(cosAlpha[0], m) / d2[0] }
                    if lit[1] { scale[1] = InlinePower.of(cosAlpha[1], m) / d2[1] }
                }
            }
            let gd = SIMD2<Double>(repeating: 0).replacing(with: scale * cosTheta, where: lit)
            var gs = SIMD2<Double>(repeating: 0)
            if lobe && any(lit) {
                // `specular` in the lanes up to its early outs (matte, facing away, below the cut):
                // the same operations per lane, so the same cos² θ_h; the power per lane.
                let v0 = -s.dirs[k[0]]
                let v1 = -s.dirs[k[1]]
                let t0 = lobeTerms[s.hitMaterial[k[0]]]
                let t1 = lobeTerms[s.hitMaterial[k[1]]]
                let hx = lx + SIMD2(v0.x, v1.x)
                let hy = ly + SIMD2(v0.y, v1.y)
                let hz = lz + SIMD2(v0.z, v1.z)
                let a = SIMD2(n0.x, n1.x) * hx + SIMD2(n0.y, n1.y) * hy + SIMD2(n0.z, n1.z) * hz
                let c2 = a * a / (hx * hx + hy * hy + hz * hz)
                let glossy = SIMD2(Double(t0.halfPower), Double(t1.halfPower)) .>= 0
                let open = lit .& glossy .& (a .> 0) .& (SIMD2(t0.exponent, t1.exponent) * (1 - c2) .< 80)
                if open[0] { gs[0] = GeometryPass.lobePower(c2[0], t0) * gd[0] }
                if open[1] { gs[1] = GeometryPass.lobePower(c2[1], t1) * gd[1] }
            }
            @inline(__always) func store(_ k: Int, _ gd: Double, _ gs: Double) {
                let pixel = GeometryPass.pixel(k, x0: x0, y0: y0, width: camera.width)
                factors[pixel &* slotCount &+ dSlot] = Float(gd)
                if sSlot >= 0 { factors[pixel &* slotCount &+ sSlot] = Float(gs) }
            }
            store(k[0], gd[0], gs[0])
            store(k[1], gd[1], gs[1])
        }
        for j in j..<count {
            let k = s.members[j]
            let pixel = GeometryPass.pixel(k, x0: x0, y0: y0, width: camera.width)
            let (gd, gs) = positionalFactors(
                position: position, axis: axis, exponent: m, point: s.hitPoint[k],
                normal: s.hitNormal[k], view: -s.dirs[k], material: s.hitMaterial[k],
                lobe: lobe, shadows: shadows, skip: s.hitSkip[k], occluders: occluders, primitives: primitives)
            output.factors.base[pixel &* slotCount &+ dSlot] = Float(gd)
            if sSlot >= 0 { output.factors.base[pixel &* slotCount &+ sSlot] = Float(gs) }
        }
    }

    /// Objects that could shadow any hit point of a tile from this emitter.
    ///
    /// The hit points lie in the box tileCentre ± `reach` (inside the ball of `tileRadius`); a flat
    /// shape whose plane has the whole box, shadow-ray starts included, on the light's side cannot
    /// block any of their rays, so dropping it changes no pixel.
    private func cullOccluders(
        _ emitter: Emitter, _ primitives: UnsafeBufferPointer<Primitive>, tileCentre: Vector3, tileRadius: Double,
        reach: Vector3, into list: inout [Int]
    ) {
        list.removeAll(keepingCapacity: true)
        // Shadow rays start 10⁻⁶ off their hit points; the rest is margin for rounding.
        let clearance = 1e-5
        switch emitter.geometry {
        case .hemisphere:
            return
        case let .directional(towards, spread):
            let grow = tan(min(spread, 1.5))
            let lift = sin(min(spread, 1.5)) + 1e-9
            for (i, p) in primitives.enumerated() {
                if p.kind == .plane || p.kind == .disc {
                    // Tile and every ray direction strictly on one side of the flat shape's plane.
                    let side = p.planeNormal.dot(tileCentre - p.position)
                    let rise = p.planeNormal.dot(towards)
                    let depth = min(tileRadius, GeometryPass.extent(reach, along: p.planeNormal) + clearance)
                    if (side > depth && rise > lift) || (side < -depth && rise < -lift) { continue }
                }
                let v = p.position - tileCentre
                let s = v.dot(towards)
                if s < -(p.boundingRadius + tileRadius) { continue }
                let perp = (v - max(s, 0) * towards).length
                if perp <= p.boundingRadius + tileRadius + max(s, 0) * grow
                    && !GeometryPass.castsNoShadow(p, towards: towards, coneRadius: grow, centre: tileCentre,
                                                   radius: tileRadius)
                {
                    list.append(i)
                }
            }
        case let .positional(position, _, _):
            let seg = position - tileCentre
            let len2 = max(seg.dot(seg), 1e-30)
            for (i, p) in primitives.enumerated() {
                if p.kind == .plane || p.kind == .disc {
                    // Tile and light strictly on one side of the flat shape's plane.
                    let side = p.planeNormal.dot(tileCentre - p.position)
                    let lamp = p.planeNormal.dot(position - p.position)
                    let depth = min(tileRadius, GeometryPass.extent(reach, along: p.planeNormal) + clearance)
                    if (side > depth && lamp > 0) || (side < -depth && lamp < 0) { continue }
                    if GeometryPass.castsNoShadow(p, light: position, centre: tileCentre, radius: tileRadius) {
                        continue
                    }
                }
                let v = p.position - tileCentre
                let s = min(max(v.dot(seg) / len2, 0), 1)
                if (v - s * seg).length <= p.boundingRadius + tileRadius { list.append(i) }
            }
        }
    }

    /// Half the width of the box ± `reach` along the unit vector `n`.
    @inline(__always) static func extent(_ reach: Vector3, along n: Vector3) -> Double {
        abs(n.x) * reach.x + abs(n.y) * reach.y + abs(n.z) * reach.z
    }

    /// Whether anything but `skip` blocks the ray before `tMax` (any hit ends the search).
    @inline(__always) func occluded(
        _ o: Vector3, _ d: Vector3, _ tMax: Double, skip: Int, _ occluders: UnsafeBufferPointer<Int>,
        _ primitives: UnsafeBufferPointer<Primitive>
    ) -> Bool {
        for i in occluders where i != skip
            && primitives[i].distance(origin: o, direction: d, tMin: 1e-7, tMax: tMax) < tMax
        {
            return true
        }
        return false
    }

    /// The share of a soft key light's disc that a hit point sees, by casting `discSamples` shadow
    /// rays; for the pixels the cone test (`ConeOccluder`) leaves undecided.
    ///
    /// `skip` is the hit primitive when its visible side is the outside of a convex shape (any
    /// flat shape; a sphere or box seen from outside): a ray leaving such a surface into the open
    /// half-space (d·n > 0) cannot meet the shape again, so only rays with d·n ≤ 0 test it, and
    /// those are blocked by it.
    @inline(never) private func sampledVisibility(
        towards l: Vector3, disc: (e1: Vector3, e2: Vector3, radius: Double), start: Vector3, normal n: Vector3,
        skip: Int, occluders: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>, pixel: Int
    ) -> Double {
        // Rotate the sample pattern per pixel so penumbrae dither instead of banding.
        let turn = CounterRandom(seed: 0x5EED, stream: 7, pixel: pixel).uniform(0) * 2 * Double.pi
        let (c, s) = (cos(turn), sin(turn))
        let (e1, e2, r) = disc
        var open = 0
        for q in discSamples {
            let a = q.x * c - q.y * s
            let b = q.x * s + q.y * c
            let dir = (l + r * (a * e1 + b * e2)).normalized
            if skip >= 0 && dir.dot(n) <= 0 { continue }
            if !occluded(start, dir, .infinity, skip: skip, occluders, primitives) { open += 1 }
        }
        return Double(open) / Double(discSamples.count)
    }

    /// The factors of a point or spot light (the flash among them), with the light's terms
    /// unpacked once per tile. The shadow ray goes first: a blocked pixel skips the beam power.
    @inline(__always) private func positionalFactors(
        position: Vector3, axis: Vector3, exponent m: Double, point: Vector3, normal n: Vector3, view v: Vector3,
        material: Int, lobe: Bool, shadows: Bool = true, skip: Int, occluders: UnsafeBufferPointer<Int>,
        primitives: UnsafeBufferPointer<Primitive>
    ) -> (Double, Double) {
        let toLight = position - point
        let d2 = toLight.dot(toLight)
        let dist = d2.squareRoot()
        let l = toLight / dist
        let cosTheta = n.dot(l)
        guard cosTheta > 0 else { return (0, 0) }
        // cos α only for a beam: a point light (m ≤ 0) shines all round.
        var cosAlpha = 0.0
        if m > 0 {
            cosAlpha = -axis.dot(l)
            guard cosAlpha > 0 else { return (0, 0) }
        }
        if shadows && occluded(point + n * 1e-6, l, dist * (1 - 1e-9), skip: skip, occluders, primitives) {
            return (0, 0)
        }
        let scale = m > 0 ? InlinePower.of(cosAlpha, m) / d2 : 1 / d2
        let gd = scale * cosTheta
        guard lobe else { return (gd, 0) }
        return (gd, specular(l: l, view: v, normal: n, material: material, diffuse: gd))
    }

    /// The specular factor beside a visible diffuse factor `gd`; zero for matte materials.
    @inline(__always) private func specular(
        l: Vector3, view v: Vector3, normal n: Vector3, material m: Int, diffuse gd: Double
    ) -> Double {
        lobe(l: l, view: v, normal: n, material: m) * gd
    }

    /// The specular factor per unit diffuse factor: (n + 8)/8·cosⁿ θ_h, zero for matte materials.
    /// Lights at one position share it.
    @inline(__always) func lobe(l: Vector3, view v: Vector3, normal n: Vector3, material m: Int) -> Double {
        GeometryPass.lobe(l: l, view: v, normal: n, term: lobeTerms[m])
    }

    /// `lobe` from the material's terms.
    @inline(__always) static func lobe(l: Vector3, view v: Vector3, normal n: Vector3, term: LobeTerm) -> Double {
        lobe(half: l + v, normal: n, term: term)
    }

    /// `lobe` for the view v = −d of the camera ray d: l − d is l + v bit for bit (IEEE 754
    /// defines x − y as x + (−y)), without forming v.
    @inline(__always) static func lobe(l: Vector3, ray d: Vector3, normal n: Vector3, term: LobeTerm) -> Double {
        lobe(half: l - d, normal: n, term: term)
    }

    /// `lobe` from the unnormalised half vector h = l + v.
    @inline(__always) static func lobe(half h: Vector3, normal n: Vector3, term: LobeTerm) -> Double {
        guard term.halfPower >= 0 else { return 0 }
        let exponent = term.exponent
        // Normalised Blinn–Phong: π·f_s = k_s·(n + 8)/8·cos^n θ_h; k_s lives in the rate table.
        // cosⁿ θ_h = (cos² θ_h)^(n/2) with cos² θ_h = (n·(l + v))² / |l + v|²: the half vector
        // needs no square root and no normalisation.
        let a = n.dot(h)
        guard a > 0 else { return 0 }
        let c2 = a * a / h.dot(h)
        // Below 2⁻⁵⁸ (about e⁻⁴⁰) the lobe is under Float's resolution of any diffuse factor
        // beside it, so the power is not worth finishing. cosⁿ θ_h ≤ e^(−n(1 − cos² θ_h)/2)
        // (ln x ≤ x − 1 and 1 − cos θ_h ≥ (1 − cos² θ_h)/2) skips most of them before the logarithm.
        guard exponent * (1 - c2) < 80 else { return 0 }
        return GeometryPass.lobePower(c2, term)
    }

    /// The lobe (n + 8)/8·(cos² θ_h)^(n/2) of a glossy material from cos² θ_h = `c2`, for a half
    /// vector facing the normal and above `lobe`'s cut.
    @inline(__always) static func lobePower(_ c2: Double, _ term: LobeTerm) -> Double {
        let exponent = term.exponent
        if term.halfPower > 0 {
            // A whole n/2: repeated squaring, with the same cut at 2⁻⁵⁸.
            let power = LobeTerm.power(c2, term.halfPower)
            return power > 0x1p-58 ? term.scale * power : 0
        }
        guard c2 >= InlinePower.smallestNormal else { return InlinePower.belowNormal(c2, exponent * 0.5) }
        let y = exponent * 0.5 * InlinePower.binaryLog(c2)
        guard y > -58 else { return 0 }
        return term.scale * InlinePower.binaryExp(y)
    }
}
