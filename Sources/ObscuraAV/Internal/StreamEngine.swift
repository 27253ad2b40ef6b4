import Devices
import Foundation
import Imaging
import ISP
import Sensor

/// Produces the data outputs' samples on the session clock (Testing on Linux, “Control the clock”).
///
/// Timing diagram of one running session (video at Rv, depth every `stride` frames):
///
///     video  k=0    k=1    k=2    k=3   …   t_k = k / Rv
///     depth  k=0           k=2          …   stride = Rv / depth rate (spec §2.5)
///     audio  ||||||||||||||||||||||||||    buffer j at j·1024 / 44,100 s, sent at the first
///                                           frame tick not before it
///     meta          (k=0)  (k=1)  …         objects of frame k sent at frame k + 2
///
/// After `startRunning()` the streams run by themselves, as a device's do (spec §1.3): a driver
/// thread per running session emits frame after frame in the clock mode in force at the start.
/// - `.virtual`: as fast as the renderer allows. Each frame's callbacks are queued on the clients'
///   queues and all of them run before the next frame is made, so nothing is ever late or
///   dropped and every run gives the same sequence. The bound for a session nobody stops: stream
///   time may lead the wall clock (since the start) by at most `StreamEngine.maximumLead`; beyond
///   it the driver waits, so a forgotten session settles to real-time pace instead of spinning.
///   A session with no delegate to deliver to makes no frames at all.
/// - `.realtime`: frame k is due at k / Rv of wall-clock time after the start; callbacks are queued
///   asynchronously, and data arriving while its queue is still busy is dropped with `.lateData`
///   when the output discards late data.
/// - `.manual`: no driver; `Emulation.run(for:)` and `runFrames(_:)` emit every frame whose time
///   falls before the new end of stream time, waiting for each frame's callbacks as `.virtual`
///   does, so counts are exact.
final class StreamEngine: @unchecked Sendable {
    static let shared = StreamEngine()
    /// How far free-running stream time may lead the wall clock, in seconds of stream time [I].
    static let maximumLead = 30.0
    private let lock = NSLock()
    private var streams: [ObjectIdentifier: SessionStream] = [:]

    private func stream(for session: AVCaptureSession) -> SessionStream {
        lock.withLock {
            streams = streams.filter { $0.value.session != nil }
            if let stream = streams[ObjectIdentifier(session)] { return stream }
            let stream = SessionStream(session: session)
            streams[ObjectIdentifier(session)] = stream
            return stream
        }
    }

    func register(_ session: AVCaptureSession) { _ = stream(for: session) }

    /// The session's clock now: the time its timeline has reached (`SessionStream.clockTime`).
    func clockTime(of session: AVCaptureSession) -> CMTime { stream(for: session).clockTime }

    /// Called by `startRunning()` (and the end of an interruption) once the session runs: starts the
    /// session's driver unless the world's clock is manual.
    func sessionDidStart(_ session: AVCaptureSession) {
        let mode = Emulation.shared.clockMode
        guard mode != .manual else { return }
        stream(for: session).startDriver(realtime: mode == .realtime, world: Emulation.shared.scopedWorld)
    }

    /// Called by `stopRunning()`: stops the driver and waits for it. A driver waiting on a client
    /// queue gives up within a few milliseconds, so a call from a delegate callback cannot deadlock.
    func sessionDidStop(_ session: AVCaptureSession) {
        let stream = lock.withLock { streams[ObjectIdentifier(session)] }
        stream?.stopDriver()
        for case let output as AVCaptureFileOutput in session.outputs { output.sessionDidStopRunning() }
        for device in session.videoDevices { device.resetAdaptation() }
    }

    /// Called when the session fails at run time (spec §21 rule 1): as `sessionDidStop`, but from any
    /// thread, the stream's own driver among them (a scheduled fault fires there), which is told to stop
    /// without being waited for.
    func sessionDidFail(_ session: AVCaptureSession) {
        let stream = lock.withLock { streams[ObjectIdentifier(session)] }
        if Thread.current.threadDictionary[SessionStream.driverThreadKey] != nil {
            stream?.releaseDriver()
        } else {
            stream?.stopDriver()
        }
        for case let output as AVCaptureFileOutput in session.outputs { output.sessionDidStopRunning() }
        for device in session.videoDevices { device.resetAdaptation() }
    }

    /// Makes the next `count` video frames of the session drops, for a reason (spec §21 rule 4).
    func dropFrames(of session: AVCaptureSession, count: Int, reason: InjectedFault.DroppedFrameReason) {
        stream(for: session).dropNext(count, reason: reason)
    }

    /// Advances every running session by a duration, or by a number of its video frames. Sessions on
    /// a manual clock are run here (paced to the wall clock when `paced`); for sessions whose driver
    /// runs them, this waits until their stream time has advanced as far.
    func run(seconds: Double?, frames: Int?, paced: Bool = false) {
        // An interrupted session's timeline goes on while faults wait, so a scheduled end comes (spec §21).
        let faultsWait = Emulation.shared.hasScheduledFaults
        var active = lock.withLock { Array(streams.values) }.filter {
            $0.session?.isRunning == true || (faultsWait && $0.session?.isInterrupted == true)
        }
        // Inside `withDevice` only the task's own sessions advance, so parallel runs do not
        // push each other's clocks.
        if let world = Emulation.shared.scopedWorld {
            active = active.filter { stream in
                stream.session?.inputs.contains { input in
                    (input as? AVCaptureDeviceInput).map { world.owns($0.device) } ?? false
                } ?? false
            }
        }
        let driven = active.filter(\.hasDriver)
        let targets = driven.map { $0.streamTime(after: seconds, frames: frames) }
        for stream in active where !stream.hasDriver { stream.run(seconds: seconds, frames: frames, realtime: paced) }
        for stream in active where !stream.hasDriver { stream.waitForCallbacks() }
        for (stream, target) in zip(driven, targets) { stream.waitUntilStreamTime(target) }
    }
}

/// One session's streaming position and per-output state.
final class SessionStream: @unchecked Sendable {
    weak var session: AVCaptureSession?
    private var nextFrame = 0
    /// Where the current frame duration took over: frame index and its time. A new frame rate
    /// continues from the stream time reached instead of rescaling past frames.
    private var origin = (frame: 0, time: CMTime.zero, duration: CMTime.invalid)
    private var nextAudio = 0
    private var elapsed = 0.0
    private var temporal: [ObjectIdentifier: DepthTemporalFilter] = [:]
    /// Each depth output's filling of the holes it last saw (`depthData`).
    private var fillingPlans: [ObjectIdentifier: DepthHoleFilling.Plan] = [:]
    /// Each connection's last frame's look and scene (`renderWidth(for:look:width:scene:)`).
    private var lastLooks: [ObjectIdentifier: String] = [:]
    private var pendingMetadata: [(frame: Int, output: AVCaptureMetadataOutput, data: AVCaptureSynchronizedMetadataObjectData)] = []
    private let busy = BusyCounter()
    /// Callbacks of the current frame still queued or running (virtual and manual clocks).
    private let inFlight = DispatchGroup()
    /// Serialises emission: the driver thread and manual runs never emit at once.
    private let emission = NSLock()
    private let driverLock = NSLock()
    private var driver: StreamDriver?
    /// The stream time up to which a driven stream's callbacks have run (virtual) or been queued
    /// (realtime).
    private var delivered = 0.0
    private let deliveredLock = NSLock()
    /// Video frames still to drop, and why (spec §21 rule 4); behind its own lock, since a fault may be
    /// injected from any thread while a frame is emitted.
    private var forcedDrops: (remaining: Int, reason: InjectedFault.DroppedFrameReason)?
    private let dropsLock = NSLock()
    /// Marks a driver's thread, so a fault fired on it does not wait for the thread to end.
    static let driverThreadKey = "obscura.stream.driver"

    /// How far the session's timeline has come, for its clock (`AVCaptureInput.Port.clock`): never
    /// behind the presentation time of a frame already emitted, so a buffer's time stamp is never in
    /// the clock's future. Behind its own lock, since a delegate may read the clock while a manual
    /// run holds `emission`.
    private var clockReached = CMTime.zero
    private let reachedLock = NSLock()

    init(session: AVCaptureSession) { self.session = session }

    /// The session clock's time now.
    var clockTime: CMTime { reachedLock.withLock { clockReached } }

    /// Moves the session clock forward to `time` (never back).
    private func reach(_ time: CMTime) {
        reachedLock.withLock { if time > clockReached { clockReached = time } }
    }

    /// Moves the session clock to the stream time reached, in seconds.
    private func reach(seconds: Double) { reach(CMTime(seconds: seconds, preferredTimescale: 1_000_000_000)) }

    var hasDriver: Bool { driverLock.withLock { driver != nil } }

    func startDriver(realtime: Bool, world: DeviceWorld?) {
        let driver = driverLock.withLock { () -> StreamDriver? in
            guard self.driver == nil else { return nil }
            let made = StreamDriver()
            self.driver = made
            return made
        }
        guard let driver else { return }
        let thread = Thread { [self] in
            Thread.current.threadDictionary[Self.driverThreadKey] = true
            if let world {
                Emulation.$taskWorld.withValue(world) { drive(driver, realtime: realtime) }
            } else {
                drive(driver, realtime: realtime)
            }
            driver.finished.signal()
        }
        thread.name = "obscura.stream"
        thread.start()
    }

    /// Tells the driver to stop and forgets it without waiting: for a call on the driver's own thread,
    /// which leaves its loop once the frame in hand is done.
    func releaseDriver() {
        driverLock.withLock {
            driver?.stop()
            driver = nil
        }
    }

    func dropNext(_ count: Int, reason: InjectedFault.DroppedFrameReason) {
        dropsLock.withLock { forcedDrops = count > 0 ? (count, reason) : nil }
    }

    /// The reason this frame is dropped, if it is, counting it off.
    private func takeForcedDrop() -> InjectedFault.DroppedFrameReason? {
        dropsLock.withLock {
            guard let drops = forcedDrops else { return nil }
            forcedDrops = drops.remaining > 1 ? (drops.remaining - 1, drops.reason) : nil
            return drops.reason
        }
    }

    func stopDriver() {
        guard let driver = driverLock.withLock({ () -> StreamDriver? in
            defer { self.driver = nil }
            return self.driver
        }) else { return }
        driver.stop()
        driver.finished.wait()
    }

    /// The driver's loop: one frame at a time until stopped (see `StreamEngine`).
    private func drive(_ driver: StreamDriver, realtime: Bool) {
        let wallStart = Date()
        let streamStart = emission.withLock { elapsed }
        deliveredLock.withLock { delivered = streamStart }
        while !driver.isStopped {
            guard let session else { break }  // released without stopRunning: nothing left to drive
            // An interrupted session's timeline goes on while faults are scheduled, so one that ends
            // the interruption comes (spec §21); no frame is delivered meanwhile.
            let awaitingFault = session.isInterrupted && Emulation.shared.hasScheduledFaults
            guard session.isRunning || awaitingFault, session.hasDeliveryTargets, !session.isInsideConfiguration
            else {
                // Interrupted, nothing to deliver to, or a configuration block open (the running
                // graph changes at its commit, spec §1.3): wait for a change instead of spinning.
                driver.pause(seconds: 0.01)
                continue
            }
            let ahead = emission.withLock {
                streamTimeOfNextFrame(session) - streamStart - Date().timeIntervalSince(wallStart)
            }
            if realtime, ahead > 0 {
                driver.pause(seconds: ahead)
                continue
            }
            if !realtime, ahead > StreamEngine.maximumLead {
                driver.pause(seconds: min(ahead - StreamEngine.maximumLead, 0.1))
                continue
            }
            // A recording holds the wall time between its start and stop, so the stream waits for it
            // rather than lead it (spec §20 rule 14).
            if recordingWaitsForWallClock(session) {
                driver.pause(seconds: 0.002)
                continue
            }
            let reached = emission.withLock { () -> Double in
                runOneFrame(session: session, realtime: realtime)
                return elapsed
            }
            if !realtime { waitForCallbacks(unlessStopped: driver) }
            deliveredLock.withLock { delivered = reached }
        }
    }

    /// Whether a recording of the session holds every frame the wall time since its start allows.
    private func recordingWaitsForWallClock(_ session: AVCaptureSession) -> Bool {
        session.outputs.contains { output in
            guard let file = output as? AVCaptureFileOutput, let due = file.activeRecording?.framesDue else {
                return false
            }
            return due.taken >= due.due
        }
    }

    /// Waits for the queued callbacks of the frames emitted so far.
    func waitForCallbacks(unlessStopped driver: StreamDriver? = nil) {
        while inFlight.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
            if driver?.isStopped == true { return }
        }
    }

    /// The stream time reached after a further duration or number of frames from now.
    func streamTime(after seconds: Double?, frames: Int?) -> Double {
        emission.withLock {
            let frameSeconds = session.map(Self.tick)?.seconds ?? 0
            return elapsed + (seconds ?? Double(frames ?? 0) * frameSeconds)
        }
    }

    /// Waits until a driven stream has emitted every frame before `time`, or stops running. A session
    /// with nothing to deliver frames to (a photo output alone) makes no frames, so there is nothing to
    /// wait for.
    func waitUntilStreamTime(_ time: Double) {
        while hasDriver, session?.isRunning == true, session?.hasDeliveryTargets == true,
            deliveredLock.withLock({ delivered }) < time - 1e-9
        {
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    /// The stream time of the next frame to emit, under the current frame duration.
    private func streamTimeOfNextFrame(_ session: AVCaptureSession) -> Double {
        adoptFrameDuration(Self.tick(session))
        return frameTime(nextFrame).seconds
    }

    /// The stream's tick: the camera's active frame duration (lengthened by its input's
    /// `videoMinFrameDurationOverride`), lengthened to the cap of the device's system pressure level (spec §21
    /// rule 3); in a session with only a microphone, one audio buffer.
    static func tick(_ session: AVCaptureSession) -> CMTime {
        if let input = session.videoDeviceInputs.first {
            let device = input.device
            let active = input.effectiveMinFrameDuration
            guard let cap = device.pressure.level.frameRateCap else { return active }
            let floor = CMTime(value: 1, timescale: cap)
            return active.seconds < floor.seconds ? floor : active
        }
        return CMTime(
            value: Int64(AVCaptureAudioDataOutput.samplesPerBuffer), timescale: Int32(AVCaptureAudioDataOutput.sampleRate))
    }

    private func adoptFrameDuration(_ duration: CMTime) {
        if origin.duration != duration {
            origin = origin.duration.isValid ? (nextFrame, frameTime(nextFrame), duration) : (nextFrame, .zero, duration)
        }
    }

    /// Emits the next frame (the driver's step). Must hold `emission`.
    private func runOneFrame(session: AVCaptureSession, realtime: Bool) {
        let duration = Self.tick(session)
        adoptFrameDuration(duration)
        let k = nextFrame
        takeFrame(k, session: session, duration: duration, realtime: realtime)
        nextFrame += 1
        elapsed = frameTime(nextFrame).seconds
        reach(frameTime(nextFrame))
    }

    /// A manual advance: every frame with t_k before the new end of stream time.
    func run(seconds: Double?, frames: Int?, realtime: Bool) {
        emission.lock()
        defer { emission.unlock() }
        guard let session else { return }
        let frameSeconds = Self.tick(session).seconds
        let end = seconds.map { elapsed + $0 } ?? (elapsed + Double(frames ?? 0) * frameSeconds)
        let wallStart = Date()
        let streamStart = elapsed
        while true {
            // A fault may change the tick (system pressure) or stop the session between frames.
            let duration = Self.tick(session)
            adoptFrameDuration(duration)
            let k = nextFrame
            let t = frameTime(k).seconds
            guard t < end - 1e-9 else { break }
            if realtime {
                let due = t - streamStart - Date().timeIntervalSince(wallStart)
                if due > 0 { Thread.sleep(forTimeInterval: due) }
            }
            takeFrame(k, session: session, duration: duration, realtime: realtime)
            nextFrame += 1
            if !realtime { waitForCallbacks() }
        }
        elapsed = end
        reach(seconds: end)
    }

    /// One tick of the timeline: the faults scheduled for frame `k` happen first (spec §21), then the
    /// frame is emitted if the session still runs. An interrupted or failed session's timeline goes on
    /// without frames.
    private func takeFrame(_ k: Int, session: AVCaptureSession, duration: CMTime, realtime: Bool) {
        let fired = Emulation.shared.fireScheduledFaults(frame: k, time: frameTime(k), session: session)
        // A runtime error takes this frame with it, even if the app restarted at once from another thread.
        let failed = fired.contains { if case .runtimeError = $0 { return true } else { return false } }
        guard session.isRunning, !failed else { return }
        emitFrame(
            k, time: frameTime(k), session: session, device: session.videoDevices.first, duration: duration,
            realtime: realtime)
    }

    /// The presentation time of frame `k` under the current frame duration.
    private func frameTime(_ k: Int) -> CMTime {
        origin.time + CMTime(value: Int64(k - origin.frame) * origin.duration.value, timescale: origin.duration.timescale)
    }

    private func emitFrame(
        _ k: Int, time: CMTime, session: AVCaptureSession, device: AVCaptureDevice?, duration: CMTime, realtime: Bool
    ) {
        reach(time)  // the frame exists before anyone is told of it
        // A screen playing a movie shows the frame of this moment of the stream (`ScreenMovie`); depth sees
        // the screen's plane whatever it shows, so depth keeps the scene's own reference.
        let depthScene = Emulation.shared.scene
        let scene = StreamRendering.moment(of: depthScene, at: time.seconds)
        // Depth given with footage follows the footage's frames (`FootageDepth`).
        let footageDepth = StreamRendering.scene(depthScene).footage?.depth != nil
        // spec §1.7: an output that defers its start takes no part until the deferred start has run.
        let outputs = session.outputs.filter(session.hasStarted)
        var synchronizers: [AVCaptureDataOutputSynchronizer] = []
        func note(_ s: AVCaptureDataOutputSynchronizer?) {
            if let s, s.target != nil, !synchronizers.contains(where: { $0 === s }) { synchronizers.append(s) }
        }

        // Audio first: every buffer that starts by this frame's time. The microphone runs for an output that has
        // not started yet too; what it hears meanwhile is not delivered later.
        for case let output as AVCaptureAudioDataOutput in session.outputs {
            guard let connection = output.connection(with: .audio), connection.isEnabled else { continue }
            let started = session.hasStarted(output)
            while Double(nextAudio * AVCaptureAudioDataOutput.samplesPerBuffer)
                / Double(AVCaptureAudioDataOutput.sampleRate) <= time.seconds + 1e-9
            {
                let buffer = AVCaptureAudioDataOutput.buffer(index: nextAudio)
                nextAudio += 1
                if !started { continue }
                if let sync = output.synchronizer, sync.target != nil {
                    sync.receive(AVCaptureSynchronizedSampleBufferData(sampleBuffer: buffer, dropped: .none), from: output)
                } else if let target = output.target {
                    dispatch(target.queue, output, realtime: realtime, discardsLate: false, drop: {}) {
                        target.delegate.captureOutput(output, didOutput: buffer, from: connection)
                    }
                }
            }
            output.synchronizer?.advance(output, through: time)
            note(output.synchronizer)
        }

        guard let device else {
            deliverSynchronized(synchronizers, realtime: realtime)
            session.deferredStartAfterFrame()
            return
        }
        // The 3A loop takes its step before the frame is developed (`StreamAdaptation`).
        if outputs.contains(where: { $0 is AVCaptureVideoDataOutput || $0 is AVCaptureFileOutput }) {
            device.advanceAdaptation(seconds: duration.seconds)
        }
        let forcedDrop = outputs.contains { $0 is AVCaptureVideoDataOutput } ? takeForcedDrop() : nil
        for case let output as AVCaptureVideoDataOutput in outputs {
            guard let connection = output.connection(with: .video), connection.isEnabled, connection.isActive else {
                continue
            }
            let sync = output.synchronizer?.target != nil ? output.synchronizer : nil
            let target = output.target
            guard sync != nil || target != nil else { continue }
            let dimensions = connection.videoTransform.dimensions(
                output.bufferDimensions(of: device.activeFormat.dimensions))
            let format = output.deliveredPixelFormat
            func dropped(_ reason: InjectedFault.DroppedFrameReason) -> CMSampleBuffer {
                Self.droppedBuffer(
                    time: time, duration: duration, pixelFormat: format, dimensions: dimensions, reason: reason)
            }
            if let forcedDrop {
                // spec §21 rule 4: the frame never existed for the client; only its time and the reason reach it.
                if let sync {
                    sync.receive(
                        AVCaptureSynchronizedSampleBufferData(
                            sampleBuffer: dropped(forcedDrop), dropped: forcedDrop.dataDroppedReason),
                        from: output)
                    sync.advance(output, through: time)
                    note(sync)
                } else if let target {
                    let buffer = dropped(forcedDrop)
                    dispatch(target.queue, output, realtime: realtime, discardsLate: false, drop: {}) {
                        target.delegate.captureOutput(output, didDrop: buffer, from: connection)
                    }
                }
                continue
            }
            let buffer = videoBuffer(output, connection: connection, device: device, time: time, duration: duration, scene: scene)
            if let sync {
                let late = realtime && output.alwaysDiscardsLateVideoFrames && busy.isBusy(sync)
                sync.receive(AVCaptureSynchronizedSampleBufferData(sampleBuffer: buffer, dropped: late ? .lateData : .none), from: output)
                sync.advance(output, through: time)
                note(sync)
            } else if let target {
                dispatch(
                    target.queue, output, realtime: realtime, discardsLate: output.alwaysDiscardsLateVideoFrames,
                    drop: { target.delegate.captureOutput(output, didDrop: dropped(.frameWasLate), from: connection) }
                ) { target.delegate.captureOutput(output, didOutput: buffer, from: connection) }
            }
        }

        // Recording file outputs take the frame as the camera makes it, before any data output's
        // orientation: 4:2:0 video range, the format iPhones record (spec §20 rule 10 [I]).
        for case let output as AVCaptureFileOutput in outputs {
            guard let recording = output.activeRecording, let connection = output.connection(with: .video),
                connection.isEnabled, connection.isActive
            else { continue }
            let d = device.activeFormat.dimensions
            let space: BasicDevelop.OutputSpace = device.activeColorSpace == .P3_D65 ? .displayP3 : .sRGB
            let look = connection.streamLook(of: device)
            guard
                let frame = StreamRendering.shared.template(
                    device: device.deviceProfile, camera: device.camera, width: Int(d.width), height: Int(d.height),
                    scene: scene, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, space: space,
                    look: look, readout: device.activeFormat.readout,
                    renderWidth: renderWidth(for: connection, look: look, width: Int(d.width), scene: scene))
            else { continue }
            // The cached frame is never written again, so the encoder may read it without a copy.
            recording.accept(frame, time: time, connections: output.connections)
        }

        for case let output as AVCaptureDepthDataOutput in outputs {
            guard let connection = output.connection(with: .depthData), connection.isEnabled else { continue }
            let sync = output.synchronizer?.target != nil ? output.synchronizer : nil
            let stride = device.depthFrameStride
            let target = output.target
            if stride > 0, k % stride == 0, sync != nil || target != nil,
                let data = depthData(
                    output, device: device, scene: footageDepth ? scene : depthScene, frame: k,
                    transform: connection.videoTransform)
            {
                let shell = AVDepthData(map: data.map, isShell: true)
                if let sync {
                    let late = realtime && output.alwaysDiscardsLateDepthData && busy.isBusy(sync)
                    sync.receive(
                        AVCaptureSynchronizedDepthData(
                            depthData: late ? shell : data, timestamp: time, dropped: late ? .lateData : .none),
                        from: output)
                } else if let target {
                    dispatch(
                        target.queue, output, realtime: realtime, discardsLate: output.alwaysDiscardsLateDepthData,
                        drop: {
                            target.delegate.depthDataOutput(
                                output, didDrop: shell, timestamp: time, connection: connection, reason: .lateData)
                        }
                    ) { target.delegate.depthDataOutput(output, didOutput: data, timestamp: time, connection: connection) }
                }
            }
            sync?.advance(output, through: time)
            note(sync)
        }

        for case let output as AVCaptureMetadataOutput in outputs {
            guard let connection = output.connection(with: .metadataObject), connection.isEnabled else { continue }
            let d = device.activeFormat.dimensions
            let picture = StreamRendering.shared.picture(
                device: device.deviceProfile, camera: device.camera, width: Int(d.width), height: Int(d.height),
                scene: scene)
            // Codes are read from the frame as the camera captures it now: the video's colour space, the
            // device's exposure, zoom and torch, the format's readout, at the reader's resolution.
            let objects = output.objects(
                in: picture,
                reader: {
                    StreamRendering.shared.picture(
                        device: device.deviceProfile, camera: device.camera, width: Int(d.width),
                        height: Int(d.height), scene: scene,
                        space: device.activeColorSpace == .P3_D65 ? .displayP3 : .sRGB, look: device.streamLook,
                        readout: device.activeFormat.readout, renderWidth: StreamRendering.readerWidth)
                }, frame: k, time: time, duration: duration)
            pendingMetadata.append(
                (k + AVCaptureMetadataOutput.latencyFrames, output,
                 AVCaptureSynchronizedMetadataObjectData(metadataObjects: objects, timestamp: time)))
            let due = pendingMetadata.filter { $0.frame <= k && $0.output === output }
            pendingMetadata.removeAll { $0.frame <= k && $0.output === output }
            for item in due {
                if let sync = output.synchronizer, sync.target != nil {
                    // An empty detection is still known: the synchronizer learns there is nothing.
                    if !item.data.metadataObjects.isEmpty { sync.receive(item.data, from: output) }
                    sync.advance(output, through: item.data.timestamp)
                    note(sync)
                } else if let target = output.target, !item.data.metadataObjects.isEmpty {
                    dispatch(target.queue, output, realtime: realtime, discardsLate: false, drop: {}) {
                        target.delegate.metadataOutput(output, didOutput: item.data.metadataObjects, from: connection)
                    }
                }
            }
        }

        deliverSynchronized(synchronizers, realtime: realtime)
        // What moves by itself as frames pass (the exposure 3A chose, a recording's length) is reported
        // to key-value observers once a frame.
        device.observers.refresh()
        for output in outputs { output.observers.refresh() }
        // spec §1.7 [D]: the outputs that stream have sent this frame; a deferred start waiting for it runs.
        session.deferredStartAfterFrame()
    }

    /// Hands every synchronizer's complete collections to its delegate.
    private func deliverSynchronized(_ synchronizers: [AVCaptureDataOutputSynchronizer], realtime: Bool) {
        for sync in synchronizers {
            guard let target = sync.target else { continue }
            for collection in sync.collectionsReady() {
                dispatch(target.queue, sync, realtime: realtime, discardsLate: false, drop: {}) {
                    target.delegate.dataOutputSynchronizer(sync, didOutput: collection)
                }
            }
        }
    }

    /// The sample a drop callback receives (spec §21 rule 4 [D]): the frame's timing and format, no
    /// pixels, and the reason under `kCMSampleBufferAttachmentKey_DroppedFrameReason`.
    static func droppedBuffer(
        time: CMTime, duration: CMTime, pixelFormat: OSType, dimensions: CMVideoDimensions,
        reason: InjectedFault.DroppedFrameReason
    ) -> CMSampleBuffer {
        CMSampleBuffer(
            imageBuffer: nil, presentationTimeStamp: time, duration: duration,
            formatDescription: CMFormatDescription(
                mediaType: kCMMediaType_Video, mediaSubType: pixelFormat, dimensions: dimensions),
            attachments: [kCMSampleBufferAttachmentKey_DroppedFrameReason as String: reason.rawValue as NSString])
    }

    /// How wide a connection's frame is rendered (`StreamRendering.frameRenderWidth`): its look counts as settled
    /// on the connection's first frame and whenever it is the look of the connection's frame before, which each
    /// call records. The decision rests on this stream's own frames alone, so a run gives the same frames whatever
    /// ran before it.
    private func renderWidth(for connection: AVCaptureConnection, look: StreamLook, width: Int, scene: String) -> Int {
        let id = ObjectIdentifier(connection)
        let key = look.key + "/" + scene
        let settled = lastLooks[id].map { $0 == key } ?? true
        lastLooks[id] = key
        return StreamRendering.frameRenderWidth(width: width, look: look, scene: scene, settled: settled)
    }

    private func videoBuffer(
        _ output: AVCaptureVideoDataOutput, connection: AVCaptureConnection, device: AVCaptureDevice, time: CMTime,
        duration: CMTime, scene: String
    ) -> CMSampleBuffer {
        // Preview-sized buffers are the same view rendered smaller (spec §15.1).
        let d = output.bufferDimensions(of: device.activeFormat.dimensions)
        let format = output.deliveredPixelFormat
        let (w, h) = (Int(d.width), Int(d.height))
        // spec §2.6: frames follow activeColorSpace; P3_D65 develops into Display P3, the rest into sRGB [I].
        let space: BasicDevelop.OutputSpace = device.activeColorSpace == .P3_D65 ? .displayP3 : .sRGB
        let look = connection.streamLook(of: device)
        let detail = renderWidth(for: connection, look: look, width: w, scene: scene)
        let template = StreamRendering.shared.template(
            device: device.deviceProfile, camera: device.camera, width: w, height: h, scene: scene, pixelFormat: format,
            space: space, look: look, readout: device.activeFormat.readout, renderWidth: detail)
        let image = template.flatMap(PixelBufferCopying.copy).map(connection.videoTransform.apply)  // spec §1.5
        var attachments: [String: Any] = [:]
        // The template's own picture (same space and look: a cache hit), for what the frame was taken with.
        let picture = StreamRendering.shared.picture(
            device: device.deviceProfile, camera: device.camera, width: w, height: h, scene: scene, space: space,
            look: look, readout: device.activeFormat.readout, renderWidth: detail)
        if let summary = picture?.look {
            // The exposure and the scene's brightness, as iOS attaches them to every frame (`FrameExif`).
            let size = connection.videoTransform.dimensions(d)
            attachments[ImageProperties.exifDictionary] = FrameExif.dictionary(
                summary: summary, optics: device.renderingOptics, bias: look.exposureBias, width: Int(size.width),
                height: Int(size.height), manualExposure: device.exposureMode == .custom || device.exposureMode == .locked,
                manualWhiteBalance: device.whiteBalanceMode == .locked)
        }
        if connection.isCameraIntrinsicMatrixDeliveryEnabled, let picture {
            // spec §1.5 [D]: a matrix_float3x3 as Data, column-major, pixels of this buffer.
            let k = picture.intrinsics
            var m = matrix_float3x3(columns: (
                simd_float3(Float(k.fx), 0, 0), simd_float3(0, Float(k.fy), 0), simd_float3(Float(k.cx), Float(k.cy), 1)))
            attachments[kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix] = withUnsafeBytes(of: &m) { Data($0) }
        }
        connection.videoTransform.reorient(&attachments, width: w, height: h)
        // The description carries the frame's colour attachments as its extensions, as a camera frame's does.
        let size = connection.videoTransform.dimensions(d)
        return CMSampleBuffer(
            imageBuffer: image, presentationTimeStamp: time, duration: duration,
            formatDescription: image.map { CMFormatDescription(videoOf: $0, dimensions: size) }
                ?? CMFormatDescription(mediaType: kCMMediaType_Video, mediaSubType: format, dimensions: size),
            attachments: attachments)
    }

    /// The output's depth for this frame: the active depth format, filtered when asked
    /// (hole filling, then temporal smoothing, spec §7 [D]), then turned and mirrored as the connection
    /// asks, map and calibration alike (spec §1.5 [D]). Nil on devices without depth (N17).
    ///
    /// Each frame is a new measurement, so its noise has its own seed: the emulator's seed mixed with
    /// the frame number as a photo's is with its ordinal (`AVCapturePhotoOutput.noiseSeed`), which keeps a
    /// run repeatable and neighbouring frames unrelated.
    private func depthData(
        _ output: AVCaptureDepthDataOutput, device: AVCaptureDevice, scene: String, frame: Int,
        transform: ConnectionTransform
    ) -> AVDepthData? {
        guard let format = device.activeDepthDataFormat, let (depth, pixelFormat) = format.depthProfile else { return nil }
        let filtered = output.isFilteringEnabled
        // A still scene's maps keep their holes from frame to frame (occlusion and texture stay, only the noise
        // changes), so the filling of the last holes seen is kept and replayed while they and the guide stay the
        // same: the same bits as filling afresh, without recomputing its weights.
        var plan = fillingPlans[ObjectIdentifier(output)]
        guard
            var map = StreamRendering.shared.depth(
                device: device.deviceProfile, camera: device.camera, width: depth.dimensions.width,
                height: depth.dimensions.height, format: pixelFormat, filtered: filtered, scene: scene,
                seed: AVCapturePhotoOutput.noiseSeed(Emulation.shared.seed, UInt64(frame)),
                reference: device.activeFormat.intrinsicReferenceDimensions, caches: false,
                fill: { raw, guide in
                    if let filled = plan?.fill(raw, guide: guide) { return filled }
                    let made = DepthHoleFilling().plan(forHolesOf: raw, guide: guide)
                    plan = made
                    return made.fill(raw, guide: guide) ?? DepthHoleFilling().fill(raw, guide: guide)
                })
        else { return nil }
        fillingPlans[ObjectIdentifier(output)] = plan
        if filtered {
            let id = ObjectIdentifier(output)
            var filter = temporal[id] ?? DepthTemporalFilter()
            map = filter.filter(map)
            temporal[id] = filter
        }
        if !transform.isIdentity { map = map.applying(transform.exifOrientation) }
        return AVDepthData(map: map, isShell: false)
    }

    /// Queues a callback. Realtime: when the target's earlier callbacks are still running and
    /// late data is discarded, the drop callback runs instead (spec §7 [D] `.lateData`).
    private func dispatch(
        _ queue: DispatchQueue, _ owner: AnyObject, realtime: Bool, discardsLate: Bool, drop: @escaping () -> Void,
        _ work: @escaping () -> Void
    ) {
        let job = UncheckedSendable(work)
        let dropJob = UncheckedSendable(drop)
        guard realtime else {
            // Virtual and manual clocks: queued in order, and waited for before the next frame.
            let group = inFlight
            group.enter()
            queue.async {
                job.value()
                group.leave()
            }
            return
        }
        if discardsLate && busy.isBusy(owner) {
            queue.async { dropJob.value() }
            return
        }
        busy.begin(owner)
        let counter = busy
        let key = ObjectIdentifier(owner)
        queue.async {
            job.value()
            counter.end(key)
        }
    }
}

/// A driver thread's stop flag and wake-up.
final class StreamDriver: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false
    /// Signalled once the driver's thread has left its loop.
    let finished = DispatchSemaphore(value: 0)

    var isStopped: Bool { condition.withLock { stopped } }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    /// Sleeps up to `seconds`, waking early when stopped.
    func pause(seconds: Double) {
        condition.withLock {
            if !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
        }
    }
}

/// Callbacks in flight per output, for realtime late-data decisions.
final class BusyCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [ObjectIdentifier: Int] = [:]
    func isBusy(_ owner: AnyObject) -> Bool { lock.withLock { counts[ObjectIdentifier(owner), default: 0] > 0 } }
    func begin(_ owner: AnyObject) { lock.withLock { counts[ObjectIdentifier(owner), default: 0] += 1 } }
    func end(_ key: ObjectIdentifier) { lock.withLock { counts[key, default: 1] -= 1 } }
}

/// Copies a cached frame into a fresh buffer, plane by plane.
enum PixelBufferCopying {
    static func copy(_ source: CVPixelBuffer) -> CVPixelBuffer? {
        guard let out = CVPixelBuffer(width: source.width, height: source.height, pixelFormat: source.pixelFormat) else {
            return nil
        }
        for (s, d) in zip(source.planes, out.planes) { d.base.copyMemory(from: s.base, byteCount: s.bytesPerRow * s.height) }
        out.attachments = source.attachments
        return out
    }
}
