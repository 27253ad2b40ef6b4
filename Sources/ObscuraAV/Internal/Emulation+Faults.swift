import CaptureRules
import Foundation

/// Faults, injected at once or scheduled on a session's stream (spec §21). Each reaches the app only
/// through Apple's notifications, errors, callbacks and observable properties, and leaves a trace entry
/// naming the rule it follows, for `obscura explain`.
extension Emulation {
    /// Makes a fault happen to a session now (spec §21).
    package func inject(_ fault: InjectedFault, into session: AVCaptureSession) {
        recordFault(fault)
        switch fault {
        case .runtimeError(let code):
            session.failAtRuntime(AVError(code))
        case .interruption(let reason):
            session.interrupt(reason: reason)
        case .interruptionEnded:
            session.endInterruption()
        case .systemPressure(let level, let factors):
            let state = AVCaptureDevice.SystemPressureState(level: level, factors: factors)
            currentWorld.thermal.follow(state)
            for device in session.videoDevices {
                let wasShutDown = device.pressure.level.shutsDown
                device.setPressure(state)
                if level.shutsDown {
                    session.interrupt(reason: .videoDeviceNotAvailableDueToSystemPressure, pressure: state)
                } else if wasShutDown, session.interruptionReason == .videoDeviceNotAvailableDueToSystemPressure {
                    // spec §21 rule 3 [D]: interrupted until the pressure abates.
                    session.endInterruption()
                }
            }
        case .droppedFrames(let count, let reason):
            StreamEngine.shared.dropFrames(of: session, count: count, reason: reason)
        case .diskFull:
            for case let output as AVCaptureFileOutput in session.outputs { output.activeRecording?.stop(.diskFull) }
        case .flashThermallyUnavailable(let hot):
            for device in session.videoDevices { device.setFlashTooHot(hot) }
        }
    }

    /// Schedules a fault for the moment of a stream: it happens to the first session of the world (the
    /// task's inside `withDevice`) whose stream reaches that time or frame, before the frame is made.
    package func schedule(_ fault: InjectedFault, at moment: InjectedFault.Moment) {
        faultSchedule.add(fault, at: moment)
    }

    /// Forgets the faults scheduled in this world that have not happened yet.
    package func cancelScheduledFaults() { faultSchedule.removeAll() }

    /// Whether faults wait for their moment in this world.
    var hasScheduledFaults: Bool { !faultSchedule.isEmpty }

    /// Called by the stream before frame `frame` (at `time`) of `session`: the faults due happen.
    /// Returns the faults that happened.
    @discardableResult
    func fireScheduledFaults(frame: Int, time: CMTime, session: AVCaptureSession) -> [InjectedFault] {
        let schedule = faultSchedule
        guard !schedule.isEmpty else { return [] }
        let due = schedule.takeDue(frame: frame, seconds: time.seconds)
        for entry in due {
            record(TraceEntry(
                section: "§21", rule: 7, outcome: .decided,
                sentence: "The fault scheduled \(entry.moment) happened before frame \(frame) "
                    + "(\(Self.seconds(time)) s of the session's timeline)."))
            inject(entry.fault, into: session)
        }
        return due.map(\.fault)
    }

    private var faultSchedule: FaultSchedule { scopedWorld?.faults ?? globalFaults }

    private static func seconds(_ time: CMTime) -> String {
        let s = time.seconds
        return s == s.rounded() ? String(Int(s)) : String(format: "%.3f", s)
    }

    /// The trace entry of a fault: what the app sees, under the rule that says so.
    func recordFault(_ fault: InjectedFault) {
        let (rule, sentence): (Int, String)
        switch fault {
        case .runtimeError(let code):
            rule = 1
            sentence = "Runtime error \(code) (\(code.rawValue)): runtimeErrorNotification with the AVError under "
                + "AVCaptureSessionErrorKey; a running session stops (isRunning false, didStopRunningNotification) "
                + "until the app calls startRunning() again."
        case .interruption(let reason):
            rule = 2
            sentence = "Interrupted, reason \(reason) (\(reason.rawValue)): a running session posts "
                + "wasInterruptedNotification with AVCaptureSessionInterruptionReasonKey, isInterrupted turns true, "
                + "isRunning false, and no frames arrive until the interruption ends."
        case .interruptionEnded:
            rule = 2
            sentence = "The interruption ended: interruptionEndedNotification, and the session runs again unless the "
                + "app stopped it."
        case .systemPressure(let level, _):
            rule = 3
            var effect: String
            if let cap = level.frameRateCap {
                effect = "frames come at most \(cap) a second"
            } else if level.shutsDown {
                effect = "the capture system shuts down: the session is interrupted with "
                    + "videoDeviceNotAvailableDueToSystemPressure and the state under "
                    + "AVCaptureSessionInterruptionSystemPressureStateKey"
            } else {
                effect = "frames come at the active frame rate"
            }
            if level.holdsBackFlash { effect += "; the flash and torch are unavailable" }
            sentence = "systemPressureState is now \(fault.pressureDescription) (key-value observable): \(effect)."
        case .droppedFrames(let count, let reason):
            rule = 4
            sentence = "The next \(count) video frame\(count == 1 ? "" : "s") reach video data outputs as "
                + "captureOutput(_:didDrop:from:), kCMSampleBufferAttachmentKey_DroppedFrameReason "
                + "\(reason.rawValue), with no pixels."
        case .diskFull:
            rule = 5
            sentence = "The disk is full: a recording finishes with AVError.diskFull (-11807) and "
                + "AVErrorRecordingSuccessfullyFinishedKey true; the file holds what was recorded and plays."
        case .flashThermallyUnavailable(let hot):
            rule = 6
            sentence = hot
                ? "The flash is too hot: isFlashAvailable and isTorchAvailable turn false, and photos are taken "
                    + "without it."
                : "The flash has cooled: isFlashAvailable is true again."
        }
        record(TraceEntry(section: "§21", rule: rule, outcome: .decided, sentence: sentence))
    }
}

extension InjectedFault {
    /// `serious (systemTemperature)`.
    fileprivate var pressureDescription: String {
        guard case .systemPressure(let level, let factors) = self else { return "" }
        return level.rawValue + (factors.isEmpty ? "" : " (\(factors.names.joined(separator: ", ")))")
    }
}
