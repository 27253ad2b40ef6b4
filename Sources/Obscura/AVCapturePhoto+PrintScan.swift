import Foundation
import Imaging
import ObscuraAV

/// A print found in a photo and flattened onto its rectangle: what a print-scanner app makes of a capture (on a
/// phone, Vision's rectangle detection followed by a perspective correction and a contrast stretch).
public struct PrintScan: Sendable {
    /// How the flattened print's aspect ratio was found.
    public enum AspectRatioSource: String, Sendable, Hashable {
        /// From the four corners and the camera matrix, by projective geometry (Zhang & He 2007): the print's
        /// true shape, whatever its tilt.
        case cameraIntrinsics
        /// From the longer of each pair of opposite edges in pixels: exact only for a print facing the camera. Used
        /// when no camera matrix is known, or when the corners cannot be a rectangle seen by that camera.
        case edgeLengths
    }

    /// The print's corners as Vision reports a rectangle: normalised, origin at the bottom left.
    public let topLeft: CGPoint
    public let topRight: CGPoint
    public let bottomRight: CGPoint
    public let bottomLeft: CGPoint
    /// How well the photo supports the quadrilateral, 0…1.
    public let confidence: Float
    /// The print's width over its height (top-left to top-right over top-left to bottom-left), as flattened.
    public let aspectRatio: Double
    /// Whether `aspectRatio` is the print's true shape or the shape it has in the photo.
    public let aspectRatioSource: AspectRatioSource
    /// The flattened print, contrast-stretched, in the photo's colour space.
    public let image: CGImage
}

extension AVCapturePhoto {
    /// The camera matrix of the processed photo's pixels, `[[fx, 0, cx], [0, fy, cy], [0, 0, 1]]` column-major as
    /// in `AVCameraCalibrationData.intrinsicMatrix`, but at the photo's own size (zoom included) and for every
    /// photo, not only constituent ones. Pixel centres sit at half-integers, origin top-left. The same numbers are
    /// in the PNG file's `Obscura.Intrinsics` text. Nil when the photo could not be rendered.
    public var pixelIntrinsicMatrix: matrix_float3x3? {
        guard let k = pixelIntrinsics else { return nil }
        return matrix_float3x3(
            simd_float3(Float(k.fx), 0, 0), simd_float3(0, Float(k.fy), 0),
            simd_float3(Float(k.cx), Float(k.cy), 1))
    }

    /// Finds the most prominent print in the photo, flattens it to its true aspect ratio and stretches each
    /// channel, clipping `clip` (a fraction, 0.01 for 1 %) of the pixels at each end.
    ///
    /// The aspect ratio comes from the corners and `intrinsicMatrix` (by default `pixelIntrinsicMatrix`), so a
    /// 0.80 card photographed at a tilt comes out 0.80, not the ratio of its foreshortened edges; see
    /// `PrintScan.AspectRatioSource` for the fallback. The corners are those of the photo as delivered (with its
    /// lens distortion). Nil for RAW photos, photos that could not be rendered, and photos with no quadrilateral.
    public func scannedPrint(clip: Double = 0.01, intrinsicMatrix: matrix_float3x3? = nil) -> PrintScan? {
        guard let pixels = processedPixelPlane, let quad = QuadrilateralDetector().detect(in: pixels) else {
            return nil
        }
        let matrix = intrinsicMatrix ?? pixelIntrinsicMatrix
        let intrinsics = matrix.map { m in
            PinholeIntrinsics(
                fx: Double(m.columns.0.x), fy: Double(m.columns.1.y), cx: Double(m.columns.2.x),
                cy: Double(m.columns.2.y))
        }
        let corners = quad.pixelCorners(width: pixels.width, height: pixels.height)
        let aspect = RectangleAspectRatio(corners: corners, intrinsics: intrinsics)
        let size = PerspectiveCorrection.outputSize(for: corners, aspectRatio: aspect.value)
        guard let flat = PerspectiveCorrection.rectify(pixels, corners: corners, size: size) else { return nil }
        let stretched = ContrastStretch(clip: clip.isNaN ? 0 : min(max(clip, 0), 0.499)).apply(to: flat)
        guard let image = derivedCGImage(stretched) else { return nil }
        func point(_ p: SIMD2<Double>) -> CGPoint { CGPoint(x: p.x, y: p.y) }
        return PrintScan(
            topLeft: point(quad.topLeft), topRight: point(quad.topRight), bottomRight: point(quad.bottomRight),
            bottomLeft: point(quad.bottomLeft), confidence: quad.confidence, aspectRatio: aspect.value,
            aspectRatioSource: aspect.method == .cameraIntrinsics ? .cameraIntrinsics : .edgeLengths,
            image: image)
    }
}
