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
        // The pass writes depth and ids of every pixel and every factor slot of every hit pixel
        // (background factors are never read), so the planes skip a serial fill: their pages are
        // first touched by the parallel pass instead.
        var depth: [Float] = BandParallel.uninitialized(pixels)
        var objectIDs: [UInt16] = BandParallel.uninitialized(pixels)
        var materialIDs: [UInt16] = BandParallel.uninitialized(pixels)
        let stride = max(slots, 1)
        let tile = GeometryCache.tileSize
        let bands = (height + tile - 1) / tile
        // Either plane, the other left empty (`PackedFactors`).
        let half = options.halfFactors
        let (singles, halves) = half ? (0, pixels * stride) : (pixels * stride, 0)
        var floats: [Float] = BandParallel.uninitialized(singles)
        var bits: [UInt16] = BandParallel.uninitialized(halves)
        var scales = [Float](repeating: 1, count: half ? bands * stride : 0)
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
                        floats.withUnsafeMutableBufferPointer { fp in
                            bits.withUnsafeMutableBufferPointer { bp in
                                scales.withUnsafeMutableBufferPointer { sp in
                                    // Only the precision's own plane is addressed: an empty array's buffer may
                                    // still have an address, which nothing may write through.
                                    let planes = Planes(
                                        depth: SharedPointer(dp), objects: SharedPointer(op),
                                        materials: SharedPointer(mp), floats: half ? nil : fp.baseAddress,
                                        bits: half ? bp.baseAddress : nil, scales: half ? sp.baseAddress : nil)
                                    let shared = SharedTexels(texels: tex)
                                    BandParallel.forEachBand(
                                        height: camera.height, rowsPerBand: tile, threads: options.threadCount
                                    ) { rows in
                                        GeometryCache.fill(
                                            band: rows, pass: pass, texels: shared, planes: planes, slots: stride)
                                    }
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
        self.factors = PackedFactors(
            bandRows: tile, slots: stride, storage: half ? .half(bits: bits, scales: scales) : .single(floats))
    }

    /// The planes the bands write, each band only its own rows: the single-precision factors, or the half-precision
    /// ones and their scales, the others nil.
    struct Planes: @unchecked Sendable {
        let depth: SharedPointer<Float>
        let objects: SharedPointer<UInt16>
        let materials: SharedPointer<UInt16>
        let floats: UnsafeMutablePointer<Float>?
        let bits: UnsafeMutablePointer<UInt16>?
        let scales: UnsafeMutablePointer<Float>?
    }

    /// Runs the pass on one band of rows and stores its factors: straight into the single-precision plane, shaded
    /// by the lens there, or through a band of Floats packed at half precision with the lens's shading applied as
    /// they are packed, so that the whole frame's factors never exist at four bytes each (`PackedFactors`).
    static func fill(band rows: Range<Int>, pass: GeometryPass, texels: SharedTexels, planes: Planes, slots: Int) {
        let camera = pass.camera, tile = tileSize
        let first = rows.lowerBound * camera.width
        let ids = planes.materials.base + first
        func run(_ factors: GeometryPass.FactorRows) {
            let out = GeometryPass.Output(
                depth: planes.depth, objects: planes.objects, materials: planes.materials, factors: factors)
            pass.run(band: rows.lowerBound / tile, texels: texels.texels, output: out)
        }
        guard let bits = planes.bits, let scales = planes.scales else {
            guard let floats = planes.floats else { preconditionFailure("a frame has at least one pixel") }
            run(GeometryPass.FactorRows(base: floats, firstPixel: 0, slots: slots))
            if camera.shading != nil {
                LensShading.apply(camera: camera, slots: slots, rows: rows, materials: ids, to: floats + first * slots)
            }
            return
        }
        let count = rows.count * camera.width
        let band = UnsafeMutablePointer<Float>.allocate(capacity: count * slots)
        defer { band.deallocate() }
        run(GeometryPass.FactorRows(base: band, firstPixel: first, slots: slots))
        let into = bits + first * slots, bandScales = scales + (rows.lowerBound / tile) * slots
        guard camera.shading != nil else {
            PackedFactors.pack(
                band, materials: ids, none: RawFrame.none, count: count, slots: slots, into: into, scales: bandScales)
            return
        }
        let gains = UnsafeMutablePointer<Float>.allocate(capacity: count)
        defer { gains.deallocate() }
        for y in rows { camera.relativeIllumination(row: y, into: gains + (y - rows.lowerBound) * camera.width) }
        PackedFactors.pack(
            band, gains: gains, materials: ids, none: RawFrame.none, count: count, slots: slots, into: into,
            scales: bandScales)
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
