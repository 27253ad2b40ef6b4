import Foundation

// Camera apps lower their frame rate or stop effects as the phone heats, reading `ProcessInfo.thermalState` and
// waiting for its notification (Apple's AVCamFilter and TrueDepth samples do). Foundation on Linux has neither, so
// that code compiles and runs unchanged, these follow the emulated phone's heat: the system pressure a fault sets.

#if !canImport(Darwin)
extension ProcessInfo {
    /// How hot the device runs (`ProcessInfo.ThermalState`), Apple's raw values.
    public enum ThermalState: Int, Sendable, Hashable {
        case nominal = 0, fair, serious, critical
    }

    /// The device's thermal state: the level of the last system pressure with the `.systemTemperature` factor
    /// (`.shutdown` counts as `.critical`), nominal otherwise and at first (spec §21 rule 3). Each emulated world is
    /// a phone of its own, so a test in a `withDevice` world reads its own phone's heat.
    public var thermalState: ThermalState { Emulation.shared.currentWorld.thermal.state }

    /// Posted on `ProcessInfo.processInfo` when `thermalState` changes.
    public static let thermalStateDidChangeNotification = Notification.Name(
        "NSProcessInfoThermalStateDidChangeNotification")
}
#endif

/// A world's thermal state, set as the system pressure changes.
final class ThermalStateRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var level = 0

    #if !canImport(Darwin)
    var state: ProcessInfo.ThermalState { ProcessInfo.ThermalState(rawValue: lock.withLock { level }) ?? .nominal }
    #endif

    /// Follows a new system pressure: its level where the system's temperature is among its factors, else nominal.
    /// A change is posted after the lock is released.
    func follow(_ pressure: AVCaptureDevice.SystemPressureState) {
        let hot = pressure.factors.contains(.systemTemperature)
        let next: Int =
            switch pressure.level {
            case _ where !hot, .nominal: 0
            case .fair: 1
            case .serious: 2
            default: 3
            }
        let changed = lock.withLock { () -> Bool in
            defer { level = next }
            return level != next
        }
        #if !canImport(Darwin)
        if changed {
            NotificationCenter.default.post(
                name: ProcessInfo.thermalStateDidChangeNotification, object: ProcessInfo.processInfo)
        }
        #endif
    }
}
