import CoreImage
import Foundation
import Imaging
import ObscuraAV

/// Performs requests on one image (`VNImageRequestHandler`).
///
/// The handler keeps the image and its orientation; `perform(_:)` reads the pixels, turns them upright and runs
/// each request on the caller's thread, returning when all have finished, as Apple's handler does. Observations are
/// normalised to the upright image (or to a request's region of interest), origin at the bottom left.
///
/// A request that fails (an empty image, a pixel format that holds no picture, a region of interest outside the
/// image, a revision the request does not have) gets nil results and its completion handler is called with the
/// error; `perform(_:)` then throws the first such error once every request has had its turn.
open class VNImageRequestHandler: NSObject, @unchecked Sendable {
    private let source: VisionImageSource
    private let orientation: CGImagePropertyOrientation
    /// The options as given; the rectangle detector uses none of them.
    let options: [VNImageOption: Any]
    /// The trackers tracking requests continue: the sequence handler's, or the handler's own for its one image.
    var trackers = TrackerStore()

    /// The one initialiser the public ones share, and the one an image from another framework comes in through:
    /// a `CIImage` overload (`init(ciImage:options:)`, `init(ciImage:orientation:options:)`) renders its image
    /// into a `PixelPlane<Float>` and hands it over as `.plane`.
    init(source: VisionImageSource, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any]) {
        self.source = source
        self.orientation = orientation
        self.options = options
        super.init()
    }

    /// A handler for a pixel buffer shown as stored (`.up`).
    public convenience init(cvPixelBuffer pixelBuffer: CVPixelBuffer, options: [VNImageOption: Any] = [:]) {
        self.init(source: .pixelBuffer(pixelBuffer), orientation: .up, options: options)
    }

    /// A handler for a pixel buffer whose upright picture is the stored one turned by `orientation`.
    public convenience init(
        cvPixelBuffer pixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:]
    ) {
        self.init(source: .pixelBuffer(pixelBuffer), orientation: orientation, options: options)
    }

    /// A handler for a bitmap image shown as stored (`.up`).
    public convenience init(cgImage image: CGImage, options: [VNImageOption: Any] = [:]) {
        self.init(source: .cgImage(image), orientation: .up, options: options)
    }

    /// A handler for a bitmap image whose upright picture is the stored one turned by `orientation`.
    public convenience init(
        cgImage image: CGImage, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]
    ) {
        self.init(source: .cgImage(image), orientation: orientation, options: options)
    }

    // MARK: CMSampleBuffer

    /// A handler for a sample buffer's image (`CMSampleBufferGetImageBuffer`) shown as stored (`.up`).
    public convenience init(cmSampleBuffer sampleBuffer: CMSampleBuffer, options: [VNImageOption: Any] = [:]) {
        self.init(cmSampleBuffer: sampleBuffer, orientation: .up, options: options)
    }

    /// A handler for a sample buffer's image whose upright picture is the stored one turned by `orientation`. A
    /// sample without an image (audio) gives an empty picture, which `perform(_:)` answers with
    /// `VNErrorCode.invalidImage`.
    public convenience init(
        cmSampleBuffer sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:]
    ) {
        if let buffer = CMSampleBufferGetImageBuffer(sampleBuffer) {
            self.init(source: .pixelBuffer(buffer), orientation: orientation, options: options)
        } else {
            self.init(source: .plane(PixelPlane(width: 0, height: 0)), orientation: orientation, options: options)
        }
    }

    // MARK: Image data and files

    /// A handler for an image file's data (JPEG, HEIC or PNG, as `CIImage(data:)` reads them), shown as the file's
    /// Exif orientation says, `.up` without one (spec §22, our choice: the data-based handler of iOS 18 takes the
    /// file's orientation when none is given). Data that does not decode gives an empty picture, which `perform(_:)`
    /// answers with `VNErrorCode.invalidImage`.
    public convenience init(data imageData: Data, options: [VNImageOption: Any] = [:]) {
        let image = CIImage(data: imageData)
        let stated = (image?.properties[kCGImagePropertyOrientation as String] as? UInt32)
            .flatMap(CGImagePropertyOrientation.init)
        self.init(file: image, orientation: stated ?? .up, options: options)
    }

    /// A handler for an image file's data whose upright picture is the stored one turned by `orientation`.
    public convenience init(
        data imageData: Data, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]
    ) {
        self.init(file: CIImage(data: imageData), orientation: orientation, options: options)
    }

    /// A handler for the image file at `imageURL`, as `init(data:options:)`; a file that cannot be read gives an
    /// empty picture.
    public convenience init(url imageURL: URL, options: [VNImageOption: Any] = [:]) {
        self.init(data: (try? Data(contentsOf: imageURL)) ?? Data(), options: options)
    }

    /// A handler for the image file at `imageURL` whose upright picture is the stored one turned by `orientation`.
    public convenience init(url imageURL: URL, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]) {
        self.init(data: (try? Data(contentsOf: imageURL)) ?? Data(), orientation: orientation, options: options)
    }

    /// A decoded file's image, or an empty picture when it did not decode.
    private convenience init(file image: CIImage?, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any]) {
        if let image {
            self.init(ciImage: image, orientation: orientation, options: options)
        } else {
            self.init(source: .plane(PixelPlane(width: 0, height: 0)), orientation: orientation, options: options)
        }
    }

    // MARK: CIImage

    /// A handler for a Core Image image with no orientation (`.up`): the image's extent, rendered by a Core Image
    /// context in its default working space, is what the requests see.
    public convenience init(ciImage image: CIImage, options: [VNImageOption: Any] = [:]) {
        self.init(ciImage: image, orientation: .up, options: options)
    }

    /// A handler for a Core Image image shown with `orientation`.
    public convenience init(
        ciImage image: CIImage, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]
    ) {
        self.init(source: .rendering(image), orientation: orientation, options: options)
    }

    /// Performs the requests on the image, in order, on the caller's thread; throws the first request's error, after
    /// every request has been performed and its completion handler called.
    public func perform(_ requests: [VNRequest]) throws {
        var image: Result<VisionImage, any Error>?
        var firstError: (any Error)?
        for request in requests {
            request.results = nil
            do {
                // Read once, on the first request that needs it; its failure fails every request. Each request's
                // results, then its handler, before the next (spec §22.1 rule 1); errors after all (spec §22.1 rule 3).
                let loaded = image ?? Result { try VisionImage(source: source, orientation: orientation) }
                image = loaded
                let observations = try request.perform(on: loaded.get(), trackers: trackers)
                request.results = observations
                request.completionHandler?(request, nil)
            } catch {
                firstError = firstError ?? error
                request.completionHandler?(request, error)
            }
        }
        if let firstError { throw firstError }
    }
}
