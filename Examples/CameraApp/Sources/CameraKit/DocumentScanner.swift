import AVFoundation
import CoreImage
import Vision

/// A document scanner as apps write one: Vision finds the print in a camera frame, Core Image straightens it to
/// a rectangle with a perspective correction and stretches its contrast.
public enum DocumentScanner {
    /// The most confident print in the frame (normalised corners, origin at the bottom left), or nil.
    public static func findPrint(in frame: CVPixelBuffer) throws -> VNRectangleObservation? {
        let request = VNDetectRectanglesRequest()
        // A print of any proportions, held roughly square to the camera, filling a good part of the frame.
        request.minimumAspectRatio = 0.3
        request.maximumAspectRatio = 1.0
        request.minimumSize = 0.2
        request.quadratureTolerance = 30
        request.minimumConfidence = 0.5
        request.maximumObservations = 1
        try VNImageRequestHandler(cvPixelBuffer: frame, orientation: .up, options: [:]).perform([request])
        return request.results?.first
    }

    /// The print in the frame, straightened and with its contrast raised by `contrast`; nil when there is none.
    public static func scan(_ frame: CVPixelBuffer, contrast: Float = 1.3, context: CIContext = CIContext()) throws
        -> CGImage?
    {
        guard let print = try findPrint(in: frame) else { return nil }
        let image = CIImage(cvPixelBuffer: frame)
        let (width, height) = (Int(image.extent.width), Int(image.extent.height))
        // Vision's normalised corners and Core Image's coordinates share the origin at the bottom left.
        let correction = CIFilter.perspectiveCorrection()
        correction.inputImage = image
        correction.topLeft = VNImagePointForNormalizedPoint(print.topLeft, width, height)
        correction.topRight = VNImagePointForNormalizedPoint(print.topRight, width, height)
        correction.bottomLeft = VNImagePointForNormalizedPoint(print.bottomLeft, width, height)
        correction.bottomRight = VNImagePointForNormalizedPoint(print.bottomRight, width, height)
        let controls = CIFilter.colorControls()
        controls.inputImage = correction.outputImage
        controls.contrast = contrast
        guard let output = controls.outputImage else { return nil }
        return context.createCGImage(output, from: output.extent)
    }
}
