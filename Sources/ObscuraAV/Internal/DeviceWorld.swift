import Devices

/// One device profile made into `AVCaptureDevice` instances: what discovery sees.
///
/// Instances are created once per world, so discovery returns the same object for the same camera,
/// as AVFoundation does.
final class DeviceWorld: @unchecked Sendable {
    let profile: DeviceProfile
    /// In the profile's order.
    let devices: [AVCaptureDevice]

    init(profile: DeviceProfile) {
        self.profile = profile
        let devices = profile.cameras.map { AVCaptureDevice(camera: $0, profile: profile) }
        for device in devices {
            // spec §2.2 [O]: constituents in the profile's (Apple's) order; empty for physical cameras.
            device.constituents = device.camera.constituents.compactMap { id in devices.first { $0.camera.id == id } }
        }
        self.devices = devices
    }
}
