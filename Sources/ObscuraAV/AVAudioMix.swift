import Foundation

/// How loud each sound track plays over time (AVFoundation's `AVAudioMix`, Capture rules §25 rule 17): one set of
/// input parameters per track, each a volume held or ramped over time.
open class AVAudioMix: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    let lock = NSLock()
    var parameters: [AVAudioMixInputParameters] = []

    public required override init() { super.init() }

    /// The tracks' parameters.
    open var inputParameters: [AVAudioMixInputParameters] { lock.withLock { parameters } }

    public func copy(with zone: NSZone? = nil) -> Any { copy(as: AVAudioMix.self) }
    public func mutableCopy(with zone: NSZone? = nil) -> Any { copy(as: AVMutableAudioMix.self) }

    /// A copy of the kind asked for, its parameters copied too, as consumers keep one.
    func copy<T: AVAudioMix>(as type: T.Type) -> T {
        let copy = T()
        copy.parameters = lock.withLock { parameters.map { $0.copy(as: AVAudioMixInputParameters.self) } }
        return copy
    }

    /// Each track's volume over time, by track identifier; the first parameters given for a track count.
    var volumes: [CMPersistentTrackID: Ramps<Float>] {
        var volumes: [CMPersistentTrackID: Ramps<Float>] = [:]
        for p in inputParameters where volumes[p.trackID] == nil { volumes[p.trackID] = p.lock.withLock { p.volumes } }
        return volumes
    }
}

/// An audio mix apps build (AVFoundation's `AVMutableAudioMix`).
open class AVMutableAudioMix: AVAudioMix, @unchecked Sendable {
    public required init() { super.init() }

    override open var inputParameters: [AVAudioMixInputParameters] {
        get { super.inputParameters }
        set { lock.withLock { parameters = newValue } }
    }
}

/// One track's volume over time in an audio mix (AVFoundation's `AVAudioMixInputParameters`): 1 until a value is
/// set, each value held until the next, each ramp linear over its range.
open class AVAudioMixInputParameters: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    let lock = NSLock()
    var track = kCMPersistentTrackID_Invalid
    var volumes = Ramps<Float>(initial: 1)
    var pitchAlgorithm: AVAudioTimePitchAlgorithm?

    public required override init() { super.init() }

    /// The track the volume applies to.
    open var trackID: CMPersistentTrackID { lock.withLock { track } }

    /// How a scaled segment keeps its pitch; sound here is resampled whatever it says (its pitch moves with its
    /// speed).
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? { lock.withLock { pitchAlgorithm } }

    /// The volume at `time`: the ramp (or held value) that covers it, with the range it covers; false past the last
    /// ramp's end, where the last value holds.
    open func getVolumeRamp(
        for time: CMTime, startVolume: UnsafeMutablePointer<Float>?, endVolume: UnsafeMutablePointer<Float>?,
        timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        lock.withLock { volumes }.ramp(at: time, start: startVolume, end: endVolume, range: timeRange)
    }

    public func copy(with zone: NSZone? = nil) -> Any { copy(as: AVAudioMixInputParameters.self) }
    public func mutableCopy(with zone: NSZone? = nil) -> Any { copy(as: AVMutableAudioMixInputParameters.self) }

    /// A copy of the kind asked for.
    func copy<T: AVAudioMixInputParameters>(as type: T.Type) -> T {
        let copy = T()
        lock.withLock { (copy.track, copy.volumes, copy.pitchAlgorithm) = (track, volumes, pitchAlgorithm) }
        return copy
    }
}

/// A track's volume apps build (AVFoundation's `AVMutableAudioMixInputParameters`).
open class AVMutableAudioMixInputParameters: AVAudioMixInputParameters, @unchecked Sendable {
    public required init() { super.init() }

    /// Parameters for `track` (none: set `trackID`).
    public convenience init(track: AVAssetTrack?) {
        self.init()
        self.track = track?.trackID ?? kCMPersistentTrackID_Invalid
    }

    override open var trackID: CMPersistentTrackID {
        get { super.trackID }
        set { lock.withLock { track = newValue } }
    }

    override open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? {
        get { super.audioTimePitchAlgorithm }
        set { lock.withLock { pitchAlgorithm = newValue } }
    }

    /// Holds `volume` (0 silent, 1 as recorded) from `time` on.
    open func setVolume(_ volume: Float, at time: CMTime) {
        lock.withLock { volumes.set(volume, at: time) }
    }

    /// Moves the volume linearly over `timeRange`, as a fade in or out does.
    open func setVolumeRamp(fromStartVolume startVolume: Float, toEndVolume endVolume: Float, timeRange: CMTimeRange) {
        lock.withLock { volumes.ramp(from: startVolume, to: endVolume, over: timeRange) }
    }
}

/// How sound played faster or slower keeps its pitch (AVFoundation's `AVAudioTimePitchAlgorithm`).
public struct AVAudioTimePitchAlgorithm: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let lowQualityZeroLatency = AVAudioTimePitchAlgorithm(rawValue: "LowQualityZeroLatency")
    public static let timeDomain = AVAudioTimePitchAlgorithm(rawValue: "TimeDomain")
    public static let spectral = AVAudioTimePitchAlgorithm(rawValue: "Spectral")
    public static let varispeed = AVAudioTimePitchAlgorithm(rawValue: "Varispeed")
}
