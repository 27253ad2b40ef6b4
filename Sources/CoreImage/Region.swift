import Foundation

/// A whole-pixel rectangle in Core Image's coordinates: origin at the bottom left, y up. A plane
/// rendered for a region holds its rows top first, so plane row `j` is the pixel row at
/// `y + height - 1 - j`.
struct Region: Equatable, Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var isEmpty: Bool { width <= 0 || height <= 0 }
    var maxX: Int { x + width }
    var maxY: Int { y + height }

    /// The smallest region holding a rectangle (its edges rounded outwards); nil for an infinite or
    /// null rectangle.
    init?(covering rect: CGRect) {
        guard !rect.isNull, !rect.isInfinite, rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite,
            rect.maxY.isFinite, abs(rect.minX) < 1e9, abs(rect.maxX) < 1e9, abs(rect.minY) < 1e9, abs(rect.maxY) < 1e9
        else { return nil }
        let x0 = Int(rect.minX.rounded(.down)), y0 = Int(rect.minY.rounded(.down))
        let x1 = Int(rect.maxX.rounded(.up)), y1 = Int(rect.maxY.rounded(.up))
        self.init(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    var rect: CGRect { CGRect(x: x, y: y, width: width, height: height) }

    func insetBy(_ d: Int) -> Region { Region(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }

    func intersection(_ o: Region) -> Region {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return Region(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The part of the region inside an extent (all of it when the extent is infinite).
    func clipped(to extent: CGRect) -> Region {
        if extent.isInfinite { return self }
        guard let e = Region(covering: extent) else { return Region(x: x, y: y, width: 0, height: 0) }
        return intersection(e)
    }
}
