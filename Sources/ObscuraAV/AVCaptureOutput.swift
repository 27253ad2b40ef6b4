import CaptureRules
import Foundation

/// A destination for a session's media (`AVCaptureOutput`).
open class AVCaptureOutput: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
    /// The session holding the output.
    weak var session: AVCaptureSession?
    /// Key-value observers of every output's observable properties (a photo output's readiness, a
    /// movie output's recording state).
    let observers = ObserverRegistry()

    /// The output whose connections this one uses: itself, except for the photo output that
    /// captures for an `AVCaptureStillImageOutput`.
    weak var connectionsOwner: AVCaptureOutput?

    /// The connections feeding the output.
    public var connections: [AVCaptureConnection] {
        let owner = connectionsOwner ?? self
        return session?.connections.filter { $0.output === owner } ?? []
    }

    /// The first connection carrying a media type.
    public func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        connections.first { $0.inputPorts.contains { $0.mediaType == mediaType } }
    }

    /// Which media the output accepts: it gets one connection per accepted input port (spec §1.5).
    func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video }

    /// Called on the session queue after the outermost commit resolved the graph.
    func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {}

    /// The name Apple prints in refusals.
    var className: String { String(describing: type(of: self)) }

    private let deferralLock = NSLock()
    private var deferralChoice: Bool?

    /// Whether the output can start after the session (iOS 26): every output can, except the still image output,
    /// which predates the feature (spec §1.7, our choice).
    open var isDeferredStartSupported: Bool { true }

    /// Whether the session starts the output only when it runs its deferred start (spec §1.7 [D]). By default true
    /// for photo and file outputs, as for an app linked on iOS 26 or later, and false for the outputs that stream
    /// data to the app. Setting it true where `isDeferredStartSupported` is false raises.
    open var isDeferredStartEnabled: Bool {
        get {
            deferralLock.withLock { deferralChoice }
                ?? (isDeferredStartSupported && (self is AVCapturePhotoOutput || self is AVCaptureFileOutput))
        }
        set {
            if newValue, !isDeferredStartSupported {
                Violation.invalidArgument(
                    "-[\(className) setDeferredStartEnabled:]", "Deferred start is not supported by this output",
                    CaptureRule("§1.7", .documented, "deferred start may be enabled only where it is supported")
                ).raise()
            }
            deferralLock.withLock { deferralChoice = newValue }
        }
    }
}

extension AVCaptureOutput {
    /// Why a data output dropped a sample (spec §7 [D], `AVCaptureOutputBase.h`).
    public enum DataDroppedReason: Int, Sendable, Hashable {
        case none = 0
        /// The callback queue was busy and late data is discarded.
        case lateData = 1
        /// The client held on to too many buffers of the finite pool.
        case outOfBuffers = 2
        /// The source lost an unknown number of frames.
        case discontinuity = 3
    }
}
