import Foundation
import Imaging

/// Finds salient objects in a video picture for the metadata output (spec §16 rule 3): the regions the objectness
/// map of Vision's saliency request (`Saliency`, the minimum barrier distance to the picture's border) sets apart,
/// on the picture's colour as the camera captured it, inside the region of interest. So an object that stands
/// apart from what surrounds it, in luma or in colour, and is clear of the frame's edges is reported, and a plain
/// wall is not.
enum SalientObjectReader {
    /// At most this many objects a read (our choice: as many as Vision's objectness request reports).
    static let limit = 3

    /// The salient objects inside `region` (normalised, origin top-left) of `rgb` (encoded values 0…1), as
    /// normalised rectangles in the picture, most salient first.
    static func objects(in rgb: PixelPlane<Float>, region: CGRect) -> [CGRect] {
        guard rgb.width > 0, rgb.height > 0 else { return [] }
        let (w, h) = (rgb.width, rgb.height)
        let (x0, y0, x1, y1) = region.pixels(width: w, height: h)
        guard x1 > x0, y1 > y0 else { return [] }
        let map = Saliency.map(.objectness, of: rgb, columns: x0..<x1, rows: y0..<y1)
        let (rw, rh) = (Double(x1 - x0), Double(y1 - y0))
        return map.regions(limit: limit).map { r in
            CGRect(
                x: (Double(x0) + r.x * rw) / Double(w), y: (Double(y0) + r.y * rh) / Double(h),
                width: r.width * rw / Double(w), height: r.height * rh / Double(h))
        }
    }
}
