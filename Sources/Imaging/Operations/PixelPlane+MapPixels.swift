extension PixelPlane {
    /// A new plane whose pixels are `transform` of this plane's, computed in parallel row bands.
    ///
    /// Each pixel reaches `transform` as its normalised components in a `SIMD4` (channels beyond the plane's are 0),
    /// and the first `outputChannels` lanes of the result are stored, converted to `Output`. `transform` must be a
    /// pure function of its pixel, so the result is the same for any thread count. Up to 4 channels each way.
    @_specialize(where Component == UInt8, Output == Float)
    @_specialize(where Component == UInt16, Output == Float)
    @_specialize(where Component == Float, Output == Float)
    @_specialize(where Component == Float, Output == UInt8)
    @_specialize(where Component == Float, Output == UInt16)
    public func mapPixels<Output: PixelComponent>(
        to: Output.Type = Output.self, outputChannels: Int, threads: Int? = nil,
        _ transform: @Sendable (SIMD4<Float>) -> SIMD4<Float>
    ) -> PixelPlane<Output> {
        precondition(channels <= 4 && outputChannels >= 1 && outputChannels <= 4, "mapPixels handles 1 to 4 channels")
        var output = PixelPlane<Output>(width: width, height: height, channels: outputChannels)
        guard !isEmpty else { return output }
        let channels = self.channels, width = self.width, stride = rowStride, outputStride = output.rowStride
        withUnsafeBufferPointer { sourceBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                guard let sourceBase = sourceBuffer.baseAddress, let outputBase = outputBuffer.baseAddress else {
                    return
                }
                let source = SharedReadPointer(base: sourceBase), target = SharedPointer(base: outputBase)
                BandParallel.forEachBand(height: height, threads: threads) { rows in
                    for y in rows {
                        let input = source.base + y * stride, out = target.base + y * outputStride
                        for x in 0..<width {
                            var pixel = SIMD4<Float>.zero
                            for c in 0..<channels { pixel[c] = input[x * channels + c].normalizedValue }
                            let result = transform(pixel)
                            for c in 0..<outputChannels { out[x * outputChannels + c] = Output(normalized: result[c]) }
                        }
                    }
                }
            }
        }
        return output
    }
}
