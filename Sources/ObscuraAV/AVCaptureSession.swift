import Foundation

/// Coordinates inputs and outputs (spec §1).
///
/// State machine (one enum, transitions in `transition`):
///
///     stopped ──startRunning──▶ running ──stopRunning──▶ stopped
///                                  │  ▲
///                      interrupt   ▼  │ interruption ends (restarts unless the client stopped)
///                              interrupted ──stopRunning──▶ stopped
///
/// A configuration depth counts nested `beginConfiguration` calls. The graph (formats, colour
/// spaces, connections, output capabilities) is resolved as soon as an input, output or preset
/// changes, inside a block too, so capability queries answer at once (spec §1.3 [O]); a running
/// session's streams pause while a block is open and carry on with the new graph at the outermost
/// `commitConfiguration` (spec §1.3 [D]).
///
/// Threading: state is guarded by a lock and checks raise only after unlocking; resolving the
/// graph and starting or stopping run on one serial session queue.
open class AVCaptureSession: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
    enum RunState: Equatable {
        case stopped
        case running
        case interrupted(InterruptionReason)
    }

    private struct Inner {
        var state = RunState.stopped
        var configurationDepth = 0
        var preset = Preset.high
        var inputs: [AVCaptureInput] = []
        var outputs: [AVCaptureOutput] = []
        var connections: [AVCaptureConnection] = []
        var wideColor = true
        /// The preset last applied to the devices, so a commit that changes nothing resets nothing.
        var appliedPreset: Preset?
        var appliedInputs: [ObjectIdentifier] = []
    }

    let observers = ObserverRegistry()
    private let lock = NSLock()
    private var inner = Inner()
    /// The preview layers showing this session, held weakly as a layer holds its session.
    let previewLayers = WeakObjects<AVCaptureVideoPreviewLayer>()
    /// The capture controls and their delegate (`AVCaptureSession+Controls`).
    let controlState = CaptureControlState()
    /// Deferred start: its mode, its delegate and the outputs it has started (`AVCaptureSession+DeferredStart`).
    let deferredStart = DeferredStartState()
    let queue = DispatchQueue(label: "com.apple.avfoundation.capturesession")
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    /// The session's timeline as a clock, which its inputs' ports hand out (`AVCaptureInput.Port.clock`).
    let clock: CMClock

    /// The clock every output's sample buffers are timed by: the session's own timeline, which its inputs'
    /// ports also hand out (spec §18.6 [I]): one clock for the session's life.
    public var synchronizationClock: CMClock? { clock }
    /// The name of `synchronizationClock` before iOS 15.4, still read by recorders that time their writers by it.
    @available(iOS, deprecated: 15.4, renamed: "synchronizationClock")
    public var masterClock: CMClock? { synchronizationClock }
    private let clockSource: WeakObjects<AVCaptureSession>

    public override init() {
        // The clock holds the session weakly: a port's clock kept by a client must not keep it alive.
        let source = WeakObjects<AVCaptureSession>()
        clockSource = source
        clock = CMClock { source.all.first.map { StreamEngine.shared.clockTime(of: $0) } ?? .invalid }
        super.init()
        clockSource.add(self)
        queue.setSpecific(key: AVCaptureSession.queueKey, value: ObjectIdentifier(self))
    }

    // MARK: Properties (spec §1.1)

    /// The preset; `.high` by default. Only presets for which `canSetSessionPreset` is true.
    public var sessionPreset: Preset {
        get { lock.withLock { inner.preset } }
        set {
            guard canSetSessionPreset(newValue) else {
                Violation.unsupportedPreset(newValue).raise()  // spec §1.1 [D]
            }
            lock.withLock { inner.preset = newValue }
            graphChanged()
        }
    }

    /// Whether every video input's device supports a preset (spec §1.1 [D]).
    open func canSetSessionPreset(_ preset: Preset) -> Bool {
        guard preset == .inputPriority || preset.profilePreset != nil else { return false }
        return videoDevices.allSatisfy { $0.supportsSessionPreset(preset) }
    }

    // The getters hand out fresh arrays: a shared buffer would be released or reused by a change
    // made under the lock on another thread while the stream driver still reads it.
    /// Inputs, in the order added.
    public var inputs: [AVCaptureInput] { lock.withLock { inner.inputs.map { $0 } } }
    /// Outputs, in the order added.
    public var outputs: [AVCaptureOutput] { lock.withLock { inner.outputs.map { $0 } } }
    /// Connections formed by adding inputs and outputs, then those of the preview layers that show the
    /// session: a layer's connection is here from when the layer has the session and the session a
    /// camera, until either goes (spec §19.1 [D]).
    public var connections: [AVCaptureConnection] {
        let own = lock.withLock { inner.connections.map { $0 } }
        // Asked outside the lock: a layer's connection reads the session's inputs.
        let previews = previewLayers.all.compactMap { $0.session === self ? $0.connection : nil }
        return own + previews
    }
    /// Whether the session is running (KVO).
    public var isRunning: Bool { lock.withLock { inner.state == .running } }
    /// Whether an interruption is in progress (KVO).
    public var isInterrupted: Bool {
        lock.withLock { if case .interrupted = inner.state { return true } else { return false } }
    }

    /// Whether the session picks the device's format and colour space for wide colour (spec §1.4;
    /// default true).
    public var automaticallyConfiguresCaptureDeviceForWideColor: Bool {
        get { lock.withLock { inner.wideColor } }
        set { lock.withLock { inner.wideColor = newValue } }
    }

    /// Whether the session configures the app's audio session (default true).
    public var automaticallyConfiguresApplicationAudioSession = true
    /// Whether the session uses the app's audio session (default true).
    public var usesApplicationAudioSession = true
    /// Whether the session opts the app's audio session in to Bluetooth high-quality recording, which lets a person
    /// pick AirPods as the microphone (iOS 26; default false). It has no effect while `usesApplicationAudioSession`
    /// is false, and none on the emulated device, which has no Bluetooth audio route: the built-in microphone
    /// records either way (spec §1.1 [D]).
    public var configuresApplicationAudioSessionForBluetoothHighQualityRecording = false
    /// Whether the session, configuring the app's audio session, lets other apps' sound play on (iOS 18; default
    /// false, when recording interrupts it): the audio session then gets `.mixWithOthers` (spec §1.1 [D]).
    public var configuresApplicationAudioSessionToMixWithOthers = false

    /// Whether the camera may run while the app shares the screen (Split View, Slide Over, an external
    /// display): false, as the emulated app has no voip mode, entitlement or Stage Manager display (spec §1.1).
    public var isMultitaskingCameraAccessSupported: Bool { false }

    /// Whether the camera runs while multitasking: false, and it stays false where access is not supported,
    /// as on a phone without it (spec §1.1).
    public var isMultitaskingCameraAccessEnabled: Bool {
        get { false }
        set {}
    }

    var videoDevices: [AVCaptureDevice] { videoDeviceInputs.map(\.device) }

    /// The session's camera inputs.
    var videoDeviceInputs: [AVCaptureDeviceInput] {
        inputs.compactMap { $0 as? AVCaptureDeviceInput }.filter { $0.device.hasMediaType(.video) }
    }

    /// The microphone of the session's audio input, if any.
    var audioDevice: AVCaptureDevice? {
        inputs.compactMap { ($0 as? AVCaptureDeviceInput)?.device }.first { $0.hasMediaType(.audio) }
    }

    /// Whether any output has somewhere to deliver: a delegate, a synchronizer's delegate, or a recording.
    var hasDeliveryTargets: Bool {
        outputs.contains { $0.streamsToApp || ($0 as? AVCaptureFileOutput)?.activeRecording != nil }
    }

    // MARK: Topology (spec §1.2)

    /// Whether `addInput` would succeed, and if not the reason it would raise.
    private func inputRefusal(_ input: AVCaptureInput) -> String? {
        let state = lock.withLock { inner }
        if state.inputs.contains(where: { $0 === input }) {
            return "An AVCaptureInput instance may not be added more than once to a session"
        }
        // spec §1.2 [D]: an input belongs to one session at a time. Once removed it may be added again,
        // to the same session or another, as Apple's camera sample re-adds the input it removed when a
        // camera switch fails.
        if let owner = input.session, owner !== self {
            return "An AVCaptureInput instance may not be added to more than one session"
        }
        if let deviceInput = input as? AVCaptureDeviceInput {
            // spec §1.2 [D]: one camera and one microphone at most.
            let audio = deviceInput.device.hasMediaType(.audio)
            if state.inputs.contains(where: { ($0 as? AVCaptureDeviceInput)?.device.hasMediaType(.audio) == audio }) {
                return "Multiple audio/video AVCaptureInputs are not currently supported"
            }
            if !deviceInput.device.supportsSessionPreset(state.preset) {
                return "Can't add \(deviceInput) because the device does not support \(state.preset.rawValue) - "
                    + "Use -[AVCaptureDevice supportsAVCaptureSessionPreset:]"
            }
        }
        return nil
    }

    /// Whether an input may be added (spec §1.2 [D]).
    open func canAddInput(_ input: AVCaptureInput) -> Bool { inputRefusal(input) == nil }

    /// Adds an input and connects it to every compatible output. Raises when `canAddInput` is false
    /// (spec §1.2 [O]).
    open func addInput(_ input: AVCaptureInput) { add(input, connecting: true) }

    private func add(_ input: AVCaptureInput, connecting: Bool) {
        if let reason = inputRefusal(input) { Violation.cannotAddInput(reason).raise() }
        lock.withLock {
            inner.inputs.append(input)
            input.session = self
            if connecting { for output in inner.outputs { connect(input, output) } }
        }
        if let device = (input as? AVCaptureDeviceInput)?.device { device.owningSession = self }
        graphChanged()
    }

    /// Removes an input and its connections (allowed while running).
    open func removeInput(_ input: AVCaptureInput) {
        lock.withLock {
            inner.inputs.removeAll { $0 === input }
            inner.connections.removeAll { c in c.inputPorts.contains { $0.input === input } }
            input.session = nil
        }
        if let device = (input as? AVCaptureDeviceInput)?.device, device.owningSession === self {
            device.owningSession = nil
        }
        graphChanged()
    }

    private func outputRefusal(_ output: AVCaptureOutput) -> String? {
        let outputs = lock.withLock { inner.outputs }
        // spec §1.2 [D]: one session at a time, as for inputs.
        if outputs.contains(where: { $0 === output }) {
            return "An AVCaptureOutput instance may not be added more than once to a session"
        }
        if let owner = output.session, owner !== self {
            return "An AVCaptureOutput instance may not be added to more than one session"
        }
        // spec §1.2 [D]: one output per class, except video data outputs since iOS 16.
        if !(output is AVCaptureVideoDataOutput), outputs.contains(where: { type(of: $0) == type(of: output) }) {
            return "Cannot add output \(output) to capture session \(self) because more than one output of the same "
                + "type is unsupported."
        }
        // spec §1.2 [D]: photo and still-image outputs cannot coexist.
        let stillAndPhoto =
            (output is AVCapturePhotoOutput && outputs.contains { $0 is AVCaptureStillImageOutput })
            || (output is AVCaptureStillImageOutput && outputs.contains { $0 is AVCapturePhotoOutput })
        if stillAndPhoto {
            return "Cannot add output \(output) to capture session \(self) because AVCapturePhotoOutput and "
                + "AVCaptureStillImageOutput may not be used together."
        }
        return nil
    }

    /// Whether an output may be added (spec §1.2 [D]).
    open func canAddOutput(_ output: AVCaptureOutput) -> Bool { outputRefusal(output) == nil }

    /// Adds an output and connects it to every compatible input port (spec §1.2 [D]).
    open func addOutput(_ output: AVCaptureOutput) { add(output, connecting: true) }

    private func add(_ output: AVCaptureOutput, connecting: Bool) {
        if let reason = outputRefusal(output) { Violation.cannotAddOutput(reason).raise() }
        lock.withLock {
            inner.outputs.append(output)
            output.session = self
            if connecting { for input in inner.inputs { connect(input, output) } }
        }
        graphChanged()
    }

    /// Removes an output and its connections (allowed while running).
    open func removeOutput(_ output: AVCaptureOutput) {
        lock.withLock {
            inner.outputs.removeAll { $0 === output }
            inner.connections.removeAll { $0.output === output }
            output.session = nil
        }
        // The removed output sees no device any more: it drops what it held (a depth zoom lock).
        output.sessionDidResolve(device: nil, preset: sessionPreset)
        graphChanged()
    }

    /// Adds an input without forming any connection; the client adds them with `addConnection(_:)`
    /// (spec §1.2 [D]). Same refusals as `addInput(_:)`.
    open func addInputWithNoConnections(_ input: AVCaptureInput) { add(input, connecting: false) }

    /// Adds an output without forming any connection (spec §1.2 [D]). Same refusals as `addOutput(_:)`.
    open func addOutputWithNoConnections(_ output: AVCaptureOutput) { add(output, connecting: false) }

    /// Why a connection cannot be added, if it cannot (spec §1.2 [D]): its ports' inputs and its
    /// output must be in this session, the output must take the ports' media, and the connection
    /// (or another on the same port and output) must not be there already.
    private func connectionRefusal(_ connection: AVCaptureConnection) -> String? {
        let state = lock.withLock { inner }
        if let layer = connection.videoPreviewLayer { return previewRefusal(connection, layer: layer, state.inputs) }
        guard let output = connection.output, state.outputs.contains(where: { $0 === output }) else {
            return "The connection's output is not in the session"
        }
        guard !connection.inputPorts.isEmpty,
            connection.inputPorts.allSatisfy({ port in state.inputs.contains { $0 === port.input } })
        else { return "The connection's input ports do not belong to inputs in the session" }
        guard connection.inputPorts.allSatisfy({ output.accepts($0.mediaType) }) else {
            return "The output does not accept the media type of the connection's input ports"
        }
        let taken = state.connections.contains { existing in
            existing === connection
                || (existing.output === output
                    && existing.inputPorts.contains { port in connection.inputPorts.contains { $0 === port } })
        }
        return taken ? "The connection is already in the session" : nil
    }

    /// Why a preview layer's connection cannot be added: the layer must show this session and wait for its
    /// connection (`init(sessionWithNoConnection:)`), without one yet, and the port must be a video port of an
    /// input in the session (spec §1.2, §19.1 [D]).
    private func previewRefusal(
        _ connection: AVCaptureConnection, layer: AVCaptureVideoPreviewLayer, _ inputs: [AVCaptureInput]
    ) -> String? {
        guard layer.session === self else { return "The connection's preview layer does not show this session" }
        guard layer.waitsForConnection, layer.connection == nil else {
            return "The connection's preview layer already has a connection"
        }
        guard let port = connection.inputPorts.first, connection.inputPorts.count == 1, port.mediaType == .video,
            inputs.contains(where: { $0 === port.input })
        else { return "A preview layer's connection needs one video port of an input in the session" }
        return nil
    }

    /// Whether `addConnection(_:)` would succeed (spec §1.2 [D]).
    open func canAddConnection(_ connection: AVCaptureConnection) -> Bool { connectionRefusal(connection) == nil }

    /// Adds a connection made by the client; raises when `canAddConnection` is false (spec §1.2 [D]).
    open func addConnection(_ connection: AVCaptureConnection) {
        if let reason = connectionRefusal(connection) { Violation.cannotAddConnection(reason).raise() }
        if let layer = connection.videoPreviewLayer {
            // The layer holds it; `connections` lists it with the other layers' (spec §19.1).
            layer.setAddedConnection(connection)
        } else {
            lock.withLock { inner.connections.append(connection) }
        }
        graphChanged()
    }

    /// Removes a connection (spec §1.2 [D]).
    open func removeConnection(_ connection: AVCaptureConnection) {
        if let layer = connection.videoPreviewLayer, layer.waitsForConnection, layer.connection === connection {
            layer.setAddedConnection(nil)
        }
        lock.withLock { inner.connections.removeAll { $0 === connection } }
        graphChanged()
    }

    /// One connection per input port whose media the output accepts (spec §1.5 [D]). Must be called
    /// with the lock held.
    private func connect(_ input: AVCaptureInput, _ output: AVCaptureOutput) {
        for port in input.ports where output.accepts(port.mediaType) {
            inner.connections.append(AVCaptureConnection(inputPorts: [port], output: output))
        }
    }

    // MARK: Configuration (spec §1.3)

    /// Opens a configuration block; blocks nest.
    /// Whether a `beginConfiguration` is open.
    var isInsideConfiguration: Bool { lock.withLock { inner.configurationDepth > 0 } }

    open func beginConfiguration() {
        lock.withLock { inner.configurationDepth += 1 }
    }

    /// Closes a block; the outermost commit applies every change at once (spec §1.3 [D]).
    open func commitConfiguration() {
        let outermost = lock.withLock { () -> Bool? in
            guard inner.configurationDepth > 0 else { return nil }
            inner.configurationDepth -= 1
            return inner.configurationDepth == 0
        }
        // Without a matching begin there is nothing to commit; Apple documents no exception (spec §1.3).
        guard let outermost else { return }
        if outermost {
            resolve()
            deferredStartDidCommit()
        }
    }

    /// Capabilities follow the graph at once, inside a configuration block too: formats, colour
    /// spaces and the outputs' `is…Supported`, dimensions and codecs are resolved on every change,
    /// so opt-ins may be set right after `addOutput` (spec §1.3 [O]). What the hardware streams is
    /// held while a block is open and changes at the outermost commit (the stream driver waits).
    private func graphChanged() {
        resolve()
    }

    /// Called when the client sets a device's `activeFormat` (spec §1.1 [D]).
    func deviceActiveFormatSetByClient() {
        let changed = lock.withLock { () -> Bool in
            defer {
                inner.preset = .inputPriority
                inner.appliedPreset = .inputPriority
            }
            return inner.preset != .inputPriority
        }
        if changed { observers.didChange(\AVCaptureSession.sessionPreset) }
        graphChanged()
    }

    /// Resolves the capture graph on the session queue.
    private func resolve() {
        onSessionQueue { self.resolveOnQueue() }
    }

    private func resolveOnQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        let state = lock.withLock { inner }
        let device = state.inputs.compactMap { ($0 as? AVCaptureDeviceInput)?.device }.first { $0.hasMediaType(.video) }
        if let device {
            let inputIDs = state.inputs.map(ObjectIdentifier.init)
            let presetChanged = state.appliedPreset != state.preset || state.appliedInputs != inputIDs
            applyPreset(state, to: device, reset: presetChanged)
            lock.withLock {
                inner.appliedPreset = state.preset
                inner.appliedInputs = inputIDs
            }
        }
        for connection in state.connections {
            // A connection works while its input is still in the session.
            connection.setActive(state.inputs.contains { i in connection.inputPorts.contains { $0.input === i } })
        }
        for output in state.outputs { output.sessionDidResolve(device: device, preset: state.preset) }
    }

    /// spec §1.1 [D] preset → format, then §1.4 [D][T][I] automatic wide colour.
    private func applyPreset(_ state: Inner, to device: AVCaptureDevice, reset: Bool) {
        let hasPhoto = state.outputs.contains { $0 is AVCapturePhotoOutput }
        let hasMovie = state.outputs.contains { $0 is AVCaptureMovieFileOutput }
        let hasVideoData = state.outputs.contains { $0 is AVCaptureVideoDataOutput }
        // spec §1.4 [I] algorithm built on the W16 decision table [T].
        let wantWide = hasPhoto && !hasMovie && (!hasVideoData || state.preset == .photo)
        if state.preset != .inputPriority, reset || state.wideColor, var format = device.format(for: state.preset) {
            if state.wideColor, wantWide, !format.supportedColorSpaces.contains(.P3_D65) {
                // spec §1.4 rule 2 [D]: the session may switch to a same-sized format with wide colour.
                if let wide = device.formats.first(where: {
                    $0.dimensions.same(as: format.dimensions) && $0.supportedColorSpaces.contains(.P3_D65)
                }) {
                    format = wide
                }
            }
            if reset || device.activeFormat !== format { device.setActiveFormatInternally(format) }
        }
        guard state.wideColor else { return }  // spec §1.4 rule 5 [D]: hands off when the flag is false
        let supportsP3 = device.activeFormat.supportedColorSpaces.contains(.P3_D65)
        device.setColorSpaceInternally(wantWide && supportsP3 ? .P3_D65 : .sRGB)  // spec §1.4 rule 3 [D]
    }

    // MARK: Running (spec §1.3)

    /// Starts the flow of data; blocks until running. Inside a configuration block: `NSGenericException`.
    open func startRunning() {
        let violation = lock.withLock { () -> Violation? in
            inner.configurationDepth > 0 ? .startRunningInsideConfiguration("startRunning") : nil  // spec §1.3 [O]
        }
        raiseIfNeeded(violation)
        var failure: AVError?
        let started = onSessionQueue { () -> Bool in
            guard lock.withLock({ inner.state == .stopped }) else { return false }
            resolveOnQueue()
            // spec §13 N18 [O]: a configuration the hardware cannot run fails at start.
            if let error = StartFailureRules.failure(for: self) {
                failure = error
                return false
            }
            lock.withLock { inner.state = .running }
            return true
        }
        if let failure {
            NotificationCenter.default.post(
                name: AVCaptureSession.runtimeErrorNotification, object: self,
                userInfo: [AVCaptureSessionErrorKey: failure])
        }
        guard started else { return }
        // spec §1.1 [D]: a session that records sound sets up the app's audio session for it, unless told not to.
        if usesApplicationAudioSession, automaticallyConfiguresApplicationAudioSession,
            inputs.contains(where: { ($0 as? AVCaptureDeviceInput)?.device.hasMediaType(.audio) == true })
        {
            AVAudioSession.sharedInstance().captureSessionWillRecord(
                mixingWithOthers: configuresApplicationAudioSessionToMixWithOthers)
        }
        // spec §1.7 [D]: deferred outputs start shortly after the first frame; decided before the stream makes one.
        deferredStartIsDue()
        StreamEngine.shared.sessionDidStart(self)  // spec §1.3 [D]: the streams now run by themselves
        observers.didChange(\AVCaptureSession.isRunning)
        photoReadinessMayHaveChanged()
        NotificationCenter.default.post(name: AVCaptureSession.didStartRunningNotification, object: self)
    }

    /// Stops the flow of data; blocks until stopped. Inside a configuration block:
    /// `NSGenericException` (spec §1.3, treated as [I]).
    open func stopRunning() {
        let violation = lock.withLock { () -> Violation? in
            inner.configurationDepth > 0 ? .startRunningInsideConfiguration("stopRunning") : nil
        }
        raiseIfNeeded(violation)
        let previous = onSessionQueue { () -> RunState in
            lock.withLock {
                defer { inner.state = .stopped }
                return inner.state
            }
        }
        StreamEngine.shared.sessionDidStop(self)
        deferredStartDidStop()
        switch previous {
        case .stopped:
            return
        case .running:
            observers.didChange(\AVCaptureSession.isRunning)
            photoReadinessMayHaveChanged()
            NotificationCenter.default.post(name: AVCaptureSession.didStopRunningNotification, object: self)
        case .interrupted:
            observers.didChange(\AVCaptureSession.isInterrupted)
        }
    }

    /// A photo output's readiness follows whether the session runs (spec §3.3 [D]).
    private func photoReadinessMayHaveChanged() {
        for case let photo as AVCapturePhotoOutput in outputs {
            photo.readinessMayHaveChanged()
            if isRunning { photo.sessionDidStartRunning() } else { photo.sessionDidStop() }
        }
    }

    /// Begins an interruption of a running session (spec §1.3 [D], §21 rule 2); emulator control. An
    /// interruption for system pressure carries the device's state under
    /// `AVCaptureSessionInterruptionSystemPressureStateKey` (spec §21 rule 3). Returns whether it began.
    @discardableResult
    func interrupt(reason: InterruptionReason, pressure: AVCaptureDevice.SystemPressureState? = nil) -> Bool {
        let wasRunning = lock.withLock { () -> Bool in
            guard inner.state == .running else { return false }
            inner.state = .interrupted(reason)
            return true
        }
        guard wasRunning else { return false }
        observers.didChange(\AVCaptureSession.isRunning)
        observers.didChange(\AVCaptureSession.isInterrupted)
        photoReadinessMayHaveChanged()
        var info: [String: Any] = [AVCaptureSessionInterruptionReasonKey: reason.rawValue]
        if let pressure { info[AVCaptureSessionInterruptionSystemPressureStateKey] = pressure }
        NotificationCenter.default.post(name: AVCaptureSession.wasInterruptedNotification, object: self, userInfo: info)
        NotificationCenter.default.post(name: AVCaptureSession.didStopRunningNotification, object: self)
        return true
    }

    /// The reason of the interruption in progress, if any.
    var interruptionReason: InterruptionReason? {
        lock.withLock { if case .interrupted(let reason) = inner.state { return reason } else { return nil } }
    }

    /// A failure while running (spec §21 rule 1 [D]): `runtimeErrorNotification` with the error under
    /// `AVCaptureSessionErrorKey`, then a running or interrupted session stops: `isRunning` false, its
    /// streams and recordings end and `didStopRunningNotification` follows. The client starts it again
    /// with `startRunning()`, as Apple's camera sample does after `.mediaServicesWereReset`.
    func failAtRuntime(_ error: AVError) {
        let previous = lock.withLock { () -> RunState in
            defer { inner.state = .stopped }
            return inner.state
        }
        // The stream lets go first, so an app that restarts from its observer starts a fresh one.
        if previous != .stopped { StreamEngine.shared.sessionDidFail(self) }
        NotificationCenter.default.post(
            name: AVCaptureSession.runtimeErrorNotification, object: self, userInfo: [AVCaptureSessionErrorKey: error])
        guard previous != .stopped else { return }
        if case .interrupted = previous { observers.didChange(\AVCaptureSession.isInterrupted) }
        if previous == .running {
            observers.didChange(\AVCaptureSession.isRunning)
            photoReadinessMayHaveChanged()
            NotificationCenter.default.post(name: AVCaptureSession.didStopRunningNotification, object: self)
        }
    }

    /// Ends an interruption; the session restarts by itself (spec §1.3 [D]).
    func endInterruption() {
        let resumed = lock.withLock { () -> Bool in
            guard case .interrupted = inner.state else { return false }
            inner.state = .running
            return true
        }
        guard resumed else { return }
        observers.didChange(\AVCaptureSession.isInterrupted)
        observers.didChange(\AVCaptureSession.isRunning)
        photoReadinessMayHaveChanged()
        NotificationCenter.default.post(name: AVCaptureSession.interruptionEndedNotification, object: self)
        NotificationCenter.default.post(name: AVCaptureSession.didStartRunningNotification, object: self)
    }

    /// Runs work on the session queue, inline when already there (a KVO handler may call back in).
    @discardableResult
    func onSessionQueue<R>(_ work: () -> R) -> R {
        if DispatchQueue.getSpecific(key: AVCaptureSession.queueKey) == ObjectIdentifier(self) { return work() }
        return queue.sync(execute: work)
    }
}
