import Foundation

/// The emulated privacy settings: each media type's authorisation, per device world.
///
/// Statuses set inside `Emulation.withDevice` belong to that task's world, so parallel tests do
/// not see each other's denials; set outside, they hold for the process.
enum AuthorizationState {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var global: [AVMediaType: AVAuthorizationStatus] = [:]
    /// Statuses of scoped worlds, by the world's identity; a dead world's entry is dropped when seen.
    nonisolated(unsafe) private static var scoped: [(world: Weak, statuses: [AVMediaType: AVAuthorizationStatus])] = []

    private struct Weak {
        weak var world: DeviceWorld?
    }

    /// The status; `.authorized` unless set (spec §2.8 [I]: emulated apps run authorised).
    static func status(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        let world = Emulation.shared.scopedWorld
        return lock.withLock {
            if let world, let entry = scoped.first(where: { $0.world.world === world }) {
                return entry.statuses[mediaType] ?? .authorized
            }
            return global[mediaType] ?? .authorized
        }
    }

    static func set(_ status: AVAuthorizationStatus, for mediaType: AVMediaType) {
        let world = Emulation.shared.scopedWorld
        lock.withLock {
            scoped.removeAll { $0.world.world == nil }
            guard let world else {
                global[mediaType] = status
                return
            }
            if let i = scoped.firstIndex(where: { $0.world.world === world }) {
                scoped[i].statuses[mediaType] = status
            } else {
                // A world starts from the process-wide statuses.
                var statuses = global
                statuses[mediaType] = status
                scoped.append((Weak(world: world), statuses))
            }
        }
    }

    /// Asks for access: `.notDetermined` turns `.authorized` (the emulated person allows it);
    /// returns whether access is granted.
    static func request(_ mediaType: AVMediaType) -> Bool {
        switch status(for: mediaType) {
        case .notDetermined:
            set(.authorized, for: mediaType)
            return true
        case .authorized: return true
        case .denied, .restricted: return false
        }
    }
}

extension Emulation {
    /// Sets the emulated authorisation of a media type (public through the Obscura module).
    package func setEmulatedAuthorizationStatus(_ status: AVAuthorizationStatus, for mediaType: AVMediaType) {
        AuthorizationState.set(status, for: mediaType)
    }
}
