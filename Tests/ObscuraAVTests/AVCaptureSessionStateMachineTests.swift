import Obscura
import Foundation
import ObscuraAV
import Testing

/// Every call in every session state (spec §1.3), with the exact outcome.
@Suite struct AVCaptureSessionStateMachineTests {
    enum State: String, CaseIterable {
        case stopped, running, interrupted, configuring, configuringWhileRunning
    }

    enum Call: String, CaseIterable {
        case startRunning, stopRunning, beginConfiguration, commitConfiguration, setPreset, addOutput, removeOutput
    }

    /// The exception name expected, or nil, and the state afterwards (isRunning). A commit without a begin
    /// raises nothing (Apple documents no exception for it) and changes nothing.
    static func expected(_ state: State, _ call: Call) -> (NSExceptionName?, Bool) {
        let running = state == .running || state == .configuringWhileRunning
        switch (state, call) {
        case (.configuring, .startRunning), (.configuringWhileRunning, .startRunning),
            (.configuring, .stopRunning), (.configuringWhileRunning, .stopRunning):
            return (.genericException, running)
        case (_, .startRunning):
            // An interrupted session is not stopped; startRunning waits for the interruption to end.
            return (nil, state != .interrupted)
        case (_, .stopRunning):
            return (nil, false)
        default:
            return (nil, running)
        }
    }

    func make(_ state: State) throws -> PhotoRig {
        let rig = try PhotoRig(start: false)
        switch state {
        case .stopped: break
        case .running: rig.session.startRunning()
        case .interrupted:
            rig.session.startRunning()
            Emulator.shared.interrupt(rig.session, reason: .videoDeviceNotAvailableInBackground)
        case .configuring: rig.session.beginConfiguration()
        case .configuringWhileRunning:
            rig.session.startRunning()
            rig.session.beginConfiguration()
        }
        return rig
    }

    @Test(arguments: State.allCases, Call.allCases)
    func everyCallInEveryState(_ state: State, _ call: Call) throws {
        try onDevice {
            let rig = try make(state)
            let session = rig.session, output = rig.output
            let exception = Emulator.catchException {
                switch call {
                case .startRunning: session.startRunning()
                case .stopRunning: session.stopRunning()
                case .beginConfiguration: session.beginConfiguration()
                case .commitConfiguration: session.commitConfiguration()
                case .setPreset: session.sessionPreset = .photo
                case .addOutput: session.addOutput(AVCaptureVideoDataOutput())
                case .removeOutput: session.removeOutput(output)
                }
            }
            let (name, running) = Self.expected(state, call)
            #expect(exception?.name == name, "\(state) \(call): \(exception?.description ?? "no exception")")
            #expect(session.isRunning == running, "\(state) \(call)")
        }
    }
}
