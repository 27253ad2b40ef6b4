import Obscura
import Devices
import Foundation
import Imaging
import ObscuraAV
import Scenes

/// Runs a scenario against ObscuraAV's public API, step by step, the way an app would, and
/// records what happened for reports and narration.
public enum ScenarioRunner {
    /// Runs `scenario`. Photos asked for by `save:` go to `output`, when given; `progress` hears
    /// one line per step.
    public static func run(
        _ scenario: Scenario, output: OutputDirectory? = nil, progress: (String) -> Void = { _ in }
    ) throws -> ScenarioResult {
        // The device, scene, seed and clock are private to this run, so runs in parallel (tests) do
        // not share a world. `stream:` steps advance a manual clock, so frame counts are exact; a
        // realtime scenario's streams run by themselves against the wall clock.
        return try Emulator.shared.withDevice(scenario.device) {
            Emulator.shared.clockMode = scenario.clock == .virtual ? .manual : .realtime
            Emulator.shared.seed = scenario.seed
            // The scene was read and confined with the scenario; the emulator is not asked to read
            // files. Named as the file names it: the name reaches photos' metadata, which must not
            // hold this machine's folders.
            Emulator.shared.use(scene: scenario.sceneValue, named: scenario.sceneReference)
            // The faults wait in the run's own world for the stream to reach them (spec §21 rule 7).
            for entry in scenario.faults { Emulator.shared.schedule(entry.fault, at: entry.moment) }
            let started = Date()
            let context = RunContext()
            context.outputDirectory = output
            context.scene = scenario.sceneValue
            var steps: [ScenarioResult.StepResult] = []
            for entry in scenario.steps {
                progress("[\(entry.index)/\(scenario.steps.count)] \(entry.key)")
                let stepStarted = Date()
                var step = try runStep(entry, context, output: output, scenario: scenario)
                step.wallSeconds = Date().timeIntervalSince(stepStarted)
                steps.append(step)
            }
            let result = ScenarioResult(
                name: scenario.name, file: scenario.file, description: scenario.description,
                device: scenario.deviceReference, scene: scenario.sceneReference, seed: scenario.seed,
                clock: scenario.clock.rawValue, steps: steps,
                faults: scenario.faults.isEmpty ? nil : scenario.faults.map {
                    ScenarioResult.ScheduledFault(
                        at: $0.moment.description, fault: $0.fault.description, location: $0.location.description)
                })
            // The record is cleaned through its JSON form, which leaves the times out; they are put back.
            var cleaned = ReportPrivacy.clean(result, scenario: scenario)
            cleaned.wallSeconds = Date().timeIntervalSince(started)
            cleaned.restoreTimes(from: steps)
            return cleaned
        }
    }

    private final class ErrorBox: @unchecked Sendable {
        var error: Error?
    }

    private static func runStep(
        _ entry: StepEntry, _ context: RunContext, output: OutputDirectory?, scenario: Scenario
    ) throws -> ScenarioResult.StepResult {
        let before = PropertyTable.snapshot(context)
        context.captures = []
        context.notifications = []
        context.notes = []
        context.savedImages = []
        context.stream.reset()
        // The run's world has a trace of its own; emptied per step, it holds exactly the step's rules
        // however long the scenario (the trace keeps a bounded number of entries).
        Emulator.shared.clearTrace()
        context.imageResult = nil
        let box = ErrorBox()
        let work = UncheckedBox((entry.step, context))
        let raised = Emulator.catchException {
            let (step, context) = work.value
            do { try step.perform(context) } catch { box.error = error }
        }
        let exception = raised.map { exception in
            StepOutcome.RaisedException(
                name: exception.name.rawValue, reason: exception.reason ?? "",
                rule: (exception.userInfo?["ObscuraRule"] as? CaptureRule)?.description)
        }
        let failure = box.error.map { error -> String in
            if let failure = error as? StepFailure { return failure.message }
            return "\(error)"
        }
        if !context.captures.isEmpty { context.lastPhotos = context.captures.flatMap { $0.photos } }
        let outcome = StepOutcome(
            exception: exception, failure: failure, captures: context.captures,
            notifications: context.notifications, before: before, after: PropertyTable.snapshot(context),
            deliveries: context.stream.deliveries)
        var verdicts = entry.expectations.map { $0.evaluate(outcome, context) }
        // Unexpected events fail the step even without an expectation saying so.
        if let exception, !entry.expectations.contains(where: { $0 is ExceptionExpectation }) {
            verdicts.append(ExpectationResult(
                key: "exception", passed: false, expected: "no exception",
                actual: "\(exception.name): \(exception.reason)", location: entry.location))
        }
        if let failure {
            verdicts.append(ExpectationResult(
                key: "step", passed: false, expected: "the step runs", actual: failure, location: entry.location))
        }
        let files = try save(entry, outcome, output: output, verdicts: &verdicts)
        let extraFiles = try AuxiliarySaver.save(entry, outcome, context, output: output, verdicts: &verdicts)
        let photos = outcome.photos.enumerated().map { i, photo in
            let d = photo.resolvedSettings.photoDimensions
            return ScenarioResult.PhotoSummary(
                photoCount: photo.photoCount, timestampSeconds: photo.timestamp.seconds,
                isConstantColorFallbackPhoto: photo.isConstantColorFallbackPhoto,
                constantColorConfidenceLevel: photo.constantColorCenterWeightedMeanConfidenceLevel,
                isFlashEnabled: photo.resolvedSettings.isFlashEnabled, dimensions: "\(d.width)x\(d.height)",
                file: files[i], meanSignal: Self.meanSignal(photo))
        }
        let callbacks = outcome.captures.flatMap { $0.events }.map {
            ScenarioResult.Callback(name: $0.name, photoCount: $0.photoCount, seconds: $0.seconds)
        }
        let clock = max(outcome.photos.last?.timestamp.seconds ?? 0, outcome.deliveries.last?.seconds ?? 0)
        let rules = Emulator.shared.trace.map {
            ScenarioResult.Rule(section: $0.section, rule: $0.rule, outcome: $0.outcome.rawValue, sentence: $0.sentence)
        }
        return ScenarioResult.StepResult(
            index: entry.index, key: entry.key, location: entry.location.description, apiCalls: entry.step.apiCalls,
            specSections: entry.step.specSections, exception: exception, failure: failure, callbacks: callbacks,
            photos: photos, notifications: outcome.notifications, before: outcome.before, after: outcome.after,
            expectations: verdicts, clockSeconds: clock, deliveries: outcome.deliveries, rules: rules,
            notes: context.notes, savedFiles: context.savedImages + extraFiles)
    }

    /// The mean 8-bit value of a photo's PNG file data, over every pixel and channel.
    static func meanSignal(_ photo: AVCapturePhoto) -> Double? {
        guard let data = photo.pngFileDataRepresentation(), let image = try? PNG.decode([UInt8](data)),
            case let .eightBit(pixels) = image.pixels
        else { return nil }
        let values = pixels.packedElements
        guard !values.isEmpty else { return nil }
        return Double(values.reduce(0) { $0 + Int($1) }) / Double(values.count)
    }

    /// Writes the photos a step asked for; returns the file of each delivered photo (or nil).
    private static func save(
        _ entry: StepEntry, _ outcome: StepOutcome, output: OutputDirectory?, verdicts: inout [ExpectationResult]
    ) throws -> [String?] {
        let photos = outcome.photos
        var files = [String?](repeating: nil, count: photos.count)
        guard let output else { return files }
        for request in entry.saves where request.kind == .photo || request.kind == .fallback {
            let chosen = photos.indices.filter {
                photos[$0].isConstantColorFallbackPhoto == (request.kind == .fallback)
            }
            if chosen.isEmpty {
                verdicts.append(ExpectationResult(
                    key: "save", passed: false, expected: "a \(request.kind.rawValue) to save",
                    actual: "none delivered", location: request.location))
            }
            for (n, i) in chosen.enumerated() {
                guard let data = photos[i].fileDataRepresentation(as: request.format) else {
                    verdicts.append(ExpectationResult(
                        key: "save", passed: false, expected: "a \(request.format.rawValue) file of the photo",
                        actual: request.format == .heic ? "HEIC cannot be written here (libheif with an HEVC encoder "
                            + "is missing)" : "the photo could not be encoded", location: request.location))
                    continue
                }
                var name = request.relativePath
                    ?? String(format: "step%02d-%@%d.png", entry.index, request.kind.rawValue, photos[i].photoCount)
                if let path = request.relativePath, chosen.count > 1, let dot = path.lastIndex(of: ".") {
                    name = String(path[..<dot]) + "-\(n + 1)" + String(path[dot...])
                }
                files[i] = try output.write([UInt8](data), to: name)
            }
        }
        return files
    }
}

extension AVCapturePhoto {
    /// The photo's file in the format a `save:` entry asked for: PNG, the lossless file runs measure,
    /// or JPEG or HEIC as the photo path writes them at the default quality.
    func fileDataRepresentation(as format: SaveRequest.PhotoFormat) -> Data? {
        switch format {
        case .png: return pngFileDataRepresentation()
        case .jpeg: return fileDataRepresentation(as: .jpeg(quality: PhotoFileFormat.defaultQuality))
        case .heic: return fileDataRepresentation(as: .heic(quality: PhotoFileFormat.defaultQuality))
        }
    }
}

/// Moves a value into the catching thread; the runner waits for that thread before going on.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
