import Foundation
import ObscuraAV

extension AVCapturePhoto {
    /// On a constituent photo, the rectangle (pixels, origin top-left) of the photo that lies inside
    /// the preview of the zoomed virtual device; the rest is black. The whole photo when the capture
    /// was not zoomed past this camera's field of view; nil for photos that are not constituent
    /// photos. Apple reports this as the clean aperture of the image; the same rectangle is in
    /// `metadata["CleanAperture"]`.
    public var cleanApertureRect: CGRect? { cleanAperture }
}
