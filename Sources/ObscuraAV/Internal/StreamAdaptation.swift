import Foundation
import ISP
import Sensor

/// A streaming camera's 3A state: the exposure and the white balance its frames are developed with,
/// moving each frame towards what auto-exposure and auto white balance ask for the current picture.
///
/// A phone's video does not jump to a new exposure or white balance when the light changes: the
/// control loop moves part of the way each frame, so a lamp switched on brightens and re-tints the
/// picture over a fraction of a second. Here each frame moves the state by 1 − exp(−Δt/τ) of its
/// remaining distance (a first-order loop), exposure in EV (log2 of time × ISO) and white balance in
/// mired (1e6 / CCT, the scale on which the light locus is roughly uniform). The time constants are
/// our choice (Apple publishes none): exposure settles within 0.05 EV of a 3 EV step in about half a
/// second, white balance within 2 mired of a 200-mired step in about a second.
///
/// The state starts at the target when a session starts streaming (our choice: the camera's
/// start-up, which `startRunning()` waits for, settles 3A before the first frame is delivered), and
/// once within `settled` of the target it takes the target exactly, so a steady scene's frames are
/// the photos' picture and come from the stream cache. Frames are counted, not timed, so every run
/// gives the same sequence whatever the thread count.
struct StreamAdaptation: Sendable, Hashable {
    /// Time constant of the exposure loop, seconds.
    static let exposureTimeConstant = 0.12
    /// Time constant of the white-balance loop, seconds.
    static let whiteBalanceTimeConstant = 0.2
    /// How close counts as settled: EV and mired.
    static let settled = (ev: 0.02, mired: 1.0)

    /// What the loop aims at: the metered exposure and the auto white balance's light.
    struct Target: Sendable, Hashable {
        /// The metered exposure time, seconds, and ISO.
        let time: Double, iso: Double
        /// The auto white balance's light, mired; nil when nothing could be estimated.
        let mired: Double?

        var ev: Double { log2(time * iso) }
    }

    /// The exposure in use, log2(time × ISO).
    private(set) var ev: Double
    /// The white balance in use, mired.
    private(set) var mired: Double?
    /// Where the loop is heading.
    private(set) var target: Target

    /// A loop settled on its target.
    init(settledOn target: Target) {
        self.target = target
        ev = target.ev
        mired = target.mired
    }

    /// One frame of Δt seconds towards `target`.
    mutating func advance(towards target: Target, seconds: Double) {
        self.target = target
        let step = max(seconds, 0)
        ev += (target.ev - ev) * (1 - exp(-step / Self.exposureTimeConstant))
        if abs(target.ev - ev) < Self.settled.ev { ev = target.ev }
        if let aim = target.mired {
            var m = mired ?? aim
            m += (aim - m) * (1 - exp(-step / Self.whiteBalanceTimeConstant))
            if abs(aim - m) < Self.settled.mired { m = aim }
            mired = m
        } else {
            mired = nil
        }
    }

    /// Whether the exposure is still moving.
    var isAdjustingExposure: Bool { ev != target.ev }
    /// Whether the white balance is still moving.
    var isAdjustingWhiteBalance: Bool { mired != target.mired }

    /// The exposure in use: the metered time, with the ISO carrying the remaining difference (a
    /// phone's loop moves gain first, which takes effect on the next frame).
    var exposure: (time: Double, iso: Double) { (target.time, target.iso * pow(2, ev - target.ev)) }

    /// The colour temperature in use, kelvin.
    var cct: Double? { mired.map { 1e6 / $0 } }
}
