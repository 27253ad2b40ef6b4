import Foundation

/// A destination for a session's media (`AVCaptureOutput`).
open class AVCaptureOutput: NSObject, @unchecked Sendable {
    /// The session holding the output.
    weak var session: AVCaptureSession?
    var everAdded = false

    /// The connections feeding the output.
    public var connections: [AVCaptureConnection] {
        session?.connections.filter { $0.output === self } ?? []
    }

    /// The first connection carrying a media type.
    public func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        connections.first { $0.inputPorts.contains { $0.mediaType == mediaType } }
    }

    /// Which media the output accepts.
    func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video }

    /// Called on the session queue after the outermost commit resolved the graph.
    func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {}

    /// The name Apple prints in refusals.
    var className: String { String(describing: type(of: self)) }
}

/// Delivers video frames to a delegate (`AVCaptureVideoDataOutput`); streaming lands later.
open class AVCaptureVideoDataOutput: AVCaptureOutput, @unchecked Sendable {
    /// Drop frames that arrive while the delegate is still busy (default true).
    public var alwaysDiscardsLateVideoFrames = true
    public override init() { super.init() }
}

/// Records movies (`AVCaptureMovieFileOutput`); recording lands later.
open class AVCaptureMovieFileOutput: AVCaptureOutput, @unchecked Sendable {
    public override init() { super.init() }
}

/// The still-image output deprecated since iOS 10 (`AVCaptureStillImageOutput`); it cannot share a
/// session with a photo output (spec §1.2 [D]).
open class AVCaptureStillImageOutput: AVCaptureOutput, @unchecked Sendable {
    public override init() { super.init() }
}

/// Delivers depth maps (`AVCaptureDepthDataOutput`, spec §7); delivery lands later.
open class AVCaptureDepthDataOutput: AVCaptureOutput, @unchecked Sendable {
    /// Drop depth that arrives while the delegate is busy (spec §7 [D]: default true).
    public var alwaysDiscardsLateDepthData = true
    /// Temporal smoothing and hole filling (spec §7 [D]: default true).
    public var isFilteringEnabled = true
    public override init() { super.init() }
    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video || mediaType == .depthData }
}
