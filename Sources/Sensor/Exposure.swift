/// How one frame is exposed and which random numbers it uses.
public struct Exposure: Sendable, Hashable {
    /// Integration time, seconds.
    public var time: Double
    /// ISO speed; the gain is relative to the sensor's base ISO.
    public var iso: Double
    /// Whether the flash fires.
    public var flash: Bool
    /// How long the flash light reaches the sensor, seconds; nil means the whole exposure.
    public var flashDuration: Double?
    /// Seed of the temporal noise.
    public var seed: UInt64
    /// Frame number; noise is independent between frames with the same seed.
    public var frameIndex: UInt64
    /// Per sensor row, the room light's mean over that row's integration window relative to its mean over time:
    /// the flicker of mains-powered lamps seen through a rolling shutter (`ConstantColorCaptureErrors`). Nil, or
    /// an empty list, is steady light; otherwise it has one entry per row. The flash is never scaled.
    public var ambientRowGains: [Float]?

    /// An exposure.
    public init(
        time: Double, iso: Double, flash: Bool = false, flashDuration: Double? = nil, seed: UInt64 = 0,
        frameIndex: UInt64 = 0, ambientRowGains: [Float]? = nil
    ) {
        self.ambientRowGains = ambientRowGains
        self.time = time
        self.iso = iso
        self.flash = flash
        self.flashDuration = flashDuration
        self.seed = seed
        self.frameIndex = frameIndex
    }
}
