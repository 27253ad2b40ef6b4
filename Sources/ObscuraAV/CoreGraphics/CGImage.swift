import Foundation
import Imaging

/// How a bitmap stores alpha (`CGImageAlphaInfo`).
public enum CGImageAlphaInfo: UInt32, Sendable, Hashable {
    case none = 0
    case premultipliedLast = 1
    case premultipliedFirst = 2
    case last = 3
    case first = 4
    case noneSkipLast = 5
    case noneSkipFirst = 6
    case alphaOnly = 7
}

/// How a bitmap's components are laid out (`CGBitmapInfo`): the alpha info in the low five bits,
/// float components, and the byte order.
public struct CGBitmapInfo: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrderDefault = CGBitmapInfo([])
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
}

/// How colours outside the destination gamut are mapped (`CGColorRenderingIntent`).
public enum CGColorRenderingIntent: Int32, Sendable, Hashable {
    case defaultIntent = 0
    case absoluteColorimetric = 1
    case relativeColorimetric = 2
    case perceptual = 3
    case saturation = 4
}

/// A bitmap image (`CGImage`): its size, layout, colour space and the bytes of its data provider.
///
/// A photo's `cgImageRepresentation()` is 8 bits per component, RGB with a skipped fourth byte
/// (`.noneSkipLast`), rows packed. An app makes its own with
/// `init?(width:height:bitsPerComponent:bitsPerPixel:bytesPerRow:space:bitmapInfo:provider:decode:shouldInterpolate:intent:)`,
/// for instance from a confidence map's bytes. Nothing is drawn, so the rendering intent, decode
/// array and interpolation are kept as given.
public final class CGImage: @unchecked Sendable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Bits per colour component.
    public let bitsPerComponent: Int
    /// Bits per pixel, padding included.
    public let bitsPerPixel: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// The colour space the components are encoded in.
    public let colorSpace: CGColorSpace?
    /// The layout of the components.
    public let bitmapInfo: CGBitmapInfo
    /// Where alpha sits, from `bitmapInfo`.
    public var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.intersection(.alphaInfoMask).rawValue) ?? .none
    }
    /// The bytes.
    public let dataProvider: CGDataProvider?
    /// Whether the image is smoothed when scaled.
    public let shouldInterpolate: Bool
    /// How colours outside a destination's gamut are mapped.
    public let renderingIntent: CGColorRenderingIntent

    /// The pixel bytes, row by row, as the data provider holds them.
    package var pixelData: Data { dataProvider.map { Data(referencing: $0.bytes) } ?? Data() }

    package init(width: Int, height: Int, colorSpaceName: String, pixelData: Data) {
        self.width = width
        self.height = height
        bitsPerComponent = 8
        bitsPerPixel = 32
        bytesPerRow = 4 * width
        colorSpace = CGColorSpace(name: colorSpaceName)
        bitmapInfo = CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue)
        dataProvider = CGDataProvider(data: pixelData as NSData)
        shouldInterpolate = true
        renderingIntent = .defaultIntent
    }

    /// An 8-bit RGB plane as an image (8 bits a component, a skipped fourth byte), in the colour space named.
    package convenience init(rgb: PixelPlane<UInt8>, colorSpaceName: String) {
        var bytes = [UInt8](repeating: 255, count: 4 * rgb.width * rgb.height)
        for y in 0..<rgb.height {
            for x in 0..<rgb.width {
                let o = 4 * (y * rgb.width + x)
                (bytes[o], bytes[o + 1], bytes[o + 2]) = (rgb[x, y, 0], rgb[x, y, 1], rgb[x, y, 2])
            }
        }
        self.init(width: rgb.width, height: rgb.height, colorSpaceName: colorSpaceName, pixelData: Data(bytes))
    }

    /// An image over a data provider's bytes; nil, as Core Graphics answers, when the layout does
    /// not hold together: a non-positive size, fewer bits per pixel than the colour space's
    /// components (and alpha) need, rows shorter than a pixel row, or fewer bytes than the rows.
    public init?(
        width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int, space: CGColorSpace,
        bitmapInfo: CGBitmapInfo, provider: CGDataProvider, decode: UnsafePointer<CGFloat>?,
        shouldInterpolate: Bool, intent: CGColorRenderingIntent
    ) {
        let alpha = CGImageAlphaInfo(rawValue: bitmapInfo.intersection(.alphaInfoMask).rawValue) ?? .none
        let components = space.numberOfComponents + (alpha == .none ? 0 : 1)
        guard width > 0, height > 0, [1, 2, 4, 5, 8, 16, 32].contains(bitsPerComponent),
            bitsPerPixel >= components * bitsPerComponent, bytesPerRow >= (width * bitsPerPixel + 7) / 8,
            provider.bytes.length >= (height - 1) * bytesPerRow + (width * bitsPerPixel + 7) / 8
        else { return nil }
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = bitsPerPixel
        self.bytesPerRow = bytesPerRow
        colorSpace = space
        self.bitmapInfo = bitmapInfo
        dataProvider = provider
        self.shouldInterpolate = shouldInterpolate
        renderingIntent = intent
    }
}

extension CGImage {
    /// The part of the image inside `rect`, in the image's pixels (origin at the first row's first pixel), made
    /// integral and clipped to the image, with the same layout, colour space and alpha; nil when nothing of the
    /// image is left (`CGImageCreateWithImageInRect`). The result holds its own copy of the bytes.
    public func cropping(to rect: CGRect) -> CGImage? {
        let inside = rect.standardized.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !inside.isNull, inside.width > 0, inside.height > 0, let provider = dataProvider else { return nil }
        let x0 = Int(inside.minX), y0 = Int(inside.minY), w = Int(inside.width), h = Int(inside.height)
        let rowBits = w * bitsPerPixel
        let rowBytes = (rowBits + 7) / 8
        var bytes = [UInt8](repeating: 0, count: rowBytes * h)
        let data = provider.bytes
        withExtendedLifetime(data) {
            let src = data.bytes.assumingMemoryBound(to: UInt8.self)
            bytes.withUnsafeMutableBufferPointer { out in
                guard let dst = out.baseAddress else { return }
                for y in 0..<h {
                    let from = (y0 + y) * bytesPerRow
                    if (x0 * bitsPerPixel) % 8 == 0 {
                        (dst + y * rowBytes).update(from: src + from + x0 * bitsPerPixel / 8, count: rowBytes)
                    } else {
                        // Pixels narrower than a byte, starting inside one: bit by bit, most significant first.
                        for bit in 0..<rowBits {
                            let s = x0 * bitsPerPixel + bit
                            if src[from + s / 8] & (0x80 >> UInt8(s % 8)) != 0 {
                                dst[y * rowBytes + bit / 8] |= 0x80 >> UInt8(bit % 8)
                            }
                        }
                    }
                }
            }
        }
        guard let space = colorSpace, let cropped = CGDataProvider(data: Data(bytes) as NSData) else { return nil }
        return CGImage(
            width: w, height: h, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel, bytesPerRow: rowBytes,
            space: space, bitmapInfo: bitmapInfo, provider: cropped, decode: nil, shouldInterpolate: shouldInterpolate,
            intent: renderingIntent)
    }
}
