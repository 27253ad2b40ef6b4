import Foundation

extension AVCaptureDevice {
    /// Finds devices by type, media type and position (spec §2.1).
    ///
    /// `devices` follows the order of `deviceTypes`; with `.unspecified` position, devices of a
    /// type are then ordered by position raw value (back before front) (spec §2.1 [D]).
    open class DiscoverySession: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
        /// The matching devices. Key-value observable, as Apple documents; the emulated phone's cameras
        /// never come or go, so an observation never fires after `.initial`.
        public let devices: [AVCaptureDevice]
        let observers = ObserverRegistry()

        public init(deviceTypes: [DeviceType], mediaType: AVMediaType?, position: Position) {
            let current = Emulation.shared.currentWorld
            let world = current.devices
            var found: [AVCaptureDevice] = []
            // spec §2.1 [D]: the microphone answers to `.microphone` and to its older name.
            let microphoneTypes: Set<String> = [DeviceType.microphone.rawValue, "AVCaptureDeviceTypeBuiltInMicrophone"]
            let wantsMicrophone = deviceTypes.contains { microphoneTypes.contains($0.rawValue) }
            if wantsMicrophone, mediaType == nil || mediaType == .audio,
                position == .unspecified
            {
                found.append(current.microphone)
            }
            if mediaType == nil || mediaType == .video {
                for type in deviceTypes {
                    let ofType = world.filter {
                        $0.deviceType == type && (position == .unspecified || $0.position == position)
                    }
                    // A stable sort keeps profile order within one position.
                    let sorted = ofType.enumerated().sorted {
                        ($0.element.position.rawValue, $0.offset) < ($1.element.position.rawValue, $1.offset)
                    }.map(\.element)
                    for device in sorted where !found.contains(where: { $0 === device }) { found.append(device) }
                }
            }
            devices = found
        }

        /// The sets of the found devices that one `AVCaptureMultiCamSession` can stream together. Empty while
        /// `AVCaptureMultiCamSession.isMultiCamSupported` is false, as on a phone without multi-camera support:
        /// the emulator streams one camera a session (spec §17 [D] the list, [I] its emptiness).
        public var supportedMultiCamDeviceSets: [Set<AVCaptureDevice>] {
            // A set names cameras streamed together, which needs isMultiCamSupported; it is false everywhere.
            []
        }
    }
}
