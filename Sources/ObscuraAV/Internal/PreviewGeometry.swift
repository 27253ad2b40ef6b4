import Foundation

/// The maths of a preview layer's point conversions (spec §19.2).
///
/// Three steps separate a layer point from a device point:
/// 1. Gravity lays the displayed video out in the bounds: `.resize` stretches it over the bounds;
///    `.resizeAspect` scales it by min(Lw / Vw, Lh / Vh) and centres it; `.resizeAspectFill` scales by the max
///    and centres it, cropping. Vw × Vh is the video after the connection's rotation.
/// 2. The mirror flips the displayed x: a → 1 − a.
/// 3. The rotation is undone: the displayed point (a, b) of a sensor point (x, y) is, for clockwise turns of
///    0°, 90°, 180°, 270°, (x, y), (1 − y, x), (1 − x, 1 − y), (y, 1 − x) — the continuous maps of
///    `ConnectionTransform` on the unit square.
struct PreviewGeometry {
    let bounds: CGRect
    let gravity: AVLayerVideoGravity
    /// The sensor image's size (landscape), or nil when no camera is connected: the video then fills the bounds.
    let sensorSize: CGSize?
    let transform: ConnectionTransform

    /// Where the displayed video lies in the layer.
    var videoRect: CGRect {
        guard var size = sensorSize, size.width > 0, size.height > 0, gravity != .resize, bounds.width > 0,
            bounds.height > 0
        else { return bounds }
        if transform.swapsAxes { size = CGSize(width: size.height, height: size.width) }
        return AspectLayout.centred(size, in: bounds, filling: gravity == .resizeAspectFill)
    }

    func devicePoint(fromLayerPoint p: CGPoint) -> CGPoint {
        let r = videoRect
        guard r.width > 0, r.height > 0 else { return .zero }
        var a = (p.x - r.minX) / r.width
        let b = (p.y - r.minY) / r.height
        if transform.mirrored { a = 1 - a }
        switch transform.quarterTurns {
        case 1: return CGPoint(x: b, y: 1 - a)
        case 2: return CGPoint(x: 1 - a, y: 1 - b)
        case 3: return CGPoint(x: 1 - b, y: a)
        default: return CGPoint(x: a, y: b)
        }
    }

    func layerPoint(fromDevicePoint d: CGPoint) -> CGPoint {
        var (a, b): (CGFloat, CGFloat)
        switch transform.quarterTurns {
        case 1: (a, b) = (1 - d.y, d.x)
        case 2: (a, b) = (1 - d.x, 1 - d.y)
        case 3: (a, b) = (d.y, 1 - d.x)
        default: (a, b) = (d.x, d.y)
        }
        if transform.mirrored { a = 1 - a }
        let r = videoRect
        return CGPoint(x: r.minX + a * r.width, y: r.minY + b * r.height)
    }
}
