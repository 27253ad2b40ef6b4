import Foundation

/// A layer that shows a session's video (`AVCaptureVideoPreviewLayer`), and converts between its points and
/// the capture device's (spec §19).
///
/// Device points and metadata-output rectangles are normalised to the sensor's own landscape image: (0, 0) is
/// its top-left, (1, 1) its bottom-right, whatever the connection's rotation and mirroring (spec §19.2 [D]).
/// A layer point passes through the video rectangle that the gravity lays out in the bounds, then through the
/// connection's mirror and rotation undone, so that a point on a subject in the preview names the same
/// subject for focus, exposure and metadata.
open class AVCaptureVideoPreviewLayer: CALayer, @unchecked Sendable {
    private struct Inner {
        var session: AVCaptureSession?
        var makesConnection = true
        var connection: AVCaptureConnection?
        var gravity = AVLayerVideoGravity.resizeAspect
        var defersStart = false
    }

    private let state = NSLock()
    private var inner = Inner()

    /// A layer showing `session`'s video through a connection to its camera input.
    public init(session: AVCaptureSession) {
        super.init()
        inner.session = session
        session.previewLayers.add(self)
    }

    /// A layer attached to `session` without a connection; the client adds one (spec §19.1 [D]).
    public init(sessionWithNoConnection session: AVCaptureSession) {
        super.init()
        inner.session = session
        inner.makesConnection = false
        session.previewLayers.add(self)
    }

    /// A layer with no session.
    public required init() { super.init() }

    /// A copy of another layer's geometry (Core Animation's presentation copies).
    public override init(layer: Any) { super.init(layer: layer) }

    /// The session whose video the layer shows. Setting it forms a new connection.
    open var session: AVCaptureSession? {
        get { state.withLock { inner.session } }
        set {
            let old = state.withLock {
                let old = inner.session
                inner.session = newValue
                inner.makesConnection = true
                inner.connection = nil
                return old
            }
            old?.previewLayers.remove(self)
            newValue?.previewLayers.add(self)
        }
    }

    /// Attaches `session` without forming a connection.
    open func setSessionWithNoConnection(_ session: AVCaptureSession) {
        let old = state.withLock {
            let old = inner.session
            inner.session = session
            inner.makesConnection = false
            inner.connection = nil
            return old
        }
        old?.previewLayers.remove(self)
        session.previewLayers.add(self)
    }

    /// The connection from the session's camera to this layer; nil without a session or a camera input (spec §19.1
    /// [D]). It is formed once the session has a camera, and kept while that camera stays. A layer made with no
    /// connection has the one the app added to the session (`AVCaptureSession.addConnection(_:)`), nil until then.
    open var connection: AVCaptureConnection? {
        let (session, makes, current) = state.withLock { (inner.session, inner.makesConnection, inner.connection) }
        guard makes else { return current }
        guard let session else { return nil }
        let port = session.inputs.lazy.compactMap { $0 as? AVCaptureDeviceInput }
            .flatMap { $0.ports }.first { $0.mediaType == .video }
        guard let port else { return nil }
        if let current, current.inputPorts.first === port { return current }
        let made = AVCaptureConnection(inputPort: port, videoPreviewLayer: self)
        state.withLock { inner.connection = made }
        return made
    }

    /// Whether the layer waits for the app to add its connection (`init(sessionWithNoConnection:)`).
    var waitsForConnection: Bool { state.withLock { !inner.makesConnection } }

    /// Takes or drops the connection the app added or removed (`AVCaptureSession.addConnection(_:)`).
    func setAddedConnection(_ connection: AVCaptureConnection?) { state.withLock { inner.connection = connection } }

    /// How the video fits the bounds (default `.resizeAspect`).
    open var videoGravity: AVLayerVideoGravity {
        get { state.withLock { inner.gravity } }
        set { state.withLock { inner.gravity = newValue } }
    }

    /// Whether video is flowing to the layer: the session runs, the connection is enabled, and a layer that defers
    /// its start has been started by the session's deferred start (spec §1.7).
    open var isPreviewing: Bool {
        guard let session, session.isRunning, connection?.isEnabled ?? false else { return false }
        return session.hasStarted(self)
    }

    /// Whether the layer can start after the session (iOS 26): true (spec §1.7).
    open var isDeferredStartSupported: Bool { true }

    /// Whether the layer starts showing video only when the session runs its deferred start (spec §1.7 [D]). False
    /// by default: a preview layer's job is to show the first frame.
    open var isDeferredStartEnabled: Bool {
        get { state.withLock { inner.defersStart } }
        set { state.withLock { inner.defersStart = newValue } }
    }

    // MARK: - Conversions (spec §19.2)

    /// The device point (0…1 over the sensor's landscape image) under `pointInLayer`.
    open func captureDevicePointConverted(fromLayerPoint pointInLayer: CGPoint) -> CGPoint {
        geometry().devicePoint(fromLayerPoint: pointInLayer)
    }

    /// The layer point showing `captureDevicePointOfInterest`.
    open func layerPointConverted(fromCaptureDevicePoint captureDevicePointOfInterest: CGPoint) -> CGPoint {
        geometry().layerPoint(fromDevicePoint: captureDevicePointOfInterest)
    }

    /// The metadata-output rectangle (device space, as `AVCaptureMetadataOutput.rectOfInterest`) covering
    /// `rectInLayerCoordinates`.
    open func metadataOutputRectConverted(fromLayerRect rectInLayerCoordinates: CGRect) -> CGRect {
        let g = geometry()
        return Self.rect(
            g.devicePoint(fromLayerPoint: CGPoint(x: rectInLayerCoordinates.minX, y: rectInLayerCoordinates.minY)),
            g.devicePoint(fromLayerPoint: CGPoint(x: rectInLayerCoordinates.maxX, y: rectInLayerCoordinates.maxY)))
    }

    /// The layer rectangle covering the metadata-output rectangle `rectInMetadataOutputCoordinates`.
    open func layerRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        Self.layerRect(fromDeviceRect: rectInMetadataOutputCoordinates, geometry())
    }

    /// The metadata object (as `AVCaptureMetadataOutput` delivers it, in device coordinates) in this layer's
    /// coordinates: its bounds converted as `layerRectConverted(fromMetadataOutputRect:)` does and a code's
    /// corners as `layerPointConverted(fromCaptureDevicePoint:)` does, so a box drawn with them sits on the
    /// object in the preview (spec §19.2 [D]). Apple's code-reading sample draws its overlays this way.
    open func transformedMetadataObject(for metadataObject: AVMetadataObject) -> AVMetadataObject? {
        let g = geometry()
        return metadataObject.moved(
            bounds: Self.layerRect(fromDeviceRect: metadataObject.bounds, g), point: g.layerPoint(fromDevicePoint:),
            quarterTurns: g.transform.quarterTurns, mirrored: g.transform.mirrored)
    }

    /// A device rectangle in layer coordinates under the geometry `g`.
    private static func layerRect(fromDeviceRect r: CGRect, _ g: PreviewGeometry) -> CGRect {
        rect(
            g.layerPoint(fromDevicePoint: CGPoint(x: r.minX, y: r.minY)),
            g.layerPoint(fromDevicePoint: CGPoint(x: r.maxX, y: r.maxY)))
    }

    /// The rectangle spanned by two opposite corners. Rotations by quarter turns and mirrors map rectangles to
    /// rectangles, so the two converted corners determine the result.
    private static func rect(_ a: CGPoint, _ b: CGPoint) -> CGRect {
        CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The layer's current geometry: bounds, gravity, the video's size and the connection's transform.
    private func geometry() -> PreviewGeometry {
        let connection = connection
        let device = connection?.deviceInput?.device
        let size = device.map { d -> CGSize in
            let dims = d.activeFormat.formatDescription.dimensions
            return CGSize(width: CGFloat(dims.width), height: CGFloat(dims.height))
        }
        return PreviewGeometry(
            bounds: bounds, gravity: videoGravity, sensorSize: size,
            transform: ConnectionTransform(
                rotationAngle: connection?.videoRotationAngle ?? 90, mirrored: connection?.isVideoMirrored ?? false))
    }
}
