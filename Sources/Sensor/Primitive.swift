import Imaging
import Scenes

/// An object prepared for ray casting: plain values only, so hot loops do no reference counting.
struct Primitive: Sendable {
    enum Kind: UInt8, Sendable { case plane, box, sphere, disc }
    enum Texture: UInt8, Sendable { case none, grid, image }

    var kind: Kind
    /// Half width / half height / half depth (plane, box) or radius (sphere, disc) in `size.x`.
    var size: Vector3
    var position: Vector3
    var toLocal: Rotation
    var toWorld: Rotation
    var boundingRadius: Double
    var object: UInt16
    var materialBase: Int
    var texture: Texture
    var columns: Int, rows: Int, gap: Double
    /// Start of this card's indices in the shared texel array.
    var texelOffset: Int
    /// The world normal of a plane or disc (local +Z), kept so hit lookups do not rotate it per pixel.
    var planeNormal: Vector3 = .zero

    static let epsilon = 1e-9

    /// The parts of a ray–primitive test that depend on the ray origin only, so that the many
    /// rays of one origin (all primary rays) compute them once.
    struct Prepared {
        /// Ray origin relative to the centre, world and local frame.
        var oc: Vector3, local: Vector3
        /// |oc|² − r² of the bounding sphere.
        var c: Double
    }

    @inline(__always) func prepare(origin: Vector3) -> Prepared {
        let oc = origin - position
        return Prepared(oc: oc, local: toLocal.rotate(oc), c: oc.dot(oc) - boundingRadius * boundingRadius)
    }

    /// The nearest hit distance along a world ray, in (tMin, tMax), or `.infinity`.
    @inline(__always) func distance(origin: Vector3, direction: Vector3, tMin: Double, tMax: Double) -> Double {
        // Bounding-sphere rejection first: most rays miss most objects.
        let oc = origin - position
        let b = oc.dot(direction)
        let c = oc.dot(oc) - boundingRadius * boundingRadius
        if c > 0 && (b > 0 || b * b - c < 0) { return .infinity }
        return distance(local: toLocal.rotate(oc), b: b, c: c, direction: direction, tMin: tMin, tMax: tMax)
    }

    /// The same for a ray whose origin-only parts are prepared.
    @inline(__always) func distance(_ q: Prepared, direction: Vector3, tMin: Double, tMax: Double) -> Double {
        let b = q.oc.dot(direction)
        if q.c > 0 && (b > 0 || b * b - q.c < 0) { return .infinity }
        return distance(local: q.local, b: b, c: q.c, direction: direction, tMin: tMin, tMax: tMax)
    }

    /// The exact hit distance of a ray that a single-precision test (`PrimaryShape`) found to hit
    /// this primitive: only the distance is recomputed in double precision (for a flat shape one
    /// division, for a sphere the near root), not the bounds. `.infinity` where the double-precision
    /// terms disagree (a ray grazing a sphere's rim); the caller then runs the full test.
    @inline(__always) func refinedDistance(_ q: Prepared, direction: Vector3) -> Double {
        switch kind {
        case .plane, .disc:
            let t = -q.local.z / (toLocal.row2 * direction).sum()
            return t > 1e-9 && t < .infinity ? t : .infinity
        case .sphere:
            let b = q.oc.dot(direction)
            let disc = b * b - q.c
            guard disc >= 0 else { return .infinity }
            let s = disc.squareRoot()
            let t = -b - s > 1e-9 ? -b - s : -b + s
            return t > 1e-9 ? t : .infinity
        case .box:
            return distance(q, direction: direction, tMin: 1e-9, tMax: .infinity)
        }
    }

    /// The exact test once the bounding sphere is hit: o is the local origin, b and c the
    /// bounding-sphere terms (exact for a sphere).
    @inline(__always) private func distance(
        local o: Vector3, b: Double, c: Double, direction: Vector3, tMin: Double, tMax: Double
    ) -> Double {
        var t = Double.infinity
        switch kind {
        case .plane, .disc:
            // Only the normal component first: most plane tests end at the t range.
            let dz = (toLocal.row2 * direction).sum()
            guard abs(dz) > Primitive.epsilon else { return .infinity }
            t = -o.z / dz
            guard t > tMin && t < tMax else { return .infinity }
            let x = o.x + t * (toLocal.row0 * direction).sum()
            let y = o.y + t * (toLocal.row1 * direction).sum()
            if kind == .plane {
                if abs(x) > size.x || abs(y) > size.y { return .infinity }
            } else if x * x + y * y > size.x * size.x {
                return .infinity
            }
        case .sphere:
            let disc = b * b - c
            guard disc >= 0 else { return .infinity }
            let s = disc.squareRoot()
            t = -b - s > tMin ? -b - s : -b + s
        case .box:
            let d = toLocal.rotate(direction)
            let inv = Vector3(1 / d.x, 1 / d.y, 1 / d.z)
            let t1 = (-size - o) * inv
            let t2 = (size - o) * inv
            let near = Primitive.lower(t1, t2).max()
            let far = Primitive.upper(t1, t2).min()
            guard near <= far else { return .infinity }
            t = near > tMin ? near : far
        }
        return t > tMin && t < tMax ? t : .infinity
    }

    /// `pointwiseMin` of the slab test's distances, inline (the library's is a call per use):
    /// per lane the number where one side is NaN (a ray in a slab's plane, 0 · ∞), else the lesser.
    /// It may differ from the library only in the sign of a zero, which no later comparison sees
    /// (a hit at ±0 is rejected either way).
    @inline(__always) static func lower(_ a: Vector3, _ b: Vector3) -> Vector3 {
        b.replacing(with: a, where: a .<= b .| b .!= b)
    }

    /// `pointwiseMax` likewise.
    @inline(__always) static func upper(_ a: Vector3, _ b: Vector3) -> Vector3 {
        b.replacing(with: a, where: a .>= b .| b .!= b)
    }

    /// `lower` in single precision.
    @inline(__always) static func lower(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        b.replacing(with: a, where: a .<= b .| b .!= b)
    }

    /// `upper` in single precision.
    @inline(__always) static func upper(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        b.replacing(with: a, where: a .>= b .| b .!= b)
    }

    /// The outward world normal and the local material index at a hit point.
    @inline(__always) func surface(
        at world: Vector3, texels: UnsafeBufferPointer<UInt16>
    ) -> (normal: Vector3, material: Int) {
        // An untextured flat shape has one normal and one material: no local point needed.
        if texture == .none && (kind == .plane || kind == .disc) {
            return (planeNormal, materialBase)
        }
        let p = toLocal.rotate(world - position)
        var n: Vector3
        switch kind {
        case .plane, .disc: n = Vector3(0, 0, 1)
        case .sphere: n = p / size.x
        case .box:
            let q = Vector3(abs(p.x), abs(p.y), abs(p.z)) / size
            if q.x >= q.y && q.x >= q.z {
                n = Vector3(p.x < 0 ? -1 : 1, 0, 0)
            } else if q.y >= q.z {
                n = Vector3(0, p.y < 0 ? -1 : 1, 0)
            } else {
                n = Vector3(0, 0, p.z < 0 ? -1 : 1)
            }
        }
        var material = 0
        if texture == .grid {
            material = GridCard(self).material(at: p)
        } else if texture == .image {
            let (_, _, col, row) = GridCard(self).cell(at: p)
            material = Int(texels[texelOffset + row * columns + col])
        }
        return (toWorld.rotate(n), materialBase + material)
    }
}

/// The cells of a textured card (`Primitive.Texture`): columns × rows over its local extent, row 0
/// at the top. One copy of the lookup serves `Primitive.surface` and the primary rays' own finish
/// of grid hits (`PrimaryShape`), so both give the same material for the same point.
struct GridCard {
    var halfW: Double
    var halfH: Double
    var columns: Int
    var rows: Int
    var gap: Double

    init(_ p: Primitive) {
        (halfW, halfH, columns, rows, gap) = (p.size.x, p.size.y, p.columns, p.rows, p.gap)
    }

    /// The cell of local point p with the fractional cell coordinates (fu, fv).
    @inline(__always) func cell(at p: Vector3) -> (fu: Double, fv: Double, col: Int, row: Int) {
        let u = min(max((p.x + halfW) / (2 * halfW), 0), 0.999_999_999)
        let v = min(max((halfH - p.y) / (2 * halfH), 0), 0.999_999_999)
        let fu = u * Double(columns)
        let fv = v * Double(rows)
        return (fu, fv, Int(fu), Int(fv))
    }

    /// The grid's material index (before the primitive's base) at local point p: each cell holds
    /// a patch inset by half the gap on every side; the rest is border (index columns · rows).
    @inline(__always) func material(at p: Vector3) -> Int {
        let (fu, fv, col, row) = cell(at: p)
        let du = fu - Double(col)
        let dv = fv - Double(row)
        let h = gap / 2
        return du < h || du > 1 - h || dv < h || dv > 1 - h ? columns * rows : row * columns + col
    }
}

extension Primitive {
    /// Flattens scene objects into primitives, materials and one shared texel array.
    static func build(scene: Scene) -> (primitives: [Primitive], materials: [Material], texels: [UInt16]) {
        var prims: [Primitive] = []
        var materials: [Material] = []
        var texels: [UInt16] = []
        for (i, object) in scene.objects.enumerated() {
            let kind: Kind
            var size: Vector3
            switch object.shape {
            case let .plane(w, h): (kind, size) = (.plane, Vector3(w / 2, h / 2, 0))
            case let .box(w, h, d): (kind, size) = (.box, Vector3(w / 2, h / 2, d / 2))
            case let .sphere(r): (kind, size) = (.sphere, Vector3(r, r, r))
            case let .disc(r): (kind, size) = (.disc, Vector3(r, r, 0))
            }
            if kind == .box { size = pointwiseMax(size, Vector3(repeating: 1e-9)) }
            var prim = Primitive(
                kind: kind, size: size, position: object.transform.position,
                toLocal: object.transform.rotation.inverse, toWorld: object.transform.rotation,
                boundingRadius: object.shape.boundingRadius * (1 + 1e-9) + 1e-9, object: UInt16(i),
                materialBase: materials.count, texture: .none, columns: 1, rows: 1, gap: 0,
                texelOffset: 0)
            prim.planeNormal = object.transform.rotation.rotate(Vector3(0, 0, 1))
            // A printed code covers its plane with its symbol (`SceneObject.printedSurface`).
            let surface = object.printedSurface
            let surfaceMaterials = surface.materials
            switch surface {
            case .uniform: break
            case let .grid(c, r, _, _, g):
                (prim.texture, prim.columns, prim.rows, prim.gap) = (.grid, c, r, g)
            case let .image(w, h, indices, palette):
                precondition(indices.count == w * h, "image card \(object.name): \(indices.count) texels for \(w)×\(h)")
                precondition(indices.allSatisfy { Int($0) < palette.count }, "image card \(object.name): index beyond palette")
                (prim.texture, prim.columns, prim.rows, prim.texelOffset) = (.image, w, h, texels.count)
                texels += indices
            }
            materials += surfaceMaterials
            prims.append(prim)
        }
        return (prims, materials, texels)
    }
}

extension Rotation {
    /// The rotated vector, inlined here because hot loops call it across the module boundary.
    @inline(__always) func rotate(_ v: Vector3) -> Vector3 {
        Vector3((row0 * v).sum(), (row1 * v).sum(), (row2 * v).sum())
    }
}
