/// A pinhole camera matrix in the pixels of one picture: focal lengths and principal point.
///
/// Coordinates are continuous pixel coordinates with a top-left origin and pixel centres at half-integers, as in
/// `Homography` and `DetectedQuadrilateral.pixelCorners`: a point at `(X, Y, Z)` in the camera frame (x right,
/// y down, z forward) lands at `(fx · X/Z + cx, fy · Y/Z + cy)`.
public struct PinholeIntrinsics: Sendable, Hashable {
    public var fx: Double
    public var fy: Double
    public var cx: Double
    public var cy: Double

    public init(fx: Double, fy: Double, cx: Double, cy: Double) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
    }

    /// Whether the matrix can be inverted and describes a camera: finite, positive focal lengths.
    public var isValid: Bool {
        fx.isFinite && fy.isFinite && cx.isFinite && cy.isFinite && fx > 0 && fy > 0
    }

    /// The same camera delivering a picture scaled by `(sx, sy)` (a resized copy of the photo).
    public func scaled(x sx: Double, y sy: Double) -> PinholeIntrinsics {
        PinholeIntrinsics(fx: fx * sx, fy: fy * sy, cx: cx * sx, cy: cy * sy)
    }

    /// The ray through an image point, with z = 1 (the inverse camera matrix applied to `(u, v, 1)`).
    public func ray(through point: SIMD2<Double>) -> SIMD3<Double> {
        SIMD3((point.x - cx) / fx, (point.y - cy) / fy, 1)
    }
}

extension PinholeIntrinsics {
    /// The PNG text key under which Obscura photos record the camera matrix of their pixels.
    public static let pngTextKey = "Obscura.Intrinsics"

    /// `fx fy cx cy` in pixels, each in Swift's shortest round-tripping form.
    public var pngTextValue: String { "\(fx) \(fy) \(cx) \(cy)" }

    /// Reads `fx fy cx cy` (spaces or commas between the numbers); nil unless there are four numbers making a valid
    /// matrix.
    public init?(text: String) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        let numbers = fields.compactMap { Double($0) }
        guard fields.count == 4, numbers.count == 4 else { return nil }
        self.init(fx: numbers[0], fy: numbers[1], cx: numbers[2], cy: numbers[3])
        guard isValid else { return nil }
    }

    /// The intrinsics a PNG file's text records (`pngTextKey`); nil when it has none or they do not parse.
    public init?(pngText: [PNGText]) {
        guard let entry = pngText.last(where: { $0.key == PinholeIntrinsics.pngTextKey }) else { return nil }
        self.init(text: entry.value)
    }
}
