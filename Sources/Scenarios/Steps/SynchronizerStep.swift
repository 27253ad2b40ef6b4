import Foundation
import ObscuraAV
import ObscuraSupport

/// `synchronizer: [video, depth, metadata]`: an `AVCaptureDataOutputSynchronizer` over named
/// outputs, the primary first, whose delegate records every collection.
struct SynchronizerStep: ScenarioStep {
    static let key = "synchronizer"
    static let summary = "synchronizes named data outputs (primary first); collections are recorded"

    let outputs: [String]

    init(value: YAMLNode?, step: YAMLNode) throws {
        // An empty list is allowed: the initializer's refusal (spec §13 N13) is worth showing.
        outputs = try Self.requireValue(value, step: step).sequence().map { try $0.string() }
    }

    var apiCalls: [String] {
        ["let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [\(outputs.joined(separator: ", "))])",
         "synchronizer.setDelegate(delegate, queue: queue)"]
    }

    var specSections: [String] { ["§8", "§13"] }

    func perform(_ context: RunContext) throws {
        let chosen = try outputs.map { try context.output($0, as: AVCaptureOutput.self) }
        for (output, name) in zip(chosen, outputs) { context.stream.name(output, name) }
        let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: chosen)
        synchronizer.setDelegate(context.stream, queue: context.stream.queue)
        context.synchronizer = synchronizer
    }
}
