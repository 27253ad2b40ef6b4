extension PixelPlane where Component == UInt8 {
    /// A plane of `width × height` RGB codes, every pixel `colour`.
    public static func filled(width: Int, height: Int, rgb colour: SIMD3<UInt8>) -> PixelPlane<UInt8> {
        var plane = PixelPlane(uninitializedWidth: width, height: height, channels: 3)
        plane.withUnsafeMutableBufferPointer { out in
            for p in 0..<(width * height) {
                out[3 * p] = colour.x
                out[3 * p + 1] = colour.y
                out[3 * p + 2] = colour.z
            }
        }
        return plane
    }

    /// Draws `layer` (RGB codes) over this RGB plane with the source-over rule, as a video compositor lays one
    /// track's picture over what is below it.
    ///
    /// `targetToLayer` maps this plane's continuous coordinates to the layer's (the inverse of the layer's placement,
    /// as `warpedPerspective` takes it). Only the layer's pixels with columns in `crop.x` and rows in `crop.y` are
    /// drawn, at `opacity` (0…1). The layer is resampled bilinearly with a coverage channel (255 inside the crop, 0
    /// outside and beyond its edges), so that its edges blend over one pixel: the warped colour is then weighted by
    /// its coverage (premultiplied), and each code becomes colour · opacity + below · (1 − coverage · opacity).
    public mutating func drawLayer(
        _ layer: PixelPlane<UInt8>, targetToLayer: Homography, crop: (x: Range<Int>, y: Range<Int>), opacity: Float
    ) {
        precondition(channels == 3 && layer.channels == 3, "drawLayer composes RGB planes")
        let columns = crop.x.clamped(to: 0..<layer.width), rows = crop.y.clamped(to: 0..<layer.height)
        let covered = layer.withCoverage(x: columns, y: rows)
        let drawn = covered.warpedPerspective(targetToLayer, width: width, height: height, fill: 0)
        let count = width * height
        drawn.withUnsafeBufferPointer { src in
            withUnsafeMutableBufferPointer { dst in
                for p in 0..<count {
                    let alpha = Float(src[4 * p + 3]) * (opacity / 255)
                    guard alpha > 0 else { continue }
                    for c in 0..<3 {
                        let over = Float(src[4 * p + c]) * opacity + Float(dst[3 * p + c]) * (1 - alpha)
                        dst[3 * p + c] = UInt8(min(max(over.rounded(), 0), 255))
                    }
                }
            }
        }
    }

    /// This RGB plane with a fourth channel, 255 in the columns `x` and rows `y` and 0 elsewhere, and its colour
    /// zero where the coverage is.
    func withCoverage(x: Range<Int>, y: Range<Int>) -> PixelPlane<UInt8> {
        // Every element is written below: the plane need not be zeroed first.
        var out = PixelPlane(uninitializedWidth: width, height: height, channels: 4)
        let stride = rowStride, width = self.width
        withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<height {
                    let line = UnsafeMutableBufferPointer(rebasing: dst[(4 * row * width)..<(4 * (row + 1) * width)])
                    guard y.contains(row) else {
                        line.update(repeating: 0)
                        continue
                    }
                    for column in 0..<width {
                        let s = row * stride + 3 * column, d = 4 * column
                        let inside = x.contains(column)
                        line[d] = inside ? src[s] : 0
                        line[d + 1] = inside ? src[s + 1] : 0
                        line[d + 2] = inside ? src[s + 2] : 0
                        line[d + 3] = inside ? 255 : 0
                    }
                }
            }
        }
        return out
    }
}
