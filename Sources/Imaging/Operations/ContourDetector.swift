import Foundation

/// The contours of a picture's luma as Vision's contour request finds them: the picture's contrast is raised about a
/// pivot, the result split at mid-grey into the regions to trace (the dark ones, or the light ones), and their
/// borders followed (`BorderFollowing`).
///
/// Raising the contrast c about the pivot p maps a value v to p + c(v − p), clamped to 0…1, so the split at 0.5
/// falls at v = p + (0.5 − p)/c: at mid-grey for c = 1, nearer the pivot the higher c, at the pivot itself in the
/// limit. With no pivot given, Otsu's threshold of the picture's values is the pivot (our choice).
public struct ContourDetector: Sendable {
    /// How much the contrast is raised about the pivot (Vision's default 2).
    public var contrast: Float
    /// The value the contrast turns about, or nil for Otsu's threshold.
    public var pivot: Float?
    /// Whether the regions traced are the dark ones (Vision's default) or the light ones.
    public var darkOnLight: Bool

    public init(contrast: Float = 2, pivot: Float? = 0.5, darkOnLight: Bool = true) {
        (self.contrast, self.pivot, self.darkOnLight) = (contrast, pivot, darkOnLight)
    }

    /// Which pixels of `luma` (one channel, 0…1) belong to the regions traced, row by row.
    public func mask(_ luma: PixelPlane<Float>) -> [Bool] {
        let values = luma.packedElements
        let p = pivot ?? LumaImage(width: luma.width, height: luma.height, values: values).otsuThreshold().threshold
        return values.map { v in
            let raised = min(1, max(0, p + contrast * (v - p)))
            return darkOnLight ? raised < 0.5 : raised > 0.5
        }
    }

    /// The borders of the regions traced in `luma`.
    public func borders(in luma: PixelPlane<Float>) -> [BorderFollowing.Border] {
        BorderFollowing.borders(of: mask(luma), width: luma.width, height: luma.height)
    }
}
