import ObscuraAV
import ObscuraSupport

/// `- start`: `session.startRunning()`.
struct StartRunningStep: ScenarioStep {
    static let key = "start"
    static let summary = "starts the session"

    init(value: YAMLNode?, step: YAMLNode) throws {
        try Self.requireNoValue(value)
    }

    var apiCalls: [String] { ["session.startRunning()"] }
    var specSections: [String] { ["§1.3"] }

    func perform(_ context: RunContext) throws {
        context.session.startRunning()
    }
}
