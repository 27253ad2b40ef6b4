extension PixelPlane {
    /// Resamples the plane through a homography into a new `width × height` plane, with bilinear interpolation.
    ///
    /// `outputToSource` maps continuous output coordinates to continuous source coordinates (inverse mapping, so
    /// every output pixel is computed exactly once): output pixel `(i, j)` takes the source value at
    /// `H(i + 0.5, j + 0.5) − 0.5` in sample units. Taps that fall outside the source take `fill` (a normalised
    /// value, like OpenCV's constant border), so edges fade into the fill over one pixel. Values are interpolated
    /// as normalised floats and rounded once into the component type.
    ///
    /// Runs in row bands on `threads` workers (all cores by default); the result does not depend on the count.
    @_specialize(where Component == UInt8)
    @_specialize(where Component == UInt16)
    @_specialize(where Component == Float)
    public func warpedPerspective(
        _ outputToSource: Homography, width outputWidth: Int, height outputHeight: Int, fill: Float = 0,
        threads: Int? = nil
    ) -> PixelPlane {
        var output = PixelPlane(width: outputWidth, height: outputHeight, channels: channels)
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

/// The bilinear warp of `PixelPlane.warpedPerspective` for 8-bit planes, on raw code values.
///
/// Same sampling positions and border rule as the generic path; results are rounded half up to the nearest code.
private func warpRowsUInt8(
    source: UnsafePointer<UInt8>, sourceWidth: Int, sourceHeight: Int, sourceStride: Int, channels: Int,
    output: UnsafeMutablePointer<UInt8>, outputWidth: Int, outputStride: Int, rows: Range<Int>, m: [Double],
    fill: UInt8
) {
    let mx = Float(m[0]), my = Float(m[3]), mw = Float(m[6])
    let lastX = sourceWidth - 1, lastY = sourceHeight - 1
    let limitX = Float(sourceWidth), limitY = Float(sourceHeight)
    let fillValue = Float(fill)
    // Tiles of 64 columns × the band's rows: a slanted warp walks across many source rows along one output row,
    // and revisiting them tile by tile keeps them in cache.
    for tile in stride(from: 0, to: outputWidth, by: 64) {
        for j in rows {
            let yc = Double(j) + 0.5
            let u0 = Float(m[0] * 0.5 + m[1] * yc + m[2])
            let v0 = Float(m[3] * 0.5 + m[4] * yc + m[5])
            let w0 = Float(m[6] * 0.5 + m[7] * yc + m[8])
            let row = output + j * outputStride
            for i in tile..<min(outputWidth, tile + 64) {
                let fi = Float(i)
                let inverse = 1 / (w0 + mw * fi)
                let sx = (u0 + mx * fi) * inverse - 0.5
                let sy = (v0 + my * fi) * inverse - 0.5
                let out = row + i * channels
                guard sx > -1, sy > -1, sx < limitX, sy < limitY else {
                    for c in 0..<channels { out[c] = fill }
                    continue
                }
                // sx, sy > −1, so truncating sx + 1 is floor(sx) + 1 without a libm call.
                let x0 = Int(sx + 1) - 1, y0 = Int(sy + 1) - 1
                let ax = sx - Float(x0), ay = sy - Float(y0)
                let w00 = (1 - ax) * (1 - ay), w10 = ax * (1 - ay), w01 = (1 - ax) * ay, w11 = ax * ay
                if x0 >= 0 && y0 >= 0 && x0 < lastX && y0 < lastY {
                    let p00 = source + y0 * sourceStride + x0 * channels
                    let p01 = p00 + sourceStride
                    if channels == 3 {
                        let r = w00 * Float(p00[0]) + w10 * Float(p00[3]) + w01 * Float(p01[0]) + w11 * Float(p01[3])
                        let g = w00 * Float(p00[1]) + w10 * Float(p00[4]) + w01 * Float(p01[1]) + w11 * Float(p01[4])
                        let b = w00 * Float(p00[2]) + w10 * Float(p00[5]) + w01 * Float(p01[2]) + w11 * Float(p01[5])
                        // Convex weights keep the sum within 0…255; +0.5 and truncation round half up.
                        out[0] = UInt8(truncatingIfNeeded: Int32(r + 0.5))
                        out[1] = UInt8(truncatingIfNeeded: Int32(g + 0.5))
                        out[2] = UInt8(truncatingIfNeeded: Int32(b + 0.5))
                    } else {
                        for c in 0..<channels {
                            let v = w00 * Float(p00[c]) + w10 * Float(p00[c + channels]) + w01 * Float(p01[c])
                                + w11 * Float(p01[c + channels])
                            out[c] = UInt8(min(255, v + 0.5))
                        }
                    }
                } else {
                    for c in 0..<channels {
                        var v: Float = 0
                        for k in 0..<4 {
                            let x = x0 + (k & 1), y = y0 + (k >> 1)
                            let weight = k == 0 ? w00 : k == 1 ? w10 : k == 2 ? w01 : w11
                            let inside = x >= 0 && y >= 0 && x <= lastX && y <= lastY
                            v += weight * (inside ? Float(source[y * sourceStride + x * channels + c]) : fillValue)
                        }
                        out[c] = UInt8(min(255, max(0, v + 0.5)))
                    }
                }
            }
        }
    }
}
