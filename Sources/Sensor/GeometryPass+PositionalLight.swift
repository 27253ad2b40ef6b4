import Imaging
import Scenes

/// Point and spot lights (the flash among them): cos θ over the squared distance, the beam's falloff, the shadow ray.
extension GeometryPass {
    /// A point or spot light (the flash among them).
    @inline(never) func positionalLightFactors(
        _ e: Int, position: Vector3, axis: Vector3, exponent m: Double, tile: Tile, count: Int, s: Scratch,
        occluders: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        // Without occluders the loop is a copy with no shadow test, which measured faster than one
        // loop testing an empty list.
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
    @inline(__always) func positionalLoop(
        _ e: Int, position: Vector3, axis: Vector3, exponent m: Double, tile: Tile, count: Int, s: Scratch,
        shadows: Bool, pairs: Bool, occluders: UnsafeBufferPointer<Int>, near: UnsafeBufferPointer<PointOccluder>,
        primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        let (x0, y0) = (tile.x0, tile.y0)
        let dSlot = diffuseSlot[e]
        let sSlot = specularSlot[e]
        let lobe = emitters[e].hasSpecular && sSlot >= 0
        let factors = output.factors
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
            // The lanes are unpacked with constant indices, which measured faster than an index
            // variable.
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
                factors.of(pixel)[dSlot] = Float(gd)
                if sSlot >= 0 { factors.of(pixel)[sSlot] = Float(gs) }
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
            output.factors.of(pixel)[dSlot] = Float(gd)
            if sSlot >= 0 { output.factors.of(pixel)[sSlot] = Float(gs) }
        }
    }

    /// The factors of a point or spot light (the flash among them), with the light's terms
    /// unpacked once per tile. The shadow ray goes first: a blocked pixel skips the beam power.
    @inline(__always) func positionalFactors(
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
        // Nested rather than `shadows && occluded(…)`: an unoptimised build copies the pass into the operand's
        // closure for every pixel.
        if shadows {
            if occluded(point + n * 1e-6, l, dist * (1 - 1e-9), skip: skip, occluders, primitives) { return (0, 0) }
        }
        let scale = m > 0 ? InlinePower.of(cosAlpha, m) / d2 : 1 / d2
        let gd = scale * cosTheta
        guard lobe else { return (gd, 0) }
        return (gd, specular(l: l, view: v, normal: n, material: material, diffuse: gd))
    }
}
