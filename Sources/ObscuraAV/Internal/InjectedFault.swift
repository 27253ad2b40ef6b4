import Foundation

/// A fault the emulator makes happen to a session, as a phone would meet it (spec §21): the control
/// API's `CaptureFault` (in the `Obscura` module, since `ObscuraAV` exports Apple's names only), in the
/// terms the session, devices and stream act on.
///
/// Injected at once with `Emulation.inject(_:into:)` or scheduled at a moment of a session's stream with
/// `Emulation.schedule(_:at:)`, each reaches the app only through Apple's notifications, errors,
/// delegate callbacks and key-value observable properties, and leaves a `§21` entry in the trace that
/// names the rule it follows.
package enum InjectedFault: Sendable, Hashable, CustomStringConvertible {
    /// The session fails while running: `runtimeErrorNotification` with the `AVError` under
    /// `AVCaptureSessionErrorKey`, and the session stops (spec §21 rule 1).
    case runtimeError(AVError.Code)
    /// The system interrupts the running session for a reason (spec §21 rule 2).
    case interruption(AVCaptureSession.InterruptionReason)
    /// The interruption ends; the session runs again unless the app stopped it (spec §21 rule 2).
    case interruptionEnded
    /// The device's system pressure changes to a level, with the factors behind it (spec §21 rule 3).
    case systemPressure(AVCaptureDevice.SystemPressureState.Level, factors: AVCaptureDevice.SystemPressureState.Factors)
    /// The next `count` video frames are dropped for a reason: each video data output's delegate hears
    /// `captureOutput(_:didDrop:from:)` instead of the frame (spec §21 rule 4).
    case droppedFrames(Int, reason: DroppedFrameReason)
    /// The volume fills up: every movie file output's recording finishes with `AVError.diskFull`
    /// (spec §21 rule 5).
    case diskFull
    /// The flash becomes too hot to fire, or cools again (spec §21 rule 6).
    case flashThermallyUnavailable(Bool)

    /// Why frames were dropped: the values of `kCMSampleBufferAttachmentKey_DroppedFrameReason`.
    package enum DroppedFrameReason: String, Sendable, Hashable, CaseIterable {
        /// `kCMSampleBufferDroppedFrameReason_FrameWasLate`: the client's queue was still busy.
        case frameWasLate = "FrameWasLate"
        /// `kCMSampleBufferDroppedFrameReason_OutOfBuffers`: the client held on to too many buffers.
        case outOfBuffers = "OutOfBuffers"
        /// `kCMSampleBufferDroppedFrameReason_Discontinuity`: the source lost frames.
        case discontinuity = "Discontinuity"

        /// The same reason as a synchronizer reports it (`AVCaptureOutput.DataDroppedReason`).
        var dataDroppedReason: AVCaptureOutput.DataDroppedReason {
            switch self {
            case .frameWasLate: return .lateData
            case .outOfBuffers: return .outOfBuffers
            case .discontinuity: return .discontinuity
            }
        }
    }

    /// When a scheduled fault happens, on the stream of the session it reaches.
    package enum Moment: Sendable, Hashable, CustomStringConvertible {
        /// Before the first video frame whose presentation time is at or after this many seconds of
        /// the session's timeline.
        case seconds(Double)
        /// Before video frame `n` of the session's stream (0 is the first frame it makes).
        case frame(Int)

        package var description: String {
            switch self {
            case .seconds(let s): return "at \(s) s"
            case .frame(let n): return "at frame \(n)"
            }
        }
    }

    package var description: String {
        switch self {
        case .runtimeError(let code): return "runtime error \(code) (\(code.rawValue))"
        case .interruption(let reason): return "interruption (\(reason))"
        case .interruptionEnded: return "end of the interruption"
        case .systemPressure(let level, let factors):
            let named = factors.names.joined(separator: ", ")
            return "system pressure \(level.rawValue)" + (factors.isEmpty ? "" : " (\(named))")
        case .droppedFrames(let count, let reason):
            return "\(count) dropped frame\(count == 1 ? "" : "s") (\(reason.rawValue))"
        case .diskFull: return "disk full"
        case .flashThermallyUnavailable(let hot): return hot ? "flash thermally unavailable" : "flash cooled"
        }
    }
}

extension AVCaptureDevice.SystemPressureState.Factors {
    /// Apple's Swift names of the factors set, in declaration order.
    package var names: [String] {
        let all: [(Self, String)] = [
            (.systemTemperature, "systemTemperature"), (.peakPower, "peakPower"),
            (.depthModuleTemperature, "depthModuleTemperature"), (.cameraTemperature, "cameraTemperature"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}
