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
