import CoreImage
import Foundation
import ObscuraAV

/// Performs requests on a sequence of images, one image per call (`VNSequenceRequestHandler`): the handler an app
/// keeps across the frames of a video stream.
///
/// Each `perform` call runs the requests on that image as `VNImageRequestHandler.perform(_:)` does: on the caller's
/// thread, in order, each request's results and completion handler before the next, the first error thrown after
/// all have run. Apple's sequence handler also carries the state of tracking requests from one frame to the next;
/// the requests this Vision offers (barcodes, rectangles) read each image alone, so no state is carried.
open class VNSequenceRequestHandler: NSObject, @unchecked Sendable {
    public override init() { super.init() }

    /// Performs the requests on a pixel buffer shown as stored (`.up`).
    public func perform(_ requests: [VNRequest], on pixelBuffer: CVPixelBuffer) throws {
        try VNImageRequestHandler(cvPixelBuffer: pixelBuffer).perform(requests)
    }

    /// Performs the requests on a pixel buffer whose upright picture is the stored one turned by `orientation`.
    public func perform(
        _ requests: [VNRequest], on pixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation
    ) throws {
        try VNImageRequestHandler(cvPixelBuffer: pixelBuffer, orientation: orientation).perform(requests)
    }

    /// Performs the requests on a bitmap image shown as stored (`.up`).
    public func perform(_ requests: [VNRequest], on image: CGImage) throws {
        try VNImageRequestHandler(cgImage: image).perform(requests)
    }

    /// Performs the requests on a bitmap image whose upright picture is the stored one turned by `orientation`.
    public func perform(_ requests: [VNRequest], on image: CGImage, orientation: CGImagePropertyOrientation) throws {
        try VNImageRequestHandler(cgImage: image, orientation: orientation).perform(requests)
    }

    /// Performs the requests on a Core Image image shown as stored (`.up`).
    public func perform(_ requests: [VNRequest], on image: CIImage) throws {
        try VNImageRequestHandler(ciImage: image).perform(requests)
    }

    /// Performs the requests on a Core Image image shown with `orientation`.
    public func perform(_ requests: [VNRequest], on image: CIImage, orientation: CGImagePropertyOrientation) throws {
        try VNImageRequestHandler(ciImage: image, orientation: orientation).perform(requests)
    }

    /// Performs the requests on a sample buffer's image shown as stored (`.up`).
    public func perform(_ requests: [VNRequest], on sampleBuffer: CMSampleBuffer) throws {
        try VNImageRequestHandler(cmSampleBuffer: sampleBuffer).perform(requests)
    }

    /// Performs the requests on a sample buffer's image whose upright picture is the stored one turned by
    /// `orientation`.
    public func perform(
        _ requests: [VNRequest], on sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation
    ) throws {
        try VNImageRequestHandler(cmSampleBuffer: sampleBuffer, orientation: orientation).perform(requests)
    }

    /// Performs the requests on the image file at `imageURL` (JPEG, HEIC or PNG), shown as its Exif orientation
    /// says.
    public func perform(_ requests: [VNRequest], onImageURL imageURL: URL) throws {
        try VNImageRequestHandler(url: imageURL).perform(requests)
    }

    /// Performs the requests on an image file's data, shown as its Exif orientation says.
    public func perform(_ requests: [VNRequest], onImageData imageData: Data) throws {
        try VNImageRequestHandler(data: imageData).perform(requests)
    }
}
