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
            reflectance under D65. The baseline (--baseline) is a normal photo of the same card by the room light \
            alone, auto-exposed and white-balanced by the phone's own estimate of the light (auto white balance), \
            keeping a fifth of the light's cast (--warmth).
            With --field full the chart fills the whole frame at 0.3, 0.5, 1 and 1.5 m instead, and each \
            distance reports accuracy (ΔE00 of the patches in the pictures whose confidence map trusts them, at \
            0.8 or more, against the baseline) next to consistency (variance reduction), with a per-patch map. \
            The command measures and reports: it exits 0 whatever the figures, and 2 for options it cannot use; \
            to gate a build, read the figures of --json (meets_targets with --field full and --ambient narrow-band).
            """)

    @Option(
        help: "Device id or profile path (default: \(DeviceCatalog.defaultDeviceID)).", completion: Completions.devices)
    var device: String?

    @Option(name: .long, help: "The DeviceProfiles directory.")
    var profiles: String?

    /// Below half the default crop, the 164 patches cover too few pixels each for the confidence and
    /// ΔE figures to be measured at all (a few sizes give no patch, and NaN). Our choice.
    static let minimumSize = (width: 112, height: 84)
    /// The most units `--units` takes: each adds a whole protocol's captures. Our choice.
    static let maximumUnits = 100

    @Option(
        help: "Chart picture size WxH: a central crop of the sensor at its native pixel pitch (at least 112x84).")
    var size: String = "224x168"

    @Flag(help: "Run the reduced protocol (2 illuminances, 2 CCTs, 2 tints).")
    var quick = false

    /// The room lights of the protocol.
    enum Ambient: String, ExpressibleByArgument, CaseIterable {
        /// Apple's: white light, 3000-7500 K on and off the Planckian locus.
        case white
        /// Single-colour LEDs (460, 530, 590, 630 nm) at 100-800 lux: checks that confidence stays honest.
        case narrowBand = "narrow-band"
    }

    @Option(help: "Room lights: white (Apple's protocol) or narrow-band (single-colour LEDs, checks the confidence).")
    var ambient: Ambient = .white

    /// Which chart set-up: today's small card through a central crop, or the chart filling the frame.
    enum Field: String, ExpressibleByArgument, CaseIterable {
        case centre, full
    }

    @Option(
        help: """
            centre: the card in a central crop of the sensor (the flash's fall-off stays out); full: the chart \
            filling the whole frame at each --distances, with per-patch accuracy maps.
            """)
    var field: Field = .centre

    @Option(
        help: """
            What Constant Color is compared with: auto-white-balance (the default: a normal photo by the room \
            light, with the auto white balance every photo uses), known-light (the same photo white-balanced for \
            the true room light) or fallback (the capture's own fallback photo, from its ambient frame).
            """)
    var baseline: String?

    @Option(
        name: .customLong("warmth"), parsing: .unconditional,
        help: "Share of the room light's cast the baseline photo keeps, 0…1 (default \(PhotoPipeline.warmth)).")
    var warmthOption: Double?

    @Option(help: "Full field: chart distances in metres, comma-separated. (default: 0.3,0.5,1.0,1.5)")
    var distances: String?

    @Flag(
        help: """
            Normalise the flash-only signal by one flash level instead of the flash's irradiance at each pixel \
            (from the capture's depth), to show what the per-pixel irradiance buys.
            """)
    var uniformFlash = false

    @Flag(
        help: """
            Capture without the device's error sources (flash tolerance and heating, flicker, hand motion, sensor \
            spread): the error-free pipeline.
            """)
    var ideal = false

    @Option(
        name: .customLong("without"),
        help: ArgumentHelp(
            "Switch one device error source off (repeatable): \(CaptureErrors.Source.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "source"))
    var withoutSources: [String] = []

    @Flag(
        help: """
            Capture with a unit whose sensor colour was not calibrated at the factory (the profile's \
            sensitivity_calibrated off): the sensor's spread reaches the colours, as production lines typically prevent.
            """)
    var uncalibratedSensor = false

    @Option(
        help: """
            How many units of the device take the white-light protocol in the centre crop; every figure pools their \
            photos, so the units' own flash and sensor errors count as spread (default 1).
            """)
    var units: Int = 1

    @Flag(help: "Print a JSON summary.")
    var json = false

    @Option(help: "Write an HTML report.")
    var html: String?

    func run() throws {
        let choice = try baselineChoice()
        let profile: DeviceProfile
        do {
            profile = try DeviceCatalog(directory: profiles).profile(device ?? DeviceCatalog.defaultDeviceID)
        } catch {
            throw CommandFailure.badInput("\(error)")
        }
        let (width, height) = try RenderJob.size(size, reference: nil, minimum: Self.minimumSize)
        guard (1...Self.maximumUnits).contains(units) else {
            throw CommandFailure.badInput(
                "validate constant-color: --units: expected 1 to \(Self.maximumUnits) units, not \(units)")
        }
        if units > 1, field == .full || ambient == .narrowBand {
            throw CommandFailure.badInput(
                "validate constant-color: --units pools the white-light protocol in the centre crop; drop --field full "
                    + "and --ambient narrow-band, or --units")
        }
        if distances != nil, field != .full {
            throw CommandFailure.badInput(
                "validate constant-color: --distances sets the full-field protocol's distances; add --field full")
        }
        // A report path that is a folder is refused now, not after the run.
        if let html { try OutputFiles.checkNotAnInput((html, "--html"), inputs: []) }
        if field == .full {
            guard ambient == .white else {
                throw CommandFailure.badInput(
                    "validate constant-color: --field full runs the white-light protocol; drop --ambient narrow-band")
            }
            try runFullField(profile, baseline: choice, width: width, height: height)
            return
        }
        var pipeline: ConstantColorPipeline
        do {
            let camera = try profile.camera(ofType: .builtInWideAngleCamera, position: .back)
            pipeline = try ConstantColorValidation.chartPipeline(
                device: profile, camera: camera, width: width, height: height,
                settings: .init(developsFallback: false, correctsIrradiance: !uniformFlash))
        } catch {
            throw CommandFailure.badInput("validate constant-color: \(error)")
        }
        pipeline.captureErrors = try errors(pipeline.captureErrors)
        let started = Date()
        if ambient == .narrowBand {
            try runNarrowBand(pipeline, device: profile.id, size: (width, height), started: started)
            return
        }
        Terminal.progress("validate constant-color: \(quick ? "reduced" : "full") protocol at \(width)x\(height)…")
        let spec: ConstantColorValidation.Conditions = quick ? .reduced : .apple
        let result = try ConstantColorValidation.run(
            pipeline: pipeline, protocol: spec, baseline: choice, baselineWarmth: warmth, units: units)
        // The error-free pipeline beside it, from the same captures' seeds (without errors every unit is the same one).
        var idealPipeline = pipeline
        idealPipeline.captureErrors = .none
        let idealResult =
            pipeline.captureErrors.isActive
            ? try ConstantColorValidation.run(
                pipeline: idealPipeline, protocol: spec, baseline: choice, baselineWarmth: warmth) : result
        let seconds = Date().timeIntervalSince(started)
        guard result.varianceReduction.isFinite else {
            throw CommandFailure.checkFailed(
                "validate constant-color: no chart patch could be measured at \(width)x\(height); use a larger --size")
        }
        if let html {
            let page = ConstantColorReport.html(result, device: profile.id, seconds: seconds)
            try OutputFiles.write(Array(page.utf8), to: html)
        }
        let errorsOn = pipeline.captureErrors.isActive
        let summary = ConstantColorReport.Summary(
            result, ideal: idealResult, deviceErrors: errorsOn, device: profile.id, seconds: seconds)
        if json {
            try printJSON(summary)
        } else {
            say(
                ConstantColorReport.text(
                    result, ideal: errorsOn ? idealResult : nil, device: profile.id, seconds: seconds))
        }
    }
}

extension ValidateConstantColorCommand {
    /// The capture's error sources as the flags choose them: none with --ideal, else the profile's without the
    /// sources --without names, and without the sensor's factory calibration with --uncalibrated-sensor.
    func errors(_ profile: ConstantColorCaptureErrors) throws -> ConstantColorCaptureErrors {
        if ideal { return .none }
        var out = profile
        if uncalibratedSensor { out.magnitudes.sensitivityCalibrated = false }
        for name in withoutSources {
            guard let source = CaptureErrors.Source(rawValue: name) else {
                let names = CaptureErrors.Source.allCases.map(\.rawValue).joined(separator: ", ")
                throw CommandFailure.badInput(
                    "validate constant-color: unknown error source '\(name)' for --without; use one of \(names)")
            }
            out.magnitudes = out.magnitudes.without(source)
        }
        return out
    }

    /// The narrow-band mode: the chart under single-colour LEDs, confidence against ΔE00.
    func runNarrowBand(_ pipeline: ConstantColorPipeline, device: String, size: (Int, Int), started: Date) throws {
        guard html == nil else {
            throw CommandFailure.badInput("validate constant-color: --html reports the white-light protocol only")
        }
        Terminal.progress(
            "validate constant-color: narrow-band \(quick ? "reduced" : "full") protocol at \(size.0)x\(size.1)…")
        let result = ConstantColorNarrowBandValidation.run(
            pipeline: pipeline,
            illuminances: quick
                ? ConstantColorNarrowBandValidation.reducedIlluminances : ConstantColorNarrowBandValidation.illuminances)
        let seconds = Date().timeIntervalSince(started)
        if json {
            try printJSON(NarrowBandReport.Summary(result, device: device, seconds: seconds))
        } else {
            say(NarrowBandReport.text(result, device: device, seconds: seconds))
        }
    }

    /// The share of the room light's cast the baseline keeps (`--warmth`).
    var warmth: Double { warmthOption ?? PhotoPipeline.warmth }

    /// The baseline `--baseline` and `--warmth` name. The narrow-band check compares with no baseline, so there
    /// they are refused rather than ignored.
    func baselineChoice() throws -> ConstantColorValidation.Baseline {
        if ambient == .narrowBand, baseline != nil || warmthOption != nil {
            throw CommandFailure.badInput(
                "validate constant-color: --ambient narrow-band compares with no baseline; drop --baseline and --warmth")
        }
        let name = baseline ?? ConstantColorValidation.Baseline.autoWhiteBalance.rawValue
        guard let choice = ConstantColorValidation.Baseline(rawValue: name) else {
            let names = ConstantColorValidation.Baseline.allCases.map(\.rawValue).joined(separator: ", ")
            throw CommandFailure.badInput("validate constant-color: unknown baseline '\(name)'; use one of \(names)")
        }
        guard (0...1).contains(warmth) else {
            throw CommandFailure.badInput("validate constant-color: --warmth: expected a value from 0 to 1, not \(warmth)")
        }
        return choice
    }

    /// The full-field protocol (`FullFieldValidation`).
    func runFullField(
        _ profile: DeviceProfile, baseline choice: ConstantColorValidation.Baseline, width: Int, height: Int
    ) throws {
        let given = distances ?? FullFieldValidation.standardDistances.map { String($0) }.joined(separator: ",")
        let metres = given.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !metres.isEmpty, metres.allSatisfy({ ($0 ?? 0) > 0 }) else {
            throw CommandFailure.badInput(
                "validate constant-color: --distances takes positive distances in metres, such as 0.3,0.5,1,1.5")
        }
        var pipeline: ConstantColorPipeline
        do {
            let camera = try profile.camera(ofType: .builtInWideAngleCamera, position: .back)
            pipeline = try ConstantColorPipeline(
                device: profile, camera: camera, width: width, height: height,
                settings: .init(developsFallback: false, correctsIrradiance: !uniformFlash))
        } catch {
            throw CommandFailure.badInput("validate constant-color: \(error)")
        }
        pipeline.captureErrors = try errors(pipeline.captureErrors)
        let started = Date()
        Terminal.progress(
            "validate constant-color: full field, \(quick ? "reduced" : "full") protocol at \(width)x\(height)…")
        let result = try FullFieldValidation.run(
            pipeline: pipeline, baseline: choice, baselineWarmth: warmth, protocol: quick ? .reduced : .apple,
            distances: metres.compactMap { $0 })
        let seconds = Date().timeIntervalSince(started)
        guard result.distances.allSatisfy({ !$0.cells.isEmpty }) else {
            throw CommandFailure.checkFailed(
                "validate constant-color: no chart patch could be measured at \(width)x\(height); use a larger --size")
        }
        if let html {
            let page = ConstantColorFullFieldReport.html(result, device: profile.id, width: width, height: height)
            try OutputFiles.write(Array(page.utf8), to: html)
        }
        if json {
            try printJSON(
                ConstantColorFullFieldReport.Summary(
                    result, device: profile.id, width: width, height: height, seconds: seconds))
        } else {
            say(
                ConstantColorFullFieldReport.text(
                    result, device: profile.id, width: width, height: height, seconds: seconds))
        }
    }
}
