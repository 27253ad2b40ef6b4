import Foundation
import Imaging
import ObscuraAV

/// Options for a context (`CIContextOption`).
public struct CIContextOption: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The space filters work in: a `CGColorSpace` (linear extended sRGB by default), or `NSNull` to turn
    /// colour management off, so that values pass from input to output unconverted.
    public static let workingColorSpace = CIContextOption(rawValue: "kCIContextWorkingColorSpace")
    /// The space results are encoded in for outputs without their own (sRGB by default; `NSNull` for none).
    public static let outputColorSpace = CIContextOption(rawValue: "kCIContextOutputColorSpace")
    /// The working pixel format; every context here works in 32-bit floats.
    public static let workingFormat = CIContextOption(rawValue: "kCIContextWorkingFormat")
    /// Whether to render on the CPU; every context here does.
    public static let useSoftwareRenderer = CIContextOption(rawValue: "kCIContextUseSoftwareRenderer")
    /// Whether intermediate results are cached; nothing is cached between renders here.
    public static let cacheIntermediates = CIContextOption(rawValue: "kCIContextCacheIntermediates")
    /// Whether renders into bitmaps and pixel buffers, which carry no alpha mode of their own, write premultiplied
    /// colour (true, the default) or straight colour (false).
    public static let outputPremultiplied = CIContextOption(rawValue: "kCIContextOutputPremultiplied")
    /// A name for the context.
    public static let name = CIContextOption(rawValue: "kCIContextName")
}

/// A pixel format for rendering (`CIFormat`).
public struct CIFormat: Hashable, Sendable, RawRepresentable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 8-bit components, alpha first.
    public static let ARGB8 = CIFormat(rawValue: 516)
    /// 8-bit components, blue first.
    public static let BGRA8 = CIFormat(rawValue: 260)
    /// 8-bit components, red first.
    public static let RGBA8 = CIFormat(rawValue: 264)
    /// 16-bit float components.
    public static let RGBAh = CIFormat(rawValue: 2053)
    /// 32-bit float components.
    public static let RGBAf = CIFormat(rawValue: 2056)
    /// 8-bit alpha only.
    public static let A8 = CIFormat(rawValue: 257)
    /// 8-bit luminance.
    public static let L8 = CIFormat(rawValue: 1793)
    /// 32-bit float luminance.
    public static let Lf = CIFormat(rawValue: 1816)
    /// 8-bit red only.
    public static let R8 = CIFormat(rawValue: 259)
    /// 32-bit float red only.
    public static let Rf = CIFormat(rawValue: 2312)
}

/// Options for writing image files (`CIImageRepresentationOption`).
///
/// The auxiliary images (a `CIImage` each) are stored in HEIC files as an iPhone stores them beside a photo:
/// the depth or disparity as the auxiliary depth image, each matte as an auxiliary image of its type, so that
/// `CIImage(data:options:)` with the matching `CIImageOption` and `AVDepthData` or the matte types read them
/// back. JPEG and PNG representations ignore them (REMAINING_INTERFACE.md).
public struct CIImageRepresentationOption: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A depth image, in metres.
    public static let depthImage = CIImageRepresentationOption(rawValue: "kCIImageRepresentationDepthImage")
    /// A disparity image, in 1/metres.
    public static let disparityImage = CIImageRepresentationOption(rawValue: "kCIImageRepresentationDisparityImage")
    /// A portrait effects matte, coverage 0…1.
    public static let portraitEffectsMatteImage = CIImageRepresentationOption(
        rawValue: "kCIImageRepresentationPortraitEffectsMatteImage")
    /// A hair segmentation matte.
    public static let semanticSegmentationHairMatteImage = CIImageRepresentationOption(
        rawValue: "kCIImageRepresentationSemanticSegmentationHairMatteImage")
    /// A skin segmentation matte.
    public static let semanticSegmentationSkinMatteImage = CIImageRepresentationOption(
        rawValue: "kCIImageRepresentationSemanticSegmentationSkinMatteImage")
    /// A teeth segmentation matte.
    public static let semanticSegmentationTeethMatteImage = CIImageRepresentationOption(
        rawValue: "kCIImageRepresentationSemanticSegmentationTeethMatteImage")
    /// A glasses segmentation matte.
    public static let semanticSegmentationGlassesMatteImage = CIImageRepresentationOption(
        rawValue: "kCIImageRepresentationSemanticSegmentationGlassesMatteImage")

    /// Each matte option with the ImageIO auxiliary-data type its image is stored as.
    static let mattes: [(CIImageRepresentationOption, String)] = [
        (.portraitEffectsMatteImage, kCGImageAuxiliaryDataTypePortraitEffectsMatte as String),
        (.semanticSegmentationHairMatteImage, kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte as String),
        (.semanticSegmentationSkinMatteImage, kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte as String),
        (.semanticSegmentationTeethMatteImage, kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte as String),
        (.semanticSegmentationGlassesMatteImage, kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte as String),
    ]
}


/// Evaluates images' recipes (`CIContext`): into `CGImage`s, pixel buffers and image files.
///
/// Rendering runs on the CPU in 32-bit floats, in row bands on all cores. By default, as on iOS, the
/// working space is linear sRGB with extended range: sRGB-encoded inputs are decoded when read and
/// results encoded with the sRGB curve (clamped to 0…1) when written to 8-bit outputs. A
/// `workingColorSpace` of `NSNull` turns this off, as in Core Image, and values pass unconverted; a
/// linear `outputColorSpace` leaves results linear.
public final class CIContext: NSObject, @unchecked Sendable {
    let context: RenderContext
    /// The working colour space.
    public let workingColorSpace: CGColorSpace?
    /// Whether bitmaps and pixel buffers get premultiplied colour (`CIContextOption.outputPremultiplied`).
    let outputPremultiplied: Bool

    /// A context with options.
    public init(options: [CIContextOption: Any]? = nil) {
        let working = options?[.workingColorSpace]
        let output = options?[.outputColorSpace]
        let managed = !(working is NSNull)
        let outputName = (output as? CGColorSpace)?.name ?? ""
        context = RenderContext(managesColor: managed, encodesOutput: managed && !(output is NSNull) && !outputName.contains("Linear"))
        workingColorSpace = managed ? ((working as? CGColorSpace) ?? CGColorSpace(name: CGColorSpace.extendedLinearSRGB)) : nil
        outputPremultiplied = (options?[.outputPremultiplied]).flatMap(FilterInputs.number).map { $0 != 0 } ?? true
        super.init()
    }

    /// A context with the default options.
    public override convenience init() { self.init(options: nil) }

    /// The pixels of an image over a rectangle (rounded out to whole pixels).
    func render(_ image: CIImage, _ region: Region) -> Pixels {
        materialise(image.recipe, region, RenderState(context: context))
    }

    /// A `CGImage` of the image over a rectangle: 8-bit RGBA (straight alpha, `.premultipliedLast`
    /// unless opaque, then `.noneSkipLast`), sRGB-encoded. Nil for an empty or infinite rectangle.
    public func createCGImage(_ image: CIImage, from fromRect: CGRect) -> CGImage? {
        createCGImage(image, from: fromRect, format: .RGBA8, colorSpace: nil)
    }

    /// As `createCGImage(_:from:)`, in a format (8-bit RGBA only) and colour space.
    public func createCGImage(_ image: CIImage, from fromRect: CGRect, format: CIFormat, colorSpace: CGColorSpace?)
        -> CGImage?
    {
        guard let region = Region(covering: fromRect), !region.isEmpty else { return nil }
        let bytes = rgba8(image, region, encode: context.encodesOutput && !(colorSpace?.name?.contains("Linear") ?? false))
        let name = context.encodesOutput ? CGColorSpace.sRGB : CGColorSpace.linearSRGB
        guard let space = colorSpace ?? CGColorSpace(name: name), let provider = CGDataProvider(data: bytes) else {
            return nil
        }
        return CGImage(
            width: region.width, height: region.height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 4 * region.width,
            space: space, bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue),
            provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }

    /// The image over a region as 8-bit RGBA with straight alpha, rows top first, in one banded pass,
    /// written straight into the bytes the result owns (a `CGImage`'s provider keeps them uncopied).
    ///
    /// A warp of an image held as bytes (`CIPerspectiveCorrection` of a `CGImage`, the common case) takes
    /// `BytesWarp`, which samples the bytes directly instead of first rendering the warp's input to floats; it
    /// writes this general path's bytes, within one code where opaque runs are mixed in fixed point
    /// (`PerspectiveCorrectionFastPathTests` compares the two).
    func rgba8(_ image: CIImage, _ region: Region, encode: Bool) -> NSData {
        let state = RenderState(context: context)
        let w = region.width
        let recipe = image.recipe
        let count = 4 * w * region.height
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, count))
        let shared = SharedPointer(base: bytes)
        if let warp = recipe as? WarpRecipe, !warp.nearest, let direct = BytesWarp(warp, region: region, state: state) {
            BandParallel.forEachBand(height: region.height, rowsPerBand: BytesWarp.rowsPerBand) { rows in
                direct.write(rows: rows, into: shared.base + 4 * rows.lowerBound * w, encode: encode)
            }
            return NSData(bytesNoCopy: bytes, length: count, deallocator: { p, _ in p.deallocate() })
        }
        recipe.prepare(region, state)
        // Rows go through a scratch line small enough to stay in cache (and below malloc's mapping threshold).
        let chunk = max(1, 65_536 / (16 * max(1, w)))
        BandParallel.forEachBand(height: region.height) { rows in
            let out = shared.base
            let scratch = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: chunk * w)
            defer { scratch.deallocate() }
            SRGBCurve.encodeTable.withUnsafeBufferPointer { t in
                let table = t.baseAddress!
                for first in stride(from: rows.lowerBound, to: rows.upperBound, by: chunk) {
                    let part = first..<min(rows.upperBound, first + chunk)
                    recipe.fill(region, rows: part, into: scratch, state)
                    let o = out + 4 * first * w
                    for k in 0..<(part.count * w) {
                        RGBA8.store(scratch[k], o + 4 * k, encode: encode, table: table)
                    }
                }
            }
        }
        return NSData(bytesNoCopy: bytes, length: count, deallocator: { p, _ in p.deallocate() })
    }

    /// Renders an image into a pixel buffer, the image's pixel at (x, y) going to the buffer's column x
    /// and row `height − 1 − y`. BGRA buffers get sRGB-encoded bytes; half-float RGBA buffers the working
    /// values; both premultiplied unless the context's `outputPremultiplied` option is false, as Apple documents
    /// for outputs that carry no alpha mode. Depth, disparity and one-component buffers get the red component
    /// (one-component 8-bit buffers as a 0…1 fraction). Other formats are left as they are.
    public func render(_ image: CIImage, to buffer: CVPixelBuffer) {
        render(image, to: buffer, bounds: CGRect(x: 0, y: 0, width: CVPixelBufferGetWidth(buffer), height: CVPixelBufferGetHeight(buffer)), colorSpace: nil)
    }

    /// As `render(_:to:)`, for a rectangle of the image the size of the buffer.
    public func render(_ image: CIImage, to buffer: CVPixelBuffer, bounds: CGRect, colorSpace: CGColorSpace?) {
        let w = CVPixelBufferGetWidth(buffer), h = CVPixelBufferGetHeight(buffer)
        let region = Region(x: Int(bounds.minX.rounded(.down)), y: Int(bounds.minY.rounded(.down)), width: w, height: h)
        let format = CVPixelBufferGetPixelFormatType(buffer)
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        guard let base = CVPixelBufferGetBaseAddressOfPlane(buffer, 0) else { return }
        let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
        switch format {
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_32ARGB:
            // Where red, green, blue and alpha go in each pixel's four bytes.
            let (r, g, b, a) = format == kCVPixelFormatType_32BGRA ? (2, 1, 0, 3) : (1, 2, 3, 0)
            let data = rgba8(image, region, encode: context.encodesOutput)
            let bytes = data.bytes.assumingMemoryBound(to: UInt8.self)
            for y in 0..<h {
                let row = (base + y * stride).assumingMemoryBound(to: UInt8.self)
                for x in 0..<w {
                    let o = 4 * (y * w + x)
                    let (pr, pg, pb) = outputPremultiplied
                        ? RGBA8.premultiplied(bytes[o], bytes[o + 1], bytes[o + 2], alpha: bytes[o + 3])
                        : (bytes[o], bytes[o + 1], bytes[o + 2])
                    row[4 * x + r] = pr
                    row[4 * x + g] = pg
                    row[4 * x + b] = pb
                    row[4 * x + a] = bytes[o + 3]
                }
            }
        case kCVPixelFormatType_64RGBAHalf, kCVPixelFormatType_OneComponent8, kCVPixelFormatType_DepthFloat32,
            kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DisparityFloat16,
            kCVPixelFormatType_OneComponent32Float:
            let pixels = render(image, region)
            for y in 0..<h {
                let src = pixels.row(y), row = base + y * stride
                for x in 0..<w {
                    let v = src[x]
                    let s: Float = v.w > 0 ? 1 / v.w : 0
                    switch format {
                    case kCVPixelFormatType_64RGBAHalf:
                        let p = row.assumingMemoryBound(to: Float16.self) + 4 * x
                        let c = outputPremultiplied ? v : SIMD4(v.x * s, v.y * s, v.z * s, v.w)
                        p[0] = Float16(c.x); p[1] = Float16(c.y); p[2] = Float16(c.z); p[3] = Float16(c.w)
                    case kCVPixelFormatType_OneComponent8:
                        row.assumingMemoryBound(to: UInt8.self)[x] = UInt8((min(max(v.x * s, 0), 1) * 255).rounded())
                    case kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat32,
                        kCVPixelFormatType_OneComponent32Float:
                        row.assumingMemoryBound(to: Float.self)[x] = v.x * s
                    default:
                        row.assumingMemoryBound(to: Float16.self)[x] = Float16(v.x * s)
                    }
                }
            }
        default:
            return
        }
    }

    /// The image as RGB(A) 8-bit pixels for a file encoder: a plane of `channels` channels.
    private func plane(_ image: CIImage, channels: Int) -> PixelPlane<UInt8>? {
        guard let region = Region(covering: image.extent), !region.isEmpty else { return nil }
        let data = rgba8(image, region, encode: context.encodesOutput)
        let bytes = UnsafeBufferPointer(start: data.bytes.assumingMemoryBound(to: UInt8.self), count: data.length)
        if channels == 4 { return PixelPlane(width: region.width, height: region.height, channels: 4, elements: bytes) }
        var rgb = [UInt8](repeating: 0, count: 3 * region.width * region.height)
        for i in 0..<(region.width * region.height) {
            rgb[3 * i] = bytes[4 * i]; rgb[3 * i + 1] = bytes[4 * i + 1]; rgb[3 * i + 2] = bytes[4 * i + 2]
        }
        return PixelPlane(width: region.width, height: region.height, channels: 3, elements: rgb)
    }

    /// The image over its extent as PNG data (8-bit RGBA, tagged sRGB), through Obscura's PNG encoder;
    /// nil for an infinite or empty extent.
    public func pngRepresentation(
        of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) -> Data? {
        guard let pixels = plane(image, channels: 4) else { return nil }
        return (try? PNG.encode(PNGImage(pixels: pixels, colorSpace: context.encodesOutput ? .sRGB : .untagged))).map { Data($0) }
    }

    /// The image over its extent as JPEG data, through Obscura's JPEG encoder, at the quality of the
    /// `kCGImageDestinationLossyCompressionQuality` option (0…1, 0.9 when absent, libjpeg's scale × 100).
    public func jpegRepresentation(
        of image: CIImage, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) -> Data? {
        guard let pixels = plane(image, channels: 3) else { return nil }
        return (try? JPEG.encode(pixels, quality: Self.quality(options))).map { Data($0) }
    }

    /// The image over its extent as HEIC data, through Obscura's HEIF writer; nil where libheif's HEVC
    /// encoder is missing, or for an infinite or empty extent.
    public func heifRepresentation(
        of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) -> Data? {
        guard HEIF.isAvailable, let pixels = plane(image, channels: 3) else { return nil }
        var auxiliaries: [HEIF.AuxiliaryImage] = []
        for (key, type) in CIImageRepresentationOption.mattes {
            guard let matte = options[key] as? CIImage,
                let region = Region(covering: matte.extent), !region.isEmpty
            else { continue }
            // Coverage is data, linear like a matte's buffer: the first channel of the working-space values in
            // 8 bits, with no output curve.
            let data = rgba8(matte, region, encode: false)
            let bytes = data.bytes.assumingMemoryBound(to: UInt8.self)
            let grey = PixelPlane<UInt8>(
                width: region.width, height: region.height,
                elements: (0..<(region.width * region.height)).map { bytes[4 * $0] })
            if let auxiliary = MatteFileCoding.heifAuxiliary(grey, auxiliaryDataType: type) {
                auxiliaries.append(auxiliary)
            }
        }
        var depth: (image: PixelPlane<UInt8>, xmp: [UInt8])?
        let depthKey = options[.depthImage] != nil ? CIImageRepresentationOption.depthImage : .disparityImage
        if let map = options[depthKey] as? CIImage {
            guard let region = Region(covering: map.extent), !region.isEmpty else { return nil }
            // Depth values as they are: the first channel of the image rendered in floats.
            let floats = render(map, region)
            let values = (0..<(region.width * region.height)).map { floats.base[$0].x }
            depth = DepthImageCoding.encode(
                values: values, width: region.width, height: region.height, disparity: depthKey == .disparityImage)
        }
        let encoded = try? HEIF.encode(
            pixels, quality: Self.quality(options), iccProfile: nil, exif: nil, depth: depth?.image,
            depthXMP: depth?.xmp, auxiliaries: auxiliaries)
        return encoded.map { Data($0) }
    }

    static func quality(_ options: [CIImageRepresentationOption: Any]) -> Int {
        let key = CIImageRepresentationOption(rawValue: kCGImageDestinationLossyCompressionQuality as String)
        let q = (options[key] as? Double) ?? (options[key] as? NSNumber)?.doubleValue ?? 0.9
        return Int((min(max(q, 0), 1) * 100).rounded())
    }
}
