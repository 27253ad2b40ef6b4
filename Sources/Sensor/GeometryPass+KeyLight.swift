import Foundation
import Imaging
import Scenes

/// The light factors of a group of pixels, and the directional (key) lights: soft discs and hard suns.
extension GeometryPass {
    /// One emitter's factors for the `count` pixels of a group (`s.members`), occluders culled.
    /// `cone` holds every primary ray of the tile: each direction d has d·axis ≥ cos(halfAngle).
    @inline(never) func lightFactors(
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
                output.factors.of(pixel)[dSlot] = Float(factor)
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
    @inline(never) func softLightFactors(
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
    @inline(__always) func softLightLoop(
        _ e: Int, l: Vector3, tile: Tile, count: Int, s: Scratch, shadows: Bool, lobe: Bool,
        cones: UnsafeBufferPointer<ConeOccluder>, terms: UnsafeBufferPointer<LobeTerm>,
        occluders: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        let (x0, y0) = (tile.x0, tile.y0)
        let width = camera.width
        let dSlot = diffuseSlot[e]
        let sSlot = specularSlot[e]
        let r = discFrames[e].radius
        let factors = output.factors
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
            factors.of(pixel)[dSlot] = Float(gd)
            if lobe || sSlot >= 0 { factors.of(pixel)[sSlot] = Float(gs) }
        }
    }

    /// A hard key light: g = cos θ · visibility, the same l for every pixel.
    @inline(never) func hardLightFactors(
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
    @inline(__always) func hardLightLoop(
        _ e: Int, l: Vector3, tile: Tile, bound: LobeBound, count: Int, s: Scratch, shadows: Bool, lobe: Bool,
        near: UnsafeBufferPointer<SphereBound>, exact: UnsafeBufferPointer<RayOccluder>,
        terms: UnsafeBufferPointer<LobeTerm>,
        primitives: UnsafeBufferPointer<Primitive>, output: Output
    ) {
        let (x0, y0) = (tile.x0, tile.y0)
        let width = camera.width
        let dSlot = diffuseSlot[e]
        let sSlot = specularSlot[e]
        let factors = output.factors
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
            factors.of(pixel)[dSlot] = Float(gd)
            if lobe || sSlot >= 0 { factors.of(pixel)[sSlot] = Float(gs) }
        }
    }
}
