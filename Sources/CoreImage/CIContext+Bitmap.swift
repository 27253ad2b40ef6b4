import Foundation

// Rendering into memory the caller owns, and writing files: how apps read a reduction's one pixel
// (`CIAreaAverage` into four bytes) and save a filtered photo.
extension CIContext {
    /// Renders a rectangle of the image into `data`, rows `rowBytes` apart, top row first, in a format: 8-bit
    /// `.RGBA8`, `.BGRA8`, `.ARGB8`, `.R8`, `.L8` (luma) and `.A8`; half-float `.RGBAh`; float `.RGBAf`, `.Rf` and `.Lf`.
    /// Colour is encoded for `colorSpace`, or for the context's output space when it is nil (sRGB in Core Image's
    /// default context; the working values where the context does not manage colour or the space is linear), and
    /// is premultiplied unless the context's `outputPremultiplied` option is false. Any other format leaves the
    /// memory as it was.
    public func render(
        _ image: CIImage, toBitmap data: UnsafeMutableRawPointer, rowBytes: Int, bounds: CGRect, format: CIFormat,
        colorSpace: CGColorSpace?
    ) {
        guard let region = Region(covering: bounds), !region.isEmpty, let layout = BitmapLayout(format) else { return }
        let encode =
            context.managesColor
            && (colorSpace.map { !($0.name ?? "").contains("Linear") } ?? context.encodesOutput)
        let pixels = render(image, region)
        for j in 0..<region.height {
            let source = pixels.row(j), row = data + j * rowBytes
            for i in 0..<region.width {
                layout.store(
                    Self.outputValue(source[i], encode: encode, premultiplied: outputPremultiplied),
                    at: row + i * layout.bytesPerPixel)
            }
        }
    }

    /// A working value as a bitmap holds it: encoded (sRGB curve on the straight colour) or not, then
    /// premultiplied or straight.
    static func outputValue(_ v: SIMD4<Float>, encode: Bool, premultiplied: Bool) -> SIMD4<Float> {
        let a = v.w
        var c = a > 0 && a != 1 ? SIMD4(v.x / a, v.y / a, v.z / a, a) : v
        if encode { c = SIMD4(SRGBCurve.encode(c.x), SRGBCurve.encode(c.y), SRGBCurve.encode(c.z), a) }
        return premultiplied ? SIMD4(c.x * a, c.y * a, c.z * a, a) : c
    }

    /// As `createCGImage(_:from:format:colorSpace:)`; the picture is rendered at once whatever `deferred` says.
    public func createCGImage(
        _ image: CIImage, from fromRect: CGRect, format: CIFormat, colorSpace: CGColorSpace?, deferred: Bool
    ) -> CGImage? {
        createCGImage(image, from: fromRect, format: format, colorSpace: colorSpace)
    }

    /// Writes `pngRepresentation(of:format:colorSpace:options:)` to a file, replacing it whole.
    public func writePNGRepresentation(
        of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace,
        options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        try Self.write(pngRepresentation(of: image, format: format, colorSpace: colorSpace, options: options), to: url)
    }

    /// Writes `jpegRepresentation(of:colorSpace:options:)` to a file, replacing it whole.
    public func writeJPEGRepresentation(
        of image: CIImage, to url: URL, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        try Self.write(jpegRepresentation(of: image, colorSpace: colorSpace, options: options), to: url)
    }

    /// Writes `heifRepresentation(of:format:colorSpace:options:)` to a file, replacing it whole.
    public func writeHEIFRepresentation(
        of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace,
        options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        try Self.write(heifRepresentation(of: image, format: format, colorSpace: colorSpace, options: options), to: url)
    }

    /// The data written atomically (a new file moved into place, so a failed write leaves the old one), or an
    /// error when there is nothing to write: an empty or infinite image, or a format whose encoder is missing.
    static func write(_ data: Data?, to url: URL) throws {
        guard let data else {
            throw NSError(
                domain: "CIContext", code: 1,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "nothing to write to \(url.path): the image has no finite extent or the format's encoder is missing"
                ])
        }
        try data.write(to: url, options: .atomic)
    }

    /// Frees cached intermediates: none are kept between renders here.
    public func clearCaches() {}

    /// Frees resources no longer needed: none are held between renders here.
    public func reclaimResources() {}
}

/// Where each component of a pixel goes in one of the bitmap formats, and how it is stored.
struct BitmapLayout {
    enum Storage { case byte, half, float }
    /// What each stored channel holds, in order: 0…3 for red, green, blue and alpha, 4 for luma.
    let channels: [Int]
    let storage: Storage

    init?(_ format: CIFormat) {
        switch format {
        case .RGBA8: (channels, storage) = ([0, 1, 2, 3], .byte)
        case .BGRA8: (channels, storage) = ([2, 1, 0, 3], .byte)
        case .ARGB8: (channels, storage) = ([3, 0, 1, 2], .byte)
        case .R8: (channels, storage) = ([0], .byte)
        case .L8: (channels, storage) = ([4], .byte)
        case .A8: (channels, storage) = ([3], .byte)
        case .RGBAh: (channels, storage) = ([0, 1, 2, 3], .half)
        case .RGBAf: (channels, storage) = ([0, 1, 2, 3], .float)
        case .Rf: (channels, storage) = ([0], .float)
        case .Lf: (channels, storage) = ([4], .float)
        default: return nil
        }
    }

    var bytesPerPixel: Int {
        channels.count * (storage == .byte ? 1 : storage == .half ? 2 : 4)
    }

    func store(_ v: SIMD4<Float>, at p: UnsafeMutableRawPointer) {
        for (k, channel) in channels.enumerated() {
            let value = channel == 4 ? v.x * 0.2126 + v.y * 0.7152 + v.z * 0.0722 : v[channel]
            switch storage {
            case .byte: p.storeBytes(of: UInt8(min(max(value, 0), 1) * 255 + 0.5), toByteOffset: k, as: UInt8.self)
            case .half: p.storeBytes(of: Float16(value), toByteOffset: 2 * k, as: Float16.self)
            case .float: p.storeBytes(of: value, toByteOffset: 4 * k, as: Float.self)
            }
        }
    }
}
