import Foundation

extension AVCaptureDevice {
    /// Whether the app may capture `mediaType`. Emulated apps are authorised unless the emulator
    /// says otherwise (`Emulation.setAuthorizationStatus(_:for:)`) (spec §2.8 [D]).
    public class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        AuthorizationState.status(for: mediaType)
    }

    /// Asks for access to `mediaType` and calls `handler` on an arbitrary queue with the answer
    /// (spec §2.8 [D]). Only `.notDetermined` asks; the emulated person then allows it, and the
    /// status becomes `.authorized` (our choice [I]). Otherwise the answer is whether the status is
    /// `.authorized`, and nothing is asked.
    public class func requestAccess(
        for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void
    ) {
        let granted = AuthorizationState.request(mediaType)
        DispatchQueue.global().async { handler(granted) }
    }

    /// Asks for access to `mediaType` and returns the answer (see `requestAccess(for:completionHandler:)`).
    public class func requestAccess(for mediaType: AVMediaType) async -> Bool {
        AuthorizationState.request(mediaType)
    }
}
