import ObscuraAV
import ObscuraSupport

/// `- begin`: `session.beginConfiguration()`.
struct BeginConfigurationStep: ScenarioStep {
    static let key = "begin"
    static let summary = "opens a configuration block; changes wait for the outermost commit"

    init(value: YAMLNode?, step: YAMLNode) throws {
        try Self.requireNoValue(value)
    }

    var apiCalls: [String] { ["session.beginConfiguration()"] }
    var specSections: [String] { ["§1.3"] }

    func perform(_ context: RunContext) throws {
        context.session.beginConfiguration()
    }
}
