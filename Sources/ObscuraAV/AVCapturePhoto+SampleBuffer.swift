import Foundation

extension AVCapturePhoto {
    /// The photo as the sample buffer of the iOS 10 callback and of `AVCaptureStillImageOutput`:
    /// compressed photos carry their file bytes (JPEG or HEIC, Exif included) as the data buffer,
    /// with the codec as the format's subtype; uncompressed ones carry `pixelBuffer` as the image
    /// buffer. The photo's `metadata` ({Exif}, {TIFF}, the orientation) are its attachments, where
    /// `CMGetAttachment` and `CMCopyDictionaryOfAttachments` find them (spec §5). The pixels are rendered
    /// when the buffer or its attachments are first read, as the photo's are.
    func photoSampleBuffer() -> CMSampleBuffer {
        if isRawPhoto { return rawPhotoSampleBuffer() }
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
        return CMSampleBuffer(
            presentationTimeStamp: timestamp, duration: .invalid, formatDescription: description, photo: self,
            attachments: { self.metadata }
        ) {
            compressed
                ? (nil, self.fileDataRepresentation().map { CMBlockBuffer(bytes: $0) }) : (self.pixelBuffer, nil)
        }
    }

    /// A RAW photo as the sample buffer of the iOS 10 RAW callback: the Bayer `pixelBuffer` as the image buffer, in
    /// `kCVPixelFormatType_14Bayer_RGGB` (the one RAW format the output offers, so the settings' own), and the photo's
    /// `metadata`, its `{DNG}` levels and calibration included, as attachments (spec §5).
    private func rawPhotoSampleBuffer() -> CMSampleBuffer {
        let dimensions = resolvedSettings.rawPhotoDimensions
        let description = CMFormatDescription(
            mediaType: kCMMediaType_Video, mediaSubType: kCVPixelFormatType_14Bayer_RGGB, dimensions: dimensions)
        return CMSampleBuffer(
            presentationTimeStamp: timestamp, duration: .invalid, formatDescription: description, photo: self,
            attachments: { self.metadata }
        ) { (self.pixelBuffer, nil) }
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

extension AVCapturePhotoOutput {
    /// The DNG file of a RAW photo sample buffer from the iOS 10 RAW callback (deprecated since iOS 11, still
    /// compiled): the file `fileDataRepresentation()` gives the photo, the sensor's values with their levels,
    /// calibration and Exif. A preview sample buffer, when given, is embedded as the DNG's JPEG preview at its
    /// size. Nil for a sample buffer that holds no RAW photo (spec §5).
    public class func dngPhotoDataRepresentation(
        forRawSampleBuffer rawSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?
    ) -> Data? {
        guard let photo = rawSampleBuffer.photo, photo.isRawPhoto else { return nil }
        let preview = previewPhotoSampleBuffer?.formatDescription?.dimensions
        return photo.dngFileData(previewSize: preview.map { (Int($0.width), Int($0.height)) })
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
