/// A quadrilateral found in an image, reported the way Vision reports a rectangle observation.
///
/// Corners are normalised image coordinates: x from 0 (left edge) to 1 (right edge), y from 0 (bottom edge) to 1
/// (top edge), the bottom-left origin of Vision's `VNRectangleObservation`. "Top left" and the others name the
/// corners as they appear in the image, going clockwise on screen.
public struct DetectedQuadrilateral: Sendable, Equatable {
    /// The corner nearest the image's top-left, normalised with a bottom-left origin.
    public var topLeft: SIMD2<Double>
    /// The next corner clockwise on screen.
    public var topRight: SIMD2<Double>
    /// The corner opposite `topLeft`.
    public var bottomRight: SIMD2<Double>
    /// The last corner clockwise on screen.
    public var bottomLeft: SIMD2<Double>
    /// How well the image supports the quadrilateral, 0…1: the fraction of points along the four fitted sides where
    /// the brightness actually steps across the threshold, times Otsu's separability of the two classes
    /// (between-class over total variance). A clean print on a plain table scores above 0.8.
    public var confidence: Float

    /// Makes a quadrilateral from normalised corners.
    public init(
        topLeft: SIMD2<Double>, topRight: SIMD2<Double>, bottomRight: SIMD2<Double>, bottomLeft: SIMD2<Double>,
        confidence: Float
    ) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
        self.confidence = confidence
    }

    /// The corners in an image of `width × height` pixels as continuous pixel coordinates with a top-left origin
    /// (see `Homography`), in the order top-left, top-right, bottom-right, bottom-left.
    public func pixelCorners(width: Int, height: Int) -> [SIMD2<Double>] {
        let size = SIMD2(Double(width), Double(height))
        return [topLeft, topRight, bottomRight, bottomLeft].map { SIMD2($0.x, 1 - $0.y) * size }
    }

    /// Makes a quadrilateral from pixel corners (top-left origin, in the order of `pixelCorners`).
    public init(pixelCorners corners: [SIMD2<Double>], width: Int, height: Int, confidence: Float) {
        precondition(corners.count == 4, "a quadrilateral has 4 corners")
        let size = SIMD2(Double(width), Double(height))
        let normalised = corners.map { SIMD2($0.x / size.x, 1 - $0.y / size.y) }
        self.init(topLeft: normalised[0], topRight: normalised[1], bottomRight: normalised[2],
                  bottomLeft: normalised[3], confidence: confidence)
    }
}
