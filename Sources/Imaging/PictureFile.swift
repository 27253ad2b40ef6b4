/// A picture file as a camera app or a scene reads it: a PNG, or a JPEG or HEIC decoded to its 8-bit
/// RGB values, with the colour space its tags name and the focal length its Exif records.
///
/// A JPEG or HEIC whose ICC profile names Display P3 is Display P3, any other sRGB; a PNG keeps the
/// colour space its own chunks declare. The declared size is checked against `maximumPixels` before
/// any pixel is decoded, so a small file cannot declare a picture whose decoding takes gigabytes.
public enum PictureFile {
    /// A decoded picture.
    public struct Picture: Sendable {
        /// The samples and their colour space.
        public var image: PNGImage
        /// The focal length the file's Exif records, if any.
        public var exif: ExifFocalLength?
    }

    /// Reads and decodes a picture file.
    public static func read(_ path: String, maximumPixels: Int) throws(MediaFileError) -> Picture {
        let bytes: [UInt8]
        do {
            bytes = try PNG.readFile(path)
        } catch {
            throw MediaFileError(code: .unreadable, message: error.message)
        }
        if HEIF.isBaseMediaFile(bytes) { return try readHEIC(bytes, maximumPixels: maximumPixels) }
        guard bytes.starts(with: [0xFF, 0xD8]) else {
            do {
                return Picture(image: try PNG.read(contentsOf: path, maximumPixels: maximumPixels), exif: nil)
            } catch {
                throw MediaFileError(code: error.code == .tooLarge ? .tooLarge : .undecodable, message: error.message)
            }
        }
        guard let size = JPEG.frameSize(bytes) else {
            throw MediaFileError(code: .undecodable, message: "no JPEG frame header")
        }
        guard size.width * size.height <= maximumPixels else {
            throw MediaFileError(
                code: .tooLarge, message: "\(size.width)x\(size.height) is over the limit of \(maximumPixels) pixels")
        }
        let pixels: PixelPlane<UInt8>
        do {
            pixels = try JPEG.decodeRGB(bytes)
        } catch {
            throw MediaFileError(code: .undecodable, message: "\(error)")
        }
        let segments = JPEG.applicationSegments(bytes[...]) ?? []
        let icc = segments.filter { $0.marker == 0xE2 && $0.data.starts(with: Array("ICC_PROFILE".utf8) + [0]) }
            .flatMap { $0.data.dropFirst(14) }
        return Picture(
            image: PNGImage(pixels: pixels, colorSpace: space(ofProfile: Array(icc))), exif: ExifFocalLength(jpeg: bytes))
    }

    /// A HEIC file's primary image through libheif.
    private static func readHEIC(_ bytes: [UInt8], maximumPixels: Int) throws(MediaFileError) -> Picture {
        guard HEIF.canDecode else {
            throw MediaFileError(
                code: .decoderMissing,
                message: "reading HEIC needs libheif.so.1 with an HEVC decoder (Debian and Ubuntu: libheif1)")
        }
        let picture: DecodedPicture
        do {
            picture = try HEIF.decode(bytes, maximumPixels: maximumPixels)
        } catch {
            let message = "\(error)"
            throw MediaFileError(code: message.contains("over the limit") ? .tooLarge : .undecodable, message: message)
        }
        return Picture(
            image: PNGImage(pixels: picture.pixels, colorSpace: space(ofProfile: picture.iccProfile ?? [])),
            exif: picture.exif.flatMap(ExifFocalLength.init(tiff:)))
    }

    /// Display P3 when an ICC profile's description names it, else sRGB.
    private static func space(ofProfile icc: [UInt8]) -> PNGColorSpace {
        (ICCProfile.description(of: icc) ?? "").lowercased().contains("display p3") ? .displayP3 : .sRGB
    }
}

