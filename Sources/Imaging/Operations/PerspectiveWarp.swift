extension PixelPlane {
    /// Resamples the plane through a homography into a new `width × height` plane, with bilinear interpolation.
    ///
    /// `outputToSource` maps continuous output coordinates to continuous source coordinates (inverse mapping, so
    /// every output pixel is computed exactly once): output pixel `(i, j)` takes the source value at
    /// `H(i + 0.5, j + 0.5) − 0.5` in sample units. Taps that fall outside the source take `fill` (a normalised
    /// value, like OpenCV's constant border), so edges fade into the fill over one pixel. Values are interpolated
    /// as normalised floats and rounded once into the component type.
    ///
    /// 8-bit planes take an integer path (`warpRowsUInt8`): positions in steps of 1/1024 pixel and fixed-point
    /// weights, within 1 code value of exact bilinear interpolation rounded to the nearest code.
    ///
    /// Runs in row bands on `threads` workers (all cores by default); the result does not depend on the count.
    @_specialize(where Component == UInt8)
    @_specialize(where Component == UInt16)
    @_specialize(where Component == Float)
    public func warpedPerspective(
        _ outputToSource: Homography, width outputWidth: Int, height outputHeight: Int, fill: Float = 0,
        threads: Int? = nil
    ) -> PixelPlane {
        // Every output element is written below (a sample or the fill), so the plane need not be zeroed first.
        var output = PixelPlane(uninitializedWidth: outputWidth, height: outputHeight, channels: channels)
        guard !output.isEmpty else { return output }
        let m = outputToSource.entries
        let channels = self.channels, sourceWidth = self.width, sourceHeight = self.height
        let sourceStride = self.rowStride, outputStride = output.rowStride
        let fillComponent = Component(normalized: fill)
        withUnsafeBufferPointer { sourceBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                guard let sourceBase = sourceBuffer.baseAddress, let outputBase = outputBuffer.baseAddress else {
                    return
                }
                let source = SharedReadPointer(base: sourceBase), target = SharedPointer(base: outputBase)
                if Component.self == UInt8.self {
                    // 8-bit fast path: raw code values, no normalisation round trip.
                    let src8 = SharedReadPointer(base: UnsafeRawPointer(sourceBase).assumingMemoryBound(to: UInt8.self))
                    let dst8 = SharedPointer(base: UnsafeMutableRawPointer(outputBase).bindMemory(
                        to: UInt8.self, capacity: outputBuffer.count))
                    let fill8 = UInt8(normalized: fill)
                    BandParallel.forEachBand(height: outputHeight, threads: threads) { rows in
                        warpRowsUInt8(
                            source: src8.base, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                            sourceStride: sourceStride, channels: channels, output: dst8.base,
                            outputWidth: outputWidth, outputStride: outputStride, rows: rows, m: m, fill: fill8)
                    }
                    return
                }
                BandParallel.forEachBand(height: outputHeight, threads: threads) { rows in
                    let src = source.base
                    var taps = [Float](repeating: 0, count: 4 * channels)
                    let mx = Float(m[0]), my = Float(m[3]), mw = Float(m[6])
                    let lastX = sourceWidth - 1, lastY = sourceHeight - 1
                    for j in rows {
                        let yc = Double(j) + 0.5
                        // Row origins in Double, per-pixel steps in Float: the error stays below 1e-3 pixel.
                        let u0 = Float(m[0] * 0.5 + m[1] * yc + m[2])
                        let v0 = Float(m[3] * 0.5 + m[4] * yc + m[5])
                        let w0 = Float(m[6] * 0.5 + m[7] * yc + m[8])
                        let row = target.base + j * outputStride
                        for i in 0..<outputWidth {
                            let fi = Float(i)
                            let w = w0 + mw * fi
                            let sx = (u0 + mx * fi) / w - 0.5
                            let sy = (v0 + my * fi) / w - 0.5
                            let out = row + i * channels
                            guard sx.isFinite, sy.isFinite, sx > -1, sy > -1, sx < Float(sourceWidth),
                                  sy < Float(sourceHeight)
                            else {
                                for c in 0..<channels { out[c] = fillComponent }
                                continue
                            }
                            let fx0 = sx.rounded(.down), fy0 = sy.rounded(.down)
                            let x0 = Int(fx0), y0 = Int(fy0)
                            let ax = sx - fx0, ay = sy - fy0
                            let w00 = (1 - ax) * (1 - ay), w10 = ax * (1 - ay), w01 = (1 - ax) * ay, w11 = ax * ay
                            if x0 >= 0 && y0 >= 0 && x0 < lastX && y0 < lastY {
                                let p00 = src + y0 * sourceStride + x0 * channels
                                let p01 = p00 + sourceStride
                                for c in 0..<channels {
                                    let value = w00 * p00[c].normalizedValue + w10 * p00[c + channels].normalizedValue
                                        + w01 * p01[c].normalizedValue + w11 * p01[c + channels].normalizedValue
                                    out[c] = Component(normalized: value)
                                }
                            } else {
                                // Border: taps outside the source read the fill value.
                                taps.withUnsafeMutableBufferPointer { t in
                                    for k in 0..<4 {
                                        let x = x0 + (k & 1), y = y0 + (k >> 1)
                                        let inside = x >= 0 && y >= 0 && x <= lastX && y <= lastY
                                        for c in 0..<channels {
                                            t[k * channels + c] = inside
                                                ? src[y * sourceStride + x * channels + c].normalizedValue : fill
                                        }
                                    }
                                    for c in 0..<channels {
                                        let value = w00 * t[c] + w10 * t[channels + c] + w01 * t[2 * channels + c]
                                            + w11 * t[3 * channels + c]
                                        out[c] = Component(normalized: value)
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

