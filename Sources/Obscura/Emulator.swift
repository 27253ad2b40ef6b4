import CaptureRules
import Foundation
import ObscuraAV
import Scenes

/// Controls the emulated world: which device the app runs on, which scene its cameras see, how
/// time passes, and what happened to the capture rules.
///
/// Code written for iOS never needs this: it picks its world from the environment
/// (`OBSCURA_DEVICE`, `OBSCURA_SCENE`, `OBSCURA_SEED`, `OBSCURA_CLOCK`). Tests and tools use it to
/// choose a world per task and to read the trace.
///
/// Defaults: the catalogue's default device (`iphone-15-pro`), the scene `Emulator.defaultScene`
/// (`violets-warm-room`), noise seed 0, and the free-running virtual clock.
///
/// Inside `withDevice(_:_:)` the device, scene, seed, clock, flash availability and trace belong to
/// the calling task, so tests running in parallel do not see each other's choices.
public final class Emulator: @unchecked Sendable {
    /// How time passes for streams (Testing on Linux, “Control the clock”).
    public enum ClockMode: String, Sendable, Hashable, CaseIterable {
        /// Free-running virtual time (the default): after `startRunning()` frames flow by themselves
        /// as fast as the renderer and the delegates allow, with exact timestamps, never dropped.
        case virtual
        /// Paced to the wall clock: slow delegates see late data dropped, as on a device.
        case realtime
        /// Advanced only by `run(for:)` and `runFrames(_:)`, for exact frame counts.
        case manual
    }

    /// The one emulator of the process.
    public static let shared = Emulator()

    /// The scene used when none is chosen: the documented default of `Scenes/README.md`.
    public static let defaultScene = Emulation.defaultScene

    /// The environment variables that choose the world of a process whose code makes no Obscura
    /// call, with what each takes.
    public static let environmentVariables: [String: String] = Emulation.environmentVariables

    private var core: Emulation { Emulation.shared }

    /// For the `obscura` command line, which names its worlds itself: the world variables stay unread.
    package func leaveEnvironmentUnread() { core.leaveEnvironmentUnread() }

    private init() {}

    /// Chooses the device by catalogue id (`iphone-7-plus`) or by a path to a profile file.
    /// Devices discovered afterwards belong to it; devices already handed out keep their profile.
    public func use(device idOrPath: String) throws { try core.use(device: idOrPath) }

    /// Chooses the scene by a name in the scene folders or by a path to a scene file. The file is
    /// loaded and validated now; a bad one throws with its location and nothing changes. Inside
    /// `withDevice` the choice holds for that task only.
    public func use(scene nameOrPath: String) throws { try core.use(scene: nameOrPath) }

    /// How footage shown as the whole scene reaches the outputs: filmed on a screen (`.physics`, the default)
    /// or delivered as its own frames, resized to the active format (`.direct`).
    public typealias FootageMode = Scenes.FootageMode

    /// Chooses footage as the whole scene: a movie (`.y4m`, `.mp4`, `.mov`, …), a picture or a folder of
    /// numbered pictures, as `use(scene:)` takes it, shown in `mode`, with `depth` if given.
    ///
    /// - `.physics`: the camera films a screen filling its view, with its own exposure, noise, colour and lens.
    /// - `.direct`: for tests that need the frames bit for bit. Every video frame, photo and code reading is
    ///   the footage's frame at that moment of the stream (its own timing, looping), resized to the size
    ///   delivered: scaled to cover it, centred and cropped, area-averaged when shrinking and bilinear when
    ///   enlarging. Exposure, white balance, focus, zoom, flash and torch keep working as state and change no
    ///   pixel.
    ///
    /// `depth` is a 16-bit greyscale PNG of distances in millimetres (0 where unknown), or a folder of them
    /// numbered like a picture sequence, one per footage frame; depth outputs and photo depth then deliver it,
    /// resized to the depth format by the nearest sample in direct mode, or where the screen shows each part of
    /// the footage in physics mode. Without it, depth cameras report no depth for footage. Errors name the file
    /// at fault; nothing changes then. Inside `withDevice` the choice
    /// holds for that task only.
    public func use(footage path: String, mode: FootageMode = .physics, depth: String? = nil) throws {
        try core.use(footage: path, mode: mode, depth: depth)
    }

    /// Makes `scene` the scene every camera sees from now on: lights switched off or dimmed,
    /// objects moved or taken away. `reference` names it in reports.
    public func use(scene: Scene, named reference: String) { core.use(scene: scene, named: reference) }

    /// The chosen scene, as given to `use(scene:)`; `defaultScene` when none was chosen.
    public var scene: String { core.scene }

    /// The scene photos and streams render now, as a value.
    public var sceneValue: Scene { core.sceneValue }

    /// The chosen device's catalogue id.
    public var deviceID: String { core.deviceID }

    /// The seed of the sensor noise (default 0). The same capture sequence with the same seed gives
    /// the same bytes, whatever the time or thread count.
    public var seed: UInt64 {
        get { core.seed }
        set { core.seed = newValue }
    }

    /// Whether Constant Color photos carry the device's error sources (the profile's `capture_errors`: flash
    /// tolerance and heating, room-light flicker, hand motion, sensor spread). On by default, as on a phone; off
    /// gives the error-free capture, as `obscura validate constant-color --ideal` does. Read when a photo is
    /// requested; the choice is the process's.
    public var modelsDeviceErrors: Bool {
        get { core.modelsDeviceErrors }
        set { core.modelsDeviceErrors = newValue }
    }

    /// The clock mode; a session takes the mode in force when it starts running.
    public var clockMode: ClockMode {
        get { ClockMode(rawValue: core.clockMode.rawValue) ?? .virtual }
        set { core.clockMode = Emulation.ClockMode(rawValue: newValue.rawValue) ?? .virtual }
    }

    /// Runs `body` with a fresh instance of a device, visible only to the calling task (and to
    /// `catchException` bodies it starts), so that tests running in parallel do not share devices.
    public func withDevice<R>(_ idOrPath: String, _ body: () throws -> R) throws -> R {
        try core.withDevice(idOrPath, body)
    }

    /// `withDevice` for asynchronous bodies: the world follows the task and its child tasks.
    public func withDevice<R>(_ idOrPath: String, _ body: () async throws -> R) async throws -> R {
        try await core.withDevice(idOrPath, body)
    }

    /// Runs `body` in a world of its own: a fresh instance of the device, and the scene, seed and
    /// clock given (the defaults otherwise), visible only to the calling task. Tests running in
    /// parallel each see their own world.
    public func withWorld<R>(
        device: String = "iphone-15-pro", scene: String? = nil, seed: UInt64? = nil, clock: ClockMode? = nil,
        _ body: () throws -> R
    ) throws -> R {
        try withDevice(device) {
            try configureWorld(scene: scene, seed: seed, clock: clock)
            return try body()
        }
    }

    /// `withWorld` for asynchronous bodies: the world follows the task and its child tasks.
    public func withWorld<R>(
        device: String = "iphone-15-pro", scene: String? = nil, seed: UInt64? = nil, clock: ClockMode? = nil,
        _ body: () async throws -> R
    ) async throws -> R {
        try await withDevice(device) {
            try configureWorld(scene: scene, seed: seed, clock: clock)
            return try await body()
        }
    }

    private func configureWorld(scene: String?, seed: UInt64?, clock: ClockMode?) throws {
        if let scene { try use(scene: scene) }
        if let seed { self.seed = seed }
        if let clock { clockMode = clock }
    }

    /// Makes a fault happen to a session now, as it would on a phone (spec §21): a runtime error, an
    /// interruption or its end, a system pressure level, dropped frames, a full disk, a hot flash.
    ///
    ///     Emulator.shared.inject(.runtimeError(.mediaServicesWereReset), into: session)
    ///     Emulator.shared.inject(.systemPressure(.serious, factors: .systemTemperature), into: session)
    ///     Emulator.shared.inject(.droppedFrames(3, reason: .outOfBuffers), into: session)
    ///
    /// The app hears of it only through Apple's notifications, errors, delegate callbacks and key-value
    /// observable properties; the trace gets an entry naming the rule of §21 it follows.
    public func inject(_ fault: CaptureFault, into session: AVCaptureSession) {
        core.inject(fault.injected, into: session)
    }

    /// Schedules a fault for a moment of a session's stream: before the first frame at or after a time
    /// (`.seconds(1.5)`) or before a frame number (`.frame(30)`). It happens once, to the first session
    /// of this world (the task's, inside `withDevice`) whose stream gets there, whatever the clock mode.
    public func schedule(_ fault: CaptureFault, at moment: CaptureFault.Moment) {
        core.schedule(fault.injected, at: moment.injected)
    }

    /// Forgets the scheduled faults that have not happened yet.
    public func cancelScheduledFaults() { core.cancelScheduledFaults() }

    /// Makes a device's flash temporarily unavailable, as when the phone is hot, or available again
    /// (spec §2.7 [D], §21 rule 6); `inject(.flashThermallyUnavailable(_:), into:)` does the same for a
    /// session's camera.
    public func setFlashThermallyUnavailable(_ unavailable: Bool, for device: AVCaptureDevice) {
        core.setFlashThermallyUnavailable(unavailable, for: device)
    }

    /// Interrupts a running session, as a phone call or a background transition would (spec §1.3,
    /// §21 rule 2): `inject(.interruption(reason), into: session)`.
    public func interrupt(_ session: AVCaptureSession, reason: AVCaptureSession.InterruptionReason) {
        core.interrupt(session, reason: reason)
    }

    /// Ends a session's interruption; it resumes running unless the client stopped it (spec §1.3, §21
    /// rule 2): `inject(.interruptionEnded, into: session)`.
    public func endInterruption(of session: AVCaptureSession) { core.endInterruption(of: session) }

    /// Advances every running session's streams by `duration` of stream time. With the `.manual`
    /// clock it emits the frames and returns once every callback has run; with the other clocks it
    /// waits until the streams, which run by themselves, have advanced as far. Call it from a
    /// thread other than the delegates' queues.
    public func run(for duration: CMTime) { core.run(for: duration) }

    /// Advances every running session by a number of its video frames, as `run(for:)` does.
    public func runFrames(_ count: Int) { core.runFrames(count) }

    /// The capture rules evaluated so far, oldest first, for `obscura explain`: the newest 10,000.
    /// Inside `withDevice` this is the task's own trace.
    public var trace: [TraceEntry] { core.trace }

    /// Empties the trace.
    public func clearTrace() { core.clearTrace() }

    /// Runs `body`; if it raises an `NSException`, returns it instead of trapping. The raising call
    /// has no effect and the rest of `body` does not run, as with `@try` in Objective-C.
    public static func catchException(_ body: @escaping () -> Void) -> NSException? {
        Emulation.catchException(body)
    }

    /// The rule behind the most recent raised exception, for explaining it.
    public var lastFiredRule: CaptureRule? { core.lastFiredRule }

    /// The exceptions raised so far with the rule behind each, oldest first: the newest 10,000.
    public var raisedExceptions: [(exception: NSException, rule: CaptureRule?)] { core.raisedExceptions }
}
