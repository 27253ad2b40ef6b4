import Foundation
import ObscuraAV

/// The observable properties a scenario can expect values of, by dotted name, read through the
/// public API. Values are written as a scenario file writes them (`true`, `P3_D65`, `photo`).
public enum PropertyTable {
    typealias Reader = @Sendable (RunContext) -> String?

    /// Every readable property, in the order the documentation lists them.
    static let readers: [(name: String, read: Reader)] = [
        ("session.isRunning", { String($0.session.isRunning) }),
        ("session.isInterrupted", { String($0.session.isInterrupted) }),
        ("session.sessionPreset", { presetName($0.session.sessionPreset) }),
        ("session.automaticallyConfiguresCaptureDeviceForWideColor", {
            String($0.session.automaticallyConfiguresCaptureDeviceForWideColor)
        }),
        ("session.inputs.count", { String($0.session.inputs.count) }),
        ("session.outputs.count", { String($0.session.outputs.count) }),
        ("session.connections.count", { String($0.session.connections.count) }),
        ("device.deviceType", { $0.device.map { deviceTypeName($0.deviceType) } }),
        ("device.position", { $0.device.map { positionName($0.position) } }),
        ("device.isVirtualDevice", { $0.device.map { String($0.isVirtualDevice) } }),
        ("device.constituentDevices.count", { $0.device.map { String($0.constituentDevices.count) } }),
        ("device.hasFlash", { $0.device.map { String($0.hasFlash) } }),
        ("device.isFlashAvailable", { $0.device.map { String($0.isFlashAvailable) } }),
        ("device.activeColorSpace", { $0.device.map { colorSpaceName($0.activeColorSpace) } }),
        ("device.activeFormat.dimensions", {
            $0.device.map {
                let d = CMVideoFormatDescriptionGetDimensions($0.activeFormat.formatDescription)
                return "\(d.width)x\(d.height)"
            }
        }),
        ("device.activeFormat.supportedColorSpaces", {
            $0.device.map { $0.activeFormat.supportedColorSpaces.map(colorSpaceName).joined(separator: ",") }
        }),
        ("device.systemPressureState.level", { $0.device.map { $0.systemPressureState.level.rawValue } }),
        ("device.activeVideoMinFrameDuration.fps", { $0.device.map { fps($0.activeVideoMinFrameDuration) } }),
        ("device.activeVideoMaxFrameDuration.fps", { $0.device.map { fps($0.activeVideoMaxFrameDuration) } }),
        ("photo_output.isConstantColorSupported", { $0.photoOutput.map { String($0.isConstantColorSupported) } }),
        ("photo_output.isConstantColorEnabled", { $0.photoOutput.map { String($0.isConstantColorEnabled) } }),
        ("photo_output.isDepthDataDeliverySupported", {
            $0.photoOutput.map { String($0.isDepthDataDeliverySupported) }
        }),
        ("photo_output.isDepthDataDeliveryEnabled", { $0.photoOutput.map { String($0.isDepthDataDeliveryEnabled) } }),
        ("photo_output.isVirtualDeviceConstituentPhotoDeliverySupported", {
            $0.photoOutput.map { String($0.isVirtualDeviceConstituentPhotoDeliverySupported) }
        }),
        ("photo_output.isVirtualDeviceConstituentPhotoDeliveryEnabled", {
            $0.photoOutput.map { String($0.isVirtualDeviceConstituentPhotoDeliveryEnabled) }
        }),
        ("photo_output.isCameraCalibrationDataDeliverySupported", {
            $0.photoOutput.map { String($0.isCameraCalibrationDataDeliverySupported) }
        }),
        ("photo_output.isLivePhotoCaptureSupported", { $0.photoOutput.map { String($0.isLivePhotoCaptureSupported) } }),
        ("photo_output.supportedFlashModes", {
            $0.photoOutput.map { $0.supportedFlashModes.map(flashModeName).joined(separator: ",") }
        }),
        ("photo_output.maxPhotoQualityPrioritization", {
            $0.photoOutput.map { qualityName($0.maxPhotoQualityPrioritization) }
        }),
        ("photo_output.connection.isActive", {
            $0.photoOutput.map { $0.connection(with: .video).map { String($0.isActive) } ?? "no connection" }
        }),
        ("photo_output.connection.isEnabled", {
            $0.photoOutput.map { $0.connection(with: .video).map { String($0.isEnabled) } ?? "no connection" }
        }),
        ("converted_depth.depthDataType", {
            $0.convertedDepth.map { fourCharString($0.depthDataType) }
        }),
    ]

    /// Every property name, for "did you mean" and the documentation.
    public static var names: [String] { readers.map(\.name) }

    /// Reads a property; nil when its object does not exist yet.
    static func read(_ name: String, _ context: RunContext) -> String? {
        readers.first { $0.name == name }?.read(context)
    }

    /// The state recorded before and after every step, for narration.
    static let snapshotNames = [
        "session.isRunning", "session.isInterrupted", "session.sessionPreset", "session.inputs.count",
        "session.outputs.count", "device.deviceType", "device.activeFormat.dimensions", "device.activeColorSpace",
        "photo_output.isConstantColorSupported", "photo_output.isConstantColorEnabled",
        "photo_output.isDepthDataDeliveryEnabled", "photo_output.supportedFlashModes",
    ]

    static func snapshot(_ context: RunContext) -> [String: String] {
        var state: [String: String] = [:]
        for name in snapshotNames { if let value = read(name, context) { state[name] = value } }
        return state
    }

    private static func fps(_ duration: CMTime) -> String {
        guard duration.isNumeric, duration.seconds > 0 else { return "invalid" }
        let value = 1 / duration.seconds
        return value == value.rounded() ? String(Int(value)) : String(format: "%.3f", value)
    }
}
