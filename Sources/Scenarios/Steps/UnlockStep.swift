import ObscuraAV
import ObscuraSupport

/// `- unlock`: `device.unlockForConfiguration()`.
struct UnlockStep: ScenarioStep {
    static let key = "unlock"
    static let summary = "releases the device's configuration lock"

    init(value: YAMLNode?, step: YAMLNode) throws {
        try Self.requireNoValue(value)
    }

    var apiCalls: [String] { ["device.unlockForConfiguration()"] }
    var specSections: [String] { ["§2.4"] }

    func perform(_ context: RunContext) throws {
        try context.requireDevice().unlockForConfiguration()
    }
}
