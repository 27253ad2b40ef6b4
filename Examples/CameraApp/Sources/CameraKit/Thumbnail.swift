import AVFoundation
import CoreImage

/// A thumbnail of a photo as iOS apps make one with Core Image: the photo's file data read as a
/// `CIImage`, scaled with Lanczos resampling to the width asked for, rendered to a `CGImage`.
public enum Thumbnail {
    public static func make(from photo: AVCapturePhoto, width: Int, context: CIContext = CIContext()) -> CGImage? {
        guard let data = photo.fileDataRepresentation(), let image = CIImage(data: data), image.extent.width > 0 else {
            return nil
        }
        let scale = CIFilter.lanczosScaleTransform()
        scale.inputImage = image
        scale.scale = Float(CGFloat(width) / image.extent.width)
        guard let output = scale.outputImage else { return nil }
        return context.createCGImage(output, from: output.extent)
    }
}
