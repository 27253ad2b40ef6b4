import Foundation

extension AVCapturePhoto {
    /// The photo as the sample buffer of the iOS 10 callback and of `AVCaptureStillImageOutput`:
    /// compressed photos carry their file bytes (JPEG or HEIC, Exif included) as the data buffer,
    /// with the codec as the format's subtype; uncompressed ones carry `pixelBuffer` as the image
    /// buffer. The pixels are rendered when the buffer is first read, as the photo's are.
    func photoSampleBuffer() -> CMSampleBuffer {
        let subtype: FourCharCode
        if let format = uncompressedFormat {
            subtype = format
        } else {
            switch extras.fileFormat {
            case .jpeg: subtype = CMFormatDescription.MediaSubType.jpeg.rawValue
            case .heic: subtype = CMFormatDescription.MediaSubType.hevc.rawValue
            case .png: subtype = 0
            }
        }
        let description = CMFormatDescription(
            mediaType: kCMMediaType_Video, mediaSubType: subtype, dimensions: resolvedSettings.photoDimensions)
        let compressed = uncompressedFormat == nil
        return CMSampleBuffer(presentationTimeStamp: timestamp, duration: .invalid, formatDescription: description) {
            compressed
                ? (nil, self.fileDataRepresentation().map { CMBlockBuffer(bytes: $0) }) : (self.pixelBuffer, nil)
        }
    }

    /// The preview the settings asked for, as a sample buffer; nil without one.
    func previewPhotoSampleBuffer() -> CMSampleBuffer? {
        guard let preview, let format = preview.pixelFormat else { return nil }
        let description = CMFormatDescription(
            mediaType: kCMMediaType_Video, mediaSubType: format,
            dimensions: CMVideoDimensions(width: Int32(preview.width), height: Int32(preview.height)))
        return CMSampleBuffer(presentationTimeStamp: timestamp, duration: .invalid, formatDescription: description) {
            (self.previewPixelBuffer, nil)
        }
    }

}

extension AVCapturePhotoOutput {
    /// The JPEG file of a JPEG photo sample buffer (deprecated since iOS 11, still compiled): its
    /// bytes, Exif included. The preview is not written into the file, as embedded thumbnails are
    /// not. Nil for a sample buffer that holds no JPEG.
    public class func jpegPhotoDataRepresentation(
        forJPEGSampleBuffer JPEGSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?
    ) -> Data? {
        guard CMSampleBuffer.jpegCodec(JPEGSampleBuffer), let bytes = JPEGSampleBuffer.dataBuffer?.bytes
        else { return nil }
        return bytes
    }
}

extension CMSampleBuffer {
    /// Whether a sample holds a JPEG image.
    static func jpegCodec(_ sample: CMSampleBuffer) -> Bool {
        sample.formatDescription?.mediaSubType == .jpeg && sample.dataBuffer != nil
    }
}

/// Tells whether a delegate method ran as the protocol extension's empty default, that is, whether
/// the delegate leaves it out. Objective-C asks `respondsToSelector:`; Swift on Linux cannot, so the
/// defaults that matter mark the probe bound around the call.
final class DefaultCallbackProbe: @unchecked Sendable {
    @TaskLocal static var current: DefaultCallbackProbe?
    var defaultRan = false

    /// Runs `call` and answers whether it reached the empty default.
    static func reachedDefault(_ call: () -> Void) -> Bool {
        let probe = DefaultCallbackProbe()
        $current.withValue(probe) { call() }
        return probe.defaultRan
    }
}
