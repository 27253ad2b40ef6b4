import Foundation
import Imaging
import Scenes

/// The expensive, exposure-independent part of a frame: what every pixel sees and how each
/// light reaches it. Built once per (scene, camera, flash placement); any number of exposures,
/// with or without flash, then reuse it.
///
/// Per pixel it keeps depth, object and material ids, and for each emitter a diffuse geometric
/// factor (and a specular one when the light has a lobe), shadows included.
final class GeometryCache: Sendable {
    let width: Int
    let height: Int
    /// Factor slots per pixel: emitter e uses `diffuseSlot[e]` and, if ≥ 0, `specularSlot[e]`.
    let slotCount: Int
    let diffuseSlot: [Int]
    let specularSlot: [Int]
    let depth: [Float]
    let objectIDs: [UInt16]
    let materialIDs: [UInt16]
    let factors: [Float]

    static let tileSize = 32

    init(
        camera: CameraModel, origin: Vector3, rotation: Rotation, primitives: [Primitive], texels: [UInt16],
        materials: [Material], emitters: [Emitter], options: RenderOptions
    ) {
        width = camera.width
        height = camera.height
        var dSlot: [Int] = []
        var sSlot: [Int] = []
        var slots = 0
        let anyGloss = materials.contains { $0.specularStrength > 0 }
        for e in emitters {
            dSlot.append(slots)
            slots += 1
            if e.hasSpecular && anyGloss {
                sSlot.append(slots)
                slots += 1
            } else {
                sSlot.append(-1)
            }
        }
        slotCount = slots
        diffuseSlot = dSlot
        specularSlot = sSlot
        let pixels = width * height
        // The pass writes depth and ids of every pixel and every factor slot of every hit pixel
        // (background factors are never read), so the planes skip a serial fill: their pages are
        // first touched by the parallel pass instead.
        var depth = [Float](unsafeUninitializedCapacity: pixels) { _, n in n = pixels }
        var objectIDs = [UInt16](unsafeUninitializedCapacity: pixels) { _, n in n = pixels }
        var materialIDs = [UInt16](unsafeUninitializedCapacity: pixels) { _, n in n = pixels }
        let factorCount = pixels * max(slots, 1)
        var factors = [Float](unsafeUninitializedCapacity: factorCount) { _, n in n = factorCount }
        // Matte materials get no lobe at all (an infinite exponent marks them), saving the pow per light.
        let shininess = materials.map {
            $0.specularStrength > 0 ? GeometryCache.blinnPhongExponent(roughness: $0.roughness) : .infinity
        }
        let pass = GeometryPass(
            camera: camera, origin: origin, rotation: rotation, primitives: primitives, emitters: emitters,
            shininess: shininess, diffuseSlot: dSlot, specularSlot: sSlot, slotCount: slots,
            softSamples: options.softShadowSamples)
        texels.withUnsafeBufferPointer { tex in
            depth.withUnsafeMutableBufferPointer { dp in
                objectIDs.withUnsafeMutableBufferPointer { op in
                    materialIDs.withUnsafeMutableBufferPointer { mp in
                        factors.withUnsafeMutableBufferPointer { fp in
                            let out = GeometryPass.Output(
                                depth: SharedPointer(dp), objects: SharedPointer(op),
                                materials: SharedPointer(mp), factors: SharedPointer(fp))
                            let texShared = SharedTexels(texels: tex)
                            let tile = GeometryCache.tileSize
                            BandParallel.forEachBand(
                                height: camera.height, rowsPerBand: tile, threads: options.threadCount
                            ) { rows in
                                pass.run(band: rows.lowerBound / tile, texels: texShared.texels, output: out)
                            }
                        }
                    }
                }
            }
        }
        if camera.shading != nil {
            LensShading.apply(camera: camera, slots: max(slots, 1), materials: materialIDs, to: &factors, options: options)
        }
        self.depth = depth
        self.objectIDs = objectIDs
        self.materialIDs = materialIDs
        self.factors = factors
    }

    /// The planes as buffers, for a pixel loop that reads several of them.
    struct Buffers {
        let factors: UnsafeBufferPointer<Float>
        let materials: UnsafeBufferPointer<UInt16>
        let objects: UnsafeBufferPointer<UInt16>
        let depth: UnsafeBufferPointer<Float>
    }

    func withBuffers<R>(_ body: (Buffers) -> R) -> R {
        factors.withUnsafeBufferPointer { f in
            materialIDs.withUnsafeBufferPointer { m in
                objectIDs.withUnsafeBufferPointer { o in
                    depth.withUnsafeBufferPointer { d in body(Buffers(factors: f, materials: m, objects: o, depth: d)) }
                }
            }
        }
    }

    /// Blinn–Phong exponent for a perceptual roughness r: α = r², n = 2/α² − 2 (the usual match
    /// between Beckmann roughness and the Phong exponent, Walter et al. 2007).
    static func blinnPhongExponent(roughness: Double) -> Double {
        let a = max(roughness * roughness, 1e-3)
        return min(max(2 / (a * a) - 2, 0), 1e6)
    }
}

struct SharedTexels: @unchecked Sendable {
    let texels: UnsafeBufferPointer<UInt16>
}
