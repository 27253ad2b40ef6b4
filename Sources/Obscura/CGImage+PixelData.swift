import Foundation
import ObscuraAV

extension CGImage {
    /// The image's bytes, row by row, four per pixel (R, G, B, then an unused 255), in the image's
    /// colour space: what drawing it into an RGBX bitmap context would give. Obscura's images have
    /// no data provider, so tests and tools read pixels here.
    public var pixelBytes: Data { pixelData }
}
