import ArgumentParser
import Devices
import Foundation
import ISP
import Imaging
import Scenes
import Scenarios
import Sensor
import Spectra

/// `obscura render`: one photograph of a scene by a virtual device, simply processed.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene through a device's camera and write a processed PNG.",
        discussion: """
            SCENE is a scene of the Scenes directory (--scenes, $\(SceneLoader.environmentVariable), or a Scenes/ \
            folder above the current directory or the executable), a path to a scene file, or a built-in chart \
            (\(BuiltInScenes.names.joined(separator: ", "))). The picture is the raw \
            frame with white balance, a colour-correction matrix, a highlight shoulder and the sRGB (or Display P3) \
            encoding; no demosaicing, denoising or local tone mapping. --depth writes a 16-bit grey PNG of the \
            distance along the optical axis in millimetres (0 where the ray hits nothing, 65535 at or beyond \
            65.535 m), distorted like the picture.
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

    @Option(help: "auto, or ISO,seconds (e.g. 100,0.02 or 100,1/50).")
    var exposure: String = "auto"

    @Option(help: "Output PNG path (- for standard output).")
    var out: String

    @Option(help: "Also write the depth map as a 16-bit PNG in millimetres (- for standard output).")
    var depth: String?

    @Option(help: "Noise seed.")
    var seed: UInt64 = 0

    @Option(name: .customLong("color-space"), help: "sRGB or displayP3.")
    var colorSpace: String = BasicDevelop.OutputSpace.sRGB.rawValue

    @Option(name: .customLong("white-balance"), help: "scene (the known lights) or grey-world.")
    var whiteBalance: String = "scene"

    @Option(help: "Share of the light's colour cast kept, 0…1.")
    var warmth: Double = RenderCommand.defaultWarmth

    @Flag(help: "Print a JSON summary.")
    var json = false

    /// A phone keeps part of a warm room's cast; a fifth of the way from D65 towards the light is
    /// our choice, not a measured figure.
    static let defaultWarmth = 0.2

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
    let flash: FlashModel?
    let space: BasicDevelop.OutputSpace

    init(_ command: RenderCommand) throws {
        self.command = command
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
            throw CommandFailure.badInput(message)
        }
        guard let position = CameraPosition(rawValue: command.position) else {
            throw CommandFailure.badInput("--position: expected back or front, not '\(command.position)'")
        }
        guard let space = BasicDevelop.OutputSpace(rawValue: command.colorSpace) else {
            throw CommandFailure.badInput("--color-space: expected sRGB or displayP3, not '\(command.colorSpace)'")
        }
        self.space = space
        guard ["scene", "grey-world"].contains(command.whiteBalance) else {
            throw CommandFailure.badInput(
                "--white-balance: expected scene or grey-world, not '\(command.whiteBalance)'")
        }
        guard (0...1).contains(command.warmth) else {
            throw CommandFailure.badInput("--warmth: expected a value from 0 to 1, not \(command.warmth)")
        }
        do {
            cameraProfile = try profile.camera(ofType: type, position: position)
            let physical = try profile.renderingCamera(for: cameraProfile)
            let (width, height) = try RenderJob.size(command.size, reference: physical.intrinsics?.reference)
            camera = try CameraModel(device: profile, camera: cameraProfile, width: width, height: height)
        } catch let error as DeviceCameraError {
            throw CommandFailure.badInput("--camera: \(error.description)")
        }
        flash = command.flash ? FlashModel(device: profile, camera: cameraProfile) : nil
        if command.flash && flash == nil {
            throw CommandFailure.badInput(
                "--flash: \(profile.id) has no flash for its \(position.rawValue) \(type.rawValue)")
        }
        _ = try RenderJob.fixedExposure(command.exposure)
        try OutputFiles.checkOneStandardOutput([command.out, command.depth], options: ["--out", "--depth"])
    }

    /// A built-in scene by name, a scene file by path, or a scene of the Scenes directory by name.
    static func loadScene(_ name: String, directory: String?) throws -> Scene {
        if let scene = BuiltInScenes.scene(named: name) { return scene }
        do {
            if name.hasSuffix(".yaml") || name.contains("/") { return try SceneLoader.load(path: name) }
            let loader = try SceneLoader(directory: directory)
            guard loader.names.contains(name) else {
                let names = BuiltInScenes.names + loader.names
                var message = "render: no scene '\(name)'"
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

    func run() throws {
        let renderer = Renderer(scene: sceneValue, camera: camera, flash: flash)
        let exposure: Exposure
        if let fixed = try RenderJob.fixedExposure(command.exposure) {
            exposure = Exposure(time: fixed.time, iso: fixed.iso, flash: flash != nil, seed: command.seed)
        } else {
            // A quick metering frame at an eighth of the size (at least 32 pixels wide).
            let w = max(32, camera.width / 8)
            let h = max(1, Int((Double(w) * Double(camera.height) / Double(camera.width)).rounded()))
            let metering = Renderer(scene: sceneValue, camera: camera.scaled(toWidth: w, height: h), flash: flash)
            exposure = AutoExposure(noise: camera.noise).solve(
                meteringRenderer: metering, flash: flash != nil, seed: command.seed)
        }
        let pixels = camera.width * camera.height
        // Large renders take a while: say what is happening to a person at a terminal.
        if pixels >= 8_000_000 { Terminal.progress("rendering \(camera.width)x\(camera.height)…") }
        let started = Date()
        let frame = renderer.render(exposure)
        if pixels >= 8_000_000 {
            Terminal.progress("rendered in \(format(Date().timeIntervalSince(started), 1)) s; developing")
        }
        let balance = whiteBalance(frame)
        let develop = BasicDevelop(
            camera: camera, whiteBalance: balance,
            settings: .init(outputSpace: space, warmthRetention: command.warmth))
        let picture = develop.develop(frame, as: UInt8.self)
        let text = [
            PNGText(key: "Software", value: "obscura render"),
            PNGText(key: "Obscura.Scene", value: command.scene),
            PNGText(key: "Obscura.Device", value: profile.id),
            PNGText(key: "Obscura.Camera", value: "\(cameraProfile.id) (\(cameraProfile.deviceType.rawValue))"),
            PNGText(key: "Obscura.Exposure", value: RenderJob.describe(exposure)),
            PNGText(key: "Obscura.Seed", value: String(command.seed)),
        ]
        // Encode everything first, so a failure leaves no file behind; each write is atomic.
        var files: [(path: String, bytes: [UInt8])] = []
        do {
            files.append(
                (command.out, try PNG.encode(PNGImage(pixels: picture, colorSpace: space.pngColorSpace, text: text))))
            if let depthPath = command.depth {
                let image = PNGImage(
                    pixels: RenderJob.depthMillimetres(frame),
                    text: text + [
                        PNGText(key: "Obscura.Depth", value: "millimetres along the optical axis; 0 = no surface")
                    ])
                files.append((depthPath, try PNG.encode(image)))
                // A 16-bit grey map looks black in a viewer; a colour companion beside it is for people.
                if depthPath != OutputFiles.standardOutput, depthPath.hasSuffix(".png"),
                    let coloured = DepthColourMap.render(
                        width: frame.width, height: frame.height, metres: frame.depth.map { Float($0) })
                {
                    let legend = "viridis: near \(format(coloured.near, 3)) m yellow, far \(format(coloured.far, 3)) m "
                        + "purple, black no depth"
                    let companion = PNGImage(pixels: coloured.image, text: text + [PNGText(key: "Comment", value: legend)])
                    files.append((String(depthPath.dropLast(4)) + "-colour.png", try PNG.encode(companion)))
                }
            }
        } catch {
            throw CommandFailure.outputFailed("render: \(error)")
        }
        // A user naming `out/photo.png` expects `out/` to appear, as with any other output. The picture and
        // depth map are written as a set: neither replaces an earlier file until both are on disk.
        try OutputFiles.write(files.map { (bytes: $0.bytes, path: $0.path) })
        try report(frame: frame, exposure: exposure, balance: balance)
    }

    /// The white balance: the scene's known lights, or grey-world.
    func whiteBalance(_ frame: RawFrame) -> WhiteBalance {
        if command.whiteBalance == "grey-world" { return WhiteBalance.greyWorld(frame, camera: camera) }
        // The known lights: ambient and flash mixed in proportion to the mean green signal each
        // gives; the flash part uses the factory calibration, as a phone's ISP would.
        return WhiteBalance.knownLights(frame, scene: sceneValue, flash: profile.flash, camera: camera)
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

        enum CodingKeys: String, CodingKey {
            case scene, device, camera, size, iso, flash, seed, outputs
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
        if let depth = command.depth { outputs["depth"] = depth }
        let summary = Summary(
            scene: command.scene, device: profile.id, camera: cameraProfile.id, size: [frame.width, frame.height],
            iso: exposure.iso, exposureTimeS: exposure.time, flash: exposure.flash, seed: command.seed,
            meanDN: sum / (3 * pixels), clippedFraction: Double(clipped) / pixels,
            whiteBalanceGains: [balance.gains.x, balance.gains.y, balance.gains.z], outputs: outputs)
        if command.json {
            try printJSON(summary)
        } else {
            let depthNote = command.depth.map { ", depth \($0)" } ?? ""
            say(
                "\(command.out)\(depthNote): \(profile.id) \(cameraProfile.id), \(frame.width)x\(frame.height), "
                    + "\(RenderJob.describe(exposure)), mean \(format(summary.meanDN, 1)) DN, "
                    + "\(format(summary.clippedFraction * 100, 2)) % clipped")
        }
    }
}
