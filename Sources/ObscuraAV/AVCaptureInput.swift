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

        /// Posted when a port's `formatDescription` changes, with the port as the object: for a video
        /// port when the device's `activeFormat` changes, for a depth port when the depth format in
        /// use changes (by the client's choice or with the active format) (spec §2.4 [D]).
        public static let formatDescriptionDidChangeNotification = NSNotification.Name(
            "AVCaptureInputPortFormatDescriptionDidChangeNotification")

        /// The clock the port's media is timed by: the timeline of the session the input belongs
        /// to, on which every sample buffer's presentation time stamp lies, so `clock.time` is never
        /// behind a buffer already delivered. It reads where the session has got to: with a manual
        /// clock it stands still between runs. Nil while the input is in no session, as there is no
        /// timeline to read (spec §18.6 [I]; Apple notes the clock may not be the device's own).
        open var clock: CMClock? {
            guard let session = input.session else { return nil }
            return session.clock
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

    private let overrideLock = NSLock()
    private var frameDurationOverride = CMTime.invalid

    /// A frame duration longer than the device's `activeVideoMinFrameDuration` for this input's frames (iOS 13):
    /// multi-camera apps lengthen it to lower the session's `hardwareCost` (Apple's AVMultiCamPiP does so under
    /// system pressure). Invalid, the default, leaves the device's; a duration no longer than the device's
    /// changes nothing, since the device delivers no faster than its own rate.
    public var videoMinFrameDurationOverride: CMTime {
        get { overrideLock.withLock { frameDurationOverride } }
        set { overrideLock.withLock { frameDurationOverride = newValue } }
    }

    /// The duration this input's frames come at: the device's, lengthened by the override.
    var effectiveMinFrameDuration: CMTime {
        let active = device.activeVideoMinFrameDuration
        let requested = videoMinFrameDurationOverride
        return requested.isValid && requested.seconds > active.seconds ? requested : active
    }

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
        device.deviceInputs.add(self)
        if device.hasMediaType(.audio) {
            ports = [Port(mediaType: .audio, input: self)]
        } else {
            ports = [Port(mediaType: .video, input: self)]
            if device.producesDepth { ports.append(Port(mediaType: .depthData, input: self)) }
            ports.append(Port(mediaType: .metadataObject, input: self))
        }
    }

    /// The input's ports of `mediaType` whose source is a device of `sourceDeviceType` at `sourceDevicePosition`;
    /// nil matches every media type and every device type, and `.unspecified` every camera position (spec §17 [D]).
    /// Multi-camera code finds a physical camera's video port this way. A virtual device's constituents have
    /// hidden ports only in a running multi-camera session, which the emulated device does not offer
    /// (`AVCaptureMultiCamSession.isMultiCamSupported` is false): asked for a constituent, the answer is empty.
    open func ports(
        for mediaType: AVMediaType?, sourceDeviceType: AVCaptureDevice.DeviceType?,
        sourceDevicePosition: AVCaptureDevice.Position
    ) -> [Port] {
        ports.filter { port in
            (mediaType == nil || port.mediaType == mediaType)
                && (sourceDeviceType == nil || port.sourceDeviceType == sourceDeviceType)
                && (sourceDevicePosition == .unspecified || port.sourceDevicePosition == sourceDevicePosition)
        }
    }

    open override var description: String { "<AVCaptureDeviceInput: \(device.localizedName)>" }
}

extension AVCaptureDevice {
    /// Tells the ports of this device's inputs that carry `mediaType` that their format description
    /// has changed (`AVCaptureInput.Port.formatDescriptionDidChangeNotification`).
    func postPortFormatDescriptionChange(_ mediaType: AVMediaType) {
        for input in deviceInputs.all {
            for port in input.ports where port.mediaType == mediaType {
                NotificationCenter.default.post(
                    name: AVCaptureInput.Port.formatDescriptionDidChangeNotification, object: port)
            }
        }
    }
}
