import Devices
import Foundation
import ISP
import Sensor

/// What a format's capabilities are derived from: its device and camera, and the camera model at
/// the format's size, computed once on first use.
final class FormatOptics: @unchecked Sendable {
    private let lock = NSLock()
    private var source: (device: DeviceProfile, camera: CameraProfile)?
    private var model: CameraModel??

    func attach(device: DeviceProfile, camera: CameraProfile) {
        lock.withLock { source = (device, camera) }
    }

    var device: DeviceProfile? { lock.withLock { source?.device } }
    var camera: CameraProfile? { lock.withLock { source?.camera } }

    /// The physical camera that renders the format's camera (itself, a constituent or the camera
    /// whose sensor it shares).
    var physicalCamera: CameraProfile? {
        guard let (device, camera) = lock.withLock({ source }) else { return nil }
        return try? device.renderingCamera(for: camera)
    }

    /// The camera model delivering `width × height`; nil when the profile cannot render it.
    func cameraModel(width: Int, height: Int) -> CameraModel? {
        lock.withLock {
            if let model { return model }
            let made = source.flatMap {
                try? CameraModel(device: $0.device, camera: $0.camera, width: width, height: height)
            }
            model = .some(made)
            return made
        }
    }
}
