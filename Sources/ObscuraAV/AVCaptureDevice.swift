import Devices
import Foundation

/// A capture device: one camera of the emulated iPhone or iPad (spec §2).
///
/// Hardware properties are changed only while the client holds the configuration lock
/// (`lockForConfiguration()`); otherwise `NSGenericException` (spec §2.4).
open class AVCaptureDevice: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
    /// The camera this device is; for the microphone, the profile's first camera stands in for
    /// the video-only properties, which a microphone never reaches through the API's rules.
    let camera: CameraProfile
    let deviceProfile: DeviceProfile
    /// Whether this is the built-in microphone rather than a camera: every iPhone and iPad has one.
    let isMicrophone: Bool
    /// Constituents, set once by the world that creates the device.
    var constituents: [AVCaptureDevice] = []
    /// The exposure mode and the custom exposure, if any.
    let exposureState = ExposureState()
    let observers = ObserverRegistry()
    private let allFormats: [Format]
    /// Depth format, depth frame duration and zoom (AVCaptureDevice+Depth.swift).
    let depthState = DeviceDepthState()
    /// Focus, exposure target, torch, white balance, zoom ramp and subject-area settings.
    let controls = DeviceControls()
    /// The inputs made for this device, whose ports are told when its formats change.
    let deviceInputs = WeakObjects<AVCaptureDeviceInput>()
    /// The 3A loop of the frames streamed now (`StreamAdaptation`); nil while nothing streams.
    let adaptation = Locked<StreamAdaptation?>(nil)

    /// The device's mutable state, guarded by `lock`.
    private struct Inner {
        var activeFormat: Format
        var minFrameDuration: CMTime
        var maxFrameDuration: CMTime
        var colorSpace: AVCaptureColorSpace = .sRGB
        var isLocked = false
        var isFlashAvailable: Bool
        /// Whether the flash is too hot to fire (spec §2.7, §21 rule 6).
        var flashTooHot = false
        /// The system pressure now (spec §21 rule 3).
        var pressure = SystemPressureState(level: .nominal, factors: [])
    }

    private let lock = NSLock()
    private var inner: Inner
    /// The settings of `AVCaptureDevice+Status.swift`, behind their own lock.
    let statusLock = NSLock()
    var statusState = StatusState()
    struct StatusState { var automaticHDR = true }
    /// The session whose input holds this device; told when the client picks a format (spec §1.1).
    var owningSession: AVCaptureSession? {
        get { owningSessionLock.withLock { owningSessionReference } }
        set { owningSessionLock.withLock { owningSessionReference = newValue } }
    }
    /// Sessions on several threads may take the same camera at once (tests in one world); a weak
    /// reference written from two threads at once is a data race, so it is written under a lock.
    private let owningSessionLock = NSLock()
    private weak var owningSessionReference: AVCaptureSession?

    init(camera: CameraProfile, profile: DeviceProfile, isMicrophone: Bool = false) {
        self.camera = camera
        self.deviceProfile = profile
        self.isMicrophone = isMicrophone
        // The microphone lists no video formats; its camera-shaped state holds one it never uses.
        let cameraFormats = camera.formats.map { Format(video: $0) }
        for format in cameraFormats { format.attach(device: profile, camera: camera) }
        allFormats = isMicrophone ? [] : cameraFormats
        let initial =
            camera.format(for: .high).flatMap { f in cameraFormats.first { $0.profile.id == f.id } } ?? cameraFormats[0]
        let frame = AVCaptureDevice.defaultFrameDuration(initial)
        inner = Inner(
            activeFormat: initial, minFrameDuration: frame, maxFrameDuration: frame,
            isFlashAvailable: !isMicrophone && profile.hasFlash(camera))
        super.init()
    }

    // MARK: Identity

    /// Unique for the life of the device: `<profile id>:<camera id>`.
    public var uniqueID: String { "\(deviceProfile.id):\(isMicrophone ? "microphone" : camera.id)" }
    /// The hardware model, e.g. `iPhone 15 Pro`.
    public var modelID: String { deviceProfile.name }
    /// A name to show people, e.g. `Back Camera`.
    public var localizedName: String {
        if isMicrophone { return "\(deviceProfile.name.hasPrefix("iPad") ? "iPad" : "iPhone") Microphone" }
        let side = camera.position == .back ? "Back" : "Front"
        switch camera.deviceType {
        case .builtInWideAngleCamera: return "\(side) Camera"
        case .builtInTelephotoCamera: return "\(side) Telephoto Camera"
        case .builtInUltraWideCamera: return "\(side) Ultra Wide Camera"
        case .builtInDualCamera: return "\(side) Dual Camera"
        case .builtInDualWideCamera: return "\(side) Dual Wide Camera"
        case .builtInTripleCamera: return "\(side) Triple Camera"
        case .builtInTrueDepthCamera: return "\(side) TrueDepth Camera"
        case .builtInLiDARDepthCamera: return "\(side) LiDAR Depth Camera"
        }
    }
    /// The device's type (spec §2.1).
    public var deviceType: DeviceType { isMicrophone ? .microphone : DeviceType(camera.deviceType) }
    /// The side it faces; `.unspecified` for the microphone (spec §2.1 [D]).
    public var position: Position { isMicrophone ? .unspecified : Position(camera.position) }
    /// Whether the device is built from other cameras (spec §2.2 [D]).
    public var isVirtualDevice: Bool { !isMicrophone && camera.isVirtualDevice }
    /// The physical cameras of a virtual device, shortest focal length first; empty otherwise (spec §2.2).
    public var constituentDevices: [AVCaptureDevice] { isVirtualDevice ? constituents : [] }
    /// Whether the device delivers media of a type: a camera `.video` (with its depth and
    /// metadata ports), the microphone `.audio`.
    public func hasMediaType(_ mediaType: AVMediaType) -> Bool { mediaType == (isMicrophone ? .audio : .video) }

    /// Whether the camera can deliver depth in some format (spec §2.5): it then has a depth port.
    var producesDepth: Bool { allFormats.contains { !$0.supportedDepthDataFormats.isEmpty } }
    /// Whether the device is connected; emulated cameras always are.
    public var isConnected: Bool { true }

    open override var description: String {
        "<\(isMicrophone ? "AVCaptureFigAudioDevice" : "AVCaptureFigVideoDevice"): [\(localizedName)][\(uniqueID)]>"
    }

    // MARK: Formats (spec §2.3)

    /// The formats, in the profile's order.
    public var formats: [Format] { allFormats }

    /// The format in use. Setting it requires the lock and a member of `formats`, switches the
    /// owning session to `.inputPriority` and resets the frame durations (spec §2.3, §1.1). KVO.
    public var activeFormat: Format {
        get { lock.withLock { inner.activeFormat } }
        set {
            let violation = lock.withLock { () -> Violation? in
                guard inner.isLocked else { return .deviceNotLocked("setActiveFormat:") }  // spec §2.3 [D]
                guard allFormats.contains(where: { $0 === newValue }) else { return .formatNotInFormats() }  // spec §2.3 [D]
                return nil
            }
            raiseIfNeeded(violation)
            setActiveFormatInternally(newValue)
            owningSession?.deviceActiveFormatSetByClient()  // spec §1.1 [D]: preset becomes .inputPriority
        }
    }

    /// Changes the format on behalf of the session (preset selection) or the client; resets
    /// the frame durations and the longest auto-exposure time (spec §2.4 [D]) and narrows the
    /// colour space to what the format supports.
    func setActiveFormatInternally(_ format: Format) {
        let depthBefore = activeDepthDataFormat
        let changed = lock.withLock { () -> Bool in
            let changed = inner.activeFormat !== format
            inner.activeFormat = format
            let frame = AVCaptureDevice.defaultFrameDuration(format)
            inner.minFrameDuration = frame
            inner.maxFrameDuration = frame
            if !format.supportedColorSpaces.contains(inner.colorSpace) { inner.colorSpace = .sRGB }
            return changed
        }
        resetMaxExposureDuration()  // spec §2.4 [D]: on a new format or preset, even the same format
        if changed {
            resetDepthConfiguration()  // spec §2.5 [D]: the depth choice follows the format
            observers.didChange(\AVCaptureDevice.activeFormat)
            postPortFormatDescriptionChange(.video)
            if activeDepthDataFormat !== depthBefore { postPortFormatDescriptionChange(.depthData) }
        }
    }

    /// The default frame duration of a format: 30 fps, or the format's top rate if lower [I].
    static func defaultFrameDuration(_ format: Format) -> CMTime {
        AVFrameRateRange.duration(fps: min(30, format.maxFPS))
    }

    /// The shortest frame duration (1 / highest rate). Lock required; must lie in a supported
    /// range; `.invalid` restores the default (spec §2.4 [D]).
    public var activeVideoMinFrameDuration: CMTime {
        get { lock.withLock { inner.minFrameDuration } }
        set { setFrameDuration(newValue, selector: "setActiveVideoMinFrameDuration:", min: true) }
    }

    /// The longest frame duration (1 / lowest rate). Same rules as the minimum (spec §2.4 [D]).
    public var activeVideoMaxFrameDuration: CMTime {
        get { lock.withLock { inner.maxFrameDuration } }
        set { setFrameDuration(newValue, selector: "setActiveVideoMaxFrameDuration:", min: false) }
    }

    private func setFrameDuration(_ value: CMTime, selector: String, min: Bool) {
        let violation = lock.withLock { () -> Violation? in
            guard inner.isLocked else { return .deviceNotLocked(selector) }  // spec §2.4 [D]
            let format = inner.activeFormat
            let resolved = value.isValid ? value : AVCaptureDevice.defaultFrameDuration(format)
            // spec §2.4 [D][O]: outside every supported range is an invalid argument.
            guard format.videoSupportedFrameRateRanges.contains(where: { $0.contains(duration: resolved) }) else {
                return .unsupportedFrameDuration(selector, value)
            }
            if min { inner.minFrameDuration = resolved } else { inner.maxFrameDuration = resolved }
            return nil
        }
        raiseIfNeeded(violation)
    }

    // MARK: Colour (spec §2.6)

    /// The colour space of captured images. Lock required; must be supported by `activeFormat`.
    /// The session overwrites it while `automaticallyConfiguresCaptureDeviceForWideColor` is true (spec §1.4).
    public var activeColorSpace: AVCaptureColorSpace {
        get { lock.withLock { inner.colorSpace } }
        set {
            let violation = lock.withLock { () -> Violation? in
                guard inner.isLocked else { return .deviceNotLocked("setActiveColorSpace:") }  // spec §2.6 [D]
                guard inner.activeFormat.supportedColorSpaces.contains(newValue) else {
                    return .unsupportedColorSpace()  // spec §2.6 [I]
                }
                inner.colorSpace = newValue
                return nil
            }
            raiseIfNeeded(violation)
            observers.didChange(\AVCaptureDevice.activeColorSpace)
        }
    }

    func setColorSpaceInternally(_ space: AVCaptureColorSpace) {
        let changed = lock.withLock { () -> Bool in
            guard inner.colorSpace != space, inner.activeFormat.supportedColorSpaces.contains(space) else {
                return false
            }
            inner.colorSpace = space
            return true
        }
        if changed { observers.didChange(\AVCaptureDevice.activeColorSpace) }
    }

    /// Whether the client holds the configuration lock.
    var isConfigurationLocked: Bool { lock.withLock { inner.isLocked } }

    // MARK: Locking (spec §2.4)

    /// Whether the client holds the configuration lock.
    var isLockedForConfiguration: Bool { lock.withLock { inner.isLocked } }

    /// Takes exclusive control of the hardware properties. Emulated devices always grant it.
    open func lockForConfiguration() throws {
        lock.withLock { inner.isLocked = true }
    }

    /// Releases the lock. Without it held, nothing happens: Apple documents no exception here, so the emulator
    /// raises none (spec §2.4: only one unverified report says a phone raises).
    open func unlockForConfiguration() {
        lock.withLock { inner.isLocked = false }
    }

    // MARK: Flash (spec §2.7)

    /// Whether the device has a flash: a device flash and a back-facing camera. KVO.
    public var hasFlash: Bool { !isMicrophone && deviceProfile.hasFlash(camera) }

    /// Whether the flash can fire now; false while it is too hot. KVO.
    public var isFlashAvailable: Bool { lock.withLock { inner.isFlashAvailable } }

    /// Makes the flash temporarily unavailable (thermal), as the hardware may, or lets it cool; driven by
    /// `Emulation.setFlashThermallyUnavailable(_:for:)` and the `.flashThermallyUnavailable` fault.
    func setFlashTooHot(_ hot: Bool) {
        updateFlashAvailability { $0.flashTooHot = hot }
    }

    /// The system pressure now, and whether the level changed.
    var pressure: SystemPressureState { lock.withLock { inner.pressure } }

    /// Sets the system pressure (spec §21 rule 3): key-value observers of `systemPressureState` hear
    /// of it, and the flash follows it.
    func setPressure(_ state: SystemPressureState) {
        updateFlashAvailability { $0.pressure = state }
        observers.didChange(\AVCaptureDevice.systemPressureState)
    }

    /// Applies a change and recomputes `isFlashAvailable`: a flash that is neither too hot nor held back
    /// by serious or higher system pressure (spec §21 rules 3 and 6, our choice of level).
    private func updateFlashAvailability(_ change: (inout Inner) -> Void) {
        let changed = lock.withLock { () -> Bool in
            change(&inner)
            let value = hasFlash && !inner.flashTooHot && !inner.pressure.level.holdsBackFlash
            defer { inner.isFlashAvailable = value }
            return inner.isFlashAvailable != value
        }
        if changed {
            observers.didChange(\AVCaptureDevice.isFlashAvailable)
            // The torch is the flash hardware: it becomes unavailable, and goes dark, with it.
            observers.didChange(\AVCaptureDevice.isTorchAvailable)
            observers.didChange(\AVCaptureDevice.isTorchActive)
            observers.didChange(\AVCaptureDevice.torchLevel)
            observers.didChange(\AVCaptureDevice.isFlashActive)
        }
    }

    /// The format a session preset selects on this device, if it supports the preset.
    func format(for preset: AVCaptureSession.Preset) -> Format? {
        guard let p = preset.profilePreset, let f = camera.format(for: p) else { return nil }
        return allFormats.first { $0.profile.id == f.id }
    }

    /// `supportsAVCaptureSessionPreset:`.
    public func supportsSessionPreset(_ preset: AVCaptureSession.Preset) -> Bool {
        // The microphone records under every preset.
        isMicrophone || preset == .inputPriority || format(for: preset) != nil
    }

    // MARK: Discovery (spec §2.1)

    /// The default device of a type, media type and position; `.unspecified` matches any position.
    open class func `default`(_ deviceType: DeviceType, for mediaType: AVMediaType?, position: Position)
        -> AVCaptureDevice?
    {
        DiscoverySession(deviceTypes: [deviceType], mediaType: mediaType, position: position).devices.first
    }

    /// The camera primarily used for capture: the back wide-angle camera, else the first
    /// wide-angle camera. Virtual, telephoto and ultra-wide cameras are never returned (spec §2.1 [D]).
    open class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? {
        if mediaType == .audio { return Emulation.shared.currentWorld.microphone }  // spec §2.1 [D]
        guard mediaType == .video else { return nil }
        let wide = Emulation.shared.currentWorld.devices.filter { $0.camera.deviceType == .builtInWideAngleCamera }
        return wide.first { $0.camera.position == .back } ?? wide.first
    }
}

/// What lets `AVCaptureDevice(uniqueID:)` hand back the very device discovery returns, as `deviceWithUniqueID:`
/// does: a class's own initialiser cannot give back an existing object, an initialiser of a protocol extension can.
/// Not meant to be adopted by anything else.
public protocol _AVCaptureDeviceLookup {}

extension AVCaptureDevice: _AVCaptureDeviceLookup {}

extension _AVCaptureDeviceLookup where Self: AVCaptureDevice {
    /// The device whose `uniqueID` is `deviceUniqueID`: the same object discovery returns, so its configuration is
    /// the one a session using it sees; nil when no camera or microphone of the emulated device has that
    /// identifier (spec §2.1 [D]). Apps keep a camera's identifier to find it again on the next launch.
    public init?(uniqueID deviceUniqueID: String) {
        let world = Emulation.shared.currentWorld
        guard let device = (world.devices + [world.microphone]).first(where: { $0.uniqueID == deviceUniqueID }),
            let found = device as? Self
        else { return nil }
        self = found
    }
}
