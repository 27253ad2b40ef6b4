import AVFoundation
import CoreImage

/// A portrait-style effect as apps build it from a photo's depth with Core Image: the depth stored in the
/// photo's file read back as an auxiliary image, turned to disparity, made into a mask of everything nearer than
/// a focus distance with a colour matrix and a clamp, and the photo kept where the mask holds, over a dimmed copy
/// of itself elsewhere.
public enum DepthMask {
    /// The mask at the depth map's size: 1 (in every channel) where the photo's depth is nearer than
    /// `focusDistance` metres, 0 beyond, with a soft edge `softness` wide in disparity (1/m). Nil when the file holds
    /// no depth.
    public static func mask(photoData: Data, focusDistance: Float, softness: Float = 0.05) -> CIImage? {
        guard let depth = CIImage(data: photoData, options: [.auxiliaryDepth: true]) else { return nil }
        let disparity = depth.applyingFilter("CIDepthToDisparity")
        // gain × (disparity − 1/focus) + 0.5: one half at the focus distance, 0 and 1 a softness either side.
        let gain = CGFloat(1 / softness)
        let bias = 0.5 - gain / CGFloat(focusDistance)
        let row = CIVector(x: gain, y: 0, z: 0, w: 0)
        let matrix = CIFilter.colorMatrix()
        matrix.inputImage = disparity
        matrix.rVector = row
        matrix.gVector = row
        matrix.bVector = row
        matrix.aVector = row
        matrix.biasVector = CIVector(x: bias, y: bias, z: bias, w: bias)
        let clamp = CIFilter.colorClamp()
        clamp.inputImage = matrix.outputImage
        clamp.minComponents = CIVector(x: 0, y: 0, z: 0, w: 0)
        clamp.maxComponents = CIVector(x: 1, y: 1, z: 1, w: 1)
        return clamp.outputImage
    }

    /// The photo where its depth is nearer than `focusDistance`, and the photo dimmed by `dimming` stops elsewhere,
    /// blended through the mask's alpha stretched over the photo.
    public static func portrait(
        photoData: Data, focusDistance: Float, dimming: Float = 2, context: CIContext = CIContext()
    ) -> CGImage? {
        guard let photo = CIImage(data: photoData), let mask = mask(photoData: photoData, focusDistance: focusDistance),
            mask.extent.width > 0, mask.extent.height > 0
        else { return nil }
        let stretch = CGAffineTransform(
            scaleX: photo.extent.width / mask.extent.width, y: photo.extent.height / mask.extent.height)
        let blend = CIFilter.blendWithAlphaMask()
        blend.inputImage = photo
        blend.backgroundImage = photo.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: -dimming])
        blend.maskImage = mask.transformed(by: stretch)
        guard let output = blend.outputImage else { return nil }
        return context.createCGImage(output, from: photo.extent)
    }
}
