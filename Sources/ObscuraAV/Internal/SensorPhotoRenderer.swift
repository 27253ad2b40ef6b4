import Devices
import Foundation
import ISP
import Imaging
import Scenes
import Sensor

/// Renders photos with Sensor and develops them with ISP.
///
/// Ordinary photos come from `PhotoPipeline` (metering, auto-exposure unless the device is in
/// custom exposure, auto white balance, develop); Constant Color photos from
/// `ConstantColorPipeline`. This file only maps the request onto them and caches renderers.
///
/// Geometry is expensive and exposure-independent, so `Renderer`s (`RendererShelf`, which shares one
/// geometry between focus distances) and Constant Color pipelines are kept for the last few (scene,
/// device, camera, size) combinations: repeated captures of an unchanged scene only expose and develop.
final class SensorPhotoRenderer: PhotoRendering, @unchecked Sendable {
    static let shared = SensorPhotoRenderer()

    private struct Key: Hashable {
        let scene: Scene
        let device: String
        let camera: String
        let width: Int
        let height: Int
        let purpose: Int
        let zoom: Double
        let torch: Double
        let readout: FormatReadout?
    }

    private let lock = NSLock()
    private let renderers = RendererShelf<Key>(capacity: cacheSize)
    private var pipelines: [(Key, ConstantColorPipeline)] = []
    private static let cacheSize = 4

    // MARK: Metering

    func meterForFlash(_ request: PhotoRenderRequest) -> FlashMetering? {
        guard let metering = try? meteringRenderer(request) else { return nil }
        let pipeline = PhotoPipeline(renderer: metering, meteringRenderer: nil, flashHardware: request.profile.flash)
        let decision = pipeline.autoFlash(seed: request.seed)
        return FlashMetering(needsFlash: decision.fires, isoAtHandHeldLimit: decision.isoAtHandHeldLimit)
    }

    // MARK: Rendering

    func render(_ request: PhotoRenderRequest) -> Result<[RenderedPhoto], PhotoRenderingError> {
        do {
            let scene = request.scene.scene
            if let footage = scene.footage, footage.mode == .direct {
                return .success(try DirectFootagePhoto.render(request, footage: footage, frame: scene.footageFrame))
            }
            return .success(request.constantColor ? try constantColor(request) : [try ordinary(request)])
        } catch let error as PhotoRenderingError {
            return .failure(error)
        } catch {
            return .failure(PhotoRenderingError(description: "\(error)"))
        }
    }

    /// An ordinary photo: the API's settings mapped onto `PhotoPipeline`, which holds the policy.
    private func ordinary(_ request: PhotoRenderRequest) throws -> RenderedPhoto {
        let pipeline = PhotoPipeline(
            renderer: try fullRenderer(request), meteringRenderer: try meteringRenderer(request),
            flashHardware: request.profile.flash)
        let encoding = PhotoEncoding(request.colorSpace)
        var exposure = PhotoPipeline.ExposureChoice.auto(bias: request.exposureBias)
        if let fixed = request.fixedExposure { exposure = .fixed(time: fixed.duration, iso: fixed.iso) }
        let photo = pipeline.run(
            .init(
                outputSpace: encoding == .sRGB ? .sRGB : .displayP3, exposure: exposure, whiteBalance: .auto,
                maximumExposureTime: request.maximumExposureDuration, flash: request.lit, seed: request.seed))
        return RenderedPhoto(
            pixels: Self.blackingOut(photo.pixels, keeping: request.visibleFraction),
            encoding: encoding, exposureDurationSeconds: photo.exposure.time,
            iso: photo.exposure.iso, flashFired: request.flashFired, confidenceMap: nil, confidenceLevel: 0,
            mosaic: request.keepsMosaic
                ? BayerMosaic(frame: photo.frame, camera: pipeline.renderer.camera, whiteBalance: photo.whiteBalance)
                : nil,
            intrinsics: pipeline.renderer.camera.pinholeIntrinsics)
    }

    /// The photo with everything outside the centred `fraction` of its width and height set to black:
    /// what a zoomed constituent capture shows of the area outside the preview.
    static func blackingOut(_ pixels: PixelPlane<UInt8>, keeping fraction: Double) -> PixelPlane<UInt8> {
        guard fraction < 1 else { return pixels }
        let rect = PhotoCleanAperture.rect(width: pixels.width, height: pixels.height, fraction: fraction)
        var out = pixels
        for y in 0..<pixels.height {
            for x in 0..<pixels.width where !rect.contains(x: x, y: y) {
                for c in 0..<pixels.channels { out[x, y, c] = 0 }
            }
        }
        return out
    }

    /// The Constant Color photo, then (when asked) the ambient fallback; both Display P3 (issue of
    /// the pipeline: the flash/no-flash estimate is encoded with a 2.2 gamma into Display P3).
    private func constantColor(_ request: PhotoRenderRequest) throws -> [RenderedPhoto] {
        var pipeline = try constantColorPipeline(request)
        if !request.deviceErrors { pipeline.captureErrors = .none }
        // The photos need nothing of the render's truth.
        // Capture rules §2.4 (our choice): the pair keeps to the device's activeMaxExposureDuration as an ordinary
        // photo does; Apple documents the limit for automatic exposure and says nothing of Constant Color.
        let result = pipeline.capture(
            scene: request.scene.scene, seed: request.seed, keepsTruth: false,
            maximumExposureTime: request.maximumExposureDuration)
        let plan = result.diagnostics.plan
        let photo = RenderedPhoto(
            pixels: result.photo, encoding: .displayP3, exposureDurationSeconds: plan.flash.time, iso: plan.flash.iso,
            flashFired: true, confidenceMap: result.confidenceMap.plane,
            confidenceLevel: min(max(result.centerWeightedMeanConfidence, 0), 1),
            intrinsics: pipeline.camera.pinholeIntrinsics)
        guard request.fallback else { return [photo] }
        let fallback = RenderedPhoto(
            pixels: result.fallback, encoding: .displayP3, exposureDurationSeconds: plan.ambient.time,
            iso: plan.ambient.iso, flashFired: false, confidenceMap: nil, confidenceLevel: 0,
            intrinsics: pipeline.camera.pinholeIntrinsics)
        return [photo, fallback]
    }

    // MARK: Caches

    /// What a renderer's geometry and a Constant Color pipeline depend on; not the focus, which a kept renderer
    /// takes on (`RendererShelf`) and the Constant Color pipeline does not model.
    private func key(_ request: PhotoRenderRequest, width: Int, height: Int, purpose: Int) -> Key {
        Key(
            scene: request.scene.scene, device: request.profile.sourceFile + "#" + request.profile.id,
            camera: request.camera.id, width: width, height: height, purpose: purpose, zoom: request.zoom,
            torch: request.flashFired ? 0 : request.torchLevel, readout: request.readout)
    }

    private func fullRenderer(_ request: PhotoRenderRequest) throws -> Renderer {
        let d = request.dimensions
        return try cachedRenderer(key(request, width: d.width, height: d.height, purpose: 0), request)
    }

    /// The metering frame (`PhotoPipeline.meteringSize`).
    private func meteringRenderer(_ request: PhotoRenderRequest) throws -> Renderer {
        let d = request.dimensions
        let m = PhotoPipeline.meteringSize(width: d.width, height: d.height)
        return try cachedRenderer(key(request, width: m.width, height: m.height, purpose: 1), request)
    }

    private func cachedRenderer(_ key: Key, _ request: PhotoRenderRequest) throws -> Renderer {
        let focus = AutoFocus.lens(of: request.camera, focusedAt: request.focusDistance)
        return try renderers.renderer(for: key, focus: focus) { try Self.renderer(key, request, focus: focus) }
    }

    private static func renderer(_ key: Key, _ request: PhotoRenderRequest, focus: LensFocus?) throws -> Renderer {
        let camera = try Self.camera(request, width: key.width, height: key.height)
        // The photo itself needs only DNs and the means of the noise-free components, which the white
        // balance reads; not keeping its electrons plane and its two component planes (12 bytes a pixel
        // each) spares 435 MB at 12 MP, and keeping its light factors at half precision halves their plane
        // (`RenderOptions.halfFactors`). The metering frame keeps them all, at single precision, and it is small.
        let metering = key.purpose != 0
        return Renderer(
            scene: request.scene.scene, camera: camera,
            flash: TorchLight.flash(device: request.profile, camera: request.camera, level: key.torch),
            options: RenderOptions(
                keepsComponents: metering, keepsElectrons: metering, keepsComponentMeans: true, halfFactors: !metering),
            focus: focus)
    }

    /// The camera a request's photo is taken through at `width × height`: the profile camera with
    /// the request's zoom and the active format's readout. Mattes use it too, so that they line up
    /// with the photo's pixels.
    ///
    /// Zoom scales the focal length about the principal point (see `PhotoRenderRequest.zoom`); the
    /// lens distortion stays as it is in image pixels, as a digital zoom of the corrected image would
    /// leave it [I].
    static func camera(_ request: PhotoRenderRequest, width: Int, height: Int) throws -> CameraModel {
        do {
            return try CameraModel(
                device: request.profile, camera: request.camera, width: width, height: height,
                readout: request.readout, zoom: request.zoom)
        } catch {
            throw PhotoRenderingError(description: "\(error)")
        }
    }

    private func constantColorPipeline(_ request: PhotoRenderRequest) throws -> ConstantColorPipeline {
        let d = request.dimensions
        let k = key(request, width: d.width, height: d.height, purpose: request.fallback ? 3 : 2)
        if let hit = lock.withLock({ pipelines.first { $0.0 == k }?.1 }) { return hit }
        let pipeline: ConstantColorPipeline
        do {
            pipeline = try ConstantColorPipeline(
                device: request.profile, camera: request.camera, width: d.width, height: d.height,
                readout: request.readout, settings: .init(developsFallback: request.fallback, halfFactors: true))
        } catch {
            throw PhotoRenderingError(description: "\(error)")
        }
        lock.withLock {
            pipelines.removeAll { $0.0 == k }
            pipelines.append((k, pipeline))
            if pipelines.count > Self.cacheSize { pipelines.removeFirst() }
        }
        return pipeline
    }
}
