import ObscuraAV
import ObscuraSupport

/// `- stop`: `session.stopRunning()`.
struct StopRunningStep: ScenarioStep {
    static let key = "stop"
    static let summary = "stops the session"

    init(value: YAMLNode?, step: YAMLNode) throws {
        try Self.requireNoValue(value)
    }

    var apiCalls: [String] { ["session.stopRunning()"] }
    var specSections: [String] { ["§1.3"] }

    func perform(_ context: RunContext) throws {
        context.session.stopRunning()
    }
}
