import Obscura
import ObscuraAV
import ObscuraSupport

/// `- end_interruption`: the interruption ends and the session resumes unless it was stopped.
struct EndInterruptionStep: ScenarioStep {
    static let key = "end_interruption"
    static let summary = "ends the interruption; the session resumes unless the client stopped it"

    init(value: YAMLNode?, step: YAMLNode) throws {
        try Self.requireNoValue(value)
    }

    var apiCalls: [String] { ["Emulator.shared.endInterruption(of: session)"] }
    var specSections: [String] { ["§1.3", "§21"] }

    func perform(_ context: RunContext) throws {
        Emulator.shared.endInterruption(of: context.session)
    }
}
