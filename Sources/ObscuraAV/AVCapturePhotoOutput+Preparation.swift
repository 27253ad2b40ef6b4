import CaptureRules
import Foundation

/// Preparing for captures ahead of time (`setPreparedPhotoSettingsArray`, spec §3.1 [D]).
///
/// A phone allocates the buffers a set of settings needs so that the first capture with them is quick.
/// The emulator has nothing to allocate, but keeps the documented contract: the array is stored; the
/// handler runs with true once the session runs (at once, on a queue of the output's, when it
/// already does); a second call before then completes the first with false; an empty array releases
/// everything and completes with true.
extension AVCapturePhotoOutput {
    /// The settings last prepared; empty at first.
    public var preparedPhotoSettingsArray: [AVCapturePhotoSettings] {
        preparation.withLock { $0.prepared }
    }

    /// Prepares for captures with `preparedPhotoSettingsArray`; the handler says whether that worked.
    public func setPreparedPhotoSettingsArray(
        _ preparedPhotoSettingsArray: [AVCapturePhotoSettings],
        completionHandler: (@Sendable (Bool, Error?) -> Void)? = nil
    ) {
        let running = session?.isRunning == true
        let superseded = preparation.withLock { state -> (@Sendable (Bool, Error?) -> Void)? in
            let earlier = state.pending
            state.prepared = preparedPhotoSettingsArray
            state.pending = nil
            if !running && !preparedPhotoSettingsArray.isEmpty { state.pending = completionHandler }
            return earlier
        }
        if let superseded { DispatchQueue.global().async { superseded(false, nil) } }
        if running || preparedPhotoSettingsArray.isEmpty, let completionHandler {
            DispatchQueue.global().async { completionHandler(true, nil) }
        }
    }

    /// The session started: a preparation that waited for it completes.
    func sessionDidStartRunning() {
        let pending = preparation.withLock { state -> (@Sendable (Bool, Error?) -> Void)? in
            defer { state.pending = nil }
            return state.pending
        }
        if let pending { DispatchQueue.global().async { pending(true, nil) } }
    }

    /// Apple ProRAW capture (default false); may be set to true only where `isAppleProRAWSupported`,
    /// which no emulated device is (spec §3.1 [D]).
    public var isAppleProRAWEnabled: Bool {
        get { false }
        set {
            if newValue {
                Violation.invalidArgument(
                    "-[AVCapturePhotoOutput setAppleProRAWEnabled:]", "Apple ProRAW is not supported",
                    CaptureRule("§3.1", .documented, "isAppleProRAWEnabled may be set only when supported")
                ).raise()
            }
        }
    }
}

/// What `setPreparedPhotoSettingsArray` holds, behind its own lock.
final class PhotoPreparation: @unchecked Sendable {
    struct State {
        var prepared: [AVCapturePhotoSettings] = []
        var pending: (@Sendable (Bool, Error?) -> Void)?
    }
    private let lock = NSLock()
    private var state = State()

    func withLock<R>(_ body: (inout State) -> R) -> R { lock.withLock { body(&state) } }
}
