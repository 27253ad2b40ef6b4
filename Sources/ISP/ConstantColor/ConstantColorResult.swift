import Imaging
import Sensor
import Spectra

/// Everything a Constant Color capture delivers.
public struct ConstantColorResult: Sendable {
    /// The Constant Color photo: Display P3 primaries, 2.2 gamma, 8 bits, 3 channels.
    public let photo: PixelPlane<UInt8>
    /// The confidence of each region.
    public let confidenceMap: ConfidenceMap
    /// The centre-weighted mean of the map, 0…1.
    public var centerWeightedMeanConfidence: Double { confidenceMap.centerWeightedMean }
    /// The ordinary photo of the ambient frame (`BasicDevelop`, Display P3).
    public let fallback: PixelPlane<UInt8>
    /// The flash-only picture without the low-confidence fill, encoded like `photo`.
    ///
    /// Made from the two frames on each access (nothing in a capture needs it, and at 12 MP it
    /// would cost as much again as the photo's own colour mapping); keep the value if it is used twice.
    /// The result therefore holds the two raw frames (their DN planes, 73 MB each at 12 MP) while it lives.
    public var flashOnly: PixelPlane<UInt8> { makeFlashOnly() }
    /// Encodes `flashOnly`.
    let makeFlashOnly: @Sendable () -> PixelPlane<UInt8>
    /// How the capture went.
    public internal(set) var diagnostics: Diagnostics

    /// One stage of a capture and its wall-clock time.
    public struct Stage: Sendable, Hashable {
        /// What the stage does ("render flash", "registration", ...).
        public let name: String
        /// Its wall-clock time, seconds.
        public let seconds: Double
        /// The CPU time the process spent in it on all threads, seconds.
        public let cpuSeconds: Double
    }

    /// What the pipeline measured and chose on the way.
    public struct Diagnostics: Sendable {
        /// The exposures used.
        public let plan: ConstantColorCapturePlan
        /// The registration shift d (ambient(x + d) ≈ flash(x)), pixels.
        public let registration: SIMD2<Double>
        /// The ambient light as the flash pair sees it: per-channel ratio of ambient to flash-only
        /// signal over confident pixels (electron rates), or the grey-world estimate without them.
        public let ambientToFlash: SIMD3<Double>
        /// Whether `ambientToFlash` came from confident pixels (false: grey-world fallback).
        public let ambientFromFlashPair: Bool
        /// The global exposure: linear XYZ per unit of neutral-normalised flash-only rate.
        public let exposureScale: Double
        /// Share of pixels clipped in either frame.
        public let clippedFraction: Double
        /// The ambient frame (no flash): as rendered, ground truth included, when `capture` made it (for
        /// evaluation; the pipeline saw only its readout), else the readout alone.
        public internal(set) var ambientFrame: RawFrame
        /// The flash frame, kept as `ambientFrame` is.
        public internal(set) var flashFrame: RawFrame
        /// The depth the device measured as the flash fired (`ConstantColorCapture.depth`), if any.
        public let measuredDepth: DepthMap?
        /// Wall-clock time of each stage, in order (rendering included when `capture` made the frames).
        public internal(set) var stageSeconds: [Stage]
    }
}
