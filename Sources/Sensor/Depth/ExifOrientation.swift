import Imaging

/// The eight image orientations of the EXIF / TIFF `Orientation` tag (TIFF 6.0 §Orientation,
/// EXIF 2.32 tag 0x0112), as `CGImagePropertyOrientation` numbers them.
///
/// Each case names where the stored image's 0th row and 0th column belong when the picture is
/// shown upright; applying the orientation produces that upright picture.
public enum ExifOrientation: Int, Sendable, Hashable, CaseIterable {
    /// Row 0 at the top, column 0 at the left: unchanged.
    case up = 1
    /// Row 0 at the top, column 0 at the right: mirrored left–right.
    case upMirrored = 2
    /// Row 0 at the bottom, column 0 at the right: turned 180°.
    case down = 3
    /// Row 0 at the bottom, column 0 at the left: mirrored top–bottom.
    case downMirrored = 4
    /// Row 0 at the left, column 0 at the top: transposed.
    case leftMirrored = 5
    /// Row 0 at the right, column 0 at the top: turned 90° clockwise to display.
    case right = 6
    /// Row 0 at the right, column 0 at the bottom: transposed across the other diagonal.
    case rightMirrored = 7
    /// Row 0 at the left, column 0 at the bottom: turned 90° counter-clockwise to display.
    case left = 8

    /// Whether width and height trade places.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// Where a point of a `width × height` image lands in the oriented image (continuous pixel
    /// coordinates, origin at the top-left corner, so pixel centres sit at integer + 0.5).
    public func transform(_ p: SIMD2<Double>, width: Double, height: Double) -> SIMD2<Double> {
        let (x, y, w, h) = (p.x, p.y, width, height)
        switch self {
        case .up: return SIMD2(x, y)
        case .upMirrored: return SIMD2(w - x, y)
        case .down: return SIMD2(w - x, h - y)
        case .downMirrored: return SIMD2(x, h - y)
        case .leftMirrored: return SIMD2(y, x)
        case .right: return SIMD2(h - y, x)
        case .rightMirrored: return SIMD2(h - y, w - x)
        case .left: return SIMD2(y, w - x)
        }
    }

    /// The orientation that undoes this one: its `transform` of the oriented image takes every point back.
    /// A quarter turn one way is undone by one the other way; the other orientations undo themselves.
    public var inverse: ExifOrientation {
        switch self {
        case .right: return .left
        case .left: return .right
        default: return self
        }
    }

    /// The linear part of `transform` as a signed permutation: output (x, y) = M · input (x, y).
    /// Applied to a camera's x and y axes, it turns the camera frame with the picture.
    public var axisMatrix: (SIMD2<Double>, SIMD2<Double>) {
        switch self {
        case .up: return (SIMD2(1, 0), SIMD2(0, 1))
        case .upMirrored: return (SIMD2(-1, 0), SIMD2(0, 1))
        case .down: return (SIMD2(-1, 0), SIMD2(0, -1))
        case .downMirrored: return (SIMD2(1, 0), SIMD2(0, -1))
        case .leftMirrored: return (SIMD2(0, 1), SIMD2(1, 0))
        case .right: return (SIMD2(0, -1), SIMD2(1, 0))
        case .rightMirrored: return (SIMD2(0, -1), SIMD2(-1, 0))
        case .left: return (SIMD2(0, 1), SIMD2(-1, 0))
        }
    }
}
