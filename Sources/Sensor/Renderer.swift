import Foundation
import Imaging
import Scenes
import Spectra

/// Renders a scene through a camera into raw frames.
///
/// Building a renderer does all the exposure-independent work once: the spectral integrals per
/// (material, light) pair and the geometry pass (hits, depth, ids, shadowed light factors).
/// `render(_:)` then only sums factors × rates per pixel and runs the noise chain, so the flash
/// and no-flash frames of one capture, or frames at several exposures, share that work.
///
/// A pixel's mean electron rate is Σ_lights (g_d · R_d[material, light] + g_s · R_s[material, light]),
/// where R_d = A·T/(1 + 4N²) · ∫ ρ(λ) E(λ) λ/(hc) QE(λ) dλ and R_s is the same with ρ replaced
/// by the material's specular strength (see `CameraEquation`).
public struct Renderer: Sendable {
    /// The scene as rendered.
    public let scene: Scene
    /// The camera.
    public let camera: CameraModel
    /// The flash, if the device has one.
    public let flash: FlashModel?
    /// Options.
    public let options: RenderOptions
    /// Every material in the scene; `RawFrame.materialIDs` index this list.
    public let materials: [Material]

    let emitters: [Emitter]
    /// Electron rates (e⁻/s per unit geometric factor), index material × emitters + emitter.
    let diffuseRates: [SIMD3<Float>]
    let specularRates: [SIMD3<Float>]
    let geometry: GeometryCache
    /// The camera's optical centre and camera-to-world rotation, and the ray-cast scene: kept so
    /// depth models can cast rays from other viewpoints (a second camera, a projector).
    let origin: Vector3
    let rotation: Rotation
    let primitives: [Primitive]
    let texels: [UInt16]

    /// Prepares a scene for rendering.
    ///
    /// - Parameter luminousEfficiency: the photopic luminous efficiency V(λ) (the CIE 1931 ȳ
    ///   function by default) used to turn lux and candela into radiometric units.
    public init(
        scene: Scene, camera: CameraModel, flash: FlashModel?, luminousEfficiency: Spectrum = CIE1931.yBar,
        options: RenderOptions = RenderOptions()
    ) {
        precondition(camera.width > 0 && camera.height > 0, "a camera needs a non-empty image")
        self.scene = scene
        self.camera = camera
        self.flash = flash
        self.options = options
        let deviceRotation = scene.device.rotation
        let rotation = deviceRotation * camera.rotationInDevice
        let origin = scene.device.position + deviceRotation.apply(camera.positionInDevice)
        let (primitives, materials, texels) = Primitive.build(scene: scene)
        self.origin = origin
        self.rotation = rotation
        self.primitives = primitives
        self.texels = texels
        precondition(materials.count < Int(RawFrame.none), "too many materials")
        self.materials = materials
        let emitters = Emitter.flatten(
            scene: scene, flash: flash, cameraPosition: origin, cameraRotation: rotation,
            efficiency: luminousEfficiency)
        self.emitters = emitters
        (diffuseRates, specularRates) = Renderer.rates(materials: materials, emitters: emitters, camera: camera)
        geometry = GeometryCache(
            camera: camera, origin: origin, rotation: rotation, primitives: primitives, texels: texels,
            materials: materials, emitters: emitters, options: options)
    }

    /// The spectral integrals: once per (material, emitter) pair, never per pixel.
    static func rates(materials: [Material], emitters: [Emitter], camera: CameraModel)
        -> ([SIMD3<Float>], [SIMD3<Float>])
    {
        let k = CameraEquation.throughput(fNumber: camera.fNumber, transmittance: camera.lensTransmittance)
        let qe = [camera.quantumEfficiency.red, camera.quantumEfficiency.green, camera.quantumEfficiency.blue]
        func rgb(_ irradiance: Spectrum) -> SIMD3<Float> {
            let v = qe.map {
                CameraEquation.electronRate(
                    sensorIrradiance: irradiance, quantumEfficiency: $0, pixelPitchMicrometres: camera.pixelPitchMicrometres)
            }
            return SIMD3(Float(v[0] * k), Float(v[1] * k), Float(v[2] * k))
        }
        let lightOnly = emitters.map { rgb($0.unitSpectrum) }
        var diffuse: [SIMD3<Float>] = []
        var specular: [SIMD3<Float>] = []
        for m in materials {
            for (e, emitter) in emitters.enumerated() {
                diffuse.append(rgb(m.reflectance * emitter.unitSpectrum))
                specular.append(lightOnly[e] * Float(m.specularStrength))
            }
        }
        return (diffuse, specular)
    }

    /// Exposes one frame.
    public func render(_ exposure: Exposure) -> RawFrame {
        let pixels = camera.width * camera.height
        // The shading pass writes every element, so the planes skip a zero fill (and its page faults).
        var electrons = [Float](unsafeUninitializedCapacity: pixels * 3) { _, n in n = pixels * 3 }
        var dn = [UInt16](unsafeUninitializedCapacity: pixels * 3) { _, n in n = pixels * 3 }
        let keep = options.keepsComponents
        // Likewise the components, when kept: a serial zero fill of them cost more than the parallel pass's writes.
        let parts = keep ? pixels * 3 : 0
        var flashPart = [Float](unsafeUninitializedCapacity: parts) { _, n in n = parts }
        var ambientPart = [Float](unsafeUninitializedCapacity: parts) { _, n in n = parts }
        let shading = ShadingPass(renderer: self, exposure: exposure)
        electrons.withUnsafeMutableBufferPointer { ep in
            dn.withUnsafeMutableBufferPointer { dp in
                flashPart.withUnsafeMutableBufferPointer { fp in
                    ambientPart.withUnsafeMutableBufferPointer { ap in
                        let out = ShadingPass.Output(
                            electrons: SharedPointer(ep), dn: SharedPointer(dp),
                            flash: keep ? SharedPointer(fp) : nil, ambient: keep ? SharedPointer(ap) : nil)
                        let rows = 16
                        let bands = (camera.height + rows - 1) / rows
                        Parallel.forEachBand(bands, threads: options.threadCount) { band in
                            shading.run(rows: (band * rows)..<min(band * rows + rows, camera.height), output: out)
                        }
                    }
                }
            }
        }
        return RawFrame(
            width: camera.width, height: camera.height, exposure: exposure, electrons: electrons, dn: dn,
            depth: geometry.depth, objectIDs: geometry.objectIDs, materialIDs: geometry.materialIDs,
            flashElectrons: keep ? flashPart : nil, ambientElectrons: keep ? ambientPart : nil)
    }
}
