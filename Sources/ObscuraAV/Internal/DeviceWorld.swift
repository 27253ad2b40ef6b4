import Devices
import Foundation
import Scenes

/// A scene as chosen: the name or path the client gave, and the validated scene.
struct ChosenScene: Sendable {
    let reference: String
    let scene: Scene
}

/// One device profile made into `AVCaptureDevice` instances: what discovery sees.
///
/// Instances are created once per world, so discovery returns the same object for the same camera,
/// as AVFoundation does.
final class DeviceWorld: @unchecked Sendable {
    let profile: DeviceProfile
    /// The cameras, in the profile's order.
    let devices: [AVCaptureDevice]
    /// The built-in microphone.
    let microphone: AVCaptureDevice
    /// The rules evaluated by captures in this world.
    let trace = CaptureTrace()
    /// The faults scheduled in this world (spec §21).
    let faults = FaultSchedule()
    /// The phone's heat, as `ProcessInfo.thermalState` reads it (spec §21 rule 3).
    let thermal = ThermalStateRecord()
    private let lock = NSLock()
    private var chosenScene: ChosenScene?
    private var chosenSeed: UInt64?
    private var chosenClock: Emulation.ClockMode?

    /// The noise seed chosen inside this world, if any.
    var seed: UInt64? {
        get { lock.withLock { chosenSeed } }
        set { lock.withLock { chosenSeed = newValue } }
    }

    /// The clock mode chosen inside this world, if any.
    var clock: Emulation.ClockMode? {
        get { lock.withLock { chosenClock } }
        set { lock.withLock { chosenClock = newValue } }
    }

    /// The scene chosen inside this world, if any.
    var scene: ChosenScene? { lock.withLock { chosenScene } }
    func setScene(_ scene: ChosenScene) { lock.withLock { chosenScene = scene } }

    init(profile: DeviceProfile) {
        self.profile = profile
        let devices = profile.cameras.map { AVCaptureDevice(camera: $0, profile: profile) }
        for device in devices {
            // spec §2.2 [O]: constituents in the profile's (Apple's) order; empty for physical cameras.
            device.constituents = device.camera.constituents.compactMap { id in devices.first { $0.camera.id == id } }
        }
        self.devices = devices
        microphone = AVCaptureDevice(camera: profile.cameras[0], profile: profile, isMicrophone: true)
    }

    /// Whether a device belongs to this world.
    func owns(_ device: AVCaptureDevice) -> Bool { device === microphone || devices.contains { $0 === device } }
}
