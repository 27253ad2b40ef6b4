import Imaging
import Sensor

/// The guide image for depth filtering: the frame's brightness at the depth map's size.
public enum DepthGuide {
    /// Mean electrons over R, G and B, averaged over each map pixel's footprint in the frame
    /// (a box filter, as binning does), and divided by the frame's largest value so the guide
    /// runs 0…1 whatever the exposure.
    public static func luminance(_ frame: RawFrame, width: Int, height: Int) -> PixelPlane<Float> {
        precondition(width > 0 && height > 0 && width <= frame.width && height <= frame.height, "bad guide size")
        var sums = [Double](repeating: 0, count: width * height)
        var counts = [Double](repeating: 0, count: width * height)
        for y in 0..<frame.height {
            let gy = y * height / frame.height
            for x in 0..<frame.width {
                let gx = x * width / frame.width
                let i = (y * frame.width + x) * 3
                let l = Double(frame.electrons[i] + frame.electrons[i + 1] + frame.electrons[i + 2]) / 3
                sums[gy * width + gx] += l
                counts[gy * width + gx] += 1
            }
        }
        let means = zip(sums, counts).map { $0 / max($1, 1) }
        let top = max(means.max() ?? 1, 1e-12)
        return PixelPlane(width: width, height: height, elements: means.map { Float(max($0, 0) / top) })
    }
}
