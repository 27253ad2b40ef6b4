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
        let factors: FactorRows
    }

    /// Where the pass writes light factors, `slots` to a pixel: the frame's plane, or one band's rows (the
    /// half-precision cache packs each band as soon as it is written, `PackedFactors`). `base` holds the factors of
    /// pixel `firstPixel` (a frame index) onwards, and the pass writes only pixels of its own band.
    struct FactorRows: @unchecked Sendable {
        let base: UnsafeMutablePointer<Float>
        let firstPixel: Int
        let slots: Int

        /// The factors of frame pixel `pixel`, slot by slot.
        @inline(__always) func of(_ pixel: Int) -> UnsafeMutablePointer<Float> {
            base + (pixel &- firstPixel) &* slots
        }
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

    func run(band: Int, texels: UnsafeBufferPointer<UInt16>, output: Output) {
        primitives.withUnsafeBufferPointer { primitives in
            shapes.withUnsafeBufferPointer { shapes in
                run(band: band, primitives: primitives, shapes: shapes, texels: texels, output: output)
            }
        }
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
}
