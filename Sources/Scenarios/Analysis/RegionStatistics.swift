import Imaging
import Spectra

/// Colour statistics of a rectangle of an encoded RGB image.
public enum RegionStatistics {
    /// A rectangle in fractions of the image's width and height, origin at the top-left.
    public struct Rect: Sendable, Hashable {
        public var x, y, width, height: Double
        /// Makes a rectangle; all values in 0…1.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The mean CIELAB of the pixels in `rect`, each pixel decoded with the colour space's transfer
    /// function, converted to XYZ with its matrix and to Lab against its white (CIE 15:2018 §8.2.1).
    /// The mean is taken over per-pixel Lab values, so it reads as a person comparing patches would.
    /// At most about 250,000 pixels are sampled, on a regular grid.
    public static func meanLab(_ image: UInt8Image, space: RGBColorSpace, rect: Rect) -> Lab? {
        guard image.channels >= 3 else { return nil }
        let x0 = Int((rect.x * Double(image.width)).rounded(.down))
        let y0 = Int((rect.y * Double(image.height)).rounded(.down))
        let x1 = min(image.width, Int(((rect.x + rect.width) * Double(image.width)).rounded(.up)))
        let y1 = min(image.height, Int(((rect.y + rect.height) * Double(image.height)).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        let stride = max(1, Int((Double((x1 - x0) * (y1 - y0)) / 250_000).squareRoot().rounded(.up)))
        // A 256-entry table: 8-bit codes decode to only 256 linear values.
        let linear = (0..<256).map { space.transfer.decode(Double($0) / 255) }
        let white = XYZ(space.toXYZ * SIMD3<Double>(1, 1, 1))
        var sum = SIMD3<Double>(0, 0, 0)
        var count = 0.0
        for y in Swift.stride(from: y0, to: y1, by: stride) {
            for x in Swift.stride(from: x0, to: x1, by: stride) {
                let rgb = SIMD3(
                    linear[Int(image[x, y, 0])], linear[Int(image[x, y, 1])], linear[Int(image[x, y, 2])])
                let lab = Lab(XYZ(space.toXYZ * rgb), white: white)
                sum += SIMD3(lab.L, lab.a, lab.b)
                count += 1
            }
        }
        return Lab(L: sum.x / count, a: sum.y / count, b: sum.z / count)
    }
}
