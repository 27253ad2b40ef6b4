import Foundation

/// The app's audio session (AVFAudio's `AVAudioSession`, which `import AVFoundation` brings on iOS): how the app
/// means to use sound, which the device's audio routing follows (spec §1.1).
///
/// The emulated device has the routes of a phone with nothing plugged in: the built-in microphone in, the receiver
/// or the speaker out, and no Bluetooth, AirPlay or wired accessory. No other app plays sound, no call interrupts
/// and the media server never resets, so the session's notifications are never posted. The microphone records
/// mono at the rate the capture API delivers its audio (`AVCaptureAudioDataOutput`).
///
/// A capture session with a microphone input that uses the app's audio session and configures it automatically
/// (both by default) switches a category that cannot record to `.playAndRecord` when it starts, as a phone does
/// when an app starts recording while its session only plays.
open class AVAudioSession: NSObject, @unchecked Sendable {
    /// What the app does with sound (`AVAudioSession.Category`), with Apple's raw strings.
    public struct Category: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// Sound that mixes with other apps' and is silenced by the ring/silent switch.
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        /// The default: sound that silences other apps', silenced by the switch.
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        /// Playback that the switch does not silence.
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        /// Recording only.
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        /// Recording and playback, as a camera app that records movies uses.
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        /// Several routes at once.
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")

        /// Whether the category takes sound in.
        var records: Bool { self == .record || self == .playAndRecord || self == .multiRoute }
    }

    /// A specialisation of the category (`AVAudioSession.Mode`), with Apple's raw strings.
    public struct Mode: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        public static let voicePrompt = Mode(rawValue: "AVAudioSessionModeVoicePrompt")
    }

    /// Options of a category (`AVAudioSession.CategoryOptions`), with Apple's bit values.
    public struct CategoryOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        /// Bluetooth hands-free microphones and headsets (named `allowBluetoothHFP` from iOS 26).
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        public static let allowBluetoothHFP = CategoryOptions(rawValue: 0x4)
        /// Play through the speaker rather than the receiver while recording.
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    }

    /// Options of `setActive(_:options:)`.
    public struct SetActiveOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 0x1)
    }

    /// Whether the person let the app record (`AVAudioSession.RecordPermission`), with Apple's four-character values.
    public enum RecordPermission: UInt, Sendable, Hashable {
        case undetermined = 0x756E_6474  // 'undt'
        case denied = 0x6465_6E79  // 'deny'
        case granted = 0x6772_6E74  // 'grnt'
    }

    /// The kind of an audio port (`AVAudioSession.Port`), with Apple's raw strings.
    public struct Port: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public static let builtInMic = Port(rawValue: "MicrophoneBuiltIn")
        public static let builtInReceiver = Port(rawValue: "Receiver")
        public static let builtInSpeaker = Port(rawValue: "Speaker")
        public static let headphones = Port(rawValue: "Headphones")
        public static let headsetMic = Port(rawValue: "MicrophoneWired")
        public static let bluetoothHFP = Port(rawValue: "BluetoothHFP")
        public static let bluetoothA2DP = Port(rawValue: "BluetoothA2DPOutput")
        public static let airPlay = Port(rawValue: "AirPlay")
    }

    /// `interruptionNotification`, `routeChangeNotification` and `mediaServicesWereResetNotification`: never posted
    /// here (see the type's description).
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    public static let mediaServicesWereResetNotification = Notification.Name(
        "AVAudioSessionMediaServicesWereResetNotification")

    private struct State {
        var category = Category.soloAmbient
        var mode = Mode.default
        var options: CategoryOptions = []
        var active = false
        var preferredSampleRate = 0.0
        var preferredIOBufferDuration = 0.0
        var preferredInput: AVAudioSessionPortDescription?
    }

    private let state = Locked(State())
    private static let shared = AVAudioSession()

    override private init() { super.init() }

    /// The app's one audio session.
    open class func sharedInstance() -> AVAudioSession { shared }

    /// The category (`.soloAmbient` until the app sets one).
    open var category: Category { state.withLock { $0.category } }
    /// The mode (`.default` until the app sets one).
    open var mode: Mode { state.withLock { $0.mode } }
    /// The category's options.
    open var categoryOptions: CategoryOptions { state.withLock { $0.options } }

    /// Sets the category with no options, keeping the mode.
    open func setCategory(_ category: Category) throws { try setCategory(category, options: []) }
    /// Sets the category and its options, keeping the mode.
    open func setCategory(_ category: Category, options: CategoryOptions = []) throws {
        state.withLock {
            $0.category = category
            $0.options = options
        }
    }
    /// Sets the category, its mode and its options.
    open func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        state.withLock {
            $0.category = category
            $0.mode = mode
            $0.options = options
        }
    }
    /// Sets the mode.
    open func setMode(_ mode: Mode) throws { state.withLock { $0.mode = mode } }

    /// Activates or deactivates the session. With no other app playing, activation always succeeds.
    open func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        state.withLock { $0.active = active }
    }

    /// Whether another app plays sound: never on the emulated device.
    open var isOtherAudioPlaying: Bool { false }
    /// Whether another app's primary audio asks this app to silence secondary sound: never.
    open var secondaryAudioShouldBeSilencedHint: Bool { false }

    /// Whether the app may record: the microphone's capture authorisation, which the two APIs share on iOS.
    open var recordPermission: RecordPermission { RecordPermission(AVCaptureDevice.authorizationStatus(for: .audio)) }

    /// Asks to record, as `AVCaptureDevice.requestAccess(for: .audio)` does.
    open func requestRecordPermission(_ response: @escaping @Sendable (Bool) -> Void) {
        AVCaptureDevice.requestAccess(for: .audio, completionHandler: response)
    }

    /// The hardware's sample rate: the microphone's, whatever the preference.
    open var sampleRate: Double { Double(AVCaptureAudioDataOutput.sampleRate) }
    /// The sample rate asked for (0 until the app asks); the hardware keeps its own (`sampleRate`).
    open var preferredSampleRate: Double { state.withLock { $0.preferredSampleRate } }
    open func setPreferredSampleRate(_ sampleRate: Double) throws {
        state.withLock { $0.preferredSampleRate = sampleRate }
    }
    /// The hardware's buffer duration: the capture API's audio buffers (1,024 samples).
    open var ioBufferDuration: TimeInterval {
        Double(AVCaptureAudioDataOutput.samplesPerBuffer) / Double(AVCaptureAudioDataOutput.sampleRate)
    }
    /// The buffer duration asked for (0 until the app asks).
    open var preferredIOBufferDuration: TimeInterval { state.withLock { $0.preferredIOBufferDuration } }
    open func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        state.withLock { $0.preferredIOBufferDuration = duration }
    }

    /// Whether a microphone is there: the built-in one always is.
    open var isInputAvailable: Bool { true }
    /// The microphone's channels (mono), and the speaker's.
    open var inputNumberOfChannels: Int { 1 }
    open var outputNumberOfChannels: Int { 2 }
    /// The inputs the app may prefer: the built-in microphone.
    open var availableInputs: [AVAudioSessionPortDescription]? { [.builtInMicrophone] }
    /// The input the app prefers, nil until it says.
    open var preferredInput: AVAudioSessionPortDescription? { state.withLock { $0.preferredInput } }
    open func setPreferredInput(_ inPort: AVAudioSessionPortDescription?) throws {
        state.withLock { $0.preferredInput = inPort }
    }
    /// The gain of the input, which an app cannot set on the built-in microphone.
    open var inputGain: Float { 1 }
    open var isInputGainSettable: Bool { false }
    open func setInputGain(_ gain: Float) throws {}
    /// The system volume: half, fixed, as the emulated phone has no volume buttons (our choice).
    open var outputVolume: Float { 0.5 }

    /// Where sound goes now: the microphone in while the category records; out, nothing for `.record`, the
    /// receiver for `.playAndRecord` unless `.defaultToSpeaker`, else the speaker.
    open var currentRoute: AVAudioSessionRouteDescription {
        let (category, options) = state.withLock { ($0.category, $0.options) }
        let output: [AVAudioSessionPortDescription]
        switch category {
        case .record: output = []
        case .playAndRecord where !options.contains(.defaultToSpeaker): output = [.receiver]
        default: output = [.speaker]
        }
        return AVAudioSessionRouteDescription(inputs: category.records ? [.builtInMicrophone] : [], outputs: output)
    }

    /// What a starting capture session with a microphone does to the app's audio session (see the type).
    func captureSessionWillRecord(mixingWithOthers: Bool) {
        state.withLock {
            if !$0.category.records { $0.category = .playAndRecord }
            if mixingWithOthers { $0.options.insert(.mixWithOthers) }
        }
    }
}

extension AVAudioSession.RecordPermission {
    init(_ status: AVAuthorizationStatus) {
        switch status {
        case .authorized: self = .granted
        case .notDetermined: self = .undetermined
        case .denied, .restricted: self = .denied
        }
    }
}

/// One port of an audio route (`AVAudioSessionPortDescription`).
open class AVAudioSessionPortDescription: NSObject, @unchecked Sendable {
    /// The kind of port.
    public let portType: AVAudioSession.Port
    /// Its name as the system shows it.
    public let portName: String
    /// An identifier that stays the same for the port.
    public let uid: String

    init(portType: AVAudioSession.Port, portName: String, uid: String) {
        self.portType = portType
        self.portName = portName
        self.uid = uid
    }

    static let builtInMicrophone = AVAudioSessionPortDescription(
        portType: .builtInMic, portName: "iPhone Microphone", uid: "Built-In Microphone")
    static let receiver = AVAudioSessionPortDescription(
        portType: .builtInReceiver, portName: "Receiver", uid: "Built-In Receiver")
    static let speaker = AVAudioSessionPortDescription(
        portType: .builtInSpeaker, portName: "Speaker", uid: "Speaker")

    open override func isEqual(_ object: Any?) -> Bool { (object as? AVAudioSessionPortDescription)?.uid == uid }
    open override var hash: Int { uid.hashValue }
}

/// The ports of the current audio route (`AVAudioSessionRouteDescription`).
open class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
    public let inputs: [AVAudioSessionPortDescription]
    public let outputs: [AVAudioSessionPortDescription]

    init(inputs: [AVAudioSessionPortDescription], outputs: [AVAudioSessionPortDescription]) {
        self.inputs = inputs
        self.outputs = outputs
    }
}

/// The app's audio identity (AVFAudio's `AVAudioApplication`, iOS 17), where recording permission now lives.
open class AVAudioApplication: NSObject, @unchecked Sendable {
    /// Whether the person let the app record (`AVAudioApplication.recordPermission`).
    public enum RecordPermission: Int, Sendable, Hashable {
        case undetermined = 0x756E_6474  // 'undt'
        case denied = 0x6465_6E79  // 'deny'
        case granted = 0x6772_6E74  // 'grnt'
    }

    /// The app's one instance.
    public static let shared = AVAudioApplication()
    override private init() { super.init() }

    /// Whether the app may record: the microphone's capture authorisation.
    open var recordPermission: RecordPermission {
        switch AVCaptureDevice.authorizationStatus(for: .audio) {
        case .authorized: return .granted
        case .notDetermined: return .undetermined
        case .denied, .restricted: return .denied
        }
    }

    /// Asks to record, as `AVCaptureDevice.requestAccess(for: .audio)` does.
    open class func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
        AVCaptureDevice.requestAccess(for: .audio, completionHandler: response)
    }

    /// Asks to record and returns the answer.
    open class func requestRecordPermission() async -> Bool { await AVCaptureDevice.requestAccess(for: .audio) }
}
