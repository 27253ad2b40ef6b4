import Foundation

extension AVDepthData {
    /// Reads the depth embedded in a photo file written by `AVCapturePhoto.fileDataRepresentation()`.
    ///
    /// An **Obscura extension**, not part of Apple's API: on Apple platforms the same is done with
    /// ImageIO (`CGImageSourceCopyAuxiliaryDataInfoAtIndex`, then
    /// `init(fromDictionaryRepresentation:)`). Obscura's files are PNG; the depth sits in a private
    /// ancillary chunk `obDP` holding the auxiliary-data type and the dictionary representation as a
    /// binary property list. Throws `DepthDataError.malformed` when the data is not a PNG, holds no
    /// depth, or the embedded dictionary is damaged.
    public convenience init(fromFileData data: Data) throws {
        guard let (_, dictionary) = try PNGDepthChunk.dictionary(in: data) else {
            throw DepthDataError.malformed("the file holds no embedded depth (no obDP chunk)")
        }
        try self.init(fromDictionaryRepresentation: dictionary)
    }
}
