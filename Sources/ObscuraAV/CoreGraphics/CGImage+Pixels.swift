import Foundation

extension CGImage {
    /// The pixels as 8-bit red, green, blue and alpha, rows packed, for the 8-bit layouts bitmaps take: grey or RGB,
    /// alpha or a skipped byte first or last or no alpha, an alpha-only mask (black at its alpha), in either 32-bit
    /// byte order. `premultiplied` chooses colours multiplied by alpha (what compositing needs) or straight ones
    /// (what the file codecs and Core Image's recipes hold); either way each stored byte is converted once. Nil for
    /// other depths and models.
    package func rgba8(premultiplied wantsPremultiplied: Bool) -> [UInt8]? {
        guard bitsPerComponent == 8, bitsPerPixel % 8 == 0, let data = dataProvider?.bytes else { return nil }
        let channels = bitsPerPixel / 8
        let alpha = alphaInfo
        let colours = alpha == .alphaOnly ? 0 : (colorSpace?.numberOfComponents ?? 3)
        let hasAlpha = [.premultipliedLast, .premultipliedFirst, .last, .first, .alphaOnly].contains(alpha)
        let extraFirst = [.premultipliedFirst, .first, .noneSkipFirst].contains(alpha)
        let extra = alpha != .none && alpha != .alphaOnly
        let stored = [.premultipliedLast, .premultipliedFirst].contains(alpha)
        let little = bitmapInfo.intersection(.byteOrderMask) == .byteOrder32Little && channels == 4
        guard [0, 1, 3].contains(colours), channels >= max(colours, 1) + (extra ? 1 : 0),
            data.length >= (height - 1) * bytesPerRow + width * channels
        else { return nil }
        var out = [UInt8](repeating: 255, count: 4 * width * height)
        withExtendedLifetime(data) {
            let src = data.bytes.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                for x in 0..<width {
                    let p = y * bytesPerRow + x * channels
                    // The component at position k of the pixel, as the byte order stores it.
                    func component(_ k: Int) -> Int { Int(src[p + (little ? channels - 1 - k : k)]) }
                    let first = extraFirst ? 1 : 0
                    let a = alpha == .alphaOnly ? component(0) : hasAlpha ? component(extraFirst ? 0 : colours) : 255
                    let o = 4 * (y * width + x)
                    for c in 0..<3 {
                        let v = colours == 0 ? 0 : component(first + (colours == 1 ? 0 : c))
                        var converted = v
                        if stored != wantsPremultiplied, hasAlpha {
                            converted =
                                wantsPremultiplied ? (v * a + 127) / 255 : a == 0 ? 0 : min(255, (v * 255 + a / 2) / a)
                        }
                        out[o + c] = UInt8(converted)
                    }
                    out[o + 3] = UInt8(a)
                }
            }
        }
        return out
    }
}
