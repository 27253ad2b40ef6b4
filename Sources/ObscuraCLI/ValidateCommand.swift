import ArgumentParser
import Devices
import Foundation
import ISP
import Imaging

/// `obscura validate`: checks of the emulation against published protocols.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate the emulation against published protocols.",
        subcommands: [ValidateConstantColorCommand.self])
}

/// `obscura validate constant-color`: Apple's WWDC24 protocol on a device profile.
struct ValidateConstantColorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "constant-color",
        abstract: "Measure Constant Color against the ordinary photo under many room lights.",
        discussion: """
            The ColorChecker 24 and 140 skin patches on one small card 0.5 m away, centred in the flash beam and \
            photographed through a central crop of the sensor (so the flash's fall-off stays out of the figures), under 10-800 lux at 3000-7500 K, \
            on the Planckian locus and at Duv -0.02 and +0.02. Reports the CIELAB variance of each patch across \
            the lights for both photos, its reduction (Apple reports 87 % on iPhone 15) and ΔE00 against the \
            reflectance under D65.
            """)

    @Option(help: "Device id or profile path (default: \(DeviceCatalog.defaultDeviceID)).")
    var device: String?

    @Option(name: .long, help: "The DeviceProfiles directory.")
    var profiles: String?

    @Option(help: "Chart picture size WxH: a central crop of the sensor at its native pixel pitch.")
    var size: String = "224x168"

    @Flag(help: "Run the reduced protocol (2 illuminances, 2 CCTs, 2 tints).")
    var quick = false

    @Flag(help: "Print a JSON summary.")
    var json = false

    @Option(help: "Write an HTML report.")
    var html: String?

    func run() throws {
        let profile: DeviceProfile
        do {
            profile = try DeviceCatalog(directory: profiles).profile(device ?? DeviceCatalog.defaultDeviceID)
        } catch {
            throw CommandFailure.badInput("\(error)")
        }
        let (width, height) = try RenderJob.size(size, reference: nil)
        let pipeline: ConstantColorPipeline
        do {
            let camera = try profile.camera(ofType: .builtInWideAngleCamera, position: .back)
            pipeline = try ConstantColorValidation.chartPipeline(
                device: profile, camera: camera, width: width, height: height)
        } catch {
            throw CommandFailure.badInput("validate constant-color: \(error)")
        }
        let started = Date()
        let result = try ConstantColorValidation.run(pipeline: pipeline, protocol: quick ? .reduced : .apple)
        let seconds = Date().timeIntervalSince(started)
        if let html {
            let page = ConstantColorReport.html(result, device: profile.id)
            do {
                let folder = URL(fileURLWithPath: html).deletingLastPathComponent()
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try AtomicFile.write(Array(page.utf8), to: html)
            } catch {
                throw CommandFailure.outputFailed("validate constant-color: \(error)")
            }
        }
        let summary = ConstantColorReport.Summary(result, device: profile.id, seconds: seconds)
        if json {
            try printJSON(summary)
        } else {
            print(ConstantColorReport.text(result, device: profile.id, seconds: seconds))
        }
    }
}
