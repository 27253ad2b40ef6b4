extension PixelPlane where Component == Float {
    /// The plane resampled to `width × height` by bilinear interpolation, ignoring holes.
    ///
    /// Pixel centres are aligned (OpenCV's `INTER_LINEAR`, `align_corners = false`): output pixel `i` samples the
    /// source at `(i + 0.5) · sourceWidth / width − 0.5`, clamped to the edge pixels. Holes (NaN or 0, as in depth
    /// and disparity maps) are not blended into their neighbours: each output value is the weighted mean of the
    /// valid taps only, and an output pixel whose four taps are all holes is NaN. Use it to bring a 320 × 240
    /// disparity map up to a photo's size without holes bleeding toward zero.
    public func resizedSkippingHoles(width outputWidth: Int, height outputHeight: Int, threads: Int? = nil)
        -> FloatPlane
    {
        var output = FloatPlane(width: outputWidth, height: outputHeight, channels: channels)
        guard !output.isEmpty, !isEmpty else { return output }
        let channels = self.channels, sourceWidth = width, sourceHeight = height, sourceStride = rowStride
        let outputStride = output.rowStride
        let scaleX = Float(sourceWidth) / Float(outputWidth), scaleY = Float(sourceHeight) / Float(outputHeight)
        // Per-column taps and weights, computed once (no per-pixel work beyond the blend).
        var columns = [Int](repeating: 0, count: 2 * outputWidth)
        var columnWeights = [Float](repeating: 0, count: outputWidth)
        for i in 0..<outputWidth {
            let sx = min(Float(sourceWidth - 1), max(0, (Float(i) + 0.5) * scaleX - 0.5))
            let x0 = min(sourceWidth - 1, Int(sx))
            columns[2 * i] = x0
            columns[2 * i + 1] = min(sourceWidth - 1, x0 + 1)
            columnWeights[i] = sx - Float(x0)
        }
        withUnsafeBufferPointer { sourceBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                guard let sourceBase = sourceBuffer.baseAddress, let outputBase = outputBuffer.baseAddress else {
                    return
                }
                let source = SharedReadPointer(base: sourceBase), target = SharedPointer(base: outputBase)
                columns.withUnsafeBufferPointer { columnBuffer in
                    columnWeights.withUnsafeBufferPointer { weightBuffer in
                        guard let tapBase = columnBuffer.baseAddress, let weightBase = weightBuffer.baseAddress else {
                            return
                        }
                        let taps = SharedReadPointer(base: tapBase), weightTable = SharedReadPointer(base: weightBase)
                        BandParallel.forEachBand(height: outputHeight, threads: threads) { rows in
                            let columnTaps = taps.base, weights = weightTable.base
                            for j in rows {
                                let sy = min(Float(sourceHeight - 1), max(0, (Float(j) + 0.5) * scaleY - 0.5))
                                let y0 = min(sourceHeight - 1, Int(sy)), y1 = min(sourceHeight - 1, y0 + 1)
                                let ay = sy - Float(y0)
                                let r0 = source.base + y0 * sourceStride, r1 = source.base + y1 * sourceStride
                                let out = target.base + j * outputStride
                                for i in 0..<outputWidth {
                                    let x0 = columnTaps[2 * i] * channels, x1 = columnTaps[2 * i + 1] * channels
                                    let ax = weights[i]
                                    for c in 0..<channels {
                                        out[i * channels + c] = blendValid(
                                            r0[x0 + c], r0[x1 + c], r1[x0 + c], r1[x1 + c], ax, ay)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return output
    }
}

/// Bilinear blend of four taps that skips holes (NaN or 0) and renormalises the remaining weights.
@inline(__always)
func blendValid(_ v00: Float, _ v10: Float, _ v01: Float, _ v11: Float, _ ax: Float, _ ay: Float) -> Float {
    let w = ((1 - ax) * (1 - ay), ax * (1 - ay), (1 - ax) * ay, ax * ay)
    var sum: Float = 0, weight: Float = 0
    // `v == v` is false for NaN.
    if v00 == v00 && v00 != 0 { sum += w.0 * v00; weight += w.0 }
    if v10 == v10 && v10 != 0 { sum += w.1 * v10; weight += w.1 }
    if v01 == v01 && v01 != 0 { sum += w.2 * v01; weight += w.2 }
    if v11 == v11 && v11 != 0 { sum += w.3 * v11; weight += w.3 }
    return weight > 0 ? sum / weight : .nan
}
