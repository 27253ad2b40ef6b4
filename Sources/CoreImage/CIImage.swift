import Foundation
import Imaging
internal import Obscura

/// Options for creating an image (`CIImageOption`).
public struct CIImageOption: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `true`: the image is the file's auxiliary depth, in metres.
    public static let auxiliaryDepth = CIImageOption(rawValue: "kCIImageAuxiliaryDepth")
    /// `true`: the image is the file's auxiliary disparity, in 1/metres.
    public static let auxiliaryDisparity = CIImageOption(rawValue: "kCIImageAuxiliaryDisparity")
    /// `true`: the image is the file's portrait effects matte.
    public static let auxiliaryPortraitEffectsMatte = CIImageOption(rawValue: "kCIImageAuxiliaryPortraitEffectsMatte")
    /// `true`: the image is the file's hair segmentation matte.
    public static let auxiliarySemanticSegmentationHairMatte = CIImageOption(
        rawValue: "kCIImageAuxiliarySemanticSegmentationHairMatte")
    /// `true`: the image is the file's skin segmentation matte.
    public static let auxiliarySemanticSegmentationSkinMatte = CIImageOption(
        rawValue: "kCIImageAuxiliarySemanticSegmentationSkinMatte")
    /// `true`: the image is the file's teeth segmentation matte.
    public static let auxiliarySemanticSegmentationTeethMatte = CIImageOption(
        rawValue: "kCIImageAuxiliarySemanticSegmentationTeethMatte")
    /// `true`: the image is the file's glasses segmentation matte.
    public static let auxiliarySemanticSegmentationGlassesMatte = CIImageOption(
        rawValue: "kCIImageAuxiliarySemanticSegmentationGlassesMatte")

    /// Each segmentation-matte option with the matte type it reads.
    static let segmentationMattes: [(CIImageOption, AVSemanticSegmentationMatte.MatteType)] = [
        (.auxiliarySemanticSegmentationHairMatte, .hair), (.auxiliarySemanticSegmentationSkinMatte, .skin),
        (.auxiliarySemanticSegmentationTeethMatte, .teeth), (.auxiliarySemanticSegmentationGlassesMatte, .glasses),
    ]
    /// A `CGColorSpace`, or `NSNull` to leave the image's values unmanaged.
    public static let colorSpace = CIImageOption(rawValue: "kCIImageColorSpace")
    /// `true`: the file's orientation is applied.
    public static let applyOrientationProperty = CIImageOption(rawValue: "kCIImageApplyOrientationProperty")
    /// Properties to attach.
    public static let properties = CIImageOption(rawValue: "kCIImageProperties")
}

/// An image as Core Image describes one (`CIImage`): a recipe, not pixels.
///
/// Creating an image, transforming it or filtering it computes nothing; a `CIContext` evaluates the
/// recipe when it renders, and only over the region it is asked for. Coordinates have their origin at
/// the bottom left with y up, as Core Image's do, so a pixel buffer's first row is the image's top row.
///
/// Colour follows Core Image's defaults: images made from sRGB pixels (8-bit buffers, photos, `CGImage`s
/// in sRGB) are decoded to the context's working space, linear sRGB with extended range, and encoded
/// back when rendered to 8-bit outputs. Depth, disparity and matte images hold data, not colour, and
/// are never converted.
public final class CIImage: NSObject, @unchecked Sendable {
    let recipe: Recipe
    /// The depth data the image was read with, when it is a photo's auxiliary depth or disparity.
    public private(set) var depthData: AVDepthData?
    /// The portrait effects matte the image was read with.
    public private(set) var portraitEffectsMatte: AVPortraitEffectsMatte?
    /// The pixel buffer the image was made from, if any.
    public private(set) var pixelBuffer: CVPixelBuffer?
    /// The `CGImage` the image was made from, if any.
    public private(set) var cgImage: CGImage?
    /// The image's metadata, as ImageIO's property dictionaries hold it: for an image read from a photo file, the
    /// file's (`Orientation`, `PixelWidth`, `PixelHeight`, `ProfileName`, `{TIFF}` and `{Exif}`, numbers as
    /// `NSNumber`); those given with `.properties`; otherwise empty.
    public private(set) var properties: [String: Any] = [:]

    init(recipe: Recipe) {
        self.recipe = recipe
        super.init()
    }

    /// The region where the image is defined; outside it the image is clear. Infinite for generated
    /// colours and clamped images.
    public var extent: CGRect { recipe.extent }

    /// An empty image (a null extent).
    public static func empty() -> CIImage { CIImage(recipe: CropRecipe(input: ConstantRecipe(color: .zero), rect: .null)) }

    /// A colour everywhere: an image of infinite extent.
    public convenience init(color: CIColor) {
        self.init(recipe: ConstantRecipe(color: color.simd4))
    }

    /// An image of a pixel buffer's pixels: BGRA, 4:2:0 Y'CbCr and RGBA half-float frames as colour, their
    /// colour premultiplied by alpha as Core Image writes it; depth, disparity and one-component buffers as data
    /// (the value in red, green and blue, alpha 1).
    /// An empty image for a format holding no image (Bayer RAW).
    public convenience init(cvPixelBuffer pixelBuffer: CVPixelBuffer) {
        self.init(cvPixelBuffer: pixelBuffer, options: nil)
    }

    /// As `init(cvPixelBuffer:)`; a `.colorSpace` of `NSNull` leaves colour values unmanaged.
    public convenience init(cvPixelBuffer pixelBuffer: CVPixelBuffer, options: [CIImageOption: Any]?) {
        let unmanaged = options?[.colorSpace] is NSNull
        self.init(recipe: Self.recipe(pixelBuffer, unmanaged: unmanaged) ?? CIImage.empty().recipe)
        self.pixelBuffer = pixelBuffer
    }

    /// As `init(cvPixelBuffer:)`.
    public convenience init(cvImageBuffer imageBuffer: CVImageBuffer) {
        self.init(cvPixelBuffer: imageBuffer, options: nil)
    }

    /// As `init(cvPixelBuffer:options:)`.
    public convenience init(cvImageBuffer imageBuffer: CVImageBuffer, options: [CIImageOption: Any]?) {
        self.init(cvPixelBuffer: imageBuffer, options: options)
    }

    /// An image of a `CGImage`'s pixels: 8 bits per component, grey, RGB or RGBA (alpha first or
    /// last, premultiplied or not). Images in a linear colour space, or without one, are used as they
    /// are; others are taken as sRGB-encoded.
    public convenience init(cgImage: CGImage) {
        self.init(cgImage: cgImage, options: nil)
    }

    /// As `init(cgImage:)`; a `.colorSpace` of `NSNull` leaves the values unmanaged.
    public convenience init(cgImage: CGImage, options: [CIImageOption: Any]?) {
        self.init(recipe: Self.recipe(cgImage, unmanaged: options?[.colorSpace] is NSNull) ?? CIImage.empty().recipe)
        self.cgImage = cgImage
    }

    /// An image of a photo file's data (JPEG, HEIC or PNG, as Obscura writes and reads them, or a RAW photo's DNG,
    /// developed as `CIRAWFilter` develops it by default), or, with
    /// `.auxiliaryDepth`, `.auxiliaryDisparity` or `.auxiliaryPortraitEffectsMatte` set to `true`, of the
    /// auxiliary image the file carries. Nil when the data does not decode or holds no such image.
    ///
    /// The pixels are as the file stores them, a phone's photo in the sensor's orientation; `properties` holds
    /// the file's metadata with its `Orientation`. With `.applyOrientationProperty` set to `true` the image, or
    /// the auxiliary image, is turned as that orientation says (`oriented(forExifOrientation:)`). A `.properties`
    /// dictionary replaces the file's properties, and `NSNull` leaves none.
    public convenience init?(data: Data, options: [CIImageOption: Any]? = nil) {
        let options = options ?? [:]
        guard let read = Self.recipe(data, options) else { return nil }
        self.init(recipe: read.recipe)
        depthData = read.depth
        portraitEffectsMatte = read.matte
        let fileProperties = read.depth == nil && read.matte == nil ? read.properties : [:]
        switch options[.properties] {
        case let given as [String: Any]: properties = given
        case is NSNull: properties = [:]
        default: properties = fileProperties
        }
    }

    /// An image of a photo file, as `init(data:options:)`; nil when the file cannot be read.
    public convenience init?(contentsOf url: URL, options: [CIImageOption: Any]? = nil) {
        guard let data = try? Data(contentsOf: url) else { return nil }
        self.init(data: data, options: options)
    }

    /// An image of depth data's map: depth in metres (`auxiliaryDepth`) or disparity in 1/metres.
    public convenience init?(depthData: AVDepthData) {
        self.init(depthData: depthData, options: nil)
    }

    /// As `init(depthData:)`; options are accepted and ignored, as they carry nothing for depth.
    public convenience init?(depthData: AVDepthData, options: [CIImageOption: Any]?) {
        guard let recipe = Self.recipe(depthData.depthDataMap, unmanaged: true) else { return nil }
        self.init(recipe: recipe)
        self.depthData = depthData
    }

    /// An image of a portrait effects matte's coverage.
    public convenience init?(portraitEffectsMatte matte: AVPortraitEffectsMatte) {
        guard let recipe = Self.recipe(matte.mattingImage, unmanaged: true) else { return nil }
        self.init(recipe: recipe)
        portraitEffectsMatte = matte
    }

    // MARK: Building recipes

    /// The image moved, scaled, rotated or sheared by an affine transform; resampled bilinearly when rendered, or
    /// from the nearest pixel after `samplingNearest()`.
    public func transformed(by matrix: CGAffineTransform) -> CIImage {
        if matrix.isIdentity { return self }
        if let warp = recipe as? WarpRecipe, !warp.input.extent.isInfinite, let combined = Self.homography(matrix.inverted()) {
            // Consecutive transforms are resampled once.
            let h = warp.outputToSource.concatenating(combined)
            let input = warp.nearest ? SamplingRecipe(input: warp.input, nearest: true) : warp.input
            return CIImage(recipe: WarpRecipe(input: input, outputToSource: h, extent: extent.applying(matrix)))
        }
        return CIImage(recipe: WarpRecipe(input: recipe, transform: matrix))
    }

    /// As `transformed(by:)`; the high-quality downsampling flag is accepted, the resampling is bilinear.
    public func transformed(by matrix: CGAffineTransform, highQualityDownsample: Bool) -> CIImage {
        transformed(by: matrix)
    }

    static func homography(_ t: CGAffineTransform) -> Homography? {
        Homography(entries: [Double(t.a), Double(t.c), Double(t.tx), Double(t.b), Double(t.d), Double(t.ty), 0, 0, 1])
    }

    /// The image inside a rectangle, clear outside it.
    public func cropped(to rect: CGRect) -> CIImage {
        CIImage(recipe: CropRecipe(input: recipe, rect: rect))
    }

    /// The image with its edge pixels repeated outwards for ever (an infinite extent).
    public func clampedToExtent() -> CIImage {
        guard let clamp = ClampRecipe(input: recipe) else { return self }
        return CIImage(recipe: clamp)
    }

    /// The image turned as an EXIF orientation says it should be displayed; the result's extent starts at
    /// the origin.
    public func oriented(_ orientation: CGImagePropertyOrientation) -> CIImage {
        transformed(by: orientationTransform(for: orientation))
    }

    /// As `oriented(_:)`, from the EXIF number (1…8); other numbers leave the image as it is.
    public func oriented(forExifOrientation orientation: Int32) -> CIImage {
        guard orientation >= 1, orientation <= 8, let o = CGImagePropertyOrientation(rawValue: UInt32(orientation))
        else { return self }
        return oriented(o)
    }

    /// The transform `oriented(_:)` applies: the turn or flip the orientation asks for, with the result
    /// moved so that its extent starts at the origin.
    public func orientationTransform(for orientation: CGImagePropertyOrientation) -> CGAffineTransform {
        let e = extent
        guard !e.isInfinite, !e.isNull else { return .identity }
        let w = e.width, h = e.height
        // Each orientation in top-left pixel terms, (u, v) ↦ (u′, v′), with the displayed size.
        let (t, size): (CGAffineTransform, CGSize) = switch orientation {
        case .up: (.identity, e.size)
        case .upMirrored: (CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0), e.size)
        case .down: (CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h), e.size)
        case .downMirrored: (CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h), e.size)
        case .leftMirrored: (CGAffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0), CGSize(width: h, height: w))
        case .right: (CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0), CGSize(width: h, height: w))
        case .rightMirrored: (CGAffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w), CGSize(width: h, height: w))
        case .left: (CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w), CGSize(width: h, height: w))
        }
        // Core Image (X, Y) to top-left (u, v) = (X − minX, maxY − Y), then back with the new size.
        let toTopLeft = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: -e.minX, ty: e.maxY)
        let fromTopLeft = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: size.height)
        return toTopLeft.concatenating(t).concatenating(fromTopLeft)
    }

    /// The image with a filter applied; the image is the filter's `inputImage`. An empty image when the
    /// name is unknown or the filter gives no output.
    public func applyingFilter(_ filterName: String, parameters params: [String: Any]) -> CIImage {
        guard let filter = CIFilter(name: filterName) else { return .empty() }
        for (key, value) in params { filter.setValue(value, forKey: key) }
        filter.setValue(self, forKey: kCIInputImageKey)
        return filter.outputImage ?? .empty()
    }

    /// The image with a filter applied with its default parameters.
    public func applyingFilter(_ filterName: String) -> CIImage {
        applyingFilter(filterName, parameters: [:])
    }

    /// The image over another (`CISourceOverCompositing`).
    public func composited(over dest: CIImage) -> CIImage {
        CIImage(recipe: CombineRecipe(inputs: [recipe, dest.recipe], kind: .sourceOver, extent: extent.union(dest.extent)))
    }

    /// The image with a per-pixel step applied (colour filters).
    func applying(_ step: PointStep) -> CIImage { CIImage(recipe: PointRecipe.applying(step, to: recipe)) }

    public override var description: String { "CIImage extent \(extent)" }
}

// MARK: - Reading pixels

extension CIImage {
    /// A recipe holding a pixel buffer's pixels (copied, so later changes to the buffer do not reach it).
    static func recipe(_ buffer: CVPixelBuffer, unmanaged: Bool) -> Recipe? {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let w = CVPixelBufferGetWidth(buffer), h = CVPixelBufferGetHeight(buffer)
        let format = CVPixelBufferGetPixelFormatType(buffer)
        guard let base = CVPixelBufferGetBaseAddressOfPlane(buffer, 0) else { return nil }
        let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
        let colour: BitmapRecipe.Encoding = unmanaged ? .linear : .sRGB
        switch format {
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_32ARGB:
            // Where red, green, blue and alpha sit in each pixel's four bytes.
            let (r, g, b, a) = format == kCVPixelFormatType_32BGRA ? (2, 1, 0, 3) : (1, 2, 3, 0)
            var bytes = [UInt8](repeating: 0, count: 4 * w * h)
            for y in 0..<h {
                let row = (base + y * stride).assumingMemoryBound(to: UInt8.self)
                for x in 0..<w {
                    let o = 4 * (y * w + x)
                    let alpha = row[4 * x + a]
                    // A buffer holds premultiplied colour, as Core Image writes it; the bitmap keeps it straight.
                    let (sr, sg, sb) = RGBA8.straight(row[4 * x + r], row[4 * x + g], row[4 * x + b], alpha: alpha)
                    bytes[o] = sr
                    bytes[o + 1] = sg
                    bytes[o + 2] = sb
                    bytes[o + 3] = alpha
                }
            }
            return BitmapRecipe(width: w, height: h, storage: .bytes(bytes, rowStride: 4 * w), encoding: colour)
        case kCVPixelFormatType_OneComponent8:
            return floats(w, h) { x, y in Float((base + y * stride).assumingMemoryBound(to: UInt8.self)[x]) / 255 }
        case kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_OneComponent32Float:
            return floats(w, h) { x, y in (base + y * stride).assumingMemoryBound(to: Float.self)[x] }
        case kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DisparityFloat16:
            return floats(w, h) { x, y in Float((base + y * stride).assumingMemoryBound(to: Float16.self)[x]) }
        case kCVPixelFormatType_64RGBAHalf:
            var values = [SIMD4<Float>](repeating: .zero, count: w * h)
            for y in 0..<h {
                let row = (base + y * stride).assumingMemoryBound(to: Float16.self)
                // Premultiplied, as Core Image writes such a buffer.
                for x in 0..<w {
                    values[y * w + x] = SIMD4(Float(row[4 * x]), Float(row[4 * x + 1]), Float(row[4 * x + 2]), Float(row[4 * x + 3]))
                }
            }
            // Half-float frames hold extended sRGB-encoded values, as the capture API fills them.
            return BitmapRecipe(width: w, height: h, storage: .floats(values), encoding: colour)
        case let format where YCbCrCoding.of(format) != nil:
            // Obscura's decoding of Y'CbCr (BT.601, 8 or 10 bits) to linear sRGB, which is the working space.
            guard let linear = buffer.extendedLinearSRGB() else { return nil }
            var values = [SIMD4<Float>](repeating: .zero, count: w * h)
            linear.withUnsafeBufferPointer { p in
                for y in 0..<h {
                    for x in 0..<w {
                        let o = y * linear.rowStride + 3 * x
                        values[y * w + x] = SIMD4(p[o], p[o + 1], p[o + 2], 1)
                    }
                }
            }
            return BitmapRecipe(width: w, height: h, storage: .floats(values), encoding: .linear)
        default:
            return nil
        }
    }

    /// A recipe of one value per pixel, in red, green and blue, alpha 1: data, never colour-converted.
    static func floats(_ w: Int, _ h: Int, _ value: (Int, Int) -> Float) -> Recipe {
        var values = [SIMD4<Float>](repeating: .zero, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let v = value(x, y)
                values[y * w + x] = SIMD4(v, v, v, 1)
            }
        }
        return BitmapRecipe(width: w, height: h, storage: .floats(values), encoding: .linear)
    }

    /// A recipe holding a `CGImage`'s pixels.
    static func recipe(_ image: CGImage, unmanaged: Bool) -> Recipe? {
        guard image.bitsPerComponent == 8, let provided = image.dataProvider?.data else { return nil }
        // The provider's bytes in place (reading them through `Data` would copy them byte by byte).
        let data = provided as NSData
        let channels = image.bitsPerPixel / 8
        let alpha = image.alphaInfo
        let hasAlpha = [.premultipliedLast, .premultipliedFirst, .last, .first, .alphaOnly].contains(alpha)
        let skipFirst = [.premultipliedFirst, .first, .noneSkipFirst].contains(alpha)
        let premultiplied = [.premultipliedLast, .premultipliedFirst].contains(alpha)
        let little = image.bitmapInfo.intersection(.byteOrderMask) == .byteOrder32Little
        let colourChannels = image.colorSpace?.numberOfComponents ?? 3
        guard channels >= 1, colourChannels == 1 || colourChannels == 3 else { return nil }
        let w = image.width, h = image.height, stride = image.bytesPerRow
        var bytes: [UInt8]
        if channels == 4, colourChannels == 3, !skipFirst, !premultiplied, !little {
            // R, G, B and straight or no alpha, in the recipe's own order: whole rows copied (the alpha bytes left
            // at 255 when the image has none), instead of a pixel at a time.
            bytes = [UInt8](repeating: 255, count: 4 * w * h)
            let src = data.bytes.assumingMemoryBound(to: UInt8.self)
            bytes.withUnsafeMutableBufferPointer { out in
                guard let base = out.baseAddress else { return }
                for y in 0..<h {
                    let row = base + 4 * w * y
                    if hasAlpha {
                        row.update(from: src + y * stride, count: 4 * w)
                    } else {
                        for x in 0..<w {
                            let p = src + y * stride + 4 * x
                            (row[4 * x], row[4 * x + 1], row[4 * x + 2]) = (p[0], p[1], p[2])
                        }
                    }
                }
            }
        } else {
            // Every other layout, premultiplied bytes made straight as the bitmap recipe holds them.
            guard let straight = image.rgba8(premultiplied: false) else { return nil }
            bytes = straight
        }
        let name = image.colorSpace?.name ?? ""
        let linear = unmanaged || image.colorSpace == nil || name.contains("Linear")
        return BitmapRecipe(
            width: w, height: h, storage: .bytes(bytes, rowStride: 4 * w), encoding: linear ? .linear : .sRGB,
            isOpaque: !hasAlpha)
    }

    /// What `init(data:options:)` reads: the image's recipe, turned when the options ask, and what it was read from.
    typealias FileRead = (recipe: Recipe, depth: AVDepthData?, matte: AVPortraitEffectsMatte?, properties: [String: Any])

    /// Whether a Boolean option is set (`true` or a non-zero `NSNumber`).
    static func flag(_ options: [CIImageOption: Any], _ o: CIImageOption) -> Bool {
        (options[o] as? Bool) ?? (options[o] as? NSNumber)?.boolValue ?? false
    }

    /// A recipe of a file's image or of the auxiliary image the options ask for, turned as its orientation says
    /// when `.applyOrientationProperty` is set.
    static func recipe(_ data: Data, _ options: [CIImageOption: Any]) -> FileRead? {
        guard let read = unoriented(data, options) else { return nil }
        guard flag(options, .applyOrientationProperty) else { return read }
        // An auxiliary image turns with its photo: the orientation is the photo's.
        let properties = read.depth == nil && read.matte == nil ? read.properties : fileProperties([UInt8](data))
        guard let number = properties?[ImageProperties.orientation] as? Int32 else { return read }
        let turned = CIImage(recipe: read.recipe).oriented(forExifOrientation: number)
        return (turned.recipe, read.depth, read.matte, read.properties)
    }

    /// The metadata of a photo file: its Exif and ICC profile, the size of its picture; nil when it is none of
    /// the formats `init(data:options:)` reads.
    static func fileProperties(_ bytes: [UInt8]) -> [String: Any]? { ImageProperties.photoFile(bytes) }

    /// The file's image or auxiliary image as stored, with the file's properties.
    static func unoriented(_ data: Data, _ options: [CIImageOption: Any]) -> FileRead? {
        func flag(_ o: CIImageOption) -> Bool { Self.flag(options, o) }
        if flag(.auxiliaryDepth) || flag(.auxiliaryDisparity) {
            guard let depth = try? AVDepthData(fromFileData: data) else { return nil }
            let type = flag(.auxiliaryDepth) ? kCVPixelFormatType_DepthFloat32 : kCVPixelFormatType_DisparityFloat32
            let converted = depth.converting(toDepthDataType: type)
            guard let recipe = recipe(converted.depthDataMap, unmanaged: true) else { return nil }
            return (recipe, converted, nil, [:])
        }
        if flag(.auxiliaryPortraitEffectsMatte) {
            guard let matte = try? AVPortraitEffectsMatte(fromFileData: data),
                let recipe = recipe(matte.mattingImage, unmanaged: true)
            else { return nil }
            return (recipe, nil, matte, [:])
        }
        for (option, type) in CIImageOption.segmentationMattes where flag(option) {
            guard let matte = try? AVSemanticSegmentationMatte(fromFileData: data, matteType: type),
                let recipe = recipe(matte.mattingImage, unmanaged: true)
            else { return nil }
            return (recipe, nil, nil, [:])
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) || bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) {
            // A DNG: its raw image developed as `CIRAWFilter` does by default, in the sensor's orientation.
            guard let file = try? DNGFile(bytes: bytes), let raw = CIRAWFilter(file: file, bytes: bytes) else {
                return nil
            }
            raw.orientation = .up
            guard let image = raw.outputImage else { return nil }
            return (image.recipe, nil, nil, raw.fileProperties)
        }
        let unmanaged = options[.colorSpace] is NSNull
        let rgb: PixelPlane<UInt8>
        var exif: [UInt8]?, icc: [UInt8]?
        if bytes.starts(with: [0xFF, 0xD8]) {
            guard let decoded = try? JPEG.decodeRGB(bytes) else { return nil }
            rgb = decoded
            (exif, icc) = (ImageProperties.jpegExif(bytes), ImageProperties.jpegICCProfile(bytes))
        } else if HEIF.isBaseMediaFile(bytes) {
            guard let decoded = try? HEIF.decode(bytes, maximumPixels: 1 << 27) else { return nil }
            rgb = decoded.pixels
            (exif, icc) = (decoded.exif, decoded.iccProfile)
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard let png = try? PNG.decode(bytes) else { return nil }
            switch png.pixels {
            case .eightBit(let p): rgb = p
            case .sixteenBit(let p): rgb = p.mapPixels(to: UInt8.self, outputChannels: p.channels) { $0 }
            }
        } else {
            return nil
        }
        let w = rgb.width, h = rgb.height, channels = rgb.channels
        var out = [UInt8](repeating: 255, count: 4 * w * h)
        rgb.withUnsafeBufferPointer { p in
            for y in 0..<h {
                for x in 0..<w {
                    let s = y * rgb.rowStride + x * channels, o = 4 * (y * w + x)
                    switch channels {
                    case 1, 2:
                        out[o] = p[s]; out[o + 1] = p[s]; out[o + 2] = p[s]
                        if channels == 2 { out[o + 3] = p[s + 1] }
                    default:
                        out[o] = p[s]; out[o + 1] = p[s + 1]; out[o + 2] = p[s + 2]
                        if channels == 4 { out[o + 3] = p[s + 3] }
                    }
                }
            }
        }
        let recipe = BitmapRecipe(width: w, height: h, storage: .bytes(out, rowStride: 4 * w), encoding: unmanaged ? .linear : .sRGB)
        return (recipe, nil, nil, ImageProperties.picture(width: w, height: h, exif: exif, iccProfile: icc))
    }
}
