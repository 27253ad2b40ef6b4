import Foundation
import Imaging

extension CGImage {
    /// A JPEG's picture (`CGImageCreateWithJPEGDataProvider`): 8 bits a component, RGB with a skipped fourth byte
    /// as a photo's `cgImageRepresentation()` is, grey files expanded to RGB; in Display P3 when the file's ICC
    /// profile names it, else sRGB. Nil when the bytes are not a JPEG libjpeg-turbo decodes. The decode array,
    /// interpolation and intent are kept as given.
    public convenience init?(
        jpegDataProviderSource source: CGDataProvider, decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool,
        intent: CGColorRenderingIntent
    ) {
        let bytes = [UInt8](Data(referencing: source.bytes))
        guard let rgb = try? JPEG.decodeRGB(bytes) else { return nil }
        let profile = ImageProperties.jpegICCProfile(bytes).flatMap(ICCProfile.description(of:))
        let name = profile?.contains("P3") == true ? CGColorSpace.displayP3 : CGColorSpace.sRGB
        self.init(rgb: rgb, colorSpaceName: name)
    }

    /// A PNG's picture (`CGImageCreateWithPNGDataProvider`) with the file's channels: grey, grey and alpha, RGB or
    /// RGBA (straight alpha, `.last`), at its depth (16-bit samples little-endian, `.byteOrder16Little`); in
    /// Display P3 when the file says so, else sRGB (grey: the device grey space). Nil when the bytes are not a PNG.
    public convenience init?(
        pngDataProviderSource source: CGDataProvider, decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool,
        intent: CGColorRenderingIntent
    ) {
        guard let png = try? PNG.decode([UInt8](Data(referencing: source.bytes))) else { return nil }
        let (width, height, channels, bits, stride, data): (Int, Int, Int, Int, Int, Data)
        switch png.pixels {
        case .eightBit(let plane):
            (width, height, channels, bits, stride) = (plane.width, plane.height, plane.channels, 8, plane.rowStride)
            data = Data(plane.withUnsafeBufferPointer { Array($0) })
        case .sixteenBit(let plane):
            (width, height, channels, bits, stride) = (plane.width, plane.height, plane.channels, 16, plane.rowStride)
            data = plane.withUnsafeBufferPointer { samples in
                Data(samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            }
        }
        let grey = channels <= 2
        let space =
            grey
            ? CGColorSpaceCreateDeviceGray()
            : CGColorSpace(name: png.colorSpace == .displayP3 ? CGColorSpace.displayP3 : CGColorSpace.sRGB)!
        var info = CGBitmapInfo(rawValue: (channels % 2 == 0 ? CGImageAlphaInfo.last : .none).rawValue)
        if bits == 16 { info.insert(.byteOrder16Little) }
        guard let provider = CGDataProvider(data: data as NSData) else { return nil }
        self.init(
            width: width, height: height, bitsPerComponent: bits, bitsPerPixel: bits * channels,
            bytesPerRow: stride * bits / 8, space: space, bitmapInfo: info, provider: provider,
            decode: decode, shouldInterpolate: shouldInterpolate, intent: intent)
    }
}
