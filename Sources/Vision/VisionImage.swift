import Foundation
import Imaging
import ObscuraAV
import Sensor

/// The image a request handler analyses: the luma of its pixels (0…1, on the encoded values), turned upright by
/// the handler's orientation. Requests see the upright picture, so their normalised coordinates are those of the
/// image as displayed.
struct VisionImage {
    /// One channel of luma, upright, top row first.
    let luma: PixelPlane<Float>

    /// The part of the image a region of interest covers (normalised, origin at the bottom left), to the nearest
    /// pixel; the whole plane for the identity rectangle.
    func region(_ roi: CGRect) throws -> PixelPlane<Float> {
        // Outside the unit square fails; observations are normalised to the region (spec §21.1 rule 4).
        let unit = VNNormalizedIdentityRect
        // A hair of tolerance for regions computed in floating point that land a rounding error outside.
        let slack: CGFloat = 1e-9
        guard roi.width > 0, roi.height > 0, roi.minX >= unit.minX - slack, roi.minY >= unit.minY - slack,
            roi.maxX <= unit.maxX + slack, roi.maxY <= unit.maxY + slack
        else { throw VisionFailure.regionOfInterestOutside(roi) }
        if roi == unit { return luma }
        let w = Double(luma.width), h = Double(luma.height)
        let x0 = Int((Double(roi.minX) * w).rounded()), x1 = Int((Double(roi.maxX) * w).rounded())
        // Rows count down from the top; the region's y counts up from the bottom.
        let y0 = Int(((1 - Double(roi.maxY)) * h).rounded()), y1 = Int(((1 - Double(roi.minY)) * h).rounded())
        guard x1 > x0, y1 > y0 else { throw VisionFailure.emptyImage(width: max(0, x1 - x0), height: max(0, y1 - y0)) }
        let source = luma
        return PixelPlane(width: x1 - x0, height: y1 - y0) { x, y, _ in source[x0 + x, y0 + y] }
    }
}

/// Where a handler's pixels come from; read when a request is performed, as Apple's handler reads them.
enum VisionImageSource {
    case pixelBuffer(CVPixelBuffer)
    case cgImage(CGImage)
    /// Pixels already decoded, 1 to 4 channels of encoded values 0…1 (grey, grey and alpha, RGB or RGBA), top row
    /// first: how an image from another framework (a rendered `CIImage`) reaches the detector.
    case plane(PixelPlane<Float>)

    /// The luma, as stored (not yet turned upright).
    func luma() throws -> PixelPlane<Float> {
        switch self {
        case .pixelBuffer(let buffer): return try PixelBufferLuma.read(buffer)
        case .cgImage(let image): return try CGImageLuma.read(image)
        case .plane(let plane):
            guard !plane.isEmpty else { throw VisionFailure.emptyImage(width: plane.width, height: plane.height) }
            guard plane.channels <= 4 else { throw VisionFailure.unreadableFormat("\(plane.channels) channels") }
            let colour = plane.channels >= 3
            return PixelPlane(width: plane.width, height: plane.height) { x, y, _ in
                colour ? Rec709Luma.of(plane[x, y, 0], plane[x, y, 1], plane[x, y, 2]) : plane[x, y, 0]
            }
        }
    }
}

/// Luma from encoded R'G'B' with the Rec. 709 weights, as the scanner's detector weighs colour pixels.
enum Rec709Luma {
    @inline(__always) static func of(_ r: Float, _ g: Float, _ b: Float) -> Float {
        0.2126 * r + 0.7152 * g + 0.0722 * b
    }
}

extension VisionImage {
    init(source: VisionImageSource, orientation: CGImagePropertyOrientation) throws {
        // Requests see the upright picture (spec §21.1 rule 2).
        let stored = try source.luma()
        guard let exif = ExifOrientation(rawValue: Int(orientation.rawValue)) else {
            preconditionFailure("every CGImagePropertyOrientation is an EXIF orientation")
        }
        luma = exif == .up ? stored : stored.applying(exif)
    }
}
