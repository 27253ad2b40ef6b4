/// The width-to-height ratio of a rectangle (a print, a card, a page) from the image of its four corners.
///
/// With the camera matrix known, the ratio comes from projective geometry (Zhang & He 2007, "Whiteboard scanning
/// and image enhancement", §2): let `m1 … m4` be the rays `A⁻¹(u, v, 1)` through the top-left, top-right,
/// bottom-left and bottom-right corners, and `λi` the unknown depths with `λi mi` the corners in the camera frame.
/// The corners of a rectangle satisfy `λ4 m4 = λ2 m2 + λ3 m3 − λ1 m1`; crossing with `m4` and dotting with `m3` or
/// `m2` gives
///
///     k2 = λ2/λ1 = ((m1 × m4) · m3) / ((m2 × m4) · m3),    k3 = λ3/λ1 = ((m1 × m4) · m2) / ((m3 × m4) · m2),
///
/// and then `k2 m2 − m1` and `k3 m3 − m1` are the rectangle's top and left edges over the same factor `λ1`, so
/// `w/h = |k2 m2 − m1| / |k3 m3 − m1|`. (The paper writes the same with `A⁻ᵀA⁻¹` and the pixel points; the triple
/// products only change by `det A⁻¹`, which cancels.) Nothing here needs the print to be tilted: when it faces the
/// camera, `k2 = k3 = 1` and the edges are the pixel edges divided by the focal lengths, so the formula stays
/// well-conditioned where the paper's focal-length estimate (which divides by the vanishing points' depth
/// components) breaks down.
///
/// Without intrinsics, the focal length comes from the quadrilateral itself (Zhang & He 2007, §3): with the
/// principal point at the image centre and square pixels, the recovered edges `A⁻¹n2` and `A⁻¹n3` (with
/// `n2 = k2 m̃2 − m̃1`, `n3 = k3 m̃3 − m̃1` in pixel coordinates centred on the principal point) are perpendicular
/// only for `f² = −(n2x n3x + n2y n3y) / (n2z n3z)`. A print nearly facing the camera leaves `n2z n3z` near zero
/// and `f` undetermined; it is used only when it gives a plausible camera, a focal length between a quarter and
/// four times the image's longer side (35 mm equivalents of roughly 9 to 140 mm), and then the ratio follows as
/// with known intrinsics. A print facing the camera needs no focal length: its pixel edges are its shape.
///
/// When neither gives an answer, or the corners cannot be the image of a rectangle in front of the camera (a depth
/// ratio not positive or not finite, or recovered edges more than `perpendicularityTolerance` away from a right
/// angle), the ratio falls back to the longer of each pair of opposite edges in pixels: exact for a print facing
/// the camera, and off by the foreshortening otherwise.
public struct RectangleAspectRatio: Sendable, Hashable {
    /// How a ratio was obtained.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        /// From the corners and a known camera matrix (projective geometry): the rectangle's true shape.
        case cameraIntrinsics = "intrinsics"
        /// From the corners and a camera matrix made of the photo's Exif focal length, the principal point at the
        /// image centre.
        case exif = "exif"
        /// From the corners and the focal length the quadrilateral itself implies (Zhang & He 2007, §3).
        case estimatedFocalLength = "estimated-focal"
        /// From the longer of each pair of opposite edges, in pixels: the shape as it looks in the image.
        case edgeLengths = "edge-ratio"
    }

    /// Width over height, where the width runs from the top-left to the top-right corner.
    public var value: Double
    /// How `value` was obtained.
    public var method: Method

    /// The largest |cos| between the recovered top and left edges that still counts as a right angle: about 8.6°
    /// either side of 90°. Corner detection errors of a pixel or two on a print filling a tenth of a 12 MP frame
    /// move the angle by well under a degree; an error beyond this means the intrinsics do not belong to the picture
    /// or the quadrilateral is not a rectangle, and the pixel edges are then the safer answer.
    public static let perpendicularityTolerance = 0.15

    public init(value: Double, method: Method) {
        self.value = value
        self.method = method
    }

    /// The ratio of the rectangle imaged at `corners` (pixel coordinates, top-left origin, ordered top-left,
    /// top-right, bottom-right, bottom-left), by the camera matrix when one is given and usable.
    ///
    /// `intrinsicsMethod` says where `intrinsics` came from (`cameraIntrinsics` or `exif`). With `imageSize`
    /// (width, height in pixels) and no usable intrinsics, the focal length is estimated from the corners before
    /// the edge ratio is taken.
    public init(
        corners: [SIMD2<Double>], intrinsics: PinholeIntrinsics?, intrinsicsMethod: Method = .cameraIntrinsics,
        imageSize: SIMD2<Double>? = nil
    ) {
        precondition(corners.count == 4, "a quadrilateral has 4 corners")
        if let intrinsics, let value = RectangleAspectRatio.projective(corners, intrinsics) {
            self.init(value: value, method: intrinsicsMethod)
        } else if let imageSize, let f = RectangleAspectRatio.estimatedFocalLength(corners, imageSize: imageSize),
            let value = RectangleAspectRatio.projective(
                corners, PinholeIntrinsics(fx: f, fy: f, cx: imageSize.x / 2, cy: imageSize.y / 2))
        {
            self.init(value: value, method: .estimatedFocalLength)
        } else {
            self.init(value: RectangleAspectRatio.edgeRatio(corners), method: .edgeLengths)
        }
    }

    /// The focal length in pixels that makes the corners the image of a rectangle, the principal point at the
    /// centre of an image of `imageSize` and pixels square (see the type's notes); nil when the corners do not
    /// determine a plausible one.
    public static func estimatedFocalLength(_ corners: [SIMD2<Double>], imageSize: SIMD2<Double>) -> Double? {
        precondition(corners.count == 4, "a quadrilateral has 4 corners")
        let centre = imageSize / 2
        // Centred homogeneous pixel points; the paper's numbering m1 top-left, m2 top-right, m3 bottom-left,
        // m4 bottom-right.
        func point(_ c: SIMD2<Double>) -> SIMD3<Double> { SIMD3(c.x - centre.x, c.y - centre.y, 1) }
        let m1 = point(corners[0]), m2 = point(corners[1]), m3 = point(corners[3]), m4 = point(corners[2])
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        let m14 = cross(m1, m4)
        let k2 = dot(m14, m3) / dot(cross(m2, m4), m3)
        let k3 = dot(m14, m2) / dot(cross(m3, m4), m2)
        guard k2.isFinite, k3.isFinite, k2 > 0, k3 > 0 else { return nil }
        let n2 = k2 * m2 - m1, n3 = k3 * m3 - m1
        let f2 = -(n2.x * n3.x + n2.y * n3.y) / (n2.z * n3.z)
        let longer = max(imageSize.x, imageSize.y)
        guard f2.isFinite, f2 > 0 else { return nil }
        let f = f2.squareRoot()
        return f >= longer / 4 && f <= longer * 4 ? f : nil
    }

    /// The longer top/bottom edge over the longer left/right edge, in pixels (1 for a degenerate quadrilateral).
    public static func edgeRatio(_ corners: [SIMD2<Double>]) -> Double {
        func length(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        let width = max(length(corners[0], corners[1]), length(corners[3], corners[2]))
        let height = max(length(corners[0], corners[3]), length(corners[1], corners[2]))
        let ratio = width / height
        return ratio.isFinite && ratio > 0 ? ratio : 1
    }

    /// Zhang & He's ratio (see the type's documentation), or nil when the corners cannot be a rectangle's image.
    static func projective(_ corners: [SIMD2<Double>], _ intrinsics: PinholeIntrinsics) -> Double? {
        guard intrinsics.isValid else { return nil }
        // The paper's numbering: m1 top-left, m2 top-right, m3 bottom-left, m4 bottom-right.
        let m1 = intrinsics.ray(through: corners[0]), m2 = intrinsics.ray(through: corners[1])
        let m3 = intrinsics.ray(through: corners[3]), m4 = intrinsics.ray(through: corners[2])
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        let m14 = cross(m1, m4)
        let k2 = dot(m14, m3) / dot(cross(m2, m4), m3)
        let k3 = dot(m14, m2) / dot(cross(m3, m4), m2)
        // Every corner in front of the camera: λ2/λ1, λ3/λ1 and λ4/λ1 = k2 + k3 − 1 (the z components) positive.
        guard k2.isFinite, k3.isFinite, k2 > 0, k3 > 0, k2 + k3 - 1 > 0 else { return nil }
        let top = k2 * m2 - m1, left = k3 * m3 - m1
        let width = dot(top, top).squareRoot(), height = dot(left, left).squareRoot()
        guard width > 0, height > 0 else { return nil }
        guard abs(dot(top, left)) <= perpendicularityTolerance * width * height else { return nil }
        let ratio = width / height
        return ratio.isFinite ? ratio : nil
    }
}
