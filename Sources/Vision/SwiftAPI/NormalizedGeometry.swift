import Foundation

/// Where the origin of image coordinates lies when a normalised value is turned into pixels (`CoordinateOrigin`):
/// at the image's lower-left corner, Vision's own convention, or at its upper-left, the convention of UIKit and of
/// most drawing code.
public enum CoordinateOrigin: Sendable, Hashable {
    case upperLeft
    case lowerLeft
}

/// A point normalised to an image (`NormalizedPoint`): x from 0 at the left edge to 1 at the right, y from 0 at the
/// bottom edge to 1 at the top, as every point the Swift requests return is (Capture rules §22.10).
public struct NormalizedPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The point as a Core Graphics point, still normalised.
    public let cgPoint: CGPoint

    public var x: CGFloat { cgPoint.x }
    public var y: CGFloat { cgPoint.y }

    public init(x: CGFloat, y: CGFloat) { cgPoint = CGPoint(x: x, y: y) }

    /// A point already normalised.
    public init(normalizedPoint: CGPoint) { cgPoint = normalizedPoint }

    /// A point of an image `imageSize` pixels large, in pixels with the origin at the lower left.
    public init(imagePoint: CGPoint, in imageSize: CGSize) {
        self.init(x: imagePoint.x / imageSize.width, y: imagePoint.y / imageSize.height)
    }

    /// A point of an image, normalised to a region of interest of it rather than to the whole image.
    public init(imagePoint: CGPoint, in imageSize: CGSize, normalizedTo regionOfInterest: NormalizedRect) {
        let region = regionOfInterest.toImageCoordinates(imageSize)
        self.init(x: (imagePoint.x - region.minX) / region.width, y: (imagePoint.y - region.minY) / region.height)
    }

    /// The image's lower-left corner.
    public static var zero: NormalizedPoint { NormalizedPoint(x: 0, y: 0) }

    /// The point in the pixels of an image `imageSize` large, with its origin where `origin` says.
    public func toImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> CGPoint {
        let fromBottom = CGPoint(x: x * imageSize.width, y: y * imageSize.height)
        return origin == .lowerLeft ? fromBottom : CGPoint(x: fromBottom.x, y: imageSize.height - fromBottom.y)
    }

    /// A point normalised to `regionOfInterest` (as a request with that region returns it) in the pixels of the
    /// whole image.
    public func toImageCoordinates(
        from regionOfInterest: NormalizedRect, imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft
    ) -> CGPoint {
        let r = regionOfInterest.cgRect
        return NormalizedPoint(x: r.minX + x * r.width, y: r.minY + y * r.height)
            .toImageCoordinates(imageSize, origin: origin)
    }

    /// The same point with its y measured from the other edge.
    public func verticallyFlipped() -> NormalizedPoint { NormalizedPoint(x: x, y: 1 - y) }

    public var description: String { "NormalizedPoint(x: \(x), y: \(y))" }
}

/// A rectangle normalised to an image (`NormalizedRect`), its origin the lower-left corner, as `NormalizedPoint`.
public struct NormalizedRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The rectangle as a Core Graphics rectangle, still normalised.
    public let cgRect: CGRect

    /// The lower-left corner.
    public var origin: CGPoint { cgRect.origin }
    public var width: CGFloat { cgRect.width }
    public var height: CGFloat { cgRect.height }

    /// A rectangle from its lower-left corner and its size.
    public init(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
        cgRect = CGRect(x: x, y: y, width: width, height: height)
    }

    /// A rectangle already normalised.
    public init(normalizedRect: CGRect) { cgRect = normalizedRect }

    /// A rectangle of an image `imageSize` pixels large, in pixels with the origin at the lower left.
    public init(imageRect: CGRect, in imageSize: CGSize) {
        self.init(
            x: imageRect.minX / imageSize.width, y: imageRect.minY / imageSize.height,
            width: imageRect.width / imageSize.width, height: imageRect.height / imageSize.height)
    }

    /// A rectangle of an image, normalised to a region of interest of it rather than to the whole image.
    public init(imageRect: CGRect, in imageSize: CGSize, normalizedTo regionOfInterest: NormalizedRect) {
        let region = regionOfInterest.toImageCoordinates(imageSize)
        self.init(
            x: (imageRect.minX - region.minX) / region.width, y: (imageRect.minY - region.minY) / region.height,
            width: imageRect.width / region.width, height: imageRect.height / region.height)
    }

    /// The whole image: the unit square.
    public static var fullImage: NormalizedRect { NormalizedRect(x: 0, y: 0, width: 1, height: 1) }

    /// The rectangle in the pixels of an image `imageSize` large, with its origin where `origin` says.
    public func toImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> CGRect {
        let r = origin == .lowerLeft ? cgRect : verticallyFlipped().cgRect
        return CGRect(
            x: r.minX * imageSize.width, y: r.minY * imageSize.height, width: r.width * imageSize.width,
            height: r.height * imageSize.height)
    }

    /// A rectangle normalised to `regionOfInterest` (as a request with that region returns it) in the pixels of the
    /// whole image.
    public func toImageCoordinates(
        from regionOfInterest: NormalizedRect, imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft
    ) -> CGRect {
        let r = regionOfInterest.cgRect
        return NormalizedRect(
            x: r.minX + cgRect.minX * r.width, y: r.minY + cgRect.minY * r.height, width: width * r.width,
            height: height * r.height
        ).toImageCoordinates(imageSize, origin: origin)
    }

    /// The same rectangle with its y measured from the other edge.
    public func verticallyFlipped() -> NormalizedRect {
        NormalizedRect(x: cgRect.minX, y: 1 - cgRect.maxY, width: width, height: height)
    }

    public var description: String {
        "NormalizedRect(x: \(cgRect.minX), y: \(cgRect.minY), width: \(width), height: \(height))"
    }
}
