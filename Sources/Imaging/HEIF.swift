import CHEIF
import Foundation

/// HEIC (HEIF with HEVC images) through libheif, which is loaded at run time: a machine without
/// libheif or its HEVC encoder has no HEIC, and `isAvailable` says so.
public enum HEIF {
    /// Whether libheif loads and can encode HEVC.
    public static var isAvailable: Bool { cheif_hevc_available() == 1 }

    /// The auxiliary type libheif and MPEG-H HEVC image items use for depth (ISO/IEC 23008-12 §7.5.2.1 via
    /// the `auxid:2` SEI semantics of ISO/IEC 23008-2 Annex F).
    public static let depthAuxiliaryType = "urn:mpeg:hevc:2015:auxid:2"

    /// The smallest side of a depth or auxiliary image `encode` takes (libheif's smallest coded tile).
    public static let minimumAuxiliarySide = 64

    /// A grey image stored beside the primary one as its auxiliary image of a type (ISO/IEC
    /// 23008-12 §6.6.2.1): a matte, for example.
    public struct AuxiliaryImage: Sendable {
        /// 8-bit grey pixels, stored losslessly.
        public var pixels: PixelPlane<UInt8>
        /// The auxiliary type, a URN written in the image's `auxC` property.
        public var type: String
        /// An XMP packet attached to the image, if any.
        public var xmp: [UInt8]?

        public init(pixels: PixelPlane<UInt8>, type: String, xmp: [UInt8]? = nil) {
            self.pixels = pixels
            self.type = type
            self.xmp = xmp
        }
    }

    /// Encodes RGB (3 channels) at libheif `quality` 0…100 with its ICC profile and Exif TIFF
    /// structure; with `depth`, an 8-bit grey depth image (stored losslessly) becomes an auxiliary
    /// depth image of the primary one, carrying `depthXMP`; each of `auxiliaries` becomes an
    /// auxiliary image of its own type after it; `thumbnail` (RGB) becomes the colour image's
    /// thumbnail item (ISO/IEC 23008-12 §6.6.2.2, a `thmb` reference), coded as it is.
    ///
    /// The Exif's Orientation is also written as the colour image's `irot` and `imir` properties
    /// (ISO/IEC 23008-12 §6.5.10–11), which HEIF readers apply and which take precedence over Exif
    /// there; an iPhone's HEIC carries both. The stored pixels are the same either way.
    public static func encode(
        _ pixels: PixelPlane<UInt8>, quality: Int, iccProfile: [UInt8]?, exif: [UInt8]?,
        depth: PixelPlane<UInt8>? = nil, depthXMP: [UInt8]? = nil, auxiliaries: [AuxiliaryImage] = [],
        thumbnail: PixelPlane<UInt8>? = nil
    ) throws -> [UInt8] {
        guard pixels.channels == 3 else { throw HEIFError(message: "HEIC colour images are RGB") }
        guard thumbnail.map({ $0.channels == 3 }) ?? true else { throw HEIFError(message: "thumbnails are RGB") }
        guard depth.map({ $0.channels == 1 }) ?? true else { throw HEIFError(message: "depth images are grey") }
        guard auxiliaries.allSatisfy({ $0.pixels.channels == 1 }) else {
            throw HEIFError(message: "auxiliary images are grey")
        }
        // libheif stores a picture under 64 pixels a side as a grid over one padded tile, and cannot read
        // such a grid back as grey: a depth or auxiliary image that small would be written unreadable.
        let grey = auxiliaries.map(\.pixels) + (depth.map { [$0] } ?? [])
        if let small = grey.first(where: { min($0.width, $0.height) < Self.minimumAuxiliarySide }) {
            throw HEIFError(
                message: "a \(small.width)x\(small.height) depth or auxiliary image is under the "
                    + "\(Self.minimumAuxiliarySide) pixels a side that HEIC stores readably")
        }
        let orientation = exif.flatMap { (ImageProperties.exif(tiff: $0)[ImageProperties.orientation] as? NSNumber)?.intValue } ?? 1
        var message = [CChar](repeating: 0, count: 256)
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let depthPacked = depth?.packedElements ?? []
        let thumbnailPacked = thumbnail?.packedElements ?? []
        // Each auxiliary's pixels and XMP stay allocated until the encoder has read them.
        let packed = auxiliaries.map { (pixels: $0.pixels.packedElements, xmp: $0.xmp ?? []) }
        let pointers = packed.map { p -> (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>?) in
            let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: max(p.pixels.count, 1))
            pixels.initialize(from: p.pixels, count: p.pixels.count)
            var xmp: UnsafeMutablePointer<UInt8>?
            if !p.xmp.isEmpty {
                xmp = UnsafeMutablePointer<UInt8>.allocate(capacity: p.xmp.count)
                xmp?.initialize(from: p.xmp, count: p.xmp.count)
            }
            return (pixels, xmp)
        }
        defer {
            for (pixels, xmp) in pointers {
                pixels.deallocate()
                xmp?.deallocate()
            }
        }
        let descriptors = zip(auxiliaries, zip(packed, pointers)).map { aux, stored in
            cheif_auxiliary_image(
                pixels: stored.1.0, width: Int32(aux.pixels.width), height: Int32(aux.pixels.height),
                xmp: stored.1.1, xmp_length: stored.0.xmp.count)
        }
        let status = pixels.withUnsafeBufferPointer { rgb in
            (iccProfile ?? []).withUnsafeBufferPointer { icc in
                (exif ?? []).withUnsafeBufferPointer { exif in
                    depthPacked.withUnsafeBufferPointer { d in
                        (depthXMP ?? []).withUnsafeBufferPointer { xmp in
                            var request = cheif_encode_request(
                                rgb: rgb.baseAddress, width: Int32(pixels.width), height: Int32(pixels.height),
                                row_bytes: pixels.rowStride, quality: Int32(quality),
                                icc: icc.count > 0 ? icc.baseAddress : nil, icc_length: icc.count,
                                exif: exif.count > 0 ? exif.baseAddress : nil, exif_length: exif.count,
                                depth: depth == nil ? nil : d.baseAddress, depth_width: Int32(depth?.width ?? 0),
                                depth_height: Int32(depth?.height ?? 0),
                                depth_xmp: xmp.count > 0 ? xmp.baseAddress : nil, depth_xmp_length: xmp.count,
                                auxiliaries: nil, auxiliary_count: 0, orientation: Int32(orientation), thumbnail: nil,
                                thumbnail_width: 0, thumbnail_height: 0)
                            return descriptors.withUnsafeBufferPointer { aux in
                                request.auxiliaries = aux.count > 0 ? aux.baseAddress : nil
                                request.auxiliary_count = Int32(aux.count)
                                return thumbnailPacked.withUnsafeBufferPointer { t in
                                    if let thumbnail {
                                        request.thumbnail = t.baseAddress
                                        request.thumbnail_width = Int32(thumbnail.width)
                                        request.thumbnail_height = Int32(thumbnail.height)
                                    }
                                    return message.withUnsafeMutableBufferPointer { text in
                                        cheif_encode(&request, &out, &length, text.baseAddress, text.count)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard status == Int32(CHEIF_OK), let out else { throw HEIFError(message: CStringBuffer.text(message)) }
        defer { cheif_free(out) }
        let file = Array(UnsafeBufferPointer(start: out, count: length))
        let types = (depth == nil ? [] : [depthAuxiliaryType]) + auxiliaries.map(\.type)
        guard !types.isEmpty else { return file }
        // libheif 1.15 writes the depth and the other grey images as top-level images; make them the
        // primary's auxiliary images.
        return try HEIFAuxiliaryLink.linkImages(in: file, auxiliaryTypes: types, trailing: thumbnail == nil ? 0 : 1)
    }

    /// The primary image's auxiliary image of `type` (its `auxC` URN) as 8-bit grey and the XMP
    /// attached to it; nil when the file has no such image.
    public static func auxiliaryImage(
        in file: [UInt8], type: String
    ) throws -> (pixels: PixelPlane<UInt8>, xmp: [UInt8]?)? {
        try greyImage(in: file) { data, count, pixels, width, height, xmp, xmpLength, text, capacity in
            cheif_decode_auxiliary(data, count, type, pixels, width, height, xmp, xmpLength, text, capacity)
        }
    }

    /// A grey image a CHEIF reader (`cheif_decode_depth`, `cheif_decode_auxiliary`) decodes from `file`, with its
    /// XMP; nil when the reader finds no such image.
    private static func greyImage(
        in file: [UInt8],
        _ read: (
            UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int32>,
            UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
            UnsafeMutablePointer<CChar>?, Int
        ) -> Int32
    ) throws -> (pixels: PixelPlane<UInt8>, xmp: [UInt8]?)? {
        var message = [CChar](repeating: 0, count: 256)
        var pixels: UnsafeMutablePointer<UInt8>?
        var xmp: UnsafeMutablePointer<UInt8>?
        var xmpLength = 0
        var width: Int32 = 0
        var height: Int32 = 0
        let status = file.withUnsafeBufferPointer { data in
            message.withUnsafeMutableBufferPointer { text in
                read(data.baseAddress, data.count, &pixels, &width, &height, &xmp, &xmpLength, text.baseAddress, text.count)
            }
        }
        defer {
            cheif_free(pixels)
            cheif_free(xmp)
        }
        if status == Int32(CHEIF_ERR_NO_DEPTH) { return nil }
        guard status == Int32(CHEIF_OK), let pixels else { throw HEIFError(message: CStringBuffer.text(message)) }
        let plane = PixelPlane(
            width: Int(width), height: Int(height),
            elements: UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height)))
        return (plane, xmp.map { Array(UnsafeBufferPointer(start: $0, count: xmpLength)) })
    }

    /// Whether libheif loads and can decode HEVC.
    public static var canDecode: Bool { cheif_hevc_decodable() == 1 }

    /// Whether `file` starts as an ISO base media file (ISO/IEC 14496-12 §4.3): a box of type `ftyp` first, as
    /// every HEIF file does (ISO/IEC 23008-12 §10).
    public static func isBaseMediaFile(_ file: [UInt8]) -> Bool {
        file.count >= 12 && Array(file[4..<8]) == Array("ftyp".utf8)
    }

    /// A HEIF file's primary image as 8-bit RGB, with its Exif TIFF structure and ICC profile when it carries
    /// them. A file declaring more than `maximumPixels` is refused before decoding.
    public static func decode(_ file: [UInt8], maximumPixels: Int) throws -> DecodedPicture {
        var message = [CChar](repeating: 0, count: 256)
        var out = cheif_decoded_image()
        let status = file.withUnsafeBufferPointer { data in
            message.withUnsafeMutableBufferPointer { text in
                cheif_decode_primary(
                    data.baseAddress, data.count, maximumPixels, &out, text.baseAddress, text.count)
            }
        }
        defer {
            cheif_free(out.rgb)
            cheif_free(out.exif)
            cheif_free(out.icc)
        }
        if status == Int32(CHEIF_ERR_TOO_LARGE) {
            throw HEIFError(
                message: "\(out.width)x\(out.height) is over the limit of \(maximumPixels) pixels")
        }
        guard status == Int32(CHEIF_OK), let rgb = out.rgb else {
            throw HEIFError(message: CStringBuffer.text(message))
        }
        let (w, h) = (Int(out.width), Int(out.height))
        let pixels = PixelPlane(
            width: w, height: h, channels: 3, elements: UnsafeBufferPointer(start: rgb, count: w * h * 3))
        let stored = out.exif.map { Array(UnsafeBufferPointer(start: $0, count: out.exif_length)) }
        let icc = out.icc.map { Array(UnsafeBufferPointer(start: $0, count: out.icc_length)) }
        return DecodedPicture(pixels: pixels, exif: stored.flatMap(exifTIFF(fromItem:)), iccProfile: icc)
    }

    /// The primary image's thumbnail as 8-bit RGB, as stored; nil when it has none.
    public static func thumbnail(in file: [UInt8]) throws -> PixelPlane<UInt8>? {
        var message = [CChar](repeating: 0, count: 256)
        var rgb: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        let status = file.withUnsafeBufferPointer { data in
            message.withUnsafeMutableBufferPointer { text in
                cheif_decode_thumbnail(data.baseAddress, data.count, &rgb, &width, &height, text.baseAddress, text.count)
            }
        }
        defer { cheif_free(rgb) }
        if status == Int32(CHEIF_ERR_NO_DEPTH) { return nil }
        guard status == Int32(CHEIF_OK), let rgb else { throw HEIFError(message: CStringBuffer.text(message)) }
        let (w, h) = (Int(width), Int(height))
        return PixelPlane(width: w, height: h, channels: 3, elements: UnsafeBufferPointer(start: rgb, count: w * h * 3))
    }

    /// The TIFF structure of an `Exif` item: ISO/IEC 23008-12 Annex A.2.1 stores a 32-bit big-endian offset
    /// (`exif_tiff_header_offset`) and then the Exif payload, the TIFF header at that offset from the payload's
    /// start (writers that keep the JPEG "Exif\0\0" prefix give 6). Nil when no TIFF header is there.
    static func exifTIFF(fromItem item: [UInt8]) -> [UInt8]? {
        guard item.count >= 4 else { return nil }
        let offset = item[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let start = 4 + offset
        guard offset >= 0, start + 4 <= item.count else { return nil }
        let header = Array(item[start..<(start + 4)])
        guard header == [0x4D, 0x4D, 0x00, 0x2A] || header == [0x49, 0x49, 0x2A, 0x00] else { return nil }
        return Array(item[start...])
    }

    /// The primary image's depth image as 8-bit grey and the XMP attached to it; nil when the file
    /// has no depth image.
    public static func depthImage(in file: [UInt8]) throws -> (pixels: PixelPlane<UInt8>, xmp: [UInt8]?)? {
        try greyImage(in: file) { data, count, pixels, width, height, xmp, xmpLength, text, capacity in
            cheif_decode_depth(data, count, pixels, width, height, xmp, xmpLength, text, capacity)
        }
    }
}

/// A HEIF file's primary picture and the metadata that goes with it.
public struct DecodedPicture: Sendable {
    /// 8-bit RGB, three channels.
    public var pixels: PixelPlane<UInt8>
    /// The Exif TIFF structure ("MM\0*" or "II*\0" first), if the file has an `Exif` item for the picture.
    public var exif: [UInt8]?
    /// The picture's ICC profile, if it has one.
    public var iccProfile: [UInt8]?
}

/// libheif failed, or is missing; the message says which.
public struct HEIFError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "HEIF: \(message)" }
}
