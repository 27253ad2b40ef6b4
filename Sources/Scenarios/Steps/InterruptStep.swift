import Obscura
import ObscuraAV
import ObscuraSupport

/// `interrupt: videoDeviceInUseByAnotherClient`: the system interrupts the session.
struct InterruptStep: ScenarioStep {
    static let key = "interrupt"
    static let summary = "interrupts the session, as a phone call or another app would"
    let reason: AVCaptureSession.InterruptionReason
    let reasonName: String

    init(value: YAMLNode?, step: YAMLNode) throws {
        let node = try Self.requireValue(value, step: step)
        reason = try node.named(interruptionReasonsByName, what: "interruption reason")
        reasonName = try node.string()
    }

    var apiCalls: [String] { ["Emulator.shared.interrupt(session, reason: .\(reasonName))"] }
    var specSections: [String] { ["§1.3", "§21"] }

    func perform(_ context: RunContext) throws {
        Emulator.shared.interrupt(context.session, reason: reason)
    }
}
