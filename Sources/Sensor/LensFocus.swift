import Foundation
import Imaging

/// Where a camera's lens is focused, and how much it blurs what lies elsewhere: the thin-lens model of
/// depth of field.
///
/// A point at distance z images at v(z) = f z / (z − f) behind a lens of focal length f. The sensor sits
/// where the focus distance s images, v(s); the cone of light from the aperture (diameter A = f / N)
/// converging on v(z) crosses the sensor in a disc, the circle of confusion, of diameter
///
///     c = A · |v(s) − v(z)| / v(z) = A · f · |z − s| / (z · (s − f)),
///
/// which tends to A · f / z as s goes to infinity. In pixels of a picture whose focal length is fx pixels
/// (fx = f / pitch), the disc is c · fx / f = fx · A · |z − s| / (z · (s − f)) pixels across.
public struct LensFocus: Sendable, Hashable {
    /// Focal length, metres.
    public var focalLength: Double
    /// The aperture's diameter, metres: the focal length over the f-number.
    public var apertureDiameter: Double
    /// The distance in focus, metres; `.infinity` for a lens at its far end.
    public var focusDistance: Double

    /// A lens of focal length `focalLength` metres at f-number `fNumber`, focused `focusDistance` metres away.
    public init(focalLength: Double, fNumber: Double, focusDistance: Double) {
        precondition(focalLength > 0 && fNumber > 0, "a lens needs a positive focal length and f-number")
        self.focalLength = focalLength
        apertureDiameter = focalLength / fNumber
        // A lens cannot focus nearer than its own focal length; keep the distance beyond it.
        self.focusDistance = max(focusDistance, focalLength * 1.001)
    }

    /// The circle of confusion's diameter, pixels, of a point `depth` metres along the axis, in a picture whose
    /// focal length is `fx` pixels. A depth that is not finite (nothing hit: the far distance) counts as infinity.
    @inline(__always) public func blurDiameter(depth: Double, fx: Double) -> Double {
        let z = depth.isFinite && depth > 0 ? depth : .infinity
        let s = focusDistance
        if s.isInfinite { return z.isInfinite ? 0 : fx * apertureDiameter / z }
        if z.isInfinite { return fx * apertureDiameter / (s - focalLength) }
        return fx * apertureDiameter * abs(z - s) / (z * (s - focalLength))
    }

    /// The widest circle of confusion, pixels, among points at `depths` (NaN for the far distance): the blur grows
    /// monotonically on each side of the focus distance, so the nearest and farthest points bound it.
    public func widestBlur(depths: [Float], fx: Double) -> Double {
        // The nearest and farthest depth, band by band (the extremes do not depend on the order).
        let extremes = depths.withUnsafeBufferPointer { buffer -> [SIMD2<Float>] in
            guard let base = buffer.baseAddress else { return [] }
            let z = SharedReadPointer(base: base), count = buffer.count
            let rows = (count + Self.scanRow - 1) / Self.scanRow
            return BandParallel.bands(rows, initial: SIMD2<Float>(.infinity, 0)) { band in
                var nearest = Float.infinity, farthest: Float = 0
                for i in (band.lowerBound * Self.scanRow)..<min(count, band.upperBound * Self.scanRow) {
                    let depth = z.base[i]
                    if depth.isFinite && depth > 0 {
                        nearest = min(nearest, depth)
                        farthest = max(farthest, depth)
                    } else {
                        farthest = .infinity
                    }
                }
                return SIMD2(nearest, farthest)
            }
        }
        let nearest = extremes.map(\.x).min() ?? .infinity, farthest = extremes.map(\.y).max() ?? 0
        guard nearest.isFinite || farthest > 0 else { return 0 }
        return max(blurDiameter(depth: Double(nearest), fx: fx), blurDiameter(depth: Double(farthest), fx: fx))
    }

    /// Depths per row of `widestBlur`'s parallel scan (rows of the scan, not of the picture).
    static let scanRow = 4096
}
