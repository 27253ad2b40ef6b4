import Foundation

// CoreVideo buffer attachments that say how an image buffer's values are to be read (Apple's
// CVImageBuffer.h). The key and value strings are Apple's: `kCVImageBufferColorPrimariesKey` is
// "CVImageBufferColorPrimaries", `kCVImageBufferColorPrimaries_P3_D65` is "P3_D65", and so on.

/// `CVAttachmentMode`: whether an attachment propagates to buffers made from this one.
public enum CVAttachmentMode: UInt32, Sendable {
    /// Not propagated.
    case shouldNotPropagate = 0
    /// Propagated.
    case shouldPropagate = 1
}

/// `kCVImageBufferColorPrimariesKey`: the primaries of the RGB values the buffer encodes.
public let kCVImageBufferColorPrimariesKey = "CVImageBufferColorPrimaries"
/// `kCVImageBufferColorPrimaries_ITU_R_709_2`: BT.709 primaries, which sRGB shares.
public let kCVImageBufferColorPrimaries_ITU_R_709_2 = "ITU_R_709_2"
/// `kCVImageBufferColorPrimaries_P3_D65`: Display P3's primaries (SMPTE EG 432-1) with a D65 white.
public let kCVImageBufferColorPrimaries_P3_D65 = "P3_D65"
/// `kCVImageBufferTransferFunctionKey`: the curve that encodes linear light.
public let kCVImageBufferTransferFunctionKey = "CVImageBufferTransferFunction"
/// `kCVImageBufferTransferFunction_sRGB`: the IEC 61966-2-1 curve.
public let kCVImageBufferTransferFunction_sRGB = "IEC_sRGB"
/// `kCVImageBufferYCbCrMatrixKey`: the matrix between R'G'B' and Y'CbCr.
public let kCVImageBufferYCbCrMatrixKey = "CVImageBufferYCbCrMatrix"
/// `kCVImageBufferYCbCrMatrix_ITU_R_601_4`: ITU-R BT.601 coefficients.
public let kCVImageBufferYCbCrMatrix_ITU_R_601_4 = "ITU_R_601_4"

/// `CVBufferGetAttachment`: the attachment for `key`, or nil.
public func CVBufferGetAttachment(
    _ buffer: CVPixelBuffer, _ key: String, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?
) -> Any? {
    let value = buffer.attachments[key]
    if value != nil { attachmentMode?.pointee = .shouldPropagate }
    return value
}

/// `CVBufferSetAttachment`: attaches `value` under `key` (every attachment here propagates).
public func CVBufferSetAttachment(_ buffer: CVPixelBuffer, _ key: String, _ value: Any, _ attachmentMode: CVAttachmentMode) {
    buffer.attachments[key] = value
}

/// `CVBufferCopyAttachments`: every attachment of the buffer, or nil when there are none.
public func CVBufferCopyAttachments(_ buffer: CVPixelBuffer, _ attachmentMode: CVAttachmentMode) -> [String: Any]? {
    let all = buffer.attachments
    return all.isEmpty ? nil : all
}
