import Devices
import ObscuraAV
import ObscuraSupport

/// `photo_output: {isConstantColorEnabled: true, …}`: sets the photo output's opt-in flags.
struct PhotoOutputStep: ScenarioStep {
    static let key = "photo_output"
    static let summary = "sets the photo output's opt-in properties (constant colour, depth, constituents, …)"
    static let flags = [
        "isConstantColorEnabled", "isDepthDataDeliveryEnabled", "isVirtualDeviceConstituentPhotoDeliveryEnabled",
        "isLivePhotoCaptureEnabled", "isPortraitEffectsMatteDeliveryEnabled",
    ]
    let output: String
    /// Flags in file order, so the calls happen in the order written.
    let settings: [(String, Bool)]
    let quality: AVCapturePhotoOutput.QualityPrioritization?

    init(value: YAMLNode?, step: YAMLNode) throws {
        let map = try Self.requireValue(value, step: step)
            .mapping(allowedKeys: ["output"] + Self.flags + ["maxPhotoQualityPrioritization"])
        output = try map.optional("output")?.string() ?? "photo"
        settings = try map.entries.filter { Self.flags.contains($0.key) }.map { ($0.key, try $0.value.bool()) }
        quality = try map.optional("maxPhotoQualityPrioritization")?.named(qualitiesByName, what: "quality")
    }

    var apiCalls: [String] {
        settings.map { "\(output).\($0.0) = \($0.1)" }
            + (quality.map { ["\(output).maxPhotoQualityPrioritization = .\(qualityName($0))"] } ?? [])
    }

    var specSections: [String] { ["§3.1", "§11"] }

    func perform(_ context: RunContext) throws {
        let photoOutput = try context.output(output, as: AVCapturePhotoOutput.self)
        if let quality { photoOutput.maxPhotoQualityPrioritization = quality }
        for (flag, value) in settings {
            switch flag {
            case "isConstantColorEnabled": photoOutput.isConstantColorEnabled = value
            case "isDepthDataDeliveryEnabled": photoOutput.isDepthDataDeliveryEnabled = value
            case "isVirtualDeviceConstituentPhotoDeliveryEnabled":
                photoOutput.isVirtualDeviceConstituentPhotoDeliveryEnabled = value
            case "isLivePhotoCaptureEnabled": photoOutput.isLivePhotoCaptureEnabled = value
            case "isPortraitEffectsMatteDeliveryEnabled": photoOutput.isPortraitEffectsMatteDeliveryEnabled = value
            default: preconditionFailure("flag '\(flag)' listed without a setter")
            }
        }
    }
}
