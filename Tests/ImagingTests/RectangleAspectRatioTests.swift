import Foundation
import Imaging
import Testing

/// A rectangle's true aspect ratio from its four imaged corners and the camera matrix (Zhang & He 2007).
///
/// The corners are projected here in closed form: a rectangle of known width and height, turned by known angles,
/// placed in front of a pinhole camera, then `u = fx·X/Z + cx`, `v = fy·Y/Z + cy`. Nothing of the code under test
/// produces the expected numbers.
@Suite struct RectangleAspectRatioTests {
    /// A camera with slightly non-square pixels and an off-centre principal point, so a formula that ignored either
    /// would show it.
    static let camera = PinholeIntrinsics(fx: 1480, fy: 1510, cx: 655.5, cy: 470.25)

    /// The corners (top-left, top-right, bottom-right, bottom-left) of a `width × height` rectangle centred at
    /// `centre` (camera frame: x right, y down, z forward), tilted by `pitch` about its horizontal axis and then
    /// `yaw` about the vertical one, seen through `camera`.
    static func imagedCorners(
        width: Double, height: Double, pitchDegrees: Double, yawDegrees: Double,
        centre: SIMD3<Double> = SIMD3(0.12, -0.08, 2.5), camera: PinholeIntrinsics = camera
    ) -> [SIMD2<Double>] {
        let p = pitchDegrees * .pi / 180, y = yawDegrees * .pi / 180
        func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> {
            // About x (pitch), then about y (yaw).
            let a = SIMD3(v.x, cos(p) * v.y - sin(p) * v.z, sin(p) * v.y + cos(p) * v.z)
            return SIMD3(cos(y) * a.x + sin(y) * a.z, a.y, -sin(y) * a.x + cos(y) * a.z)
        }
        let local: [SIMD3<Double>] = [
            SIMD3(-width / 2, -height / 2, 0), SIMD3(width / 2, -height / 2, 0), SIMD3(width / 2, height / 2, 0),
            SIMD3(-width / 2, height / 2, 0),
        ]
        return local.map { corner in
            let c = centre + rotate(corner)
            return SIMD2(camera.fx * c.x / c.z + camera.cx, camera.fy * c.y / c.z + camera.cy)
        }
    }

    static let tilts: [(pitch: Double, yaw: Double)] = [0.0, 10, 20, 30].flatMap { angle in
        [(angle, 0.0), (0, angle), (angle, angle), (-angle, angle)]
    }

    @Test(arguments: [0.80, 1.414])
    func trueRatioAtEveryTilt(truth: Double) {
        for (pitch, yaw) in Self.tilts {
            let corners = Self.imagedCorners(width: 0.4 * truth, height: 0.4, pitchDegrees: pitch, yawDegrees: yaw)
            let ratio = RectangleAspectRatio(corners: corners, intrinsics: Self.camera)
            #expect(ratio.method == .cameraIntrinsics, "pitch \(pitch)°, yaw \(yaw)°")
            #expect(abs(ratio.value / truth - 1) < 0.02, "pitch \(pitch)°, yaw \(yaw)°: \(ratio.value) for \(truth)")
        }
    }

    /// Without a camera matrix the ratio is that of the longer opposite edges: it is what the image shows, which is
    /// the truth only for a rectangle facing the camera, and far from it at 30° (the reason for the projective one).
    @Test func withoutIntrinsicsTheEdgeRatioIsUsed() {
        // A fronto-parallel rectangle centred on the axis with square pixels: the edge ratio is exact.
        let square = PinholeIntrinsics(fx: 1500, fy: 1500, cx: 640, cy: 480)
        let facing = Self.imagedCorners(
            width: 0.32, height: 0.4, pitchDegrees: 0, yawDegrees: 0, centre: SIMD3(0, 0, 2.5), camera: square)
        let plain = RectangleAspectRatio(corners: facing, intrinsics: nil)
        #expect(plain.method == .edgeLengths)
        #expect(abs(plain.value - 0.8) < 1e-9)
        let tilted = Self.imagedCorners(width: 0.32, height: 0.4, pitchDegrees: 30, yawDegrees: 0)
        let guess = RectangleAspectRatio(corners: tilted, intrinsics: nil)
        #expect(guess.method == .edgeLengths)
        #expect(abs(guess.value / 0.8 - 1) > 0.05, "the foreshortened edges read \(guess.value)")
        #expect(abs(RectangleAspectRatio(corners: tilted, intrinsics: Self.camera).value / 0.8 - 1) < 0.02)
    }

    /// Without a camera matrix, a rectangle turned about both axes still gives its true ratio: Zhang & He's focal
    /// length from the quadrilateral (principal point at the centre, square pixels) recovers the camera's own, and
    /// the ratio follows. A rectangle turned about one axis only leaves one pair of edges parallel in the image, so
    /// the focal length is undetermined and the edge ratio is used, as for one facing the camera.
    @Test(arguments: [0.80, 1.414])
    func focalLengthFromTheQuadrilateral(truth: Double) {
        let square = PinholeIntrinsics(fx: 1500, fy: 1500, cx: 640, cy: 480)
        let size = SIMD2<Double>(1280, 960)
        for (pitch, yaw) in [(20.0, 20.0), (-30, 25), (35, -15), (15, 40)] {
            let corners = Self.imagedCorners(
                width: 0.4 * truth, height: 0.4, pitchDegrees: pitch, yawDegrees: yaw, camera: square)
            let f = RectangleAspectRatio.estimatedFocalLength(corners, imageSize: size)
            #expect(abs((f ?? 0) / 1500 - 1) < 1e-6, "pitch \(pitch)°, yaw \(yaw)°: f = \(f ?? 0)")
            let ratio = RectangleAspectRatio(corners: corners, intrinsics: nil, imageSize: size)
            #expect(ratio.method == .estimatedFocalLength)
            #expect(abs(ratio.value / truth - 1) < 1e-6, "pitch \(pitch)°, yaw \(yaw)°: \(ratio.value) for \(truth)")
        }
        let pitchOnly = Self.imagedCorners(
            width: 0.4 * truth, height: 0.4, pitchDegrees: 30, yawDegrees: 0, centre: SIMD3(0, 0, 2.5), camera: square)
        #expect(RectangleAspectRatio(corners: pitchOnly, intrinsics: nil, imageSize: size).method == .edgeLengths)
    }

    /// Corners that no rectangle in front of this camera could give fall back to the edge ratio: a parallelogram
    /// facing the camera (recovered edges 60° apart), and corners whose depth ratios would be negative (a bow tie).
    @Test func impossibleCornersFallBackToTheEdgeRatio() {
        let parallelogram: [SIMD2<Double>] = [SIMD2(400, 300), SIMD2(700, 300), SIMD2(873.2, 600), SIMD2(573.2, 600)]
        let skewed = RectangleAspectRatio(corners: parallelogram, intrinsics: Self.camera)
        #expect(skewed.method == .edgeLengths)
        #expect(abs(skewed.value - RectangleAspectRatio.edgeRatio(parallelogram)) < 1e-12)
        let bowTie: [SIMD2<Double>] = [SIMD2(400, 300), SIMD2(700, 300), SIMD2(400, 600), SIMD2(700, 600)]
        #expect(RectangleAspectRatio(corners: bowTie, intrinsics: Self.camera).method == .edgeLengths)
        let invalid = PinholeIntrinsics(fx: 0, fy: 1500, cx: 640, cy: 480)
        let tilted = Self.imagedCorners(width: 0.32, height: 0.4, pitchDegrees: 20, yawDegrees: 10)
        #expect(RectangleAspectRatio(corners: tilted, intrinsics: invalid).method == .edgeLengths)
    }

    /// The flattened size keeps the longer natural side and takes the other from the ratio.
    @Test func outputSizeFollowsTheRatio() {
        let corners: [SIMD2<Double>] = [SIMD2(100, 100), SIMD2(500, 120), SIMD2(480, 400), SIMD2(120, 380)]
        let size = PerspectiveCorrection.outputSize(for: corners, aspectRatio: 0.8)
        let natural = PerspectiveCorrection.outputSize(for: corners)
        #expect(size.width == natural.width)
        #expect(size.height == Int((Double(natural.width) / 0.8).rounded()))
        let tall = PerspectiveCorrection.outputSize(for: corners, aspectRatio: 2)
        #expect(tall.width == natural.width && tall.height == Int((Double(natural.width) / 2).rounded()))
    }

    @Test func intrinsicsTextRoundTrips() {
        let k = PinholeIntrinsics(fx: 2795.47, fy: 2795.47, cx: 2017.75, cy: 1511)
        #expect(PinholeIntrinsics(text: k.pngTextValue) == k)
        #expect(PinholeIntrinsics(pngText: [PNGText(key: PinholeIntrinsics.pngTextKey, value: k.pngTextValue)]) == k)
        #expect(PinholeIntrinsics(text: "2795.47,2795.47,2017.75,1511") == k)
        #expect(PinholeIntrinsics(text: "1 2 3") == nil)
        #expect(PinholeIntrinsics(text: "-5 5 1 1") == nil)
        #expect(PinholeIntrinsics(text: "5 5 1 x") == nil)
    }
}
