import Foundation

/// `AVMakeRect(aspectRatio:insideRect:)`: the largest rectangle of `aspectRatio`'s shape that fits inside
/// `boundingRect`, centred in it, as a player or preview layer shows a picture with `.resizeAspect`. An aspect
/// ratio without area has no such rectangle: the answer is then the empty rectangle at the bounds' centre (our
/// choice; Apple does not say).
public func AVMakeRect(aspectRatio: CGSize, insideRect boundingRect: CGRect) -> CGRect {
    AspectLayout.centred(aspectRatio, in: boundingRect, filling: false)
}

/// A picture of one shape laid out centred in a rectangle of another, as video gravity lays it out.
enum AspectLayout {
    /// `size` scaled to fit inside `bounds` (or, `filling`, to cover it) and centred on it.
    static func centred(_ size: CGSize, in bounds: CGRect, filling: Bool) -> CGRect {
        guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else {
            return CGRect(x: bounds.midX, y: bounds.midY, width: 0, height: 0)
        }
        let sx = bounds.width / size.width, sy = bounds.height / size.height
        let scale = filling ? max(sx, sy) : min(sx, sy)
        let (w, h) = (size.width * scale, size.height * scale)
        return CGRect(x: bounds.midX - w / 2, y: bounds.midY - h / 2, width: w, height: h)
    }
}
