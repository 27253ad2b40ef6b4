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
        return metadataObject.moved(
            bounds: transform.apply(metadataObject.bounds), point: transform.apply, quarterTurns: quarterTurns,
            mirrored: connection.isVideoMirrored)
    }
}

extension AVCaptureOutput {
    /// `rectInOutputCoordinates`, a rectangle in this output's pixels (its pictures as delivered: the active
    /// format's size, turned and mirrored by the output's video connection), as a metadata output's rectangle of
    /// interest: normalised, origin top-left, the device's unrotated orientation (spec §16 [D]). A rectangle on an
    /// output without a connected camera comes back as given (our choice).
    public func metadataOutputRectConverted(fromOutputRect rectInOutputCoordinates: CGRect) -> CGRect {
        guard let (transform, size) = pixelSpace() else { return rectInOutputCoordinates }
        let r = rectInOutputCoordinates
        let normalised = CGRect(x: r.minX / size.width, y: r.minY / size.height, width: r.width / size.width,
                                height: r.height / size.height)
        return transform.inverse(normalised)
    }

    /// The converse: a metadata output's rectangle in this output's pixels.
    public func outputRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        guard let (transform, size) = pixelSpace() else { return rectInMetadataOutputCoordinates }
        let r = transform.apply(rectInMetadataOutputCoordinates)
        return CGRect(x: r.minX * size.width, y: r.minY * size.height, width: r.width * size.width,
                      height: r.height * size.height)
    }

    /// The video connection's reorientation and the size of this output's pictures after it; a depth output's
    /// are its maps.
    private func pixelSpace() -> (NormalisedTransform, CGSize)? {
        let depth = self is AVCaptureDepthDataOutput
        guard let connection = connection(with: depth ? .depthData : .video),
            let device = connection.deviceInput?.device,
            let format = depth ? device.activeDepthDataFormat : device.activeFormat
        else { return nil }
        let d = connection.videoTransform.dimensions(format.dimensions)
        guard d.width > 0, d.height > 0 else { return nil }
        let quarterTurns = Int((connection.videoRotationAngle / 90).rounded())
        return (
            NormalisedTransform(quarterTurns: quarterTurns, mirrored: connection.isVideoMirrored),
            CGSize(width: CGFloat(d.width), height: CGFloat(d.height))
        )
    }
}

extension AVMetadataObject {
    /// A copy of the object with `bounds` and its corners (codes have them) moved by `point`, the picture turned by
    /// `quarterTurns` clockwise and then mirrored where `mirrored`: what the `transformedMetadataObject` conversions
    /// hand back. A face's roll turns with the picture, 90° back for each quarter turn, and a mirror reverses it.
    /// Everything else (type, time, face identifier, the code's value) is kept.
    func moved(bounds: CGRect, point: (CGPoint) -> CGPoint, quarterTurns: Int, mirrored: Bool) -> AVMetadataObject {
        switch self {
        case let code as AVMetadataMachineReadableCodeObject:
            return AVMetadataMachineReadableCodeObject(
                type: code.type, time: code.time, duration: code.duration, bounds: bounds,
                corners: code.corners.map(point), stringValue: code.stringValue, name: code.sceneObjectName)
        case let face as AVMetadataFaceObject:
            let roll = face.roll.map { degrees in
                let turned = degrees - 90 * Double(quarterTurns)
                return AVMetadataFaceObject.normalised(roll: mirrored ? -turned : turned)
            }
            return AVMetadataFaceObject(
                faceID: face.faceID, time: face.time, duration: face.duration, bounds: bounds,
                name: face.sceneObjectName, roll: roll)
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

    /// The point `apply` takes to `p`: the mirror undone, then the turn.
    func inverse(_ p: CGPoint) -> CGPoint {
        var q = mirrored ? CGPoint(x: 1 - p.x, y: p.y) : p
        // A quarter turn anticlockwise is three clockwise.
        for _ in 0..<(3 * ((quarterTurns % 4 + 4) % 4)) { q = CGPoint(x: 1 - q.y, y: q.x) }
        return q
    }

    func inverse(_ r: CGRect) -> CGRect { bounds(of: r, inverse) }

    func apply(_ r: CGRect) -> CGRect { bounds(of: r, apply) }

    /// The bounds of `r`'s corners moved by `point`.
    private func bounds(of r: CGRect, _ point: (CGPoint) -> CGPoint) -> CGRect {
        let corners = [
            CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.maxX, y: r.maxY),
            CGPoint(x: r.minX, y: r.maxY),
        ].map(point)
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let minX = xs.min() ?? 0
        let minY = ys.min() ?? 0
        return CGRect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }
}
