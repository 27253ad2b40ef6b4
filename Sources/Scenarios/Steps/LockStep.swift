import ObscuraAV
import ObscuraSupport

/// `- lock`: `try device.lockForConfiguration()`.
struct LockStep: ScenarioStep {
    static let key = "lock"
    static let summary = "takes the device's configuration lock"

    init(value: YAMLNode?, step: YAMLNode) throws {
        try Self.requireNoValue(value)
    }

    var apiCalls: [String] { ["try device.lockForConfiguration()"] }
    var specSections: [String] { ["§2.4"] }

    func perform(_ context: RunContext) throws {
        try context.requireDevice().lockForConfiguration()
    }
}
