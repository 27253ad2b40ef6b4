import Devices

extension AVCaptureDevice {
    /// A kind of capture device (spec §2.1). A device's type never changes.
    public struct DeviceType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let builtInWideAngleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInWideAngleCamera")
        public static let builtInTelephotoCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTelephotoCamera")
        public static let builtInUltraWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInUltraWideCamera")
        public static let builtInDualCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualCamera")
        public static let builtInDualWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualWideCamera")
        public static let builtInTripleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTripleCamera")
        public static let builtInTrueDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTrueDepthCamera")
        public static let builtInLiDARDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInLiDARDepthCamera")
        /// The built-in microphone under its name before iOS 17; discovery finds the same device.
        @available(iOS, introduced: 10.0, deprecated: 17.0, renamed: "microphone")
        public static let builtInMicrophone = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInMicrophone")
        /// A microphone (iOS 17 and later).
        public static let microphone = DeviceType(rawValue: "AVCaptureDeviceTypeMicrophone")
        /// An iPhone lent to a Mac or an Apple TV as its camera (iOS 17). Never found on the emulated phones, as
        /// `external` never is (spec §2.1).
        public static let continuityCamera = DeviceType(rawValue: "AVCaptureDeviceTypeContinuityCamera")

        init(_ type: Devices.DeviceType) {
            switch type {
            case .builtInWideAngleCamera: self = .builtInWideAngleCamera
            case .builtInTelephotoCamera: self = .builtInTelephotoCamera
            case .builtInUltraWideCamera: self = .builtInUltraWideCamera
            case .builtInDualCamera: self = .builtInDualCamera
            case .builtInDualWideCamera: self = .builtInDualWideCamera
            case .builtInTripleCamera: self = .builtInTripleCamera
            case .builtInTrueDepthCamera: self = .builtInTrueDepthCamera
            case .builtInLiDARDepthCamera: self = .builtInLiDARDepthCamera
            }
        }
    }

    /// Which side a device faces (spec §2.1: unspecified = 0, back = 1, front = 2).
    public enum Position: Int, Sendable, Hashable {
        case unspecified = 0
        case back = 1
        case front = 2

        init(_ position: CameraPosition) {
            self = position == .back ? .back : .front
        }
    }

    /// A photo flash mode (spec §2.7: off = 0, on = 1, auto = 2).
    public enum FlashMode: Int, Sendable, Hashable {
        case off = 0
        case on = 1
        case auto = 2

        init(_ mode: Devices.FlashMode) {
            switch mode {
            case .off: self = .off
            case .on: self = .on
            case .auto: self = .auto
            }
        }
    }
}
