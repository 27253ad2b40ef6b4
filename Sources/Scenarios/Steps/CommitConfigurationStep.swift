import ObscuraAV
import ObscuraSupport

/// `- commit`: `session.commitConfiguration()`.
struct CommitConfigurationStep: ScenarioStep {
    static let key = "commit"
    static let summary = "closes a configuration block; the outermost commit resolves format, colour space and connections"

    init(value: YAMLNode?, step: YAMLNode) throws {
        try Self.requireNoValue(value)
    }

    var apiCalls: [String] { ["session.commitConfiguration()"] }
    var specSections: [String] { ["§1.3", "§1.4"] }

    func perform(_ context: RunContext) throws {
        context.session.commitConfiguration()
    }
}
