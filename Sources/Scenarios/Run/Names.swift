import Obscura
import ObscuraAV

// The names scenario files use for API enumerations: Apple's Swift case names.

/// Session presets by their Swift case name.
let presetsByName: [String: AVCaptureSession.Preset] = [
    "photo": .photo, "high": .high, "medium": .medium, "low": .low, "cif352x288": .cif352x288,
    "vga640x480": .vga640x480, "hd1280x720": .hd1280x720, "hd1920x1080": .hd1920x1080,
    "hd4K3840x2160": .hd4K3840x2160, "iFrame960x540": .iFrame960x540, "iFrame1280x720": .iFrame1280x720,
    "inputPriority": .inputPriority,
]

func presetName(_ preset: AVCaptureSession.Preset) -> String {
    presetsByName.first { $0.value == preset }?.key ?? preset.rawValue
}

/// Device types by their Swift case name.
let deviceTypesByName: [String: AVCaptureDevice.DeviceType] = [
    "builtInWideAngleCamera": .builtInWideAngleCamera, "builtInTelephotoCamera": .builtInTelephotoCamera,
    "builtInUltraWideCamera": .builtInUltraWideCamera, "builtInDualCamera": .builtInDualCamera,
    "builtInDualWideCamera": .builtInDualWideCamera, "builtInTripleCamera": .builtInTripleCamera,
    "builtInTrueDepthCamera": .builtInTrueDepthCamera, "builtInLiDARDepthCamera": .builtInLiDARDepthCamera,
    "microphone": .microphone,
]

func deviceTypeName(_ type: AVCaptureDevice.DeviceType) -> String {
    deviceTypesByName.first { $0.value == type }?.key ?? type.rawValue
}

let positionsByName: [String: AVCaptureDevice.Position] = ["back": .back, "front": .front, "unspecified": .unspecified]

func positionName(_ position: AVCaptureDevice.Position) -> String {
    positionsByName.first { $0.value == position }?.key ?? String(position.rawValue)
}

let colorSpacesByName: [String: AVCaptureColorSpace] = [
    "sRGB": .sRGB, "P3_D65": .P3_D65, "HLG_BT2020": .HLG_BT2020, "appleLog": .appleLog,
]

func colorSpaceName(_ space: AVCaptureColorSpace) -> String {
    colorSpacesByName.first { $0.value == space }?.key ?? String(space.rawValue)
}

let flashModesByName: [String: AVCaptureDevice.FlashMode] = ["off": .off, "on": .on, "auto": .auto]

func flashModeName(_ mode: AVCaptureDevice.FlashMode) -> String {
    flashModesByName.first { $0.value == mode }?.key ?? String(mode.rawValue)
}

let qualitiesByName: [String: AVCapturePhotoOutput.QualityPrioritization] = [
    "speed": .speed, "balanced": .balanced, "quality": .quality,
]

func qualityName(_ quality: AVCapturePhotoOutput.QualityPrioritization) -> String {
    qualitiesByName.first { $0.value == quality }?.key ?? String(quality.rawValue)
}

let interruptionReasonsByName: [String: AVCaptureSession.InterruptionReason] = [
    "videoDeviceNotAvailableInBackground": .videoDeviceNotAvailableInBackground,
    "audioDeviceInUseByAnotherClient": .audioDeviceInUseByAnotherClient,
    "videoDeviceInUseByAnotherClient": .videoDeviceInUseByAnotherClient,
    "videoDeviceNotAvailableWithMultipleForegroundApps": .videoDeviceNotAvailableWithMultipleForegroundApps,
    "videoDeviceNotAvailableDueToSystemPressure": .videoDeviceNotAvailableDueToSystemPressure,
    "sensitiveContentMitigationActivated": .sensitiveContentMitigationActivated,
]

/// The runtime errors a scenario's `faults:` may raise, by Apple's Swift names of `AVError.Code`.
let runtimeErrorsByName: [String: AVError.Code] = [
    "mediaServicesWereReset": .mediaServicesWereReset,
    "sessionHardwareCostOverage": .sessionHardwareCostOverage,
    "deviceIsNotAvailableInBackground": .deviceIsNotAvailableInBackground,
    "deviceWasDisconnected": .deviceWasDisconnected,
    "deviceInUseByAnotherApplication": .deviceInUseByAnotherApplication,
    "sessionWasInterrupted": .sessionWasInterrupted,
    "unknown": .unknown,
]

let pressureLevelsByName: [String: AVCaptureDevice.SystemPressureState.Level] = [
    "nominal": .nominal, "fair": .fair, "serious": .serious, "critical": .critical, "shutdown": .shutdown,
]

let pressureFactorsByName: [String: AVCaptureDevice.SystemPressureState.Factors] = [
    "systemTemperature": .systemTemperature, "peakPower": .peakPower,
    "depthModuleTemperature": .depthModuleTemperature, "cameraTemperature": .cameraTemperature,
]

/// The dropped-frame reasons by the values of `kCMSampleBufferDroppedFrameReason_…`.
let droppedFrameReasonsByName: [String: CaptureFault.DroppedFrameReason] = Dictionary(
    uniqueKeysWithValues: CaptureFault.DroppedFrameReason.allCases.map { ($0.rawValue, $0) })
