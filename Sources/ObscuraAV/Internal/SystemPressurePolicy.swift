import Foundation

/// What each system pressure level does to the emulated camera (spec §21 rule 3).
///
/// Apple documents the levels and asks apps to lower their frame rate from `.serious` on, and says the
/// system may lower capture quality by itself before it shuts the camera down at `.shutdown`. How far a
/// phone throttles is not documented; the caps below are our choice, the rates Apple's camera sample
/// throttles to under pressure: at most 30 frames per second at `.serious`, 15 at `.critical`. The flash,
/// the camera's largest power draw, is held back from `.serious` on (our choice).
extension AVCaptureDevice.SystemPressureState.Level {
    /// The highest frame rate the stream keeps at this level; nil when it is not throttled.
    var frameRateCap: Int32? {
        switch self {
        case .serious: return 30
        case .critical: return 15
        default: return nil
        }
    }

    /// Whether the flash (and torch) is unavailable at this level.
    var holdsBackFlash: Bool { self == .serious || self == .critical || self == .shutdown }

    /// Whether the capture system shuts down at this level, interrupting the session.
    var shutsDown: Bool { self == .shutdown }
}
