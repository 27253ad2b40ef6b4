import Foundation
import Imaging
import Scenes

extension ReferenceRenderer {
    /// Ray casting against the scene's objects, one object after another, in double precision.
    enum Tracer {
        /// A ray's hit: the object, the distance, the outward world normal and the local hit point.
        struct Hit {
            var object: Int
            var t: Double
            var normal: Vector3
            var localPoint: Vector3
        }

        /// The nearest hit along origin + t·d with tMin < t < tMax (d of unit length), or nil.
        static func nearest(
            _ objects: [SceneObject], origin: Vector3, direction d: Vector3, tMin: Double, tMax: Double
        ) -> Hit? {
            var best: Hit?
            for (i, object) in objects.enumerated() {
                guard var hit = intersect(object, origin: origin, direction: d, tMin: tMin) else { continue }
                if hit.t < tMax && hit.t < (best?.t ?? .infinity) {
                    hit.object = i
                    best = hit
                }
            }
            return best
        }

        /// One object: the ray is carried into the object's frame (x′ = Rᵀ(x − c)), where each shape
        /// is centred at the origin, and the normal back out.
        static func intersect(_ object: SceneObject, origin: Vector3, direction: Vector3, tMin: Double) -> Hit? {
            let toLocal = object.transform.rotation.inverse
            let o = toLocal.apply(origin - object.transform.position)
            let d = toLocal.apply(direction)
            var t = Double.infinity
            var normal = Vector3.zero
            switch object.shape {
            case let .plane(width, height):
                // The plane z′ = 0 at t = −o_z/d_z, inside |x′| ≤ w/2, |y′| ≤ h/2.
                guard d.z != 0 else { return nil }
                t = -o.z / d.z
                let p = o + d * t
                guard abs(p.x) <= width / 2, abs(p.y) <= height / 2 else { return nil }
                normal = Vector3(0, 0, 1)
            case let .disc(radius):
                guard d.z != 0 else { return nil }
                t = -o.z / d.z
                let p = o + d * t
                guard p.x * p.x + p.y * p.y <= radius * radius else { return nil }
                normal = Vector3(0, 0, 1)
            case let .sphere(radius):
                // |o + t·d|² = r² with |d| = 1: t = −b ± √(b² − c), b = o·d, c = |o|² − r².
                let b = o.dot(d)
                let c = o.dot(o) - radius * radius
                let discriminant = b * b - c
                guard discriminant >= 0 else { return nil }
                let s = discriminant.squareRoot()
                t = -b - s > tMin ? -b - s : -b + s
                normal = (o + d * t) / radius
            case let .box(width, height, depth):
                // Slabs (Kay & Kajiya 1986): the ray is inside the box between the latest entry and the
                // earliest exit over the three axes; from inside, the exit is the hit.
                let half = Vector3(width, height, depth) / 2
                var near = -Double.infinity
                var far = Double.infinity
                for k in 0..<3 {
                    if d[k] == 0 {
                        guard abs(o[k]) <= half[k] else { return nil }
                        continue
                    }
                    let t1 = (-half[k] - o[k]) / d[k]
                    let t2 = (half[k] - o[k]) / d[k]
                    near = max(near, min(t1, t2))
                    far = min(far, max(t1, t2))
                }
                guard near <= far else { return nil }
                t = near > tMin ? near : far
                // The face is the axis along which the hit point is relatively farthest out.
                let p = o + d * t
                let q = Vector3(abs(p.x) / half.x, abs(p.y) / half.y, abs(p.z) / half.z)
                let k = q.x >= q.y && q.x >= q.z ? 0 : (q.y >= q.z ? 1 : 2)
                normal[k] = p[k] < 0 ? -1 : 1
            }
            guard t > tMin, t.isFinite else { return nil }
            return Hit(object: -1, t: t, normal: object.transform.rotation.apply(normal), localPoint: o + d * t)
        }

        /// The index into `object.surface.materials` at a local hit point. Textures span the shape's
        /// local x and y extent: u = (x′ + w/2)/w to the right, v = (h/2 − y′)/h downwards (`Surface`).
        static func materialIndex(_ object: SceneObject, localPoint p: Vector3) -> Int {
            let (halfW, halfH): (Double, Double)
            switch object.shape {
            case let .plane(w, h): (halfW, halfH) = (w / 2, h / 2)
            case let .box(w, h, _): (halfW, halfH) = (w / 2, h / 2)
            case let .sphere(r), let .disc(r): (halfW, halfH) = (r, r)
            }
            func cell(_ columns: Int, _ rows: Int) -> (u: Double, v: Double, column: Int, row: Int) {
                let u = min(max((p.x + halfW) / (2 * halfW), 0), 1) * Double(columns)
                let v = min(max((halfH - p.y) / (2 * halfH), 0), 1) * Double(rows)
                return (u, v, min(Int(u), columns - 1), min(Int(v), rows - 1))
            }
            switch object.surface {
            case .uniform:
                return 0
            case let .grid(columns, rows, _, _, gap):
                // Each cell shows its patch inset by half the gap on every side; the rest is border.
                let (u, v, column, row) = cell(columns, rows)
                let (du, dv) = (u - Double(column), v - Double(row))
                let inset = gap / 2
                let border = du < inset || du > 1 - inset || dv < inset || dv > 1 - inset
                return border ? columns * rows : row * columns + column
            case let .image(width, height, indices, _):
                let (_, _, column, row) = cell(width, height)
                return Int(indices[row * width + column])
            }
        }
    }
}
