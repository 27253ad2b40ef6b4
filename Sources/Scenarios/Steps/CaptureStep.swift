import Devices
import Foundation
import ObscuraAV
import ObscuraSupport

/// `capture: {flashMode: auto, isConstantColorEnabled: true, …}`: builds photo settings and
/// calls `capturePhoto(with:delegate:)`, then waits for `didFinishCapture` on the virtual clock.
struct CaptureStep: ScenarioStep {
    static let key = "capture"
    static let summary = "makes AVCapturePhotoSettings and captures a photo; the delegate's callbacks are recorded"
    static let boolSettings = [
        "isConstantColorEnabled", "isConstantColorFallbackPhotoDeliveryEnabled", "isDepthDataDeliveryEnabled",
        "isDepthDataFiltered", "embedsDepthDataInPhoto", "isCameraCalibrationDataDeliveryEnabled",
        "isPortraitEffectsMatteDeliveryEnabled", "isHighResolutionPhotoEnabled", "isShutterSoundSuppressionEnabled",
        "isAutoRedEyeReductionEnabled", "isAutoVirtualDeviceFusionEnabled",
    ]
    static let otherKeys = [
        "output", "flashMode", "photoQualityPrioritization", "constituents", "reuse_settings",
        "livePhotoMovieFileURL", "bracket",
    ]

    enum Constituents {
        case all
        case types([AVCaptureDevice.DeviceType])
    }

    let output: String
    let flashMode: AVCaptureDevice.FlashMode?
    let quality: AVCapturePhotoOutput.QualityPrioritization?
    let flags: [(String, Bool)]
    let constituents: Constituents?
    let reuseSettings: Bool
    let liveURL: String?
    let bracket: [Float]?

    init(value: YAMLNode?, step: YAMLNode) throws {
        guard let value else {
            output = "photo"
            flashMode = nil
            quality = nil
            flags = []
            constituents = nil
            reuseSettings = false
            liveURL = nil
            bracket = nil
            return
        }
        let map = try value.mapping(allowedKeys: Self.otherKeys + Self.boolSettings)
        output = try map.optional("output")?.string() ?? "photo"
        flashMode = try map.optional("flashMode")?.named(flashModesByName, what: "flash mode")
        quality = try map.optional("photoQualityPrioritization")?.named(qualitiesByName, what: "quality")
        flags = try map.entries.filter { Self.boolSettings.contains($0.key) }.map { ($0.key, try $0.value.bool()) }
        if let node = map.optional("constituents") {
            if case .scalar = node.node {
                guard try node.string() == "all" else { throw node.error("expected 'all' or a list of device types") }
                constituents = .all
            } else {
                constituents = .types(try node.sequence().map { try $0.named(deviceTypesByName, what: "device type") })
            }
        } else {
            constituents = nil
        }
        reuseSettings = try map.optional("reuse_settings")?.bool() ?? false
        // The movie is a file the scenario makes, so it goes inside the output folder by the rules of
        // `save:`: a relative name, without `..`. Our choice (Scenarios article, "Files a scenario writes").
        if let node = map.optional("livePhotoMovieFileURL") {
            let path = try node.string()
            try SaveRequest.validateRelative(path, node: node, extensions: ["mov"])
            liveURL = path
        } else {
            liveURL = nil
        }
        // A bias must survive the conversion to Float; ±1000 EV is far past any device's range, so the
        // API's own range rule still judges every plausible mistake. Our choice.
        bracket = try map.optional("bracket")?.sequence().map { Float(try $0.double(in: -1000...1000)) }
    }

    var apiCalls: [String] {
        var calls: [String] = []
        if reuseSettings {
            calls.append("let settings = previousSettings  // reused")
        } else if let bracket {
            let items = bracket.map { "autoExposureSettings(exposureTargetBias: \($0))" }.joined(separator: ", ")
            calls.append("let settings = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: "
                + "[AVVideoCodecKey: AVVideoCodecType.jpeg], bracketedSettings: [\(items)])")
        } else {
            calls.append("let settings = AVCapturePhotoSettings()")
        }
        if let flashMode { calls.append("settings.flashMode = .\(flashModeName(flashMode))") }
        if let quality { calls.append("settings.photoQualityPrioritization = .\(qualityName(quality))") }
        for (flag, value) in flags { calls.append("settings.\(flag) = \(value)") }
        switch constituents {
        case .all: calls.append("settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices = device.constituentDevices")
        case let .types(types):
            let names = types.map { "." + deviceTypeName($0) }.joined(separator: ", ")
            calls.append("settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices = constituents of [\(names)]")
        case nil: break
        }
        if let liveURL { calls.append("settings.livePhotoMovieFileURL = URL(fileURLWithPath: \"\(liveURL)\")") }
        calls.append("\(output).capturePhoto(with: settings, delegate: delegate)")
        return calls
    }

    var specSections: [String] { ["§3.2", "§4", "§6", "§11"] }

    func perform(_ context: RunContext) throws {
        let photoOutput = try context.output(output, as: AVCapturePhotoOutput.self)
        let settings = try makeSettings(context)
        context.lastSettings = settings
        let record = CaptureRecord()
        context.captures.append(record)
        photoOutput.capturePhoto(with: settings, delegate: record)
        // Virtual time: the capture finishes as fast as the renderer allows; a minute is a hang.
        guard record.waitUntilFinished(seconds: 600) else {
            throw StepFailure("the capture did not finish (no didFinishCapture within 600 s)")
        }
    }

    private func makeSettings(_ context: RunContext) throws -> AVCapturePhotoSettings {
        let settings: AVCapturePhotoSettings
        if reuseSettings {
            guard let previous = context.lastSettings else {
                throw StepFailure("'reuse_settings' needs an earlier capture whose settings can be reused")
            }
            settings = previous
        } else if let bracket {
            settings = AVCapturePhotoBracketSettings(
                rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                bracketedSettings: bracket.map {
                    AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0)
                })
        } else {
            settings = AVCapturePhotoSettings()
        }
        if let flashMode { settings.flashMode = flashMode }
        if let quality { settings.photoQualityPrioritization = quality }
        for (flag, value) in flags {
            switch flag {
            case "isConstantColorEnabled": settings.isConstantColorEnabled = value
            case "isConstantColorFallbackPhotoDeliveryEnabled": settings.isConstantColorFallbackPhotoDeliveryEnabled = value
            case "isDepthDataDeliveryEnabled": settings.isDepthDataDeliveryEnabled = value
            case "isDepthDataFiltered": settings.isDepthDataFiltered = value
            case "embedsDepthDataInPhoto": settings.embedsDepthDataInPhoto = value
            case "isCameraCalibrationDataDeliveryEnabled": settings.isCameraCalibrationDataDeliveryEnabled = value
            case "isPortraitEffectsMatteDeliveryEnabled": settings.isPortraitEffectsMatteDeliveryEnabled = value
            case "isHighResolutionPhotoEnabled": settings.isHighResolutionPhotoEnabled = value
            case "isShutterSoundSuppressionEnabled": settings.isShutterSoundSuppressionEnabled = value
            case "isAutoRedEyeReductionEnabled": settings.isAutoRedEyeReductionEnabled = value
            case "isAutoVirtualDeviceFusionEnabled": settings.isAutoVirtualDeviceFusionEnabled = value
            default: preconditionFailure("setting '\(flag)' listed without a setter")
            }
        }
        if let constituents {
            let device = try context.requireDevice()
            switch constituents {
            case .all: settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices = device.constituentDevices
            case let .types(types):
                settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices = try types.map { type in
                    if let own = device.constituentDevices.first(where: { $0.deviceType == type }) { return own }
                    // A device outside the constituents (spec §13 N8): any camera of that type.
                    guard let other = AVCaptureDevice.default(type, for: .video, position: .unspecified) else {
                        throw StepFailure("this device has no \(deviceTypeName(type)) camera")
                    }
                    return other
                }
            }
        }
        if let liveURL { settings.livePhotoMovieFileURL = URL(fileURLWithPath: try context.outputPath(for: liveURL)) }
        return settings
    }
}
