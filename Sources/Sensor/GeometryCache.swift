import Foundation
import Imaging
import Scenes

/// The expensive, exposure-independent part of a frame: what every pixel sees and how each
/// light reaches it. Built once per (scene, camera, flash placement); any number of exposures,
/// with or without flash, then reuse it.
///
/// Per pixel it keeps depth, object and material ids, and for each emitter a diffuse geometric
/// factor (and a specular one when the light has a lobe), shadows included, at single precision or, where the
/// options ask for it, at half precision (`PackedFactors`): 18 bytes a pixel for nine slots instead of 36.
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
    let factors: PackedFactors

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
        let width = width
        // The pass writes depth and ids of every pixel and every factor slot of every hit pixel
        // (background factors are never read), so the planes skip a serial fill: their pages are
        // first touched by the parallel pass instead.
        var depth = [Float](unsafeUninitializedCapacity: pixels) { _, n in n = pixels }
        var objectIDs = [UInt16](unsafeUninitializedCapacity: pixels) { _, n in n = pixels }
        var materialIDs = [UInt16](unsafeUninitializedCapacity: pixels) { _, n in n = pixels }
        let stride = max(slots, 1)
        let tile = GeometryCache.tileSize
        let bands = (height + tile - 1) / tile
        // Two elements a factor at single precision, one at half (`PackedFactors`).
        let half = options.halfFactors
        let elements = pixels * stride * (half ? 1 : 2)
        var bits = [UInt16](unsafeUninitializedCapacity: elements) { _, n in n = elements }
        var scales = [Float](repeating: 1, count: bands * stride)
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
                        bits.withUnsafeMutableBufferPointer { bp in
                            scales.withUnsafeMutableBufferPointer { sp in
                                let texShared = SharedTexels(texels: tex)
                                let (depthOut, objectsOut, materialsOut) = (
                                    SharedPointer(dp), SharedPointer(op), SharedPointer(mp)
                                )
                                let (bitsOut, scalesOut) = (SharedPointer(bp), SharedPointer(sp))
                                BandParallel.forEachBand(
                                    height: camera.height, rowsPerBand: tile, threads: options.threadCount
                                ) {
                                    rows in
                                    let first = rows.lowerBound * width
                                    let ids = materialsOut.base + first
                                    func run(_ factors: UnsafeMutablePointer<Float>, band: UnsafeMutablePointer<Float>)
                                    {
                                        let out = GeometryPass.Output(
                                            depth: depthOut, objects: objectsOut, materials: materialsOut,
                                            factors: SharedPointer(base: factors))
                                        pass.run(band: rows.lowerBound / tile, texels: texShared.texels, output: out)
                                        if camera.shading != nil {
                                            LensShading.apply(
                                                camera: camera, slots: stride, rows: rows, materials: ids, to: band)
                                        }
                                    }
                                    guard half else {
                                        // Single precision: the factors go straight into the plane, as Floats.
                                        let floats = UnsafeMutableRawPointer(bitsOut.base).bindMemory(
                                            to: Float.self, capacity: pixels * stride)
                                        run(floats, band: floats + first * stride)
                                        return
                                    }
                                    // Half precision: the band's factors at single precision, shaded by the lens,
                                    // then packed, so that the whole frame's never exist at four bytes each.
                                    let count = rows.count * width
                                    let band = UnsafeMutablePointer<Float>.allocate(capacity: count * stride)
                                    defer { band.deallocate() }
                                    // The pass indexes factors by the frame's pixel; the band's start stands in for
                                    // the frame's (an address computed as an integer, never read below the band).
                                    let offset = UInt(first * stride * MemoryLayout<Float>.stride)
                                    guard
                                        let origin = UnsafeMutablePointer<Float>(
                                            bitPattern: UInt(bitPattern: band) &- offset)
                                    else { preconditionFailure("a band's factors lie above the null page") }
                                    run(origin, band: band)
                                    PackedFactors.pack(
                                        band, materials: ids, none: RawFrame.none, count: count, slots: stride,
                                        into: bitsOut.base + first * stride,
                                        scales: scalesOut.base + (rows.lowerBound / tile) * stride)
                                }
                            }
                        }
                    }
                }
            }
        }
        self.depth = depth
        self.objectIDs = objectIDs
        self.materialIDs = materialIDs
        self.factors = PackedFactors(half: half, bandRows: tile, slots: stride, bits: bits, scales: scales)
    }

    /// The planes as buffers, for a pixel loop that reads several of them.
    struct Buffers {
        let factors: PackedFactors.Buffers
        let materials: UnsafeBufferPointer<UInt16>
        let objects: UnsafeBufferPointer<UInt16>
        let depth: UnsafeBufferPointer<Float>
    }

    func withBuffers<R>(_ body: (Buffers) -> R) -> R {
        factors.withBuffers { f in
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
