import Imaging
import Scenes

extension GeometryPass {
    /// Point or spot lights at one position with one axis, differing only in beam exponent and
    /// spectrum: a flash whose modules form two beams (iphone-15-pro: the 80° cluster and the 50°
    /// centre LED, both centred on one point).
    ///
    /// Per pixel they share the direction and distance to the light, cos θ and cos α, the shadow
    /// ray, log₂ cos α and the specular lobe; each member adds only its beam power 2^(m·log₂ cos α)
    /// and its factors. Every shared term is the same expression `positionalFactors` evaluates for
    /// one light, so the factors are those of the lights taken one by one, bit for bit.
    struct BeamGroup: Sendable {
        struct Member: Sendable {
            /// Beam exponent m (≤ 0: no beam, the light shines all round).
            let exponent: Double
            let diffuseSlot: Int
            let specularSlot: Int
            /// Whether the specular lobe applies and has a slot.
            let lobe: Bool
        }

        let position: Vector3
        let axis: Vector3
        let members: [Member]
        /// Whether some member has no beam: it lights points behind the axis too.
        let anyOpen: Bool
        let anyLobe: Bool
        /// The two exponents of a pair of beams (the common flash), whose powers are then
        /// evaluated in the two lanes of one vector; nil otherwise.
        let pair: SIMD2<Double>?
    }

    /// The emitter `lead`, with its group when it leads co-located beams (the others then have
    /// no batch of their own).
    struct LightBatch: Sendable {
        let lead: Int
        let group: BeamGroup?
    }

    /// Emitters in scene order, positional emitters with the same position and axis (exact
    /// equality, so the shadow rays and occluder lists are the same) gathered at the first one.
    static func batches(_ emitters: [Emitter], diffuseSlot: [Int], specularSlot: [Int]) -> [LightBatch] {
        var batches: [LightBatch] = []
        var taken = [Bool](repeating: false, count: emitters.count)
        for (e, emitter) in emitters.enumerated() where !taken[e] {
            guard case let .positional(position, axis, _) = emitter.geometry else {
                batches.append(LightBatch(lead: e, group: nil))
                continue
            }
            var members: [BeamGroup.Member] = []
            for f in e..<emitters.count where !taken[f] {
                guard case let .positional(p, a, m) = emitters[f].geometry, p == position, a == axis else { continue }
                taken[f] = true
                members.append(
                    BeamGroup.Member(
                        exponent: m, diffuseSlot: diffuseSlot[f], specularSlot: specularSlot[f],
                        lobe: emitters[f].hasSpecular && specularSlot[f] >= 0))
            }
            let group = members.count > 1
                ? BeamGroup(
                    position: position, axis: axis, members: members, anyOpen: members.contains { $0.exponent <= 0 },
                    anyLobe: members.contains { $0.lobe },
                    pair: members.count == 2 && members.allSatisfy { $0.exponent > 0 }
                        ? SIMD2(members[0].exponent, members[1].exponent) : nil)
                : nil
            batches.append(LightBatch(lead: e, group: group))
        }
        return batches
    }

    /// The factors of a group of co-located beams for the `count` pixels of a tile's group
    /// (`s.members`), occluders culled for their common position.
    @inline(never) func beamGroupFactors(
        _ group: BeamGroup, members: UnsafeBufferPointer<BeamGroup.Member>, tile: Tile, count: Int, s: Scratch,
        occluders: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        lobeTerms.withUnsafeBufferPointer { terms in
            // A copy of the loop without the shadow test where there is nothing to test (see
            // `positionalLightFactors`). The common flash (two beams, both glossy with slots) gets a
            // copy with its flags as constants, so its pixels pay no tests on them.
            let flash = group.pair != nil && !group.anyOpen && members.count == 2
                && members.allSatisfy { $0.lobe && $0.specularSlot >= 0 }
            if occluders.isEmpty && flash {
                beamGroupLoop(group, members: members, tile: tile, count: count, s: s, shadows: false, flash: true,
                              occluders: UnsafeBufferPointer(start: nil, count: 0), terms: terms,
                              primitives: primitives, output: output)
            } else if occluders.isEmpty {
                beamGroupLoop(group, members: members, tile: tile, count: count, s: s, shadows: false, flash: false,
                              occluders: UnsafeBufferPointer(start: nil, count: 0), terms: terms,
                              primitives: primitives, output: output)
            } else {
                // The occluders as seen from the beams' common position (`PointOccluder`).
                withUnsafeTemporaryAllocation(of: PointOccluder.self, capacity: occluders.count) { near in
                    for (j, i) in occluders.enumerated() {
                        near.initializeElement(at: j, to: PointOccluder(primitives[i], index: i, light: group.position))
                    }
                    beamGroupLoop(group, members: members, tile: tile, count: count, s: s, shadows: true, flash: false,
                                  occluders: UnsafeBufferPointer(near), terms: terms, primitives: primitives,
                                  output: output)
                }
            }
        }
    }

    /// The pixel loop of `beamGroupFactors`, with the shadow test only where `shadows`. The scratch
    /// and table pointers, the pair's exponents and its two members are taken into locals once, so
    /// the loop reloads none of them per pixel.
    @inline(__always) private func beamGroupLoop(
        _ group: BeamGroup, members: UnsafeBufferPointer<BeamGroup.Member>, tile: Tile, count: Int, s: Scratch,
        shadows: Bool, flash: Bool, occluders: UnsafeBufferPointer<PointOccluder>, terms: UnsafeBufferPointer<LobeTerm>,
        primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        let (x0, y0) = (tile.x0, tile.y0)
        let width = camera.width
        let (position, axis) = (group.position, group.axis)
        let (anyOpen, anyLobe) = flash ? (false, true) : (group.anyOpen, group.anyLobe)
        let factors = output.factors
        // A group has at least two members.
        let paired = flash || group.pair != nil
        let pair = group.pair ?? .zero
        let (first, second) = (members[0], members[1])
        let bothLobes = flash || first.lobe && second.lobe && first.specularSlot >= 0 && second.specularSlot >= 0
        let (ks, normals, points, skips, dirs, materials) = s.lightInputs
        guard let table = terms.baseAddress else { return }
        for j in 0..<count {
            let k = ks[j]
            let f = factors.of(GeometryPass.pixel(k, x0: x0, y0: y0, width: width))
            let point = points[k]
            let n = normals[k]
            let toLight = position - point
            let d2 = toLight.dot(toLight)
            let dist = d2.squareRoot()
            let l = toLight / dist
            let cosTheta = n.dot(l)
            let cosAlpha = -axis.dot(l)
            // The shadow test as a statement, not inside `&&`: an unoptimised build copies the whole pass into
            // the right operand's closure for every pixel.
            var lit = cosTheta > 0 && (anyOpen || cosAlpha > 0)
            if lit && shadows {
                lit = !occluded(
                    point + n * 1e-6, towards: l, dist: dist, dist * (1 - 1e-9), skip: skips[k], occluders, primitives)
            }
            guard lit else {
                for member in members {
                    f[member.diffuseSlot] = 0
                    if member.specularSlot >= 0 { f[member.specularSlot] = 0 }
                }
                continue
            }
            let normal = cosAlpha >= InlinePower.smallestNormal
            let beamLog = normal ? InlinePower.binaryLog(cosAlpha) : 0
            let lobe = anyLobe
                ? GeometryPass.lobe(l: l, ray: dirs[k], normal: n, term: table[materials[k]]) : 0
            if paired && normal {
                // cos α is normal, so positive: both beams light the point.
                let y = pair * beamLog
                if InlinePower.inRange(y) {
                    let gd = InlinePower.binaryExp(inRange: y, over: d2, times: cosTheta)
                    if bothLobes {
                        // Both members glossy with slots (the flash): their specular factors
                        // lobe · gd in the same lanes.
                        let gs = gd * lobe
                        // Rounded to Float two at a time (each lane as `Float(_:)` rounds it).
                        let (fd, fs) = (InlinePower.narrow(gd), InlinePower.narrow(gs))
                        f[first.diffuseSlot] = fd.x
                        f[first.specularSlot] = fs.x
                        f[second.diffuseSlot] = fd.y
                        f[second.specularSlot] = fs.y
                    } else {
                        GeometryPass.store(first, gd.x, lobe: lobe, in: f)
                        GeometryPass.store(second, gd.y, lobe: lobe, in: f)
                    }
                    continue
                }
            }
            for member in members {
                let m = member.exponent
                var gd = 0.0
                if m <= 0 {
                    gd = 1 / d2 * cosTheta
                } else if cosAlpha > 0 {
                    let power = normal ? InlinePower.binaryExp(m * beamLog) : InlinePower.belowNormal(cosAlpha, m)
                    gd = power / d2 * cosTheta
                }
                GeometryPass.store(member, gd, lobe: lobe, in: f)
            }
        }
    }

    /// One member's diffuse factor and, where it has a slot, its lobe's.
    @inline(__always) static func store(
        _ member: BeamGroup.Member, _ gd: Double, lobe: Double, in factors: UnsafeMutablePointer<Float>
    ) {
        factors[member.diffuseSlot] = Float(gd)
        if member.specularSlot >= 0 { factors[member.specularSlot] = Float(member.lobe ? lobe * gd : 0) }
    }
}
