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
    }

    /// The input's ports.
    public internal(set) var ports: [Port] = []
    /// The session holding the input, if any.
    weak var session: AVCaptureSession?
    /// Set once the input has been added to any session; inputs may not move between sessions.
    var everAdded = false
}

/// An input that captures from an `AVCaptureDevice`.
open class AVCaptureDeviceInput: AVCaptureInput, @unchecked Sendable {
    /// The device.
    public let device: AVCaptureDevice

    /// An input for a device. Throws `AVError.applicationIsNotAuthorizedToUseDevice` unless the app is
    /// authorised for video (spec §2.8 [D]); emulated cameras are otherwise always available.
    public init(device: AVCaptureDevice) throws {
        guard AVCaptureDevice.authorizationStatus(for: .video) == .authorized else {
            throw AVError(.applicationIsNotAuthorizedToUseDevice)
        }
        self.device = device
        super.init()
        ports = [Port(mediaType: .video, input: self)]
    }

    open override var description: String { "<AVCaptureDeviceInput: \(device.localizedName)>" }
}
