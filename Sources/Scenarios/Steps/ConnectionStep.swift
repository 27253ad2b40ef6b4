import ObscuraAV
import ObscuraSupport

/// `connection: {output: photo, isEnabled: false}`: changes an output's video connection.
struct ConnectionStep: ScenarioStep {
    static let key = "connection"
    static let summary = "enables or disables an output's video connection, or its intrinsic-matrix delivery"
    let output: String
    let isEnabled: Bool?
    let intrinsics: Bool?

    init(value: YAMLNode?, step: YAMLNode) throws {
        let map = try Self.requireValue(value, step: step).mapping(
            allowedKeys: ["output", "isEnabled", "isCameraIntrinsicMatrixDeliveryEnabled"])
        output = try map.optional("output")?.string() ?? "photo"
        isEnabled = try map.optional("isEnabled")?.bool()
        intrinsics = try map.optional("isCameraIntrinsicMatrixDeliveryEnabled")?.bool()
        if isEnabled == nil && intrinsics == nil {
            throw map.node.error("'connection' needs isEnabled or isCameraIntrinsicMatrixDeliveryEnabled")
        }
    }

    var apiCalls: [String] {
        [isEnabled.map { "\(output).connection(with: .video)?.isEnabled = \($0)" },
         intrinsics.map { "\(output).connection(with: .video)?.isCameraIntrinsicMatrixDeliveryEnabled = \($0)" }]
            .compactMap { $0 }
    }
    var specSections: [String] { ["§1.5"] }

    func perform(_ context: RunContext) throws {
        let target = try context.output(output, as: AVCaptureOutput.self)
        guard let connection = target.connection(with: .video) else {
            throw StepFailure("output '\(output)' has no video connection")
        }
        if let isEnabled { connection.isEnabled = isEnabled }
        if let intrinsics { connection.isCameraIntrinsicMatrixDeliveryEnabled = intrinsics }
    }
}
