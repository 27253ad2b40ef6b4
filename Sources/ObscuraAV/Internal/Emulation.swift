import CaptureRules
import Devices
import Foundation
import Scenes
import Sensor

/// Controls the emulated world: which device the app runs on, which scene its cameras see, how
/// time passes, and what happens to raised exceptions.
///
/// Defaults: the catalogue's default device (`iphone-15-pro`, `DeviceCatalog.defaultDeviceID`),
/// the scene `Emulation.defaultScene` (`violets-warm-room`), noise seed 0, and the virtual clock.
///
/// Inside `withDevice(_:_:)` the device, the scene, flash availability and the trace belong to
/// the calling task, so tests running in parallel do not see each other's choices.
package final class Emulation: @unchecked Sendable {
    /// How time passes for streams and captures (Testing on Linux, “Control the clock”).
    package enum ClockMode: String, Sendable, Hashable, CaseIterable {
        /// Free-running virtual time (the default): after `startRunning()` frames flow by themselves
        /// as fast as the renderer and the delegates allow, with exact timestamps, never dropped.
        case virtual
        /// Paced to the wall clock: slow delegates see late data dropped, as on a device.
        case realtime
        /// Advanced only by `run(for:)` and `runFrames(_:)`, for exact frame counts.
        case manual
    }

    /// The one emulator of the process.
    package static let shared = Emulation()

    /// The scene used when none is chosen: the documented default of `Scenes/README.md`.
    package static let defaultScene = SceneLoader.defaultSceneName

    @TaskLocal static var taskWorld: DeviceWorld?

    let lock = NSLock()
    private var globalWorld: DeviceWorld?
    var globalScene: ChosenScene?
    private var mode = ClockMode.virtual
    private var noiseSeed: UInt64 = 0
    private var deviceErrors = true
    /// Whether the process environment has been read (`OBSCURA_DEVICE`, …); once, lazily, under
    /// `environmentLock`.
    private var environmentRead = false
    private let environmentLock = NSLock()
    private let globalTrace = CaptureTrace()
    /// The faults scheduled outside any `withDevice` world (spec §21).
    let globalFaults = FaultSchedule()
    private var raised: [(NSException, CaptureRule?)] = []

    private init() {}

    /// The environment variables that choose the world of a process whose code makes no Obscura
    /// calls (Testing on Linux, “Control the clock”): device, scene, noise seed and clock mode.
    package static let environmentVariables = [
        "OBSCURA_DEVICE": "a device profile id from the catalogue (iphone-15-pro) or a path to a profile file",
        "OBSCURA_SCENE":
            "a scene name (violets-warm-room), a path to a scene file, or footage: a movie, a picture or a folder "
            + "of numbered pictures",
        "OBSCURA_FOOTAGE_MODE":
            "how footage in OBSCURA_SCENE is shown: physics (filmed on a screen, the default) or direct (its own "
            + "frames, resized)",
        "OBSCURA_FOOTAGE_DEPTH":
            "depth for footage in OBSCURA_SCENE: a 16-bit greyscale PNG of millimetres, or a folder of them "
            + "numbered per frame",
        "OBSCURA_SEED": "the sensor-noise seed, a non-negative integer",
        "OBSCURA_CLOCK": "virtual (free-running, the default), realtime or manual",
    ]

    /// Leaves the world variables unread, for a process that names its worlds itself: the `obscura` command
    /// line, whose scenario files and options choose the device, scene and seed. The variables choose the
    /// world of code that makes no Obscura calls; set for such tests in the same shell, they must neither
    /// change nor stop a command's run.
    package func leaveEnvironmentUnread() {
        environmentLock.lock()
        defer { environmentLock.unlock() }
        environmentRead = true
    }

    /// Applies `OBSCURA_DEVICE`, `OBSCURA_SCENE`, `OBSCURA_SEED` and `OBSCURA_CLOCK` once, before the
    /// first use of the process-wide world. A value that names nothing stops the process with a
    /// message naming the variable: running on a different device or scene than asked would make
    /// every later result a lie.
    func readEnvironmentOnce() {
        environmentLock.lock()
        defer { environmentLock.unlock() }
        guard !environmentRead else { return }
        environmentRead = true
        let environment = ProcessInfo.processInfo.environment
        func refuse(_ name: String, _ value: String, _ why: String) -> Never {
            let text = "error: \(name)=\(value): \(why)\n"
            FileHandle.standardError.write(Data(text.utf8))
            fatalError(text)
        }
        // A catalogue folder named by the environment but not there would surface later as a missing default
        // device or scene; name the variable now.
        let profiles = DeviceCatalog.environmentVariable, scenes = SceneLoader.environmentVariable
        if let value = environment[profiles], !value.isEmpty, DeviceCatalog.locate(environment: environment) == nil {
            refuse(profiles, value, "not a folder")
        }
        if let value = environment[scenes], !value.isEmpty, SceneLoader.locate(environment: environment) == nil {
            refuse(scenes, value, "not a folder")
        }
        if let value = environment["OBSCURA_DEVICE"], !value.isEmpty {
            do {
                let world = try DeviceWorld(profile: Self.loadProfile(value))
                lock.withLock { globalWorld = world }
            } catch { refuse("OBSCURA_DEVICE", value, "\(error)") }
        }
        let modeValue = environment["OBSCURA_FOOTAGE_MODE"].flatMap { $0.isEmpty ? nil : $0 }
        let depthValue = environment["OBSCURA_FOOTAGE_DEPTH"].flatMap { $0.isEmpty ? nil : $0 }
        var footageMode = FootageMode.physics
        if let modeValue {
            guard let mode = FootageMode(rawValue: modeValue.lowercased()) else {
                refuse("OBSCURA_FOOTAGE_MODE", modeValue, "expected physics or direct")
            }
            footageMode = mode
        }
        if let value = environment["OBSCURA_SCENE"], !value.isEmpty {
            do {
                let chosen: ChosenScene
                if FootageScene.isFootage(value) {
                    let scene = try Self.footage(value, mode: footageMode, depth: depthValue)
                    chosen = ChosenScene(reference: scene.footage?.reference ?? value, scene: scene)
                } else {
                    chosen = ChosenScene(reference: value, scene: try Self.loadScene(value))
                }
                lock.withLock { globalScene = chosen }
            } catch { refuse("OBSCURA_SCENE", value, "\(error)") }
        }
        // A footage option without footage would be silently ignored; the run would not be what was asked.
        if modeValue != nil || depthValue != nil, !(environment["OBSCURA_SCENE"].map(FootageScene.isFootage) ?? false) {
            refuse(
                modeValue != nil ? "OBSCURA_FOOTAGE_MODE" : "OBSCURA_FOOTAGE_DEPTH", modeValue ?? depthValue ?? "",
                "applies only when OBSCURA_SCENE names footage (a movie, a picture or a folder of numbered pictures)")
        }
        if let value = environment["OBSCURA_SEED"], !value.isEmpty {
            guard let seed = UInt64(value) else { refuse("OBSCURA_SEED", value, "expected a non-negative integer") }
            lock.withLock { noiseSeed = seed }
        }
        if let value = environment["OBSCURA_CLOCK"], !value.isEmpty {
            guard let clock = ClockMode(rawValue: value.lowercased()) else {
                refuse("OBSCURA_CLOCK", value, "expected virtual, realtime or manual")
            }
            lock.withLock { mode = clock }
        }
    }

    /// Chooses the device by catalogue id (`iphone-7-plus`) or by a path to a profile file.
    /// Devices discovered afterwards belong to it; devices already handed out keep their profile.
    package func use(device idOrPath: String) throws {
        let world = try DeviceWorld(profile: Self.loadProfile(idOrPath))
        lock.withLock { globalWorld = world }
    }

    /// Chooses the scene by a name in `Scenes/` (found as `SceneLoader` finds it: the
    /// `OBSCURA_SCENES` variable, a `Scenes/` folder above the current directory, else the seed scenes) or by a path to
    /// a scene file. The file is loaded and validated now; a bad one throws with its location and
    /// nothing changes. Inside `withDevice` the choice holds for that task only.
    package func use(scene nameOrPath: String) throws {
        let chosen = ChosenScene(reference: nameOrPath, scene: try Self.loadScene(nameOrPath))
        if let world = scopedWorld {
            world.setScene(chosen)
        } else {
            lock.withLock { globalScene = chosen }
        }
    }

    /// Chooses footage as the whole scene (`FootageScene`), shown in `mode`, with the depth pictures at
    /// `depth` if given (`FootageDepth`). The files are read now; a bad one throws naming it, and nothing changes.
    /// Inside `withDevice` the choice holds for that task only.
    package func use(footage path: String, mode: FootageMode, depth: String?) throws {
        let scene = try Self.footage(path, mode: mode, depth: depth)
        let chosen = ChosenScene(reference: scene.footage?.reference ?? path, scene: scene)
        if let world = scopedWorld {
            world.setScene(chosen)
        } else {
            lock.withLock { globalScene = chosen }
        }
        noteFootage(scene)
    }

    /// Tells `explain` what footage in direct mode means for the frames that follow.
    func noteFootage(_ scene: Scene) {
        guard let footage = scene.footage, footage.mode == .direct else { return }
        record(
            TraceEntry(
                section: "§15", rule: nil, outcome: .decided,
                sentence: Footage.directModeSummary
                    + (footage.depth == nil ? "" : " Depth outputs deliver the depth given with the footage.")))
    }

    /// The chosen scene, as given to `use(scene:)`; `defaultScene` when none was chosen.
    package var scene: String {
        if let chosen = scopedWorld?.scene { return chosen.reference }
        readEnvironmentOnce()
        return lock.withLock { globalScene }?.reference ?? Self.defaultScene
    }

    /// The seed of the sensor noise (default 0, or `OBSCURA_SEED`). A photo's noise depends on this
    /// seed and on the photo's place among its output's captures (1st, 2nd, …), never on the time or
    /// thread count, so the same capture sequence gives the same bytes. Inside `withDevice` the seed
    /// belongs to the task.
    package var seed: UInt64 {
        get {
            if let world = scopedWorld, let seed = world.seed { return seed }
            readEnvironmentOnce()
            return lock.withLock { noiseSeed }
        }
        set {
            if let world = scopedWorld { world.seed = newValue } else { lock.withLock { noiseSeed = newValue } }
        }
    }

    /// Whether Constant Color captures carry the device profile's error sources (`capture_errors`): on by default;
    /// off gives the error-free capture. The process's choice, read when a photo is requested.
    package var modelsDeviceErrors: Bool {
        get { lock.withLock { deviceErrors } }
        set { lock.withLock { deviceErrors = newValue } }
    }

    /// Makes a device's flash temporarily unavailable, as when the phone is hot, or available
    /// again (spec §2.7 [D]): `isFlashAvailable` turns false, `supportedFlashModes` still lists
    /// `.on` and `.auto`, and resolved settings report `isFlashEnabled == false` until it cools.
    package func setFlashThermallyUnavailable(_ unavailable: Bool, for device: AVCaptureDevice) {
        recordFault(.flashThermallyUnavailable(unavailable))
        device.setFlashTooHot(unavailable)
    }

    /// Every capture rule evaluated so far, oldest first: passed and failed validation rules and
    /// the decisions a capture made (flash, exposure), for `obscura explain`. Inside `withDevice`
    /// this is the task's own trace.
    package var trace: [TraceEntry] { (scopedWorld?.trace ?? globalTrace).entries }

    /// Empties the trace.
    package func clearTrace() { (scopedWorld?.trace ?? globalTrace).clear() }

    func record(_ entry: TraceEntry) { (scopedWorld?.trace ?? globalTrace).append(entry) }

    /// The scene photos render: the task's, else the global choice, else the default scene.
    var currentScene: ChosenScene {
        readEnvironmentOnce()
        if let chosen = scopedWorld?.scene ?? lock.withLock({ globalScene }) { return chosen }
        // Like the default device, the default scene ships with the package; not finding it is a
        // broken installation (or a working directory outside the package without OBSCURA_SCENES).
        do {
            let chosen = ChosenScene(reference: Self.defaultScene, scene: try Self.loadScene(Self.defaultScene))
            lock.withLock { globalScene = globalScene ?? chosen }
            return chosen
        } catch {
            preconditionFailure("cannot load the default scene '\(Self.defaultScene)': \(error)")
        }
    }

    /// The chosen device's catalogue id.
    package var deviceID: String { currentWorld.profile.id }

    /// The clock mode: `.virtual` unless set here or by `OBSCURA_CLOCK`. A session takes the mode in
    /// force when it starts running. Inside `withDevice` the mode belongs to the task.
    package var clockMode: ClockMode {
        get {
            if let world = scopedWorld, let clock = world.clock { return clock }
            readEnvironmentOnce()
            return lock.withLock { mode }
        }
        set {
            if let world = scopedWorld { world.clock = newValue } else { lock.withLock { mode = newValue } }
        }
    }

    /// Runs `body` with a fresh instance of a device, visible only to the calling task (and to
    /// `catchException` bodies it starts), so that tests running in parallel do not share devices.
    package func withDevice<R>(_ idOrPath: String, _ body: () throws -> R) throws -> R {
        let world = try DeviceWorld(profile: Self.loadProfile(idOrPath))
        return try Emulation.$taskWorld.withValue(world) { try body() }
    }

    /// `withDevice` for asynchronous bodies: the world follows the task and its child tasks.
    package func withDevice<R>(_ idOrPath: String, _ body: () async throws -> R) async throws -> R {
        let world = try DeviceWorld(profile: Self.loadProfile(idOrPath))
        return try await Emulation.$taskWorld.withValue(world) { try await body() }
    }

    /// Runs `body`; if it raises an `NSException`, returns it instead of trapping. The raising call
    /// has no effect and the rest of `body` does not run, as with `@try` in Objective-C.
    package static func catchException(_ body: @escaping () -> Void) -> NSException? {
        ExceptionRaiser.catching(body)
    }

    /// The rule behind the most recent raised exception, for explaining it.
    package var lastFiredRule: CaptureRule? { lock.withLock { raised.last?.1 } }

    /// The exceptions raised so far with the rule behind each, oldest first: the newest 10,000.
    package var raisedExceptions: [(exception: NSException, rule: CaptureRule?)] {
        lock.withLock { raised.map { (exception: $0.0, rule: $0.1) } }
    }

    /// Kept bounded as the trace is (`CaptureTrace.capacity`), newest last.
    func record(_ exception: NSException, rule: CaptureRule?) {
        lock.withLock {
            raised.append((exception, rule))
            let capacity = CaptureTrace.capacity
            if raised.count > capacity + capacity / 4 { raised.removeFirst(raised.count - capacity) }
        }
    }

    /// The world a discovery call sees: the task's, the catching thread's, else the global one.
    var currentWorld: DeviceWorld {
        if let world = scopedWorld { return world }
        readEnvironmentOnce()
        return lock.withLock {
            if let globalWorld { return globalWorld }
            // The catalogue ships with the package; failing to find it is a broken installation, which says why.
            let profile: DeviceProfile
            do { profile = try Self.loadProfile(DeviceCatalog.defaultDeviceID) } catch {
                fatalError("cannot load the default device profile '\(DeviceCatalog.defaultDeviceID)': \(error)")
            }
            let world = DeviceWorld(profile: profile)
            globalWorld = world
            return world
        }
    }

    var scopedWorld: DeviceWorld? {
        Emulation.taskWorld ?? ExceptionCatcher.current?.world
    }

    static func loadScene(_ nameOrPath: String) throws -> Scene {
        if FootageScene.isFootage(nameOrPath) { return try footage(nameOrPath) }
        if nameOrPath.hasSuffix(".yaml") || nameOrPath.contains("/") { return try SceneLoader.load(path: nameOrPath) }
        return try SceneLoader().scene(nameOrPath)
    }

    /// Footage chosen as the scene (a movie, a picture or a folder of numbered pictures): a screen filling the
    /// view of the chosen device's first camera (`FootageScene`). The device is read without the environment
    /// lock, which `OBSCURA_SCENE` holds while it loads the scene; a device chosen later keeps the screen sized
    /// for this one.
    package static func footage(_ path: String, mode: FootageMode = .physics, depth: String? = nil) throws -> Scene {
        let profile =
            try shared.scopedWorld?.profile ?? shared.lock.withLock { shared.globalWorld }?.profile
            ?? loadProfile(DeviceCatalog.defaultDeviceID)
        let camera = profile.cameras.first { $0.position == .back } ?? profile.cameras.first
        // A 4:3 picture of the whole sensor: its field of view is the widest any format of the camera shows.
        guard let camera, let model = try? CameraModel(device: profile, camera: camera, width: 4000, height: 3000)
        else {
            throw FootageError(path: path, reason: "the device \(profile.id) has no camera to show footage to")
        }
        return try FootageScene.scene(
            footage: path, mode: mode, depth: depth, horizontalFieldOfView: 2 * atan(2000 / model.fx) * 180 / .pi,
            verticalFieldOfView: 2 * atan(1500 / model.fy) * 180 / .pi)
    }

    private static func loadProfile(_ idOrPath: String) throws -> DeviceProfile {
        if idOrPath.hasSuffix(".yaml") || idOrPath.contains("/") {
            return try DeviceProfileLoader.load(path: idOrPath)
        }
        return try DeviceCatalog().profile(idOrPath)
    }
}

extension Emulation {
    /// Interrupts a running session, as a phone call or a background transition would (spec §1.3,
    /// §21 rule 2): the `.interruption` fault.
    package func interrupt(_ session: AVCaptureSession, reason: AVCaptureSession.InterruptionReason) {
        inject(.interruption(reason), into: session)
    }

    /// Ends a session's interruption; it resumes running unless the client stopped it (spec §1.3,
    /// §21 rule 2): the `.interruptionEnded` fault.
    package func endInterruption(of session: AVCaptureSession) {
        inject(.interruptionEnded, into: session)
    }
}
