import ObscuraAV
import ObscuraSupport

/// `session: {preset: photo, automaticallyConfiguresCaptureDeviceForWideColor: false}`.
struct SessionStep: ScenarioStep {
    static let key = "session"
    static let summary = "sets the session preset and the automatic wide-colour flag"
    let preset: AVCaptureSession.Preset?
    let automaticWideColor: Bool?

    init(value: YAMLNode?, step: YAMLNode) throws {
        let map = try Self.requireValue(value, step: step)
            .mapping(allowedKeys: ["preset", "automaticallyConfiguresCaptureDeviceForWideColor"])
        preset = try map.optional("preset")?.named(presetsByName, what: "session preset")
        automaticWideColor = try map.optional("automaticallyConfiguresCaptureDeviceForWideColor")?.bool()
    }

    var apiCalls: [String] {
        var calls: [String] = []
        if let preset { calls.append("session.sessionPreset = .\(presetName(preset))") }
        if let automaticWideColor {
            calls.append("session.automaticallyConfiguresCaptureDeviceForWideColor = \(automaticWideColor)")
        }
        return calls
    }

    var specSections: [String] { ["§1.1", "§1.4"] }

    func perform(_ context: RunContext) throws {
        if let automaticWideColor { context.session.automaticallyConfiguresCaptureDeviceForWideColor = automaticWideColor }
        if let preset { context.session.sessionPreset = preset }
    }
}
