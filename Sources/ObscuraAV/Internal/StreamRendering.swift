import Devices
import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Spectra

/// What one stream's frames look like, rendered once and reused (fast by
/// construction): the emulated scenes are static while streaming, so the geometry pass, the
/// exposure and the develop step run once per (device, camera, size, scene), and every frame is
/// a copy of the cached picture. Frames differ only in their timing [I]; per-frame noise and
/// scene motion during streaming are not emulated.
final class StreamRendering: @unchecked Sendable {
    /// A developed video picture and where each named object lies in it.
    struct VideoPicture {
        let rgb: PixelPlane<Float>
        /// Object name → normalised bounds (0…1, origin top-left) in the picture, and whether the scene marks the
        /// object as a part of its person.
        let objects: [(name: String, bounds: CGRect, isPerson: Bool)]
        /// fx, fy, cx, cy at the picture's size.
        let intrinsics: (fx: Double, fy: Double, cx: Double, cy: Double)
        /// Object name → the code printed on it and its normalised corners (spec §16).
        var codes: [String: PrintedCode] = [:]
        /// The exposure used and the auto decisions behind the picture (see `StreamLook`).
        var look: LookSummary? = nil
        /// The codes, faces and salient objects found in this picture so far, by region (`CodeReader`,
        /// `FaceReader`, `SalientObjectReader`); shared by the picture's copies, since a cached picture never
        /// changes.
        let reads = PictureReads()
    }

    static let shared = StreamRendering()
    /// The widest picture rendered for a stream while it changes (a 3A loop on its way, a movie playing on a
    /// screen), and for metering; larger frames are scaled up from it. A settled frame is rendered at its own size
    /// (`frameRenderWidth`).
    static let renderWidth = 360
    /// The widest picture the metadata output's code reader sees: the frame at its own resolution up to
    /// this width, so that a code's modules keep the size the camera images them at (spec §16).
    static let readerWidth = 1280
    private let lock = NSLock()
    private var pictures: [String: VideoPicture] = [:]
    private var buffers: [String: CVPixelBuffer] = [:]
    private var depths: [String: DepthMap] = [:]
    /// The latest picture and buffer of a 3A loop on its way (`StreamLook.isTransient`): kept one at a
    /// time, so outputs of one frame share them while the cache does not grow with every step.
    private var transientPicture: (key: String, picture: VideoPicture)?
    private var transientBuffer: (key: String, buffer: CVPixelBuffer)?

    /// How wide a stream frame's picture is rendered: at the frame's own size when its look is `settled` (the
    /// stream's first frame, or the same look as the stream's frame before) and the scene is still, so the frames
    /// an app reads hold the detail a phone's do (text and codes read from them included); that picture is rendered
    /// once and every such frame shares it. While the look changes from frame to frame (a 3A loop on its way, a
    /// zoom ramp, a focus sweep) or a movie plays on a screen, each frame needs a picture of its own, and those are
    /// rendered `renderWidth` wide.
    static func frameRenderWidth(width: Int, look: StreamLook, scene: String, settled: Bool) -> Int {
        !settled || look.isTransient || isMoment(scene) ? renderWidth : max(width, renderWidth)
    }

    /// The scene a reference names: the emulator's chosen scene (`Emulation.use(scene:)`, else the
    /// default scene), loaded and validated when it was chosen.
    static func scene(_ reference: String) -> Scene {
        if let split = reference.range(of: momentMarker) {
            let frames = reference[split.upperBound...].split(separator: ",").compactMap { Int($0) }
            return scene(String(reference[..<split.lowerBound])).showing(frames: frames)
        }
        let current = Emulation.shared.currentScene
        if current.reference == reference { return current.scene }
        if let known = recentScenes.scene(reference) { return known }
        return (try? Emulation.loadScene(reference)) ?? current.scene
    }

    /// The footage scenes photos were last requested in, by reference: a photo's depth is made later, on a
    /// queue outside the task whose world chose the scene, and footage chosen with its mode and depth cannot be
    /// loaded again from its name (nor should a clip be decoded again). The last few are kept.
    private static let recentScenes = RecentScenes()

    /// Separates a scene reference from the movie frames of a moment (`moment(of:at:)`); no scene name
    /// or path holds it.
    private static let momentMarker = "\u{1}frames:"

    /// The reference of a scene as it looks `seconds` into the stream: the reference itself for a scene
    /// whose look does not change, else the reference with the frame each playing screen shows then, so
    /// moments that show the same frames share their picture.
    static func moment(of reference: String, at seconds: Double) -> String {
        let world = scene(reference)
        guard world.playsMovies else { return reference }
        return reference + momentMarker + world.movieFrames(at: seconds).map(String.init).joined(separator: ",")
    }

    /// The chosen scene as it looks `seconds` into the stream, for a photo taken then.
    static func moment(of chosen: ChosenScene, at seconds: Double) -> ChosenScene {
        if chosen.scene.isFootage { recentScenes.store(chosen) }
        guard chosen.scene.playsMovies else { return chosen }
        return ChosenScene(
            reference: moment(of: chosen.reference, at: seconds), scene: chosen.scene.showing(at: seconds))
    }

    /// Whether a reference names a moment of a playing movie: its pictures are kept one at a time, like
    /// a 3A loop's, so a long movie does not fill the cache.
    private static func isMoment(_ reference: String) -> Bool { reference.contains(momentMarker) }

    /// The developed picture of a camera at a size, encoded in `space` (sRGB or Display P3, both with the
    /// IEC 61966-2-1 curve), with the noise of the format's `readout` at that size; nil when the profile
    /// cannot render it.
    ///
    /// Footage in direct mode (`FootageMode.direct`) gives the footage's frame of the moment resized to the
    /// size (`Footage.frame`), unless `metering`: the 3A loops keep measuring the screen that shows it, so
    /// exposure, white balance and focus go on as state while the delivered pixels stay the clip's.
    func picture(
        device: DeviceProfile, camera: CameraProfile, width: Int, height: Int, scene: String,
        space: BasicDevelop.OutputSpace = .sRGB, look: StreamLook = .neutral, readout: FormatReadout? = nil,
        renderWidth: Int = StreamRendering.renderWidth, metering: Bool = false
    ) -> VideoPicture? {
        let world = Self.scene(scene)
        let direct = !metering && world.footage?.mode == .direct
        let key =
            direct
            ? "\(device.id)/\(camera.id)/\(width)x\(height)/\(scene)/direct"
            : "\(device.id)/\(camera.id)/\(width)x\(height)/\(scene)/\(space.rawValue)/\(look.key)"
                + "/\(readout.map { String(describing: $0) } ?? "full")"
                + (renderWidth == Self.renderWidth ? "" : "/r\(renderWidth)")
        if let cached = lock.withLock({
            pictures[key] ?? (transientPicture?.key == key ? transientPicture?.picture : nil)
        }) {
            return cached
        }
        guard
            let full = try? CameraModel(device: device, camera: camera, width: width, height: height, readout: readout)
        else {
            return nil
        }
        if direct, let footage = world.footage,
            let frame = footage.frame(world.footageFrame, width: width, height: height)
        {
            // The bytes are the footage's: no exposure, colour, noise, zoom or lens (`FootageMode.direct`).
            let rgb = PixelPlane<Float>(width: width, height: height, channels: 3) { x, y, c in
                Float(frame[x, y, min(c, frame.channels - 1)]) / 255
            }
            // The footage is no object in a room: no scene objects are named in it; faces, salient objects and
            // codes are found in its pixels.
            let picture = VideoPicture(rgb: rgb, objects: [], intrinsics: (full.fx, full.fy, full.cx, full.cy))
            lock.withLock {
                if Self.isMoment(scene) { transientPicture = (key, picture) } else { pictures[key] = picture }
            }
            return picture
        }
        // Render at most `renderWidth` wide and scale up by nearest neighbour: streams need the
        // look of the scene, not full-resolution physics, and this keeps a 1440×1080 stream cheap.
        // The small camera keeps the full size's pitch and noise, so each pixel is a format pixel.
        let factor = max(1, (width + renderWidth - 1) / renderWidth)
        let model = full.scaled(toWidth: max(1, width / factor), height: max(1, height / factor))
        let looked = LookedFrame(
            scene: world, device: DeviceProfileRef(profile: device, camera: camera), model: model, look: look,
            space: space)
        let frame = looked.frame
        let bytes = looked.pixels
        let (mw, mh) = (model.width, model.height)
        let rgb = PixelPlane<Float>(width: width, height: height, channels: 3) { x, y, c in
            Float(bytes[min(x / factor, mw - 1), min(y / factor, mh - 1), c]) / 255
        }
        let picture = VideoPicture(
            rgb: rgb, objects: Self.objectBounds(frame, scene: world),
            intrinsics: (full.fx * look.zoom, full.fy * look.zoom, full.cx, full.cy),
            codes: CodeProjection.corners(scene: world, camera: full), look: looked.summary)
        lock.withLock {
            if look.isTransient || Self.isMoment(scene) {
                transientPicture = (key, picture)
            } else {
                pictures[key] = picture
            }
        }
        return picture
    }

    /// A filled pixel buffer of the picture in a pixel format and colour space, cached; callers copy it.
    ///
    /// The buffer carries the attachments that say how to read it, as CoreVideo buffers do:
    /// `kCVImageBufferColorPrimariesKey` (`P3_D65` or `ITU_R_709_2`), `kCVImageBufferTransferFunctionKey`
    /// (`IEC_sRGB`: both spaces are encoded with the IEC 61966-2-1 curve here, where an iPhone's video frames
    /// are tagged `ITU_R_709_2` [I, our choice: the tag says what the values are]) and, for Y'CbCr formats,
    /// `kCVImageBufferYCbCrMatrixKey` (`ITU_R_601_4`, the matrix `PixelBufferFilling` uses).
    func template(
        device: DeviceProfile, camera: CameraProfile, width: Int, height: Int, scene: String, pixelFormat: OSType,
        space: BasicDevelop.OutputSpace = .sRGB, look: StreamLook = .neutral, readout: FormatReadout? = nil,
        renderWidth: Int = StreamRendering.renderWidth
    ) -> CVPixelBuffer? {
        let key =
            "\(device.id)/\(camera.id)/\(width)x\(height)/\(scene)/\(pixelFormat)/\(space.rawValue)/\(look.key)"
            + "/\(readout.map { String(describing: $0) } ?? "full")"
            + (renderWidth == Self.renderWidth ? "" : "/r\(renderWidth)")
        // Footage in direct mode is tagged as what it is, sRGB (`Footage`), whatever the device's colour space.
        let direct = Self.scene(scene).footage?.mode == .direct
        if let cached = lock.withLock({ buffers[key] ?? (transientBuffer?.key == key ? transientBuffer?.buffer : nil) })
        {
            return cached
        }
        let rgb =
            picture(
                device: device, camera: camera, width: width, height: height, scene: scene, space: space,
                look: look, readout: readout, renderWidth: renderWidth)?.rgb
            ?? PixelPlane<Float>(width: width, height: height, channels: 3, repeating: 0.46)
        guard let buffer = PixelBufferFilling.make(from: rgb, format: pixelFormat) else { return nil }
        buffer.attachments[kCVImageBufferColorPrimariesKey] =
            space == .displayP3 && !direct
            ? kCVImageBufferColorPrimaries_P3_D65 : kCVImageBufferColorPrimaries_ITU_R_709_2
        buffer.attachments[kCVImageBufferTransferFunctionKey] = kCVImageBufferTransferFunction_sRGB
        if YCbCrCoding.of(pixelFormat) != nil {
            buffer.attachments[kCVImageBufferYCbCrMatrixKey] = kCVImageBufferYCbCrMatrix_ITU_R_601_4
        }
        lock.withLock {
            if look.isTransient || Self.isMoment(scene) {
                transientBuffer = (key, buffer)
            } else {
                buffers[key] = buffer
            }
        }
        return buffer
    }

    /// Where each named object is seen, from the frame's object ids.
    private static func objectBounds(
        _ frame: RawFrame, scene: Scene
    ) -> [(name: String, bounds: CGRect, isPerson: Bool)] {
        var boxes: [Int: (Int, Int, Int, Int)] = [:]
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let id = frame.objectIDs[y * frame.width + x]
                guard id != RawFrame.none else { continue }
                let b = boxes[Int(id)] ?? (x, y, x, y)
                boxes[Int(id)] = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y))
            }
        }
        let (w, h) = (Double(frame.width), Double(frame.height))
        return boxes.keys.sorted().compactMap { id in
            guard id < scene.objects.count, let b = boxes[id] else { return nil }
            let rect = CGRect(
                x: Double(b.0) / w, y: Double(b.1) / h, width: Double(b.2 - b.0 + 1) / w,
                height: Double(b.3 - b.1 + 1) / h)
            return (scene.objects[id].name, rect, scene.objects[id].person != nil)
        }
    }

    /// What a depth camera sees of a scene, seed-free, prepared once per (device, camera, size,
    /// scene, reference): the geometry, the occlusion masks, the frame the matcher and the hole filling
    /// read, and the calibration. Each map then only draws its noise.
    private final class DepthSource: @unchecked Sendable {
        let observation: DepthObservation
        let renderer: Renderer
        let guide: PixelPlane<Float>
        let calibration: CameraCalibration?

        init(
            observation: DepthObservation, renderer: Renderer, guide: PixelPlane<Float>, calibration: CameraCalibration?
        ) {
            self.observation = observation
            self.renderer = renderer
            self.guide = guide
            self.calibration = calibration
        }
    }
    private var depthSources: [String: DepthSource] = [:]

    /// A depth map of a depth-capable camera at a size, raw or filtered (spec §7, §9), cached.
    ///
    /// The camera's technology picks the Sensor model: stereo disparity for multi-camera
    /// devices, structured light for TrueDepth, time of flight densified for LiDAR. Filtering
    /// fills holes guided by the image (ISP `DepthHoleFilling`; `fill` does it, given the raw map and its guide).
    /// Nil without a depth capability.
    /// Photos and streams pass `caches: false`: each capture and each streamed frame has its own
    /// seed, so caching maps would only grow; the seed-free part (`DepthSource`) is cached.
    /// The map's calibration refers to `reference`, the active video format's intrinsic reference
    /// dimensions (spec §10); without one, to the centred crop of the sensor at the map's aspect.
    func depth(
        device: DeviceProfile, camera: CameraProfile, width: Int, height: Int, format: DepthPixelFormat, filtered: Bool,
        scene: String, seed: UInt64, reference: Dimensions? = nil, caches: Bool = true,
        fill: (DepthMap, PixelPlane<Float>) -> DepthMap = { DepthHoleFilling().fill($0, guide: $1) }
    ) -> DepthMap? {
        let place = "\(device.id)/\(camera.id)/\(width)x\(height)/\(scene)/\(reference?.description ?? "crop")"
        let key = "\(place)/\(format.rawValue)/\(filtered)/\(seed)"
        if let cached = lock.withLock({ depths[key] }) { return cached }
        let world = Self.scene(scene)
        if let footage = world.footage {
            // Footage is a picture of a world, not a world: there is no depth to measure in it, only depth
            // that came with it (`FootageDepth`), resized as the footage is in direct mode, or seen where the
            // screen shows the footage in physics mode.
            guard camera.depth != nil, let given = footage.depth else { return nil }
            let calibration = (try? CameraCalibration(device: device, camera: camera)).map { sensor in
                reference.map(sensor.reframed(to:))
                    ?? sensor.cropped(toAspectOf: Dimensions(width: width, height: height))
            }
            let metres: [Float]
            if footage.mode == .direct {
                metres = given.metres(frame: world.footageFrame, width: width, height: height)
            } else {
                // Physics mode: each depth pixel takes the footage's depth where its ray meets the screen, so
                // the depth lies beside what the camera films there (lens distortion aside).
                guard let model = try? CameraModel(device: device, camera: camera, width: width, height: height) else {
                    return nil
                }
                let positions = (0..<(width * height)).map { i in
                    footage.screenPosition(
                        right: (Double(i % width) + 0.5 - model.cx) / model.fx,
                        down: (Double(i / width) + 0.5 - model.cy) / model.fy)
                }
                metres = given.metres(frame: world.footageFrame, at: positions)
            }
            let map = DepthMap(
                width: width, height: height, format: format,
                values: format.isDisparity ? metres.map { 1 / $0 } : metres, accuracy: .absolute,
                isFiltered: filtered, calibration: calibration)
            // Filtered depth has no holes (spec §9): the unmeasured pixels are filled from their neighbours,
            // with a flat guide, as nothing says where the footage's edges are.
            return filtered ? fill(map, PixelPlane<Float>(width: width, height: height, repeating: 0)) : map
        }
        guard let capability = camera.depth else { return nil }
        let source: DepthSource
        if let known = lock.withLock({ depthSources[place] }) {
            source = known
        } else {
            guard let model = try? CameraModel(device: device, camera: camera, width: width, height: height) else {
                return nil
            }
            let calibration = (try? CameraCalibration(device: device, camera: camera)).map { sensor in
                reference.map(sensor.reframed(to:))
                    ?? sensor.cropped(toAspectOf: Dimensions(width: width, height: height))
            }
            // The frame keeps its noise-free light: the stereo matcher's texture test reads the scene's
            // texture from it and the noise from the sensor's photon transfer (`DisparityModel`).
            let renderer = Renderer(
                scene: Self.scene(scene), camera: model, flash: nil,
                options: RenderOptions(softShadowSamples: 1, keepsComponents: true))
            // The frame the reference camera exposes: what a stereo matcher compares and what hole
            // filling follows. A scene standing still gives the same frame for the whole stream.
            let exposure = AutoExposure(noise: model.noise).solve(meteringRenderer: renderer, flash: false, seed: 0)
            let frame = renderer.render(exposure)
            source = DepthSource(
                observation: DepthObservation(renderer, image: frame), renderer: renderer,
                guide: DepthGuide.luminance(frame, width: width, height: height), calibration: calibration)
            lock.withLock { depthSources[place] = source }
        }
        let renderer = source.renderer
        let calibration = source.calibration
        let raw: DepthMap
        switch capability.technology {
        case .dualCameraDisparity:
            guard let m = try? DisparityModel(device: device, camera: camera) else { return nil }
            raw = m.disparity(
                source.observation, focalLengthPixels: renderer.camera.fx, seed: seed, format: format,
                calibration: calibration)
        case .structuredLight:
            guard let m = try? TrueDepthModel(device: device, camera: camera) else { return nil }
            raw = m.depth(
                source.observation, materials: renderer.materials, seed: seed, format: format, calibration: calibration)
        case .timeOfFlight:
            guard let m = try? LiDARModel(device: device, camera: camera) else { return nil }
            raw = DepthDensifier().densify(
                m.samples(source.observation, materials: renderer.materials, seed: seed), format: format,
                calibration: calibration)
        }
        var map = raw
        if filtered { map = fill(raw, source.guide) }
        if caches { lock.withLock { depths[key] = map } }
        return map
    }
}

/// The last few footage scenes photos were requested in (`StreamRendering.scene(_:)`).
private final class RecentScenes: @unchecked Sendable {
    private let lock = NSLock()
    private var recent: [ChosenScene] = []

    func scene(_ reference: String) -> Scene? { lock.withLock { recent.last { $0.reference == reference }?.scene } }

    func store(_ chosen: ChosenScene) {
        lock.withLock {
            recent.removeAll { $0.reference == chosen.reference }
            recent.append(chosen)
            if recent.count > 4 { recent.removeFirst() }
        }
    }
}
