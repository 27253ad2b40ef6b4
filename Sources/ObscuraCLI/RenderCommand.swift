import ArgumentParser
import Devices
import Foundation
import Imaging
import ISP
import ObscuraSupport
import Scenarios
import Scenes
import Sensor
import Spectra

/// `obscura render`: one photograph of a scene by a virtual device, simply processed.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene through a device's camera and write a processed PNG.",
        discussion: """
            SCENE is a scene of the Scenes directory (--scenes, $\(SceneLoader.environmentVariable), or a Scenes/ \
            folder above the current directory or the executable, else the seed scenes built into obscura), a \
            path to a scene file, or a built-in chart \
            (\(BuiltInScenes.names.joined(separator: ", "))). The picture is the raw \
            frame with white balance, a colour-correction matrix, a highlight shoulder and the sRGB (or Display P3) \
            encoding; no demosaicing, denoising or local tone mapping. --depth writes a 16-bit grey PNG of the \
            distance along the optical axis in millimetres (0 where the ray hits nothing, 65535 at or beyond \
            65.535 m), distorted like the picture, and beside it a colour picture of the same map to look at \
            (NAME-view.png for NAME.png: viridis from near to far, holes grey, a legend in metres); none when \
            --depth is standard output.
            """
    )

    @Argument(
        help: "A scene name (Scenes/<name>.yaml or a built-in chart) or a scene file path.",
        completion: Completions.scenes)
    var scene: String

    @Option(name: .long, help: "The Scenes directory.")
    var scenes: String?

    @Option(
        help: "Device id or profile path (default: \(DeviceCatalog.defaultDeviceID)).", completion: Completions.devices)
    var device: String?

    @Option(name: .long, help: "The DeviceProfiles directory.")
    var profiles: String?

    @Option(help: "Apple's device type, e.g. builtInWideAngleCamera, builtInDualCamera.")
    var camera: String = DeviceType.builtInWideAngleCamera.rawValue

    @Option(help: "back or front.")
    var position: String = CameraPosition.back.rawValue

    @Flag(help: "Fire the flash.")
    var flash = false

    @Option(help: "Output size WxH (default 1008 wide, at the sensor's aspect ratio).")
    var size: String?

    @Option(
        help: """
            auto, or ISO,seconds (e.g. 100,0.02 or 100,1/50) within the camera's range (base ISO to 64 times it; at \
            most its formats' longest frame).
            """)
    var exposure: String = "auto"

    @Option(
        help: ArgumentHelp(
            "Output picture path (- for standard output); .png, .jpg/.jpeg or .heic chooses the format.",
            discussion: "A name without an extension, and standard output, get PNG unless --format says otherwise."))
    var out: String

    @Option(help: "The picture's format, whatever --out's extension: png, jpeg or heic (where libheif can encode).")
    var format: PictureFormat?

    @Option(help: "Also write the depth map as a 16-bit PNG in millimetres, and a coloured NAME-view.png beside it.")
    var depth: String?

    @Option(help: "Noise seed.")
    var seed: UInt64 = 0

    @Option(name: .customLong("color-space"), help: "sRGB or displayP3.")
    var colorSpace: String = BasicDevelop.OutputSpace.sRGB.rawValue

    @Option(
        name: .customLong("white-balance"),
        help: "auto (estimated from the picture, as photos are), scene (the known lights) or grey-world.")
    var whiteBalance: String = "auto"

    // `.unconditional`: `--warmth -0.5` reaches the range check instead of reading as a missing value.
    @Option(
        parsing: .unconditional,
        help: """
            Share of the light's colour cast kept, 0…1 (default \(PhotoPipeline.warmth) with auto and the \
            scene's lights, 0 with grey-world).
            """
    )
    var warmth: Double?

    @Flag(help: "Print a JSON summary.")
    var json = false

    @Flag(
        help: ArgumentHelp(
            "Render through the plain reference renderer: noise-free, slow, at most 1 MP (for teaching).",
            discussion: "The reference states the physics one pixel at a time; see ReferenceRenderer."))
    var reference = false

    func run() throws {
        let job = try RenderJob(self)
        try job.run()
    }
}

/// The validated request and the work of `obscura render`.
struct RenderJob {
    let command: RenderCommand
    let sceneValue: Scene
    let profile: DeviceProfile
    let cameraProfile: CameraProfile
    let camera: CameraModel
    /// The camera at the size of the metering frame (`PhotoPipeline.meteringSize`).
    let meteringCamera: CameraModel
    let flash: FlashModel?
    let space: BasicDevelop.OutputSpace
    /// The picture's format, from `--format` or `--out`'s extension.
    let pictureFormat: PictureFormat

    init(_ command: RenderCommand) throws {
        self.command = command
        // Checked first: a name the tool cannot honour is refused before any work.
        pictureFormat = try PictureFormat.choose(for: command.out, explicit: command.format, option: "--out")
        let scene = try RenderJob.loadScene(command.scene, directory: command.scenes)
        sceneValue = scene
        do {
            profile = try DeviceCatalog(directory: command.profiles).profile(
                command.device ?? DeviceCatalog.defaultDeviceID)
        } catch {
            throw CommandFailure.badInput("\(error)")
        }
        guard let type = DeviceType(rawValue: command.camera) else {
            let names = DeviceType.allCases.map(\.rawValue)
            var message = "--camera: unknown device type '\(command.camera)'"
            if let guess = EditDistance.suggestion(for: command.camera, among: names) {
                message += "; did you mean '\(guess)'?"
            }
            var offered: [String] = []
            for camera in profile.cameras where !offered.contains(camera.deviceType.rawValue) {
                offered.append(camera.deviceType.rawValue)
            }
            throw CommandFailure.badInput(message + " (\(profile.id) has: \(offered.joined(separator: ", ")))")
        }
        guard let position = CameraPosition(rawValue: command.position) else {
            throw CommandFailure.badInput("--position: expected back or front, not '\(command.position)'")
        }
        guard let space = BasicDevelop.OutputSpace(rawValue: command.colorSpace) else {
            throw CommandFailure.badInput("--color-space: expected sRGB or displayP3, not '\(command.colorSpace)'")
        }
        self.space = space
        guard ["auto", "scene", "grey-world"].contains(command.whiteBalance) else {
            throw CommandFailure.badInput(
                "--white-balance: expected auto, scene or grey-world, not '\(command.whiteBalance)'")
        }
        if let warmth = command.warmth, !(0...1).contains(warmth) {
            throw CommandFailure.badInput("--warmth: expected a value from 0 to 1, not \(warmth)")
        }
        do {
            cameraProfile = try profile.camera(ofType: type, position: position)
            let physical = try profile.renderingCamera(for: cameraProfile)
            let (width, height) = try RenderJob.size(command.size, reference: physical.intrinsics?.reference)
            // A size that is one of the camera's formats is read out as that format (the first of that size,
            // as a session preset picks it), so a render matches the API's photo; any other size stands for
            // the full-size picture, one photosite a pixel.
            let readout = cameraProfile.formats.first { $0.video == Dimensions(width: width, height: height) }?
                .capabilities.readout
            camera = try CameraModel(
                device: profile, camera: cameraProfile, width: width, height: height, readout: readout)
            let m = PhotoPipeline.meteringSize(width: width, height: height)
            meteringCamera = try CameraModel(
                device: profile, camera: cameraProfile, width: m.width, height: m.height, readout: readout)
        } catch let error as DeviceCameraError {
            throw CommandFailure.badInput("--camera: \(error.description)")
        }
        flash = command.flash ? FlashModel(device: profile, camera: cameraProfile) : nil
        if command.flash && flash == nil {
            throw CommandFailure.badInput(
                "--flash: \(profile.id) has no flash for its \(position.rawValue) \(type.rawValue)")
        }
        if let fixed = try RenderJob.fixedExposure(command.exposure) {
            try RenderJob.checkExposure(fixed, camera: camera, profile: cameraProfile)
        }
        // The reference renderer is plain code, seconds per megapixel and light: refuse sizes it would take
        // minutes over, before any work.
        if command.reference && camera.width > ReferenceRenderer.maximumPixels / camera.height {
            throw CommandFailure.badInput(
                "--reference: \(camera.width)x\(camera.height) is over the reference renderer's limit of "
                    + "\(ReferenceRenderer.maximumPixels) pixels (1 megapixel, e.g. 1024x768); pass a smaller --size")
        }
        try OutputFiles.checkOneStandardOutput([command.out, command.depth], options: ["--out", "--depth"])
        try OutputFiles.checkDistinct([
            (command.out, "--out"), (command.depth, "--depth"),
            (command.depth.flatMap(RenderJob.depthViewPath), "the depth map's view"),
        ])
    }

    /// A built-in scene by name, a scene file by path, or a scene of the Scenes directory by name.
    static func loadScene(_ name: String, directory: String?) throws -> Scene {
        if let scene = BuiltInScenes.scene(named: name) { return scene }
        do {
            if name.hasSuffix(".yaml") || name.contains("/") {
                // `violets-warm-room.yaml` typed in a folder without it: the catalogue's scene of that name.
                let stem = String(name.dropLast(".yaml".count))
                if !FileManager.default.fileExists(atPath: name), name.hasSuffix(".yaml"), !stem.contains("/"),
                    let loader = try? SceneLoader(directory: directory), loader.names.contains(stem)
                {
                    throw CommandFailure.badInput(
                        "cannot read \(name): no such file; to render the scene of that name, give it without "
                            + "'.yaml': obscura render \(stem)")
                }
                return try SceneLoader.load(path: name)
            }
            let loader = try SceneLoader(directory: directory)
            guard loader.names.contains(name) else {
                let names = BuiltInScenes.names + loader.names
                var message = "render: no scene '\(name)' in \(loader.directory) or built in"
                if let guess = EditDistance.suggestion(for: name, among: names) {
                    message += "; did you mean '\(guess)'?"
                }
                throw CommandFailure.badInput(message + " (available: \(names.joined(separator: ", ")))")
            }
            return try loader.scene(name)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure.badInput("\(error)")
        }
    }

    /// The most pixels a rendered picture may have: 16 megapixels (4096x4096). A frame costs tens of
    /// bytes a pixel through rendering and development, so this keeps one render near a gigabyte;
    /// 16384x16384 would need about 20 GB. Our choice.
    static let maximumPixels = 1 << 24

    /// The longest side a picture may have: 65,535 pixels, the most a JPEG can hold and within what
    /// the PNG and HEIC encoders take, so a size is refused up front rather than by an encoder after
    /// the render.
    static let maximumSide = 65_535

    /// `WxH`, or 1008 wide at the reference aspect ratio; at least `minimum` a side, at most
    /// `maximumPixels` in all.
    static func size(
        _ text: String?, reference: Dimensions?, minimum: (width: Int, height: Int) = (1, 1)
    ) throws -> (Int, Int) {
        guard let text else {
            let aspect = reference.map { Double($0.height) / Double($0.width) } ?? 0.75
            return (1008, max(1, Int((1008 * aspect).rounded())))
        }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1], w >= 1, h >= 1 else {
            throw CommandFailure.badInput("--size: expected WxH in pixels (e.g. 1008x756), not '\(text)'")
        }
        guard w >= minimum.width, h >= minimum.height else {
            throw CommandFailure.badInput(
                "--size: \(w)x\(h) is too small to measure anything; the least is \(minimum.width)x\(minimum.height)")
        }
        guard w <= maximumSide, h <= maximumSide else {
            throw CommandFailure.badInput(
                "--size: \(w)x\(h) has a side over \(maximumSide) pixels, the most the picture encoders take")
        }
        // Compared by division, so that no product of user figures can overflow.
        guard w <= maximumPixels / h else {
            throw CommandFailure.badInput(
                "--size: \(w)x\(h) is over the limit of \(maximumPixels) pixels (16 megapixels, e.g. 4096x4096)")
        }
        return (w, h)
    }

    /// nil for `auto`; else ISO and seconds from `ISO,seconds` (seconds may be a fraction `1/60`).
    static func fixedExposure(_ text: String) throws -> (iso: Double, time: Double)? {
        if text == "auto" { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        func seconds(_ s: String) -> Double? {
            let f = s.split(separator: "/", omittingEmptySubsequences: false).map { Double($0) }
            if f.count == 2, let n = f[0], let d = f[1], d != 0 { return n / d }
            return f.count == 1 ? f[0] : nil
        }
        guard parts.count == 2, let iso = Double(parts[0]), let time = seconds(parts[1]), iso.isFinite, iso > 0,
            time.isFinite, time > 0
        else {
            throw CommandFailure.badInput(
                "--exposure: expected auto or ISO,seconds with positive numbers (e.g. 100,1/60), not '\(text)'")
        }
        return (iso, time)
    }

    /// A fixed exposure the camera can take, as a custom exposure on the device must be (Capture rules §2.4):
    /// an ISO within the sensor's range (base ISO to 64 times it) and a time from the shortest exposure to
    /// the longest frame of the camera's formats (1 s where the profile lists none).
    static func checkExposure(_ fixed: (iso: Double, time: Double), camera: CameraModel, profile: CameraProfile)
        throws
    {
        let limits = AutoExposure(noise: camera.noise)
        let slowest = profile.formats.flatMap(\.frameRateRanges).map(\.minFPS).filter { $0 > 0 }.min()
        let longest = slowest.map { 1 / $0 } ?? 1
        if !limits.isoRange.contains(fixed.iso) {
            throw CommandFailure.badInput(
                "--exposure: ISO \(format(fixed.iso, 0)) is outside the \(profile.id) camera's range, ISO "
                    + "\(format(limits.isoRange.lowerBound, 0)) to \(format(limits.isoRange.upperBound, 0))")
        }
        if fixed.time < limits.minimumTime || fixed.time > longest {
            throw CommandFailure.badInput(
                "--exposure: \(format(fixed.time, 6)) s is outside the \(profile.id) camera's range, "
                    + "\(format(limits.minimumTime, 6)) s to \(format(longest, 3)) s")
        }
    }

    func run() throws {
        let area = camera.width * camera.height
        // Large renders take a while: say what is happening to a person at a terminal.
        if area >= 8_000_000 { Terminal.progress("rendering \(camera.width)x\(camera.height)…") }
        let started = Date()
        let photo = try takePhoto()
        if area >= 8_000_000 {
            Terminal.progress("rendered and developed in \(format(Date().timeIntervalSince(started), 1)) s; encoding")
        }
        let frame: RawFrame
        let pixels: PixelPlane<UInt8>
        if command.reference {
            // The same exposure and white balance, with the frame from the plain reference renderer.
            frame = ReferenceRenderer(scene: sceneValue, camera: camera, flash: flash).noiseFreeFrame(photo.exposure)
            let choice = whiteBalanceChoice
            pixels = PhotoPipeline.develop(
                frame, camera: camera, whiteBalance: photo.whiteBalance, outputSpace: space,
                warmth: command.warmth ?? PhotoPipeline.warmth(for: choice))
        } else {
            frame = photo.frame
            pixels = photo.pixels
        }
        var metadata = PhotoMetadata(
            software: "obscura render", scene: command.scene, device: profile.id, deviceName: profile.name,
            camera: cameraProfile.id,
            deviceType: cameraProfile.deviceType.rawValue, width: frame.width, height: frame.height,
            colorSpace: space.name, exposure: photo.exposure, flashFired: flash != nil, seed: command.seed,
            intrinsics: camera.pinholeIntrinsics)
        if command.reference { metadata.extra.append(PNGText(key: "Obscura.Renderer", value: "reference, noise-free")) }
        // Encode everything first, so a failure leaves no file behind; each write is atomic.
        var files: [(path: String, bytes: [UInt8])] = []
        do {
            files.append((command.out, try encodePicture(pixels, metadata: metadata, exposure: photo.exposure)))
            if let depthPath = command.depth {
                var depthMetadata = metadata
                depthMetadata.extra.append(
                    PNGText(key: "Obscura.Depth", value: "millimetres along the optical axis; 0 = no surface"))
                let image = PNGImage(pixels: RenderJob.depthMillimetres(frame), text: depthMetadata.pngText)
                files.append((depthPath, try PNG.encode(image)))
                if let viewPath = RenderJob.depthViewPath(depthPath) {
                    files.append((viewPath, try PNG.encode(RenderJob.depthView(frame, text: metadata.pngText))))
                }
            }
        } catch {
            throw CommandFailure.outputFailed("render: \(error)")
        }
        // A user naming `out/photo.png` expects `out/` to appear, as with any other output. The picture and
        // depth map are written as a set: neither replaces an earlier file until both are on disk.
        try OutputFiles.write(files.map { (bytes: $0.bytes, path: $0.path) })
        try report(frame: frame, exposure: photo.exposure, balance: photo.whiteBalance)
    }

    /// The developed picture in the chosen format: PNG with the text metadata; JPEG and HEIC with Exif and
    /// the output space's ICC profile, as the photo path writes them.
    func encodePicture(_ pixels: PixelPlane<UInt8>, metadata: PhotoMetadata, exposure: Exposure) throws -> [UInt8] {
        let icc = space == .sRGB ? ICCProfile.sRGB : ICCProfile.displayP3
        let optics = profile.renderingOptics(for: cameraProfile)
        let exif = ExifMetadata(
            make: "Apple", model: profile.name, software: "obscura render", orientation: 1,
            exposureTimeSeconds: exposure.time, fNumber: optics?.fNumber ?? 0, iso: Int(exposure.iso.rounded()),
            focalLengthMM: optics?.focalLengthMM ?? 0,
            focalLength35mmEquivalentMM: optics.map { Int($0.focalLength35mmEquivalentMM.rounded()) },
            flashFired: flash != nil, pixelWidth: pixels.width, pixelHeight: pixels.height, isSRGB: space == .sRGB)
        switch pictureFormat {
        case .png:
            return try PNG.encode(PNGImage(pixels: pixels, colorSpace: space.pngColorSpace, text: metadata.pngText))
        case .jpeg:
            return try JPEG.encode(
                pixels, quality: PictureFormat.jpegQuality, segments: [JPEG.Segment(marker: 0xE1, data: exif.app1)],
                iccProfile: icc)
        case .heic:
            return try HEIF.encode(pixels, quality: PictureFormat.heicQuality, iccProfile: icc, exif: exif.tiff)
        }
    }

    /// The picture as an ordinary photo: the same pipeline, policy and renderers as a photo taken
    /// through the capture API of the same scene, device, exposure and seed.
    ///
    /// Memory: the frame keeps neither its noisy electrons nor its noise-free flash and ambient
    /// planes, only the planes' means that the white balance reads (at 12 MP, 435 MB less), and its
    /// light factors at half precision (`RenderOptions.halfFactors`); the renderers, whose geometry is
    /// the largest buffer of all, are released before the picture is developed.
    func takePhoto() throws -> PhotoPipeline.Output {
        try exposePhoto().develop()
    }

    /// The photo's frame and white balance; the renderers live only inside this call.
    func exposePhoto() throws -> PhotoPipeline.Exposed {
        // The light factors at half precision, as the capture API's photos keep them: both give the same pixels.
        let options = RenderOptions(
            keepsComponents: false, keepsElectrons: false, keepsComponentMeans: true, halfFactors: true)
        // Focused as the capture API's autofocus leaves the lens: on the middle of the picture.
        let focus = AutoFocus.centredLens(
            scene: sceneValue, device: profile, camera: cameraProfile, aspect: Double(camera.width) / Double(camera.height))
        let pipeline = PhotoPipeline(
            renderer: Renderer(scene: sceneValue, camera: camera, flash: flash, options: options, focus: focus),
            meteringRenderer: Renderer(scene: sceneValue, camera: meteringCamera, flash: flash, focus: focus),
            flashHardware: profile.flash)
        var exposure = PhotoPipeline.ExposureChoice.auto(bias: 0)
        if let fixed = try RenderJob.fixedExposure(command.exposure) {
            exposure = .fixed(time: fixed.time, iso: fixed.iso)
        }
        return pipeline.expose(
            .init(
                outputSpace: space, exposure: exposure,
                whiteBalance: whiteBalanceChoice, warmth: command.warmth,
                flash: flash != nil, seed: command.seed))
    }

    /// The pipeline's white balance for `--white-balance`, already validated.
    var whiteBalanceChoice: PhotoPipeline.WhiteBalanceChoice {
        switch command.whiteBalance {
        case "grey-world": return .greyWorld
        case "scene": return .knownLights
        default: return .auto
        }
    }

    /// Depth in millimetres, rounded; 0 where nothing was hit, clamped to 65535.
    static func depthMillimetres(_ frame: RawFrame) -> UInt16Image {
        UInt16Image(
            width: frame.width, height: frame.height, channels: 1,
            elements: frame.depth.lazy.map { d -> UInt16 in
                guard d.isFinite, d > 0 else { return 0 }
                return UInt16(min(max((Double(d) * 1000).rounded(), 1), 65535))
            })
    }

    /// Where the viewable companion of a depth file goes: `name-view.png` beside `name.png` (the
    /// extension kept as given), `name-view.png` for a name without one. A companion follows its base's
    /// rules: nil when the depth goes to standard output or to anything but a regular file (`/dev/null`,
    /// a FIFO), where a companion name would make a new file beside a device.
    static func depthViewPath(_ depthPath: String) -> String? {
        guard depthPath != OutputFiles.standardOutput else { return nil }
        var info = stat()
        if stat(depthPath, &info) == 0, info.st_mode & S_IFMT != S_IFREG { return nil }
        let name = depthPath.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? depthPath
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return depthPath + "-view.png" }
        let stem = depthPath.dropLast(name.distance(from: dot, to: name.endIndex))
        return String(stem) + "-view" + String(name[dot...])
    }

    /// The depth map coloured for viewing, with its legend (Imaging `DepthColorizer`), tagged sRGB.
    static func depthView(_ frame: RawFrame, text: [PNGText]) -> PNGImage {
        let colorizer = DepthColorizer(fitting: frame.depth)
        return PNGImage(
            pixels: colorizer.view(frame.depth, width: frame.width, height: frame.height), colorSpace: .sRGB,
            text: text + [PNGText(key: "Obscura.DepthView", value: colorizer.legendDescription)])
    }

    static func describe(_ exposure: Exposure) -> String {
        let time = exposure.time >= 1 ? format(exposure.time, 3) + " s" : "1/" + format(1 / exposure.time, 0) + " s"
        return "ISO \(format(exposure.iso, 0)), \(time)" + (exposure.flash ? ", flash" : "")
    }

    struct Summary: Encodable {
        var scene: String
        var device: String
        var camera: String
        var size: [Int]
        var iso: Double
        var exposureTimeS: Double
        var flash: Bool
        var seed: UInt64
        var meanDN: Double
        var clippedFraction: Double
        var whiteBalanceGains: [Double]
        var outputs: [String: String]
        /// The picture's file format (`png`, `jpeg`, `heic`).
        var format: String

        enum CodingKeys: String, CodingKey {
            case scene, device, camera, size, iso, flash, seed, outputs, format
            case exposureTimeS = "exposure_time_s", meanDN = "mean_dn", clippedFraction = "clipped_fraction"
            case whiteBalanceGains = "white_balance_gains"
        }
    }

    func report(frame: RawFrame, exposure: Exposure, balance: WhiteBalance) throws {
        let white = UInt16(min(camera.noise.whiteLevel, 65535))
        var sum = 0.0
        var clipped = 0
        for p in 0..<(frame.width * frame.height) {
            let r = frame.dn[3 * p], g = frame.dn[3 * p + 1], b = frame.dn[3 * p + 2]
            sum += Double(r) + Double(g) + Double(b)
            if max(r, g, b) >= white { clipped += 1 }
        }
        let pixels = Double(frame.width * frame.height)
        var outputs = ["image": command.out]
        if let depth = command.depth {
            outputs["depth"] = depth
            if let view = RenderJob.depthViewPath(depth) { outputs["depth_view"] = view }
        }
        let summary = Summary(
            scene: command.scene, device: profile.id, camera: cameraProfile.id, size: [frame.width, frame.height],
            iso: exposure.iso, exposureTimeS: exposure.time, flash: exposure.flash, seed: command.seed,
            meanDN: sum / (3 * pixels), clippedFraction: Double(clipped) / pixels,
            whiteBalanceGains: [balance.gains.x, balance.gains.y, balance.gains.z], outputs: outputs,
            format: pictureFormat.rawValue)
        if command.json {
            try printJSON(summary)
        } else {
            // Every file written is named, the depth map's viewable companion too.
            let depthNote = command.depth.map { depth in
                ", depth \(depth)" + (RenderJob.depthViewPath(depth).map { " and \($0)" } ?? "")
            } ?? ""
            say(
                "\(command.out)\(depthNote): \(profile.id) \(cameraProfile.id), \(frame.width)x\(frame.height), "
                    + "\(RenderJob.describe(exposure)), mean \(format(summary.meanDN, 1)) DN, "
                    + "\(format(summary.clippedFraction * 100, 2)) % clipped")
        }
    }
}
