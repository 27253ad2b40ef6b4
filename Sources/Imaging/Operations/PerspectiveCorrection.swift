/// Maps a quadrilateral of an image onto an upright rectangle (a document or print scanner's "flatten").
public enum PerspectiveCorrection {
    /// The natural output size for a quadrilateral: the longer of each pair of opposite sides, rounded.
    ///
    /// `corners` are pixel coordinates, top-left origin, ordered top-left, top-right, bottom-right, bottom-left.
    public static func outputSize(for corners: [SIMD2<Double>]) -> (width: Int, height: Int) {
        precondition(corners.count == 4, "a quadrilateral has 4 corners")
        func length(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        let width = max(length(corners[0], corners[1]), length(corners[3], corners[2]))
        let height = max(length(corners[0], corners[3]), length(corners[1], corners[2]))
        return (max(1, Int(width.rounded())), max(1, Int(height.rounded())))
    }

    /// The output size for a quadrilateral whose rectangle is `aspectRatio` (width over height) wide: the longer
    /// side of `outputSize(for:)` is kept, so no detail the image holds along it is lost, and the other side follows
    /// from the ratio.
    public static func outputSize(for corners: [SIMD2<Double>], aspectRatio: Double) -> (width: Int, height: Int) {
        let natural = outputSize(for: corners)
        guard aspectRatio.isFinite, aspectRatio > 0 else { return natural }
        if natural.width >= natural.height {
            return (natural.width, max(1, Int((Double(natural.width) / aspectRatio).rounded())))
        }
        return (max(1, Int((Double(natural.height) * aspectRatio).rounded())), natural.height)
    }

    /// The homography from output pixel coordinates of a `width × height` rectangle to the quadrilateral's.
    public static func homography(corners: [SIMD2<Double>], width: Int, height: Int) -> Homography? {
        let w = Double(width), h = Double(height)
        return Homography(mapping: [SIMD2(0, 0), SIMD2(w, 0), SIMD2(w, h), SIMD2(0, h)], to: corners)
    }

    /// The quadrilateral's content resampled (bilinear) into an upright rectangle.
    ///
    /// - Parameters:
    ///   - corners: pixel coordinates, top-left origin, ordered top-left, top-right, bottom-right, bottom-left.
    ///   - size: the output size; by default `outputSize(for:)`.
    /// - Returns: nil when three corners are collinear.
    public static func rectify<Component: PixelComponent>(
        _ plane: PixelPlane<Component>, corners: [SIMD2<Double>], size: (width: Int, height: Int)? = nil,
        threads: Int? = nil
    ) -> PixelPlane<Component>? {
        let size = size ?? outputSize(for: corners)
        guard let h = homography(corners: corners, width: size.width, height: size.height) else { return nil }
        return plane.warpedPerspective(h, width: size.width, height: size.height, threads: threads)
    }
}
