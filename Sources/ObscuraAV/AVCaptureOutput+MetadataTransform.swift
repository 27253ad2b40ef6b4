import Foundation

extension AVCaptureOutput {
    /// The metadata object in this output's coordinates on `connection`: bounds and corners
    /// turned by the connection's orientation and mirrored as it mirrors (spec §16 [D]). Nil when
    /// the connection does not feed this output [I].
    ///
    /// Metadata arrive in device coordinates: normalised, origin top-left, the sensor's unrotated
    /// orientation. The connection's rotation (whole quarter turns clockwise) and mirror are applied
    /// in the order its video buffers receive them (spec §1.5): turn, then mirror.
    public func transformedMetadataObject(
        for metadataObject: AVMetadataObject, connection: AVCaptureConnection
    ) -> AVMetadataObject? {
        guard connection.output === self else { return nil }
        let quarterTurns = Int((connection.videoRotationAngle / 90).rounded())
        let transform = NormalisedTransform(quarterTurns: quarterTurns, mirrored: connection.isVideoMirrored)
        return metadataObject.moved(bounds: transform.apply(metadataObject.bounds), point: transform.apply)
    }
}

extension AVMetadataObject {
    /// A copy of the object with `bounds` and its corners (codes have them) moved by `point`: what the
    /// `transformedMetadataObject` conversions hand back. Everything else (type, time, face identifier, the code's
    /// value) is kept.
    func moved(bounds: CGRect, point: (CGPoint) -> CGPoint) -> AVMetadataObject {
        switch self {
        case let code as AVMetadataMachineReadableCodeObject:
            return AVMetadataMachineReadableCodeObject(
                type: code.type, time: code.time, duration: code.duration, bounds: bounds,
                corners: code.corners.map(point), stringValue: code.stringValue, name: code.sceneObjectName)
        case let face as AVMetadataFaceObject:
            return AVMetadataFaceObject(
                faceID: face.faceID, time: face.time, duration: face.duration, bounds: bounds,
                name: face.sceneObjectName)
        default:
            return AVMetadataObject(type: type, time: time, duration: duration, bounds: bounds, name: sceneObjectName)
        }
    }
}

/// A turn by quarter turns clockwise, then an optional left-right mirror, of the unit square.
struct NormalisedTransform {
    let quarterTurns: Int
    let mirrored: Bool

    func apply(_ p: CGPoint) -> CGPoint {
        var q = p
        for _ in 0..<((quarterTurns % 4 + 4) % 4) { q = CGPoint(x: 1 - q.y, y: q.x) }
        return mirrored ? CGPoint(x: 1 - q.x, y: q.y) : q
    }

    func apply(_ r: CGRect) -> CGRect {
        let corners = [
            CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.maxX, y: r.maxY),
            CGPoint(x: r.minX, y: r.maxY),
        ].map(apply)
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let minX = xs.min() ?? 0
        let minY = ys.min() ?? 0
        return CGRect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }
}
