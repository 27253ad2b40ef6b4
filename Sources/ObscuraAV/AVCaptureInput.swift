import Foundation

/// A source of media for a session (`AVCaptureInput`).
open class AVCaptureInput: NSObject, @unchecked Sendable {
    /// A stream of one media type from an input.
    open class Port: NSObject, @unchecked Sendable {
        /// The media type.
        public let mediaType: AVMediaType
        /// The input the port belongs to.
        public unowned let input: AVCaptureInput
        /// Whether data flows from the port.
        public var isEnabled = true

        init(mediaType: AVMediaType, input: AVCaptureInput) {
            self.mediaType = mediaType
            self.input = input
        }

        private var device: AVCaptureDevice? { (input as? AVCaptureDeviceInput)?.device }

        /// The format of the port's media now: the device's active format for video, its active
        /// depth format for depth; nil for metadata objects and audio, whose descriptions carry
        /// nothing a capture app reads here.
        open var formatDescription: CMFormatDescription? {
            switch mediaType {
            case .video: return device?.activeFormat.formatDescription
            case .depthData: return device?.activeDepthDataFormat?.formatDescription
            default: return nil
            }
        }

        /// The type of the device the port's data comes from; nil for an input without a device.
        open var sourceDeviceType: AVCaptureDevice.DeviceType? { device?.deviceType }

        /// The position of the device the port's data comes from; `.unspecified` without one.
        open var sourceDevicePosition: AVCaptureDevice.Position { device?.position ?? .unspecified }
    }

    /// The input's ports.
    public internal(set) var ports: [Port] = []
    /// The session holding the input, if any.
    weak var session: AVCaptureSession?
}

/// An input that captures from an `AVCaptureDevice`.
open class AVCaptureDeviceInput: AVCaptureInput, @unchecked Sendable {
    /// The device.
    public let device: AVCaptureDevice

    /// An input for a device. Its ports are the media the device produces (spec §1.5 [D]): a camera
    /// has a video port, a depth port when it can deliver depth, and a metadata-object port; the
    /// microphone has one audio port.
    /// Throws `AVError.applicationIsNotAuthorizedToUseDevice` unless the app is authorised for the
    /// device's media (spec §2.8 [D]); emulated devices are otherwise always available.
    public init(device: AVCaptureDevice) throws {
        guard AVCaptureDevice.authorizationStatus(for: device.hasMediaType(.audio) ? .audio : .video) == .authorized else {
            throw AVError(.applicationIsNotAuthorizedToUseDevice)
        }
        self.device = device
        super.init()
        if device.hasMediaType(.audio) {
            ports = [Port(mediaType: .audio, input: self)]
        } else {
            ports = [Port(mediaType: .video, input: self)]
            if device.producesDepth { ports.append(Port(mediaType: .depthData, input: self)) }
            ports.append(Port(mediaType: .metadataObject, input: self))
        }
    }

    open override var description: String { "<AVCaptureDeviceInput: \(device.localizedName)>" }
}
