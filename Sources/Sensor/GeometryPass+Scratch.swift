import Imaging
import Scenes

/// The scratch a band's tiles reuse: raw per-pixel buffers, the single-precision rays, the tile bounds.
extension GeometryPass {
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
}
