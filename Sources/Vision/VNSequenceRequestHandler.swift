import CoreImage
import Foundation
import ObscuraAV

/// Performs requests on a sequence of images, one image per call (`VNSequenceRequestHandler`): the handler an app
/// keeps across the frames of a video stream.
///
/// Each `perform` call runs the requests on that image as `VNImageRequestHandler.perform(_:)` does: on the caller's
/// thread, in order, each request's results and completion handler before the next, the first error thrown after
/// all have run. The handler keeps the trackers of tracking requests (`VNTrackObjectRequest`) from one frame to the
/// next (spec §22.6); the other requests read each image alone.
open class VNSequenceRequestHandler: NSObject, @unchecked Sendable {
    private let trackers = TrackerStore()

    public override init() { super.init() }

    /// Performs the requests with `handler`, on this sequence's trackers.
    private func run(_ requests: [VNRequest], _ handler: VNImageRequestHandler) throws {
        handler.trackers = trackers
        try handler.perform(requests)
    }

    /// Performs the requests on a pixel buffer shown as stored (`.up`).
    public func perform(_ requests: [VNRequest], on pixelBuffer: CVPixelBuffer) throws {
        try run(requests, VNImageRequestHandler(cvPixelBuffer: pixelBuffer))
    }

    /// Performs the requests on a pixel buffer whose upright picture is the stored one turned by `orientation`.
    public func perform(
        _ requests: [VNRequest], on pixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation
    ) throws {
        try run(requests, VNImageRequestHandler(cvPixelBuffer: pixelBuffer, orientation: orientation))
    }

    /// Performs the requests on a bitmap image shown as stored (`.up`).
    public func perform(_ requests: [VNRequest], on image: CGImage) throws {
        try run(requests, VNImageRequestHandler(cgImage: image))
    }

    /// Performs the requests on a bitmap image whose upright picture is the stored one turned by `orientation`.
    public func perform(_ requests: [VNRequest], on image: CGImage, orientation: CGImagePropertyOrientation) throws {
        try run(requests, VNImageRequestHandler(cgImage: image, orientation: orientation))
    }

    /// Performs the requests on a Core Image image shown as stored (`.up`).
    public func perform(_ requests: [VNRequest], on image: CIImage) throws {
        try run(requests, VNImageRequestHandler(ciImage: image))
    }

    /// Performs the requests on a Core Image image shown with `orientation`.
    public func perform(_ requests: [VNRequest], on image: CIImage, orientation: CGImagePropertyOrientation) throws {
        try run(requests, VNImageRequestHandler(ciImage: image, orientation: orientation))
    }

    /// Performs the requests on a sample buffer's image shown as stored (`.up`).
    public func perform(_ requests: [VNRequest], on sampleBuffer: CMSampleBuffer) throws {
        try run(requests, VNImageRequestHandler(cmSampleBuffer: sampleBuffer))
    }

    /// Performs the requests on a sample buffer's image whose upright picture is the stored one turned by
    /// `orientation`.
    public func perform(
        _ requests: [VNRequest], on sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation
    ) throws {
        try run(requests, VNImageRequestHandler(cmSampleBuffer: sampleBuffer, orientation: orientation))
    }

    /// Performs the requests on the image file at `imageURL` (JPEG, HEIC or PNG), shown as its Exif orientation
    /// says.
    public func perform(_ requests: [VNRequest], onImageURL imageURL: URL) throws {
        try run(requests, VNImageRequestHandler(url: imageURL))
    }

    /// Performs the requests on an image file's data, shown as its Exif orientation says.
    public func perform(_ requests: [VNRequest], onImageData imageData: Data) throws {
        try run(requests, VNImageRequestHandler(data: imageData))
    }
}
