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
nonisolated(unsafe) public let kCVImageBufferColorPrimariesKey: CFString = "CVImageBufferColorPrimaries"
/// `kCVImageBufferColorPrimaries_ITU_R_709_2`: BT.709 primaries, which sRGB shares.
nonisolated(unsafe) public let kCVImageBufferColorPrimaries_ITU_R_709_2: CFString = "ITU_R_709_2"
/// `kCVImageBufferColorPrimaries_P3_D65`: Display P3's primaries (SMPTE EG 432-1) with a D65 white.
nonisolated(unsafe) public let kCVImageBufferColorPrimaries_P3_D65: CFString = "P3_D65"
/// `kCVImageBufferTransferFunctionKey`: the curve that encodes linear light.
nonisolated(unsafe) public let kCVImageBufferTransferFunctionKey: CFString = "CVImageBufferTransferFunction"
/// `kCVImageBufferTransferFunction_sRGB`: the IEC 61966-2-1 curve.
nonisolated(unsafe) public let kCVImageBufferTransferFunction_sRGB: CFString = "IEC_sRGB"
/// `kCVImageBufferYCbCrMatrixKey`: the matrix between R'G'B' and Y'CbCr.
nonisolated(unsafe) public let kCVImageBufferYCbCrMatrixKey: CFString = "CVImageBufferYCbCrMatrix"
/// `kCVImageBufferCGColorSpaceKey`: a `CGColorSpace` the buffer's values are in, where one is attached.
nonisolated(unsafe) public let kCVImageBufferCGColorSpaceKey: CFString = "CGColorSpace"
/// `kCVImageBufferYCbCrMatrix_ITU_R_601_4`: ITU-R BT.601 coefficients.
nonisolated(unsafe) public let kCVImageBufferYCbCrMatrix_ITU_R_601_4: CFString = "ITU_R_601_4"

/// `CVBufferGetAttachment`: the attachment for `key`, unretained (it lives while attached), or nil; the mode
/// it was attached with goes to `attachmentMode` (spec §18.3 [D]).
public func CVBufferGetAttachment(
    _ buffer: CVBuffer, _ key: CFString, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?
) -> Unmanaged<CFTypeRef>? {
    guard let entry = buffer.attachmentEntries[key as String] else { return nil }
    attachmentMode?.pointee = entry.mode
    return Unmanaged.passUnretained(entry.value)
}

/// `CVBufferCopyAttachment` (iOS 15): the attachment for `key`, retained, or nil (spec §18.3 [D]).
public func CVBufferCopyAttachment(
    _ buffer: CVBuffer, _ key: CFString, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?
) -> CFTypeRef? {
    guard let entry = buffer.attachmentEntries[key as String] else { return nil }
    attachmentMode?.pointee = entry.mode
    return entry.value
}

/// `CVBufferSetAttachment`: attaches `value` under `key`, replacing any earlier value (spec §18.3 [D]).
public func CVBufferSetAttachment(
    _ buffer: CVBuffer, _ key: CFString, _ value: CFTypeRef, _ attachmentMode: CVAttachmentMode
) {
    buffer.attachmentEntries[key as String] = CVPixelBuffer.Attachment(value: value, mode: attachmentMode)
}

/// `CVBufferRemoveAttachment`.
public func CVBufferRemoveAttachment(_ buffer: CVBuffer, _ key: CFString) {
    buffer.attachmentEntries[key as String] = nil
}

/// `CVBufferRemoveAllAttachments`.
public func CVBufferRemoveAllAttachments(_ buffer: CVBuffer) {
    buffer.attachmentEntries = [:]
}

/// `CVBufferCopyAttachments`: the attachments of one mode as a dictionary, or nil when there are none.
public func CVBufferCopyAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> CFDictionary? {
    let chosen = buffer.attachmentEntries.filter { $0.value.mode == attachmentMode }.mapValues { $0.value }
    return chosen.isEmpty ? nil : NSDictionary(dictionary: chosen)
}

/// `CVBufferPropagateAttachments`: copies the source's propagating attachments onto the destination.
public func CVBufferPropagateAttachments(_ sourceBuffer: CVBuffer, _ destinationBuffer: CVBuffer) {
    let propagating = sourceBuffer.attachmentEntries.filter { $0.value.mode == .shouldPropagate }
    destinationBuffer.attachmentEntries.merge(propagating) { _, new in new }
}

extension Dictionary where Key == String {
    /// Internal attachment tables are keyed by `String`; Apple's keys are `CFString`s.
    subscript(key: CFString) -> Value? {
        get { self[key as String] }
        set { self[key as String] = newValue }
    }
}
