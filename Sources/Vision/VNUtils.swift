import Foundation
import ObscuraAV

// Conversions between Vision's normalised coordinates (0…1 across the image, origin at the bottom left, as the
// observations report them) and image coordinates (pixels, the same origin). Neither flips the y axis: only the
// scale changes, as Apple's functions do.

/// A normalised rectangle in the pixel coordinates of an image of `imageWidth × imageHeight`
/// (`VNImageRectForNormalizedRect`).
public func VNImageRectForNormalizedRect(_ normalizedRect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    let w = CGFloat(imageWidth), h = CGFloat(imageHeight)
    return CGRect(
        x: normalizedRect.origin.x * w, y: normalizedRect.origin.y * h, width: normalizedRect.size.width * w,
        height: normalizedRect.size.height * h)
}

/// A rectangle in the pixel coordinates of an image of `imageWidth × imageHeight`, normalised
/// (`VNNormalizedRectForImageRect`).
public func VNNormalizedRectForImageRect(_ imageRect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    let w = CGFloat(imageWidth), h = CGFloat(imageHeight)
    return CGRect(
        x: imageRect.origin.x / w, y: imageRect.origin.y / h, width: imageRect.size.width / w,
        height: imageRect.size.height / h)
}

/// A normalised point in the pixel coordinates of an image of `imageWidth × imageHeight`
/// (`VNImagePointForNormalizedPoint`).
public func VNImagePointForNormalizedPoint(_ normalizedPoint: CGPoint, _ imageWidth: Int, _ imageHeight: Int) -> CGPoint
{
    CGPoint(x: normalizedPoint.x * CGFloat(imageWidth), y: normalizedPoint.y * CGFloat(imageHeight))
}

/// A rectangle normalised to a region of interest (`roi`, normalised to the image), in the pixel coordinates of the
/// whole image (`VNImageRectForNormalizedRectUsingRegionOfInterest`): what turns an observation of a request with a
/// `regionOfInterest` into pixels.
public func VNImageRectForNormalizedRectUsingRegionOfInterest(
    _ normalizedRect: CGRect, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGRect {
    let inImage = CGRect(
        x: roi.origin.x + normalizedRect.origin.x * roi.size.width,
        y: roi.origin.y + normalizedRect.origin.y * roi.size.height,
        width: normalizedRect.size.width * roi.size.width, height: normalizedRect.size.height * roi.size.height)
    return VNImageRectForNormalizedRect(inImage, imageWidth, imageHeight)
}

/// A rectangle in the pixel coordinates of the whole image, normalised to a region of interest (`roi`, normalised
/// to the image) (`VNNormalizedRectForImageRectUsingRegionOfInterest`).
public func VNNormalizedRectForImageRectUsingRegionOfInterest(
    _ imageRect: CGRect, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGRect {
    let inImage = VNNormalizedRectForImageRect(imageRect, imageWidth, imageHeight)
    return CGRect(
        x: (inImage.origin.x - roi.origin.x) / roi.size.width, y: (inImage.origin.y - roi.origin.y) / roi.size.height,
        width: inImage.size.width / roi.size.width, height: inImage.size.height / roi.size.height)
}
