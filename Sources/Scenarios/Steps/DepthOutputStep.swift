import Foundation
import ObscuraAV
import ObscuraSupport

/// `depth_output: {output: depth, isFilteringEnabled: false, alwaysDiscardsLateDepthData: true}`:
/// the depth data output's options, in the order written.
struct DepthOutputStep: ScenarioStep {
    static let key = "depth_output"
    static let summary = "sets the depth data output's filtering and late-data options"
    static let flags = ["isFilteringEnabled", "alwaysDiscardsLateDepthData"]

    let output: String
    let settings: [(String, Bool)]

    init(value: YAMLNode?, step: YAMLNode) throws {
        let map = try Self.requireValue(value, step: step).mapping(allowedKeys: ["output"] + Self.flags)
        output = try map.optional("output")?.string() ?? "depth_data"
        settings = try map.entries.filter { Self.flags.contains($0.key) }.map { ($0.key, try $0.value.bool()) }
        if settings.isEmpty { throw map.node.error("'depth_output' needs isFilteringEnabled or alwaysDiscardsLateDepthData") }
    }

    var apiCalls: [String] { settings.map { "\(output).\($0.0) = \($0.1)" } }
    var specSections: [String] { ["§7"] }

    func perform(_ context: RunContext) throws {
        let depth = try context.output(output, as: AVCaptureDepthDataOutput.self)
        for (flag, value) in settings {
            switch flag {
            case "isFilteringEnabled": depth.isFilteringEnabled = value
            case "alwaysDiscardsLateDepthData": depth.alwaysDiscardsLateDepthData = value
            default: preconditionFailure("depth output flag '\(flag)' listed without a setter")
            }
        }
    }
}
