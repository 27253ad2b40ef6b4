/// Blends a flat colour into the background of a photo, using a disparity map as the alpha mask.
///
/// The mask: the disparity map is resampled to the photo's size (`resizedSkippingHoles`), then normalised over
/// its valid samples, `n = (d − min) / (max − min)`, so the nearest point is 1 and the farthest 0 (disparity grows
/// as things come closer). Near is foreground: the foreground weight is `α = n`, or, with a `threshold`, a ramp
/// `α = clamp((n − threshold) / softness + 0.5, 0, 1)` that keeps everything nearer than the threshold and
/// floods everything farther. Holes (NaN or 0 disparity) count as background (`α = 0`). A map without two
/// distinct valid values gives `α = 1` everywhere (nothing is known to be background).
///
/// Each output sample is `α · photo + (1 − α) · color`, in the photo's own encoded values (as a display shader
/// would mix them), and alpha channels pass through.
public struct BackgroundBlend: Sendable, Equatable {
    /// The background colour, normalised 0…1 in the photo's encoding (blue by default).
    public var color: SIMD3<Float>
    /// Normalised disparity between background (below) and foreground (above), or nil for a soft mask.
    public var threshold: Float?
    /// Width of the ramp around `threshold`, in normalised disparity.
    public var softness: Float

    /// Makes a blend.
    public init(color: SIMD3<Float> = SIMD3(0, 0, 1), threshold: Float? = nil, softness: Float = 0.1) {
        precondition(softness > 0, "softness must be positive")
        self.color = color
        self.threshold = threshold
        self.softness = softness
    }

    /// The foreground weight α (0 background … 1 foreground) at `width × height`, from a disparity map.
    public func mask(disparity: FloatPlane, width: Int, height: Int, threads: Int? = nil) -> FloatPlane {
        precondition(disparity.channels == 1, "a disparity map has one channel")
        var mask = disparity.width == width && disparity.height == height
            ? disparity : disparity.resizedSkippingHoles(width: width, height: height, threads: threads)
        var low = Float.infinity, high = -Float.infinity
        mask.withUnsafeBufferPointer { buffer in
            for y in 0..<mask.height {
                for x in 0..<mask.width {
                    let d = buffer[y * mask.rowStride + x]
                    if d.isFinite && d != 0 { low = min(low, d); high = max(high, d) }
                }
            }
        }
        let gain: Float = high > low ? 1 / (high - low) : 0
        let minimum = low
        let threshold = self.threshold, softness = self.softness, stride = mask.rowStride
        mask.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let shared = SharedPointer(base: base)
            BandParallel.forEachBand(height: height, threads: threads) { rows in
                for y in rows {
                    let row = shared.base + y * stride
                    for x in 0..<width {
                        let d = row[x]
                        guard d.isFinite && d != 0 else { row[x] = 0; continue }
                        guard gain > 0 else { row[x] = 1; continue }
                        let n = (d - minimum) * gain
                        if let threshold {
                            row[x] = min(1, max(0, (n - threshold) / softness + 0.5))
                        } else {
                            row[x] = n
                        }
                    }
                }
            }
        }
        return mask
    }

    /// The photo with `color` blended into its background.
    @_specialize(where Component == UInt8)
    @_specialize(where Component == Float)
    public func apply<Component: PixelComponent>(
        to photo: PixelPlane<Component>, disparity: FloatPlane, threads: Int? = nil
    ) -> PixelPlane<Component> {
        let alpha = mask(disparity: disparity, width: photo.width, height: photo.height, threads: threads)
        var output = photo
        let channels = photo.channels, colorChannels = ContrastStretch.colorChannels(channels)
        let width = photo.width, stride = photo.rowStride, maskStride = alpha.rowStride
        let color = self.color
        alpha.withUnsafeBufferPointer { maskBuffer in
            guard let maskBase = maskBuffer.baseAddress else { return }
            let weights = SharedReadPointer(base: maskBase)
            output.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                let shared = SharedPointer(base: base)
                BandParallel.forEachBand(height: photo.height, threads: threads) { rows in
                    for y in rows {
                        let row = shared.base + y * stride, a = weights.base + y * maskStride
                        for x in 0..<width {
                            let w = a[x]
                            for c in 0..<colorChannels {
                                let p = row + x * channels + c
                                let fill = colorChannels == 1 ? (color.x + color.y + color.z) / 3 : color[min(c, 2)]
                                p[0] = Component(normalized: w * p[0].normalizedValue + (1 - w) * fill)
                            }
                        }
                    }
                }
            }
        }
        return output
    }
}
