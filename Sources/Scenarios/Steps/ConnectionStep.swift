import Devices
import ObscuraAV

/// `connection: {output: photo, isEnabled: false}`: changes an output's video connection.
struct ConnectionStep: ScenarioStep {
    static let key = "connection"
    static let summary = "enables or disables an output's video connection"
    let output: String
    let isEnabled: Bool

    init(value: YAMLNode?, step: YAMLNode) throws {
        let map = try Self.requireValue(value, step: step).mapping(allowedKeys: ["output", "isEnabled"])
        output = try map.optional("output")?.string() ?? "photo"
        isEnabled = try map.required("isEnabled").bool()
    }

    var apiCalls: [String] { ["\(output).connection(with: .video)?.isEnabled = \(isEnabled)"] }
    var specSections: [String] { ["§1.5"] }

    func perform(_ context: RunContext) throws {
        let target = try context.output(output, as: AVCaptureOutput.self)
        guard let connection = target.connection(with: .video) else {
            throw StepFailure("output '\(output)' has no video connection")
        }
        connection.isEnabled = isEnabled
    }
}
