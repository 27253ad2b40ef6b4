import Foundation
import Imaging
import ObscuraAV

/// The luma of a `CGImage`, 0…1, for grey and RGB bitmaps of 8 or 16-bit integer or 32-bit float components, alpha
/// first, last or absent, in either byte order. Premultiplied alpha is left as it is: the detector looks for steps
/// in brightness, which a uniform alpha does not move. Other layouts (CMYK, indexed, 1 to 5 bits a component) are
/// refused with `VNErrorCode.invalidFormat`.
enum CGImageLuma {
    static func read(_ image: CGImage) throws -> PixelPlane<Float> {
        let (width, height) = (image.width, image.height)
        return try withComponents(image) { colours, component in
            LumaPlane.filled(width: width, height: height) { y, row in
                for x in 0..<width {
                    row[x] =
                        colours == 3
                        ? Rec709Luma.of(component(x, y, 0), component(x, y, 1), component(x, y, 2)) : component(x, y, 0)
                }
            }
        }
    }

    /// Calls `body` with a reader of the image's encoded R'G'B' (column, row; 0…1); nil without calling it for a grey
    /// image.
    static func withColour<R>(_ image: CGImage, _ body: ((Int, Int) -> SIMD3<Float>) throws -> R) throws -> R? {
        try withComponents(image) { colours, component -> R? in
            guard colours == 3 else { return nil }
            return try withoutActuallyEscaping(component) { c in
                try body { x, y in SIMD3(c(x, y, 0), c(x, y, 1), c(x, y, 2)) }
            }
        }
    }

    /// Calls `body` with the number of colour components (1 or 3) and a reader of component `index` of pixel
    /// (column, row), 0…1, after checking the layout.
    private static func withComponents<R>(
        _ image: CGImage, _ body: (Int, (Int, Int, Int) -> Float) throws -> R
    ) throws -> R {
        let width = image.width, height = image.height
        guard width > 0, height > 0 else { throw VisionFailure.emptyImage(width: width, height: height) }
        guard let space = image.colorSpace, [1, 3].contains(space.numberOfComponents) else {
            throw VisionFailure.unreadableFormat(
                "colour space with \(image.colorSpace?.numberOfComponents ?? 0) components")
        }
        let bits = image.bitsPerComponent
        let isFloat = image.bitmapInfo.contains(.floatComponents)
        guard (bits == 8 && !isFloat) || (bits == 16 && !isFloat) || (bits == 32 && isFloat) else {
            throw VisionFailure.unreadableFormat("\(bits)-bit\(isFloat ? " float" : "") components")
        }
        let bytesPerComponent = bits / 8
        let componentsPerPixel = image.bitsPerPixel / bits
        let colours = space.numberOfComponents
        let alphaFirst = [CGImageAlphaInfo.first, .premultipliedFirst, .noneSkipFirst].contains(image.alphaInfo)
        let byteOrder = image.bitmapInfo.intersection(.byteOrderMask)
        // Little-endian words reverse the components within each pixel word (32Little) or each component (16Little).
        let littleWords = byteOrder == .byteOrder32Little
        let littleComponents =
            byteOrder == .byteOrder16Little || byteOrder == .byteOrder32Little
            || (byteOrder == .byteOrderDefault && bits == 32)
        let bytesPerRow = image.bytesPerRow
        // The provider's bytes in place: a 12 MP photo's 48 MB are read once, not first copied into a `Data`.
        let data = (image.dataProvider?.data).map { $0 as NSData } ?? NSData()
        guard componentsPerPixel >= colours,
            data.length >= (height - 1) * bytesPerRow + (width * image.bitsPerPixel + 7) / 8
        else { throw VisionFailure.emptyImage(width: width, height: height) }
        return try withExtendedLifetime(data) {
            let raw = UnsafeRawBufferPointer(start: data.bytes, count: data.length)
            func component(_ x: Int, _ y: Int, _ index: Int) -> Float {
                var slot = index + (alphaFirst && componentsPerPixel > colours ? 1 : 0)
                if littleWords && bits == 8 { slot = componentsPerPixel - 1 - slot }
                let offset = y * bytesPerRow + (x * componentsPerPixel + slot) * bytesPerComponent
                switch bits {
                case 8: return Float(raw.load(fromByteOffset: offset, as: UInt8.self)) / 255
                case 16:
                    let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
                    return Float(littleComponents ? UInt16(littleEndian: word) : UInt16(bigEndian: word)) / 65535
                default:
                    let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                    return Float(bitPattern: littleComponents ? UInt32(littleEndian: word) : UInt32(bigEndian: word))
                }
            }
            return try body(colours, component)
        }
    }
}
