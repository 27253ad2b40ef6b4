import Devices
import Foundation

/// Controls the emulated world: which device the app runs on, which scene its cameras see, how
/// time passes, and what happens to raised exceptions.
///
/// Defaults: the catalogue's default device (`iphone-15-pro`, `DeviceCatalog.defaultDeviceID`),
/// the scene `Emulator.defaultScene`, and the virtual clock.
public final class Emulator: @unchecked Sendable {
    /// How time passes for streams and captures (DESIGN.md, Time).
    public enum ClockMode: Sendable, Hashable {
        /// As fast as possible, deterministic, never sleeping (the default).
        case virtual
        /// Paced to the wall clock.
        case realtime
    }

    /// The one emulator of the process.
    public static let shared = Emulator()

    /// The scene used when none is chosen.
    public static let defaultScene = "grey-card-daylight"

    static let worldKey = "org.obscura.device-world"
    @TaskLocal static var taskWorld: DeviceWorld?

    private let lock = NSLock()
    private var globalWorld: DeviceWorld?
    private var sceneReference = Emulator.defaultScene
    private var mode = ClockMode.virtual
    private var raised: [(NSException, CaptureRule?)] = []

    private init() {}

    /// Chooses the device by catalogue id (`iphone-7-plus`) or by a path to a profile file.
    /// Devices discovered afterwards belong to it; devices already handed out keep their profile.
    public func use(device idOrPath: String) throws {
        let world = try DeviceWorld(profile: Self.loadProfile(idOrPath))
        lock.withLock { globalWorld = world }
    }

    /// Chooses the scene by a name in `Scenes/` or by a path. It is resolved when a photo is rendered.
    public func use(scene nameOrPath: String) {
        lock.withLock { sceneReference = nameOrPath }
    }

    /// The chosen scene, as given to `use(scene:)`.
    public var scene: String { lock.withLock { sceneReference } }

    /// The chosen device's catalogue id.
    public var deviceID: String { currentWorld.profile.id }

    /// The clock mode; `.virtual` unless set.
    public var clockMode: ClockMode {
        get { lock.withLock { mode } }
        set { lock.withLock { mode = newValue } }
    }

    /// Runs `body` with a fresh instance of a device, visible only to the calling task (and to
    /// `catchException` bodies it starts), so that tests running in parallel do not share devices.
    public func withDevice<R>(_ idOrPath: String, _ body: () throws -> R) throws -> R {
        let world = try DeviceWorld(profile: Self.loadProfile(idOrPath))
        return try Emulator.$taskWorld.withValue(world) { try body() }
    }

    /// Runs `body`; if it raises an `NSException`, returns it instead of trapping. The raising call
    /// has no effect and the rest of `body` does not run, as with `@try` in Objective-C.
    public static func catchException(_ body: @escaping () -> Void) -> NSException? {
        ExceptionRaiser.catching(body)
    }

    /// The rule behind the most recent raised exception, for explaining it.
    public var lastFiredRule: CaptureRule? { lock.withLock { raised.last?.1 } }

    /// Every exception raised so far with the rule behind it, oldest first.
    public var raisedExceptions: [(exception: NSException, rule: CaptureRule?)] {
        lock.withLock { raised.map { (exception: $0.0, rule: $0.1) } }
    }

    func record(_ exception: NSException, rule: CaptureRule?) {
        lock.withLock { raised.append((exception, rule)) }
    }

    /// The world a discovery call sees: the task's, the catching thread's, else the global one.
    var currentWorld: DeviceWorld {
        if let world = scopedWorld { return world }
        return lock.withLock {
            if let globalWorld { return globalWorld }
            // The catalogue ships with the package; failing to find it is a broken installation.
            guard let profile = try? Self.loadProfile(DeviceCatalog.defaultDeviceID) else {
                preconditionFailure("cannot load the default device profile '\(DeviceCatalog.defaultDeviceID)'")
            }
            let world = DeviceWorld(profile: profile)
            globalWorld = world
            return world
        }
    }

    var scopedWorld: DeviceWorld? {
        Emulator.taskWorld ?? (Thread.current.threadDictionary[Emulator.worldKey] as? DeviceWorld)
    }

    private static func loadProfile(_ idOrPath: String) throws -> DeviceProfile {
        if idOrPath.hasSuffix(".yaml") || idOrPath.contains("/") {
            return try DeviceProfileLoader.load(path: idOrPath)
        }
        return try DeviceCatalog().profile(idOrPath)
    }
}

extension Emulator {
    /// Interrupts a running session, as a phone call or a background transition would (spec §1.3).
    public func interrupt(_ session: AVCaptureSession, reason: AVCaptureSession.InterruptionReason) {
        session.interrupt(reason: reason)
    }

    /// Ends a session's interruption; it resumes running unless the client stopped it (spec §1.3).
    public func endInterruption(of session: AVCaptureSession) {
        session.endInterruption()
    }
}
