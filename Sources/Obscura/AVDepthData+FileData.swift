import Foundation
import Imaging

extension AVDepthData {
    /// Reads the depth embedded in a photo file written by `AVCapturePhoto.fileDataRepresentation()`.
    ///
    /// An **Obscura extension**, not part of Apple's API: on Apple platforms the same is done with
    /// ImageIO (`CGImageSourceCopyAuxiliaryDataInfoAtIndex`, then
    /// `init(fromDictionaryRepresentation:)`). JPEG files hold the depth as their second MPF image,
    /// HEIC files as the primary image's auxiliary depth image, each an 8-bit grey image with its
    /// range and metadata in XMP: values come back within half a code step, (maximum − minimum)
    /// / 239, from HEIC and within a few steps from JPEG (see `DepthImageCoding`). PNG files hold
    /// the exact dictionary in a private `obDP` chunk. Throws `DepthDataError.malformed` when the
    /// data holds no depth or the embedded depth is damaged.
    public convenience init(fromFileData data: Data) throws {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xD8]) {
            let xmpHeader = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
            func xmpSegment(_ image: ArraySlice<UInt8>) -> JPEG.Segment? {
                JPEG.applicationSegments(image)?.first(where: { $0.data.starts(with: xmpHeader) })
            }
            // Mattes may follow as further MPF images; the depth image is the one whose XMP is depth's.
            let others = MultiPictureFormat.images(in: bytes) ?? []
            let namespace = Array(DepthImageCoding.namespace.utf8)
            let depthImage = others.first { xmpSegment($0)?.data.firstRange(of: namespace) != nil }
            guard let second = depthImage ?? others.first else {
                throw DepthDataError.malformed("the JPEG holds no embedded depth (no second MPF image)")
            }
            let image: PixelPlane<UInt8>
            do { image = try JPEG.decodeGrey(Array(second)) } catch {
                throw DepthDataError.malformed("the MPF depth image does not decode: \(error)")
            }
            guard let xmp = xmpSegment(second) else {
                throw DepthDataError.malformed("the MPF depth image has no XMP")
            }
            try self.init(
                fromDictionaryRepresentation: DepthImageCoding.dictionary(
                    image: image, xmp: Array(xmp.data.dropFirst(xmpHeader.count))))
            return
        }
        if bytes.count > 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            let found: (pixels: PixelPlane<UInt8>, xmp: [UInt8]?)?
            do { found = try HEIF.depthImage(in: bytes) } catch {
                throw DepthDataError.malformed("the HEIF file does not decode: \(error)")
            }
            guard let found else { throw DepthDataError.malformed("the HEIF file holds no depth image") }
            guard let xmp = found.xmp else { throw DepthDataError.malformed("the HEIF depth image has no XMP") }
            try self.init(fromDictionaryRepresentation: DepthImageCoding.dictionary(image: found.pixels, xmp: xmp))
            return
        }
        guard let (_, dictionary) = try PNGDepthChunk.dictionary(in: data) else {
            throw DepthDataError.malformed("the file holds no embedded depth (no obDP chunk)")
        }
        try self.init(fromDictionaryRepresentation: dictionary)
    }
}
