import Foundation
import Imaging
import Spectra

/// A photograph printed on a plane: each pixel's colour becomes a smooth reflectance
/// (`SmoothReflectance`, the fit `srgb` and `display_p3` materials use), so the print is photographed
/// under the scene's lights with the device's own spectral sensitivities.
///
/// Colours are quantized to `levels` steps per encoded channel before the fit: the fit is a
/// non-linear solve of a few hundred microseconds, and a 12-megapixel photo holds millions of distinct
/// colours where a few thousand quantized ones look the same once the print has been photographed
/// (one step is about 8 codes of 255, near a just-noticeable difference in mid-tones). Each quantized
/// colour is fitted once per process. A colour that no smooth reflectance reaches (the most saturated
/// corners of the gamut) is printed as the nearest one the fit finds, as a print's inks do.
public enum PhotoPrint {
    /// Steps per encoded channel.
    public static let levels = 32

    /// The print of a picture: an image texture whose palette holds one matte material per quantized
    /// colour. Grey pictures are neutral; alpha is composited over white paper. Pictures tagged
    /// Display P3 are read as Display P3, any other as sRGB.
    public static func surface(of image: PNGImage) -> Surface {
        let space: RGBColorSpace = image.colorSpace == .displayP3 ? .displayP3 : .sRGB
        let (indices, keys) = quantize(image, background: 1)
        let palette = reflectances(of: keys, in: space).map { Material(name: "photo print", reflectance: $0) }
        return .image(width: image.width, height: image.height, indices: indices, palette: palette)
    }

    /// Each pixel's index into the list of distinct quantized colours (keys, see `colour(of:)`), in the
    /// order they first appear. Grey is neutral; alpha is composited over `background` (0…1 encoded).
    static func quantize(_ image: PNGImage, background: Double) -> (indices: [UInt16], keys: [Int]) {
        let (width, height, channels) = (image.width, image.height, image.channels)
        let maximum: Double = image.bitDepth == 16 ? 65535 : 255
        let samples: [Double]
        switch image.pixels {
        case let .eightBit(plane): samples = plane.packedElements.map { Double($0) / maximum }
        case let .sixteenBit(plane): samples = plane.packedElements.map { Double($0) / maximum }
        }
        let step = Double(levels - 1)
        var paletteIndex: [Int: UInt16] = [:]
        var keys: [Int] = []
        var indices = [UInt16](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            let p = i * channels
            var rgb: SIMD3<Double>
            var alpha = 1.0
            switch channels {
            case 1, 2:
                rgb = SIMD3(repeating: samples[p])
                if channels == 2 { alpha = samples[p + 1] }
            default:
                rgb = SIMD3(samples[p], samples[p + 1], samples[p + 2])
                if channels == 4 { alpha = samples[p + 3] }
            }
            rgb = rgb * alpha + SIMD3(repeating: background * (1 - alpha))
            let q = (rgb * step).rounded(.toNearestOrAwayFromZero)
            let key = (Int(q.x) * levels + Int(q.y)) * levels + Int(q.z)
            if let known = paletteIndex[key] {
                indices[i] = known
            } else {
                let index = UInt16(keys.count)
                paletteIndex[key] = index
                keys.append(key)
                indices[i] = index
            }
        }
        return (indices, keys)
    }

    /// The encoded colour of a quantized key.
    static func colour(of key: Int) -> SIMD3<Double> {
        let step = Double(levels - 1)
        return SIMD3(
            Double(key / (levels * levels)) / step, Double(key / levels % levels) / step, Double(key % levels) / step)
    }

    /// Fits of quantized colours, fitted once per process and space; the work is shared out over the cores.
    static func reflectances(of keys: [Int], in space: RGBColorSpace) -> [Spectrum] {
        let cache = space == .displayP3 ? displayP3Fits : sRGBFits
        let missing = cache.withLock { known in keys.filter { known[$0] == nil } }
        if !missing.isEmpty {
            let results = FitResults(count: missing.count)
            WorkerThreads.forEach(missing.count, workers: WorkerThreads.cores) { i in
                results.store(SmoothReflectance.fit(rgb: colour(of: missing[i]), in: space).reflectance, at: i)
            }
            let fitted = results.values
            cache.withLock { known in
                for (key, spectrum) in zip(missing, fitted) { known[key] = spectrum }
            }
        }
        return cache.withLock { known in keys.map { known[$0] ?? .constant(0) } }
    }

    private static let sRGBFits = LockedFits()
    private static let displayP3Fits = LockedFits()
}

/// Quantized colour → fitted reflectance, behind a lock.
private final class LockedFits: @unchecked Sendable {
    private let lock = NSLock()
    private var fits: [Int: Spectrum] = [:]

    func withLock<R>(_ body: (inout [Int: Spectrum]) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&fits)
    }
}

/// One slot per fit, each written by the one worker that computed it.
private final class FitResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Spectrum?]

    init(count: Int) { slots = [Spectrum?](repeating: nil, count: count) }

    func store(_ spectrum: Spectrum, at index: Int) {
        lock.lock()
        slots[index] = spectrum
        lock.unlock()
    }

    var values: [Spectrum] { slots.map { $0 ?? .constant(0) } }
}
