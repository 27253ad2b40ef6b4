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
    /// Where the lens is focused, when the frames show depth of field; nil renders every depth sharp, as a
    /// pinhole would (`render(_:)` then samples each pixel's centre only).
    public private(set) var focus: LensFocus?

    let emitters: [Emitter]
    /// Electron rates (e⁻/s per unit geometric factor), index material × emitters + emitter.
    let diffuseRates: [SIMD3<Float>]
    let specularRates: [SIMD3<Float>]
    /// Electron rates (e⁻/s) of each material's own light (`Material.emission`, a lit screen), per material;
    /// empty when no material emits.
    let emissionRates: [SIMD3<Float>]
    let geometry: GeometryCache
    /// The camera's optical centre and camera-to-world rotation, and the ray-cast scene: kept so
    /// depth models can cast rays from other viewpoints (a second camera, a projector).
    let origin: Vector3
    let rotation: Rotation
    let primitives: [Primitive]
    let texels: [UInt16]

    /// Prepares a scene for rendering.
    ///
    /// - Parameters:
    ///   - luminousEfficiency: the photopic luminous efficiency V(λ) (the CIE 1931 ȳ function by default) used
    ///     to turn lux and candela into radiometric units.
    ///   - focus: where the lens is focused, for frames with depth of field (`render(_:)`); nil for every depth
    ///     in focus.
    public init(
        scene: Scene, camera: CameraModel, flash: FlashModel?, luminousEfficiency: Spectrum = CIE1931.yBar,
        options: RenderOptions = RenderOptions(), focus: LensFocus? = nil
    ) {
        precondition(camera.width > 0 && camera.height > 0, "a camera needs a non-empty image")
        self.scene = scene
        self.focus = focus
        self.camera = camera
        self.flash = flash
        self.options = options
        let (origin, rotation) = Renderer.pose(of: camera, in: scene)
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
        emissionRates = Renderer.emissionRates(materials: materials, camera: camera)
        geometry = GeometryCache(
            camera: camera, origin: origin, rotation: rotation, primitives: primitives, texels: texels,
            materials: materials, emitters: emitters, options: options)
    }

    /// This renderer with the lens focused elsewhere (nil: every depth sharp), sharing all the work its
    /// initialiser did. Focus only spreads each point's light before the sensor counts it (`render(_:)`): the
    /// geometry pass and the spectral integrals do not depend on it, so a camera that refocuses on an unchanged
    /// scene need not trace the scene again, nor hold a second copy of its geometry.
    public func focused(_ focus: LensFocus?) -> Renderer {
        var copy = self
        copy.focus = focus
        return copy
    }

    /// Whether this renderer and `other` share one geometry pass (`focused(_:)`), rather than hold equal copies.
    package func sharesGeometry(with other: Renderer) -> Bool { geometry === other.geometry }

    /// The camera's optical centre and camera-to-world rotation in a scene: the device's placement
    /// composed with the camera's pose in the device.
    static func pose(of camera: CameraModel, in scene: Scene) -> (origin: Vector3, rotation: Rotation) {
        let deviceRotation = scene.device.rotation
        return (
            scene.device.position + deviceRotation.apply(camera.positionInDevice),
            deviceRotation * camera.rotationInDevice
        )
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
                    sensorIrradiance: irradiance, quantumEfficiency: $0,
                    pixelPitchMicrometres: camera.pixelPitchMicrometres)
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

    /// The rates of the materials' own light: a surface of radiance L seen by the camera puts π·L·T/(1 + 4N²)
    /// on the sensor (`CameraEquation`), where a Lambertian reflector under irradiance E has L = ρE/π; so the
    /// emitted radiance enters the same integral as π·L in place of ρ·E, with a geometric factor of 1.
    static func emissionRates(materials: [Material], camera: CameraModel) -> [SIMD3<Float>] {
        guard materials.contains(where: { $0.emission != nil }) else { return [] }
        let k = CameraEquation.throughput(fNumber: camera.fNumber, transmittance: camera.lensTransmittance)
        let qe = [camera.quantumEfficiency.red, camera.quantumEfficiency.green, camera.quantumEfficiency.blue]
        return materials.map { m in
            guard let emission = m.emission else { return .zero }
            let v = qe.map {
                CameraEquation.electronRate(
                    sensorIrradiance: emission * Double.pi, quantumEfficiency: $0,
                    pixelPitchMicrometres: camera.pixelPitchMicrometres) * k
            }
            return SIMD3(Float(v[0]), Float(v[1]), Float(v[2]))
        }
    }

    /// Exposes one frame; with a `focus`, each point's light spreads over its circle of confusion before the
    /// noise chain (`render(_:blurredBy:)`).
    public func render(_ exposure: Exposure) -> RawFrame {
        if let focus { return render(exposure, blurredBy: focus) }
        var planes = Planes(pixels: camera.width * camera.height, options: options)
        var sums = BandSums(bands: bandCount, kept: planes.keepsMeans)
        let shading = ShadingPass(renderer: self, exposure: exposure)
        let width = camera.width
        planes.withOutput { out in
            sums.withRecorder { recorder in
                forEachBand { band, rows in
                    Self.shade(out, rows: rows, width: width, recorder, band) { banded in
                        shading.run(rows: rows, output: banded)
                    }
                }
            }
        }
        return frame(exposure, planes, sums.means(pixels: camera.width * camera.height))
    }

    /// Exposes several frames of this renderer's scene, in order, two at a time in one pass over
    /// the cached geometry: each pixel's light factors and fixed pattern are read or drawn once for
    /// both frames of a pair, and two exposures of equal time (a flash/no-flash pair) share their
    /// ambient sum too. Each exposure keeps its own noise stream, so every frame is byte for byte
    /// the one `render(_:)` makes of that exposure alone.
    public func render(_ exposures: [Exposure]) -> [RawFrame] {
        // Depth of field blurs each frame's means before its noise: such frames are rendered one by one.
        if focus != nil { return exposures.map(render) }
        var frames: [RawFrame] = []
        frames.reserveCapacity(exposures.count)
        var i = 0
        while i < exposures.count {
            if i + 1 == exposures.count {
                frames.append(render(exposures[i]))
                break
            }
            let pixels = camera.width * camera.height
            let width = camera.width
            var first = Planes(pixels: pixels, options: options)
            var second = Planes(pixels: pixels, options: options)
            var firstSums = BandSums(bands: bandCount, kept: first.keepsMeans)
            var secondSums = BandSums(bands: bandCount, kept: second.keepsMeans)
            let a = ShadingPass(renderer: self, exposure: exposures[i])
            let b = ShadingPass(renderer: self, exposure: exposures[i + 1])
            first.withOutput { oa in
                second.withOutput { ob in
                    firstSums.withRecorder { ra in
                        secondSums.withRecorder { rb in
                            forEachBand { band, rows in
                                Self.shade(oa, rows: rows, width: width, ra, band) { bandA in
                                    Self.shade(ob, rows: rows, width: width, rb, band) { bandB in
                                        ShadingPass.runPair(a, b, rows: rows, outputs: (bandA, bandB))
                                    }
                                }
                            }
                        }
                    }
                }
            }
            frames.append(frame(exposures[i], first, firstSums.means(pixels: pixels)))
            frames.append(frame(exposures[i + 1], second, secondSums.means(pixels: pixels)))
            i += 2
        }
        return frames
    }

    /// Rows of one band of the shading pass.
    static let bandRows = 16

    var bandCount: Int { (camera.height + Self.bandRows - 1) / Self.bandRows }

    /// Runs `body` over bands of `bandRows` rows on the worker threads, with each band's index.
    func forEachBand(_ body: @Sendable (Int, Range<Int>) -> Void) {
        BandParallel.forEachBand(height: camera.height, rowsPerBand: Self.bandRows, threads: options.threadCount) {
            rows in body(rows.lowerBound / Self.bandRows, rows)
        }
    }

    /// Shades one band through `body` and, when the frame keeps component means, records the band's
    /// sums. A frame that keeps the component planes is summed from them; one that keeps only the
    /// means gets band-sized planes here (two 16-row planes instead of two whole frames), summed
    /// and released before the next band.
    static func shade(
        _ output: ShadingPass.Output, rows: Range<Int>, width: Int, _ recorder: BandSums.Recorder?, _ band: Int,
        _ body: (ShadingPass.Output) -> Void
    ) {
        guard let recorder else {
            body(output)
            return
        }
        let first = rows.lowerBound * width
        let count = rows.count * width * 3
        if let flash = output.flash, let ambient = output.ambient {
            body(output)
            recorder.record(band, flash: flash.base + first * 3, ambient: ambient.base + first * 3, count: count)
            return
        }
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 2 * count)
        defer { scratch.deallocate() }
        body(
            ShadingPass.Output(
                electrons: output.electrons, dn: output.dn, flash: SharedPointer(base: scratch),
                ambient: SharedPointer(base: scratch + count), componentOrigin: first))
        recorder.record(band, flash: scratch, ambient: scratch + count, count: count)
    }

    /// A frame of `planes`, with this renderer's geometry as its truth planes unless `truth` gives others, or with
    /// empty truth planes when the options leave them out (`RenderOptions.keepsTruth`).
    func frame(
        _ exposure: Exposure, _ planes: Planes, _ means: ComponentSums?,
        truth: (depth: [Float], objectIDs: [UInt16], materialIDs: [UInt16])? = nil
    ) -> RawFrame {
        let none: (depth: [Float], objectIDs: [UInt16], materialIDs: [UInt16]) = ([], [], [])
        let truth = options.keepsTruth ? truth ?? (geometry.depth, geometry.objectIDs, geometry.materialIDs) : none
        return RawFrame(
            width: camera.width, height: camera.height, exposure: exposure, electrons: planes.electrons,
            dn: planes.dn, depth: truth.depth, objectIDs: truth.objectIDs, materialIDs: truth.materialIDs,
            flashElectrons: planes.keepsComponents ? planes.flash : nil,
            ambientElectrons: planes.keepsComponents ? planes.ambient : nil,
            meanFlashElectrons: means?.flash, meanAmbientElectrons: means?.ambient)
    }

    /// The planes one frame writes. The shading pass writes every element, so they skip a zero fill
    /// (and its page faults); a plane the options leave out is empty and never written.
    struct Planes {
        var electrons: [Float]
        var dn: [UInt16]
        var flash: [Float]
        var ambient: [Float]
        let keepsComponents: Bool
        let keepsElectrons: Bool
        /// Whether the frame carries the components' means (always when it keeps the components).
        let keepsMeans: Bool

        init(pixels: Int, options: RenderOptions) {
            keepsComponents = options.keepsComponents
            keepsElectrons = options.keepsElectrons
            keepsMeans = options.keepsComponents || options.keepsComponentMeans
            let values = pixels * 3
            let e = keepsElectrons ? values : 0
            electrons = Self.uninitialized(e)
            dn = Self.uninitialized(values)
            // Likewise the components, when kept: a serial zero fill of them cost more than the parallel pass's writes.
            let parts = keepsComponents ? values : 0
            flash = Self.uninitialized(parts)
            ambient = Self.uninitialized(parts)
        }

        /// `count` plain values left uninitialised (`BandParallel.uninitialized`).
        static func uninitialized<T: BitwiseCopyable>(_ count: Int) -> [T] { BandParallel.uninitialized(count) }

        mutating func withOutput<R>(_ body: (ShadingPass.Output) -> R) -> R {
            let keepE = keepsElectrons, keepC = keepsComponents
            return electrons.withUnsafeMutableBufferPointer { ep in
                dn.withUnsafeMutableBufferPointer { dp in
                    flash.withUnsafeMutableBufferPointer { fp in
                        ambient.withUnsafeMutableBufferPointer { ap in
                            body(
                                ShadingPass.Output(
                                    electrons: keepE ? SharedPointer(ep) : nil, dn: SharedPointer(dp),
                                    flash: keepC ? SharedPointer(fp) : nil, ambient: keepC ? SharedPointer(ap) : nil))
                        }
                    }
                }
            }
        }
    }
}

/// Per-channel sums of a frame's noise-free components, flash and ambient.
struct ComponentSums: Sendable {
    var flash = SIMD3<Double>.zero
    var ambient = SIMD3<Double>.zero

    /// Sums `count` interleaved RGB values of each plane, pixel by pixel in order.
    init(flash f: UnsafePointer<Float>, ambient a: UnsafePointer<Float>, count: Int) {
        // A `while` loop: an unoptimised build steps a `stride` through generic calls.
        var i = 0
        while i < count {
            flash += SIMD3(Double(f[i]), Double(f[i &+ 1]), Double(f[i &+ 2]))
            ambient += SIMD3(Double(a[i]), Double(a[i &+ 1]), Double(a[i &+ 2]))
            i &+= 3
        }
    }

    /// Zero sums.
    init() {}

    /// The per-channel mean of an interleaved RGB plane, summed pixel by pixel in order; nil for an
    /// empty plane.
    static func mean(_ plane: [Float]) -> SIMD3<Double>? {
        let pixels = plane.count / 3
        guard pixels > 0 else { return nil }
        var sum = SIMD3<Double>.zero
        for p in 0..<pixels { sum += SIMD3(Double(plane[3 * p]), Double(plane[3 * p + 1]), Double(plane[3 * p + 2])) }
        return sum / Double(pixels)
    }
}

/// One `ComponentSums` per shading band, filled by the workers in any order and added in band
/// order, so the means do not depend on the thread count.
struct BandSums {
    var bands: [ComponentSums]

    init(bands count: Int, kept: Bool) {
        bands = kept ? [ComponentSums](repeating: ComponentSums(), count: count) : []
    }

    /// Where the workers write; each band is written by one worker only.
    struct Recorder: @unchecked Sendable {
        let base: UnsafeMutablePointer<ComponentSums>

        func record(_ band: Int, flash: UnsafePointer<Float>, ambient: UnsafePointer<Float>, count: Int) {
            base[band] = ComponentSums(flash: flash, ambient: ambient, count: count)
        }
    }

    /// Runs `body` with a recorder over the bands, or nil when the frame keeps no means.
    mutating func withRecorder<R>(_ body: (Recorder?) -> R) -> R {
        guard !bands.isEmpty else { return body(nil) }
        return bands.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return body(nil) }
            return body(Recorder(base: base))
        }
    }

    /// The frame means, or nil when none were kept.
    func means(pixels: Int) -> ComponentSums? {
        guard !bands.isEmpty else { return nil }
        var total = ComponentSums()
        for band in bands {
            total.flash += band.flash
            total.ambient += band.ambient
        }
        let n = Double(max(1, pixels))
        total.flash /= n
        total.ambient /= n
        return total
    }
}
