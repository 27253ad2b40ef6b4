import Devices
import ObscuraAV
import ObscuraSupport

/// `input: {type: builtInWideAngleCamera, position: back}`: finds the device and adds its input.
/// `input: {type: microphone}` adds the microphone, for audio outputs.
struct InputStep: ScenarioStep {
    static let key = "input"
    static let summary = "finds a camera by type and position (or the microphone) and adds its input to the session"
    let type: AVCaptureDevice.DeviceType
    let position: AVCaptureDevice.Position
    let location: SourceLocation

    init(value: YAMLNode?, step: YAMLNode) throws {
        let node = try Self.requireValue(value, step: step)
        let map = try node.mapping(allowedKeys: ["type", "position"])
        type = try map.required("type").named(deviceTypesByName, what: "device type")
        position = try map.optional("position")?.named(positionsByName, what: "position") ?? (type == .microphone ? .unspecified : .back)
        location = node.location
    }

    var mediaType: AVMediaType { type == .microphone ? .audio : .video }

    var apiCalls: [String] {
        [
            "let device = AVCaptureDevice.default(.\(deviceTypeName(type)), for: .\(mediaType == .audio ? "audio" : "video"), position: .\(positionName(position)))",
            "session.addInput(try AVCaptureDeviceInput(device: device))",
        ]
    }

    var specSections: [String] { ["§2.1", "§1.2"] }

    func perform(_ context: RunContext) throws {
        guard let device = AVCaptureDevice.default(type, for: mediaType, position: position) else {
            throw StepFailure(
                type == .microphone
                    ? "the microphone is found at position unspecified only"
                    : "this device has no \(deviceTypeName(type)) camera at position \(positionName(position))")
        }
        let input = try AVCaptureDeviceInput(device: device)
        context.session.addInput(input)
        context.inputs.append(input)
    }
}
