import AVFoundation
import CoreImage
import CoreVideo
import ExternalTools
import Foundation
import Imaging
import Obscura
import ObscuraTesting
import Testing
import Vision

/// A face drawn in code, as a child draws one but shaded: a skin-coloured oval darkening towards its sides under a
/// dark cap of hair, brows, eyes with irises and pupils, the shadow under the nose, and a mouth, over a grey-blue
/// wall. Every feature is placed relative to the face's centre and half-width, so the face can be drawn at any size.
struct DrawnFace: DrawnPicture {
    struct Face {
        /// The centre of the face's oval, pixels from the top-left.
        let centre: SIMD2<Double>
        /// The half-width of the face's oval, pixels.
        let halfWidth: Double
        /// How far the face is turned counterclockwise on screen, degrees.
        var angle: Double = 0

        /// A point of the upright face's layout (half-widths from its centre, y down) where the turned face shows it,
        /// pixels from the top-left.
        func shown(_ t: SIMD2<Double>) -> SIMD2<Double> {
            let (c, s) = (cos(angle * .pi / 180), sin(angle * .pi / 180))
            return centre + halfWidth * SIMD2(t.x * c + t.y * s, -t.x * s + t.y * c)
        }
    }

    let width: Int
    let height: Int
    var faces: [Face]
    var wall: SIMD3<Double> = SIMD3(0.47, 0.51, 0.55)

    /// An ellipse's part: all of it, or the half above or below its horizontal axis.
    enum Part { case whole, upper, lower }

    /// A filled ellipse of one colour, in units of the face's half-width from its centre.
    struct Shape {
        let centre: SIMD2<Double>, axes: SIMD2<Double>
        let colour: SIMD3<Double>
        var part = Part.whole
        var isSkin = false
    }

    /// The shapes of one face, back to front.
    static let shapes: [Shape] = {
        func rgb(_ r: Double, _ g: Double, _ b: Double) -> SIMD3<Double> { SIMD3(r, g, b) / 255 }
        var list = [
            Shape(centre: SIMD2(0, -0.32), axes: SIMD2(1.21, 1.47), colour: rgb(45, 35, 30)),
            Shape(centre: SIMD2(0, 0.105), axes: SIMD2(1, 1.316), colour: rgb(210, 150, 110), isSkin: true),
        ]
        for side in [-1.0, 1.0] {
            list.append(
                Shape(
                    centre: SIMD2(side * 0.42, -0.368), axes: SIMD2(0.295, 0.074), colour: rgb(60, 45, 40),
                    part: .upper))
            list.append(
                Shape(centre: SIMD2(side * 0.42, -0.105), axes: SIMD2(0.232, 0.116), colour: rgb(235, 235, 235)))
            list.append(Shape(centre: SIMD2(side * 0.42, -0.105), axes: SIMD2(0.095, 0.095), colour: rgb(70, 60, 50)))
            list.append(Shape(centre: SIMD2(side * 0.42, -0.105), axes: SIMD2(0.042, 0.042), colour: rgb(10, 10, 10)))
        }
        list.append(Shape(centre: SIMD2(0, 0.47), axes: SIMD2(0.168, 0.074), colour: rgb(150, 105, 80), part: .lower))
        list.append(Shape(centre: SIMD2(0, 0.84), axes: SIMD2(0.316, 0.095), colour: rgb(160, 70, 70)))
        return list
    }()

    /// The colour at a point, pixels from the top-left.
    func colour(at p: SIMD2<Double>) -> SIMD3<Double> {
        var colour = wall
        for face in faces {
            let d = (p - face.centre) / face.halfWidth
            // Back into the upright face's layout (the turn undone).
            let (c, s) = (cos(face.angle * .pi / 180), sin(face.angle * .pi / 180))
            let q = SIMD2(d.x * c - d.y * s, d.x * s + d.y * c)
            for shape in Self.shapes {
                let d = (q - shape.centre) / shape.axes
                guard (d * d).sum() <= 1 else { continue }
                if shape.part == .upper && d.y > 0 || shape.part == .lower && d.y < 0 { continue }
                // Skin darkens towards the sides of the face, as a rounded face lit from the front does.
                colour = shape.isSkin ? shape.colour * (1 - 0.35 * q.x * q.x) : shape.colour
            }
        }
        return colour
    }

    func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        var sum = SIMD3<Double>(0, 0, 0)
        for sy in 0..<4 {
            for sx in 0..<4 {
                sum += colour(at: SIMD2(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4))
            }
        }
        let c = sum / 16
        func byte(_ v: Double) -> UInt8 { UInt8((255 * min(max(v, 0), 1)).rounded()) }
        return (byte(c.x), byte(c.y), byte(c.z))
    }

    /// The picture's luma (BT.601 weights on the encoded values, 0…1), as a face detector reads it.
    func luma() -> PixelPlane<Float> {
        PixelPlane(width: width, height: height) { x, y, _ in
            let (r, g, b) = rgb(x, y)
            return (0.299 * Float(r) + 0.587 * Float(g) + 0.114 * Float(b)) / 255
        }
    }
}

/// Face detection as apps ask for it, on faces drawn in code (spec §22.5). The reference is OpenCV 4.10's own
/// `CascadeClassifier.detectMultiScale2` with the same cascade file, scale step 1.1 and three neighbours, run once on
/// these pictures written out as PNG: what it found is written down below.
@Suite(.needs(.faceCascade))
struct VNDetectFaceRectanglesRequestTests {
    static let single = DrawnFace(
        width: 640, height: 480, faces: [DrawnFace.Face(centre: SIMD2(320, 260), halfWidth: 95)])
    static let pair = DrawnFace(
        width: 640, height: 480,
        faces: [
            DrawnFace.Face(centre: SIMD2(180, 250), halfWidth: 80),
            DrawnFace.Face(centre: SIMD2(470, 220), halfWidth: 55),
        ])
    /// OpenCV's faces (x, y, width, height from the top-left, and the windows that agreed) in `single` and `pair`.
    static let openCVSingle = [(213.0, 148.0, 219.0, 219.0, 16)]
    static let openCVPair = [(405.0, 152.0, 133.0, 133.0, 25), (91.0, 158.0, 178.0, 178.0, 21)]

    static func detector() throws -> FaceDetector {
        FaceDetector(
            cascade: try HaarCascade(xml: try String(contentsOfFile: ExternalTool.faceCascadePath, encoding: .utf8)))
    }

    /// Within 2 pixels of OpenCV's rectangles (it rounds each rung's window and picture to whole pixels; the
    /// detector here keeps them exact) and within 2 of its window counts.
    @Test(arguments: [(single, openCVSingle), (pair, openCVPair)])
    func theDetectorFindsWhatOpenCVFinds(picture: DrawnFace, reference: [(Double, Double, Double, Double, Int)]) throws
    {
        let faces = try Self.detector().faces(in: picture.luma())
        #expect(faces.count == reference.count)
        for (face, want) in zip(faces.sorted { $0.x > $1.x }, reference.sorted { $0.0 > $1.0 }) {
            #expect(abs(face.x - want.0) <= 2 && abs(face.y - want.1) <= 2, "\(face) vs \(want)")
            #expect(abs(face.width - want.2) <= 2 && abs(face.height - want.3) <= 2, "\(face) vs \(want)")
            #expect(abs(face.windows - want.4) <= 2, "\(face) vs \(want)")
        }
    }

    /// OpenCV's rectangle in Vision's normalised coordinates (origin at the bottom left) of a 640 × 480 picture.
    static func normalised(_ r: (Double, Double, Double, Double, Int)) -> CGRect {
        CGRect(x: r.0 / 640, y: 1 - (r.1 + r.3) / 480, width: r.2 / 640, height: r.3 / 480)
    }

    static func expectBox(_ got: CGRect, _ want: CGRect, sourceLocation: SourceLocation = #_sourceLocation) {
        let close =
            abs(got.minX - want.minX) < 0.006 && abs(got.minY - want.minY) < 0.006
            && abs(got.width - want.width) < 0.006 && abs(got.height - want.height) < 0.006
        #expect(close, "\(got) vs \(want)", sourceLocation: sourceLocation)
    }

    // A selfie frame as a camera app hands it to Vision: a BGRA pixel buffer, a handler, a request with a completion
    // handler. One face, where OpenCV found it, normalised with the origin at the bottom left.
    @Test func aFaceInAPixelBuffer() throws {
        let buffer = try Self.single.pixelBuffer()
        var called = false
        let request = VNDetectFaceRectanglesRequest { request, error in
            called = error == nil && request.results?.count == 1
        }
        #expect(request.revision == VNDetectFaceRectanglesRequestRevision3)
        #expect(VNDetectFaceRectanglesRequest.supportedRevisions == IndexSet([1, 2, 3]))
        try VNImageRequestHandler(cvPixelBuffer: buffer, orientation: .up, options: [:]).perform([request])
        #expect(called)
        let face = try #require(request.results?.first)
        Self.expectBox(face.boundingBox, Self.normalised(Self.openCVSingle[0]))
        #expect(face.confidence > 0.9 && face.confidence <= 1)
        // The drawn face is level: its roll, measured from its eyes, is within a degree of none.
        let roll = try #require(face.roll).doubleValue
        #expect(abs(roll) < Double.pi / 180, "\(roll) rad")
        #expect(face.yaw == nil && face.pitch == nil && face.faceCaptureQuality == nil)
        #expect(face.requestRevision == VNDetectFaceRectanglesRequestRevision3)
    }

    // Two faces, from a CGImage; a region of interest around the right one finds it alone, normalised to the region.
    @Test func twoFacesAndARegionOfInterest() throws {
        let image = try Self.pair.cgImage()
        let request = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(cgImage: image, options: [:]).perform([request])
        let faces = try #require(request.results)
        #expect(faces.count == 2)
        let byX = faces.sorted { $0.boundingBox.minX < $1.boundingBox.minX }
        Self.expectBox(byX[0].boundingBox, Self.normalised(Self.openCVPair[1]))
        Self.expectBox(byX[1].boundingBox, Self.normalised(Self.openCVPair[0]))

        let right = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        request.regionOfInterest = right
        try VNImageRequestHandler(cgImage: image, options: [:]).perform([request])
        let inRegion = try #require(request.results)
        #expect(inRegion.count == 1)
        let whole = Self.normalised(Self.openCVPair[0])
        Self.expectBox(
            try #require(inRegion.first).boundingBox,
            CGRect(x: (whole.minX - 0.5) / 0.5, y: whole.minY, width: whole.width / 0.5, height: whole.height))
    }

    // The picture stored on its side, as a phone held upright stores it, with the orientation that turns it upright:
    // the face is found in the upright picture.
    @Test func aSidewaysBufferWithItsOrientation() throws {
        let stored = Sideways(upright: Self.single)
        let request = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(cvPixelBuffer: try stored.pixelBuffer(), orientation: .right, options: [:])
            .perform([request])
        let face = try #require(request.results?.first)
        #expect(request.results?.count == 1)
        Self.expectBox(face.boundingBox, Self.normalised(Self.openCVSingle[0]))
        // Without the orientation the face lies on its side, where an upright detector does not find it.
        try VNImageRequestHandler(cvPixelBuffer: try stored.pixelBuffer(), options: [:]).perform([request])
        #expect(request.results?.isEmpty == true)
    }

    // No face: a bare wall, and a print on a desk. The results are empty, not nil.
    @Test func noFaceWhereThereIsNone() throws {
        let wall = DrawnFace(width: 320, height: 240, faces: [])
        let print = Drawing(
            width: 400, height: 300, shapes: [[SIMD2(131, 63), SIMD2(282, 71), SIMD2(318, 242), SIMD2(88, 228)]])
        for image in [try wall.cgImage(), try print.cgImage()] {
            let request = VNDetectFaceRectanglesRequest()
            try VNImageRequestHandler(cgImage: image, options: [:]).perform([request])
            #expect(request.results?.isEmpty == true)
        }
    }

    // A photo of a printed portrait, taken through the capture API: the face lies where the print shows it. The
    // reference is OpenCV 4.10 on the print's texture alone (the face at (25, 61), 152 × 152 of its 200 × 260
    // pixels), carried onto the photo by the scene's geometry: the 100 × 130 mm print square to the camera 0.399 m
    // away on the optical axis, through a pinhole with the photo's intrinsics.
    @Test(.obscura(device: "iphone-15-pro", scene: "portrait-print"))
    func aCapturedPortraitsFaceLiesWhereThePrintShowsIt() throws {
        let photo = try CapturedPrintTests.capture(AVCapturePhotoSettings())
        let image = try #require(photo.cgImageRepresentation())
        let request = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(cgImage: image, options: [:]).perform([request])
        #expect(request.results?.count == 1)
        let face = try #require(request.results?.first)
        let k = try #require(photo.pixelIntrinsicMatrix)
        let (fx, fy, cx, cy) = (
            Double(k.columns.0.x), Double(k.columns.1.y), Double(k.columns.2.x), Double(k.columns.2.y)
        )
        // Texture pixel (u, v) lies at x = −0.05 + u/2000 m, y = 0.065 − v/2000 m from the print's centre.
        func pixel(_ u: Double, _ v: Double) -> CGPoint {
            let (x, y, z) = (-0.05 + u / 2000, 0.065 - v / 2000, 0.399)
            return CGPoint(x: (fx * x / z + cx) / Double(image.width), y: 1 - (cy - fy * y / z) / Double(image.height))
        }
        let topLeft = pixel(25, 61), bottomRight = pixel(177, 213)
        let want = CGRect(
            x: topLeft.x, y: bottomRight.y, width: bottomRight.x - topLeft.x, height: topLeft.y - bottomRight.y)
        let box = face.boundingBox
        #expect(
            abs(box.midX - want.midX) < 0.02 && abs(box.midY - want.midY) < 0.02
                && abs(box.width / want.width - 1) < 0.15 && abs(box.height / want.height - 1) < 0.15,
            "\(box) vs \(want)")
    }

    // The same photo through `CIDetector`: the eyes lie where the print's drawn eyes project (texture pixels
    // (100 ± 26.04, 128.49): the portrait's face centred at (100, 135) with a half-width of 62, its eyes ±0.42 of it
    // across and 0.105 above, tools/make_scene_textures.py), to within a tenth of the face's half-width.
    @Test(.obscura(device: "iphone-15-pro", scene: "portrait-print"))
    func aCapturedPortraitsEyesLieWhereThePrintShowsThem() throws {
        let photo = try CapturedPrintTests.capture(AVCapturePhotoSettings())
        let image = try #require(photo.cgImageRepresentation())
        let detector = try #require(CIDetector(ofType: CIDetectorTypeFace, context: nil))
        let face = try #require(detector.features(in: CIImage(cgImage: image)).first as? CIFaceFeature)
        let k = try #require(photo.pixelIntrinsicMatrix)
        let (fx, fy, cx, cy) = (
            Double(k.columns.0.x), Double(k.columns.1.y), Double(k.columns.2.x), Double(k.columns.2.y)
        )
        // Texture pixel (u, v) in Core Image's coordinates of the photo (pixels, y up).
        func pixel(_ u: Double, _ v: Double) -> CGPoint {
            let (x, y, z) = (-0.05 + u / 2000, 0.065 - v / 2000, 0.399)
            return CGPoint(x: fx * x / z + cx, y: Double(image.height) - (cy - fy * y / z))
        }
        let tolerance = fx * (0.1 * 62 / 2000) / 0.399
        for (got, want) in [
            (face.leftEyePosition, pixel(73.96, 128.49)), (face.rightEyePosition, pixel(126.04, 128.49)),
        ] {
            #expect(hypot(got.x - want.x, got.y - want.y) < tolerance, "\(got) against \(want)")
        }
        #expect(face.hasLeftEyePosition && face.hasRightEyePosition && abs(face.faceAngle) < 4)
    }

    // An app makes its own face observation, to seed a request that starts from faces.
    @Test func anAppMadeObservation() {
        let box = CGRect(x: 0.2, y: 0.3, width: 0.25, height: 0.3)
        let face = VNFaceObservation.faceObservation(
            requestRevision: VNDetectFaceRectanglesRequestRevision3, boundingBox: box, roll: 0.1, yaw: nil, pitch: nil)
        #expect(face.boundingBox == box && face.roll == 0.1 && face.yaw == nil && face.confidence == 1)
    }
}

/// `CIDetector`'s faces, as older photo apps find them: the same detector, its bounds in Core Image's coordinates
/// (pixels, origin at the bottom left), and the orientation option saying which way is up (spec §22.5).
@Suite(.needs(.faceCascade))
struct CIDetectorFaceTests {
    typealias Tests = VNDetectFaceRectanglesRequestTests

    /// OpenCV's rectangle (top-left origin) of a 640 × 480 picture in Core Image's coordinates.
    static func ci(_ r: (Double, Double, Double, Double, Int)) -> CGRect {
        CGRect(x: r.0, y: 480 - r.1 - r.3, width: r.2, height: r.3)
    }

    static func expectBounds(_ got: CGRect, _ want: CGRect, sourceLocation: SourceLocation = #_sourceLocation) {
        let close =
            abs(got.minX - want.minX) <= 2.5 && abs(got.minY - want.minY) <= 2.5
            && abs(got.width - want.width) <= 2.5 && abs(got.height - want.height) <= 2.5
        #expect(close, "\(got) vs \(want)", sourceLocation: sourceLocation)
    }

    @Test func twoFacesInACIImage() throws {
        let detector = try #require(
            CIDetector(ofType: CIDetectorTypeFace, context: nil, options: [CIDetectorAccuracy: CIDetectorAccuracyHigh]))
        let features = detector.features(in: CIImage(cgImage: try Tests.pair.cgImage()))
        let faces = features.compactMap { $0 as? CIFaceFeature }.sorted { $0.bounds.minX < $1.bounds.minX }
        #expect(features.count == 2 && faces.count == 2)
        guard faces.count == 2 else { return }
        Self.expectBounds(faces[0].bounds, Self.ci(Tests.openCVPair[1]))
        Self.expectBounds(faces[1].bounds, Self.ci(Tests.openCVPair[0]))
        #expect(faces[0].type == CIFeatureTypeFace && !faces[0].hasSmile)
        // Both faces' eyes, in Core Image's coordinates, where the drawing put them (left first, as drawn).
        for (feature, drawn) in zip(faces, Tests.pair.faces) {
            try Self.expectEyes(feature, drawn, height: 480)
        }
    }

    // spec §22.5 rule 20: with dlib's landmark model installed, each face's mouth is the middle of its outer lips,
    // within a tenth of the half-width of the drawn mouth (an ellipse 0.84 of the half-width below the oval's centre).
    @Test(.needs(.landmarkModel)) func theMouthsOfTwoFacesInACIImage() throws {
        let detector = try #require(CIDetector(ofType: CIDetectorTypeFace, context: nil))
        let faces = detector.features(in: CIImage(cgImage: try Tests.pair.cgImage())).compactMap {
            $0 as? CIFaceFeature
        }.sorted { $0.bounds.minX < $1.bounds.minX }
        #expect(faces.count == 2)
        for (feature, drawn) in zip(faces, Tests.pair.faces) {
            let want = CGPoint(x: drawn.centre.x, y: 480 - (drawn.centre.y + 0.84 * drawn.halfWidth))
            #expect(feature.hasMouthPosition)
            let d = hypot(feature.mouthPosition.x - want.x, feature.mouthPosition.y - want.y)
            #expect(d <= 0.1 * drawn.halfWidth, "\(feature.mouthPosition) against \(want)")
        }
    }

    /// The drawn eye centres of a face in Core Image's coordinates of a picture `height` pixels tall: ±0.42 of the
    /// half-width across and 0.105 above the oval's centre (`DrawnFace.shapes`).
    static func drawnEyes(_ face: DrawnFace.Face, height: Int) -> (left: CGPoint, right: CGPoint) {
        let y = CGFloat(height) - (face.centre.y - 0.105 * face.halfWidth)
        return (
            CGPoint(x: face.centre.x - 0.42 * face.halfWidth, y: y),
            CGPoint(x: face.centre.x + 0.42 * face.halfWidth, y: y)
        )
    }

    /// The feature's eyes lie within a tenth of the half-width of the drawn ones, and the face is level.
    static func expectEyes(
        _ feature: CIFaceFeature, _ drawn: DrawnFace.Face, height: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let want = drawnEyes(drawn, height: height)
        #expect(feature.hasLeftEyePosition && feature.hasRightEyePosition, sourceLocation: sourceLocation)
        let tolerance = 0.1 * drawn.halfWidth
        for (got, expected) in [(feature.leftEyePosition, want.left), (feature.rightEyePosition, want.right)] {
            let d = hypot(got.x - expected.x, got.y - expected.y)
            #expect(d <= tolerance, "\(got) against \(expected)", sourceLocation: sourceLocation)
            #expect(feature.bounds.contains(got), sourceLocation: sourceLocation)
        }
        #expect(
            feature.hasFaceAngle && abs(feature.faceAngle) < 4, "\(feature.faceAngle)°", sourceLocation: sourceLocation)
    }

    @Test func aSingleFacesEyesAndAngle() throws {
        let detector = try #require(CIDetector(ofType: CIDetectorTypeFace, context: nil))
        let faces = detector.features(in: CIImage(cgImage: try Tests.single.cgImage())).compactMap {
            $0 as? CIFaceFeature
        }
        #expect(faces.count == 1)
        try Self.expectEyes(try #require(faces.first), Tests.single.faces[0], height: 480)
    }

    // A face tilted a little either way, as a head leans: still found (the cascade's windows tolerate a small roll),
    // its eyes where the tilted drawing put them, and its angle the tilt, counterclockwise in degrees as Apple
    // documents `faceAngle`.
    @Test(arguments: [-9.0, 7.0, 12, -15])
    func aTiltedFacesAngle(tilt: Double) throws {
        let drawn = DrawnFace.Face(centre: SIMD2(320, 250), halfWidth: 95, angle: tilt)
        let picture = DrawnFace(width: 640, height: 480, faces: [drawn])
        let detector = try #require(CIDetector(ofType: CIDetectorTypeFace, context: nil))
        let faces = detector.features(in: CIImage(cgImage: try picture.cgImage())).compactMap { $0 as? CIFaceFeature }
        let face = try #require(faces.first)
        #expect(faces.count == 1 && face.hasFaceAngle)
        #expect(abs(Double(face.faceAngle) - tilt) < 2, "\(face.faceAngle)° for a tilt of \(tilt)°")
        for (got, layout) in [
            (face.leftEyePosition, SIMD2(-0.42, -0.105)), (face.rightEyePosition, SIMD2(0.42, -0.105)),
        ] {
            let shown = drawn.shown(layout)
            let want = CGPoint(x: shown.x, y: 480 - shown.y)
            #expect(hypot(got.x - want.x, got.y - want.y) <= 0.1 * drawn.halfWidth, "\(got) against \(want)")
        }
        // Vision's roll: the same angle, in radians.
        let request = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(cgImage: try picture.cgImage(), options: [:]).perform([request])
        let roll = try #require(request.results?.first?.roll).doubleValue
        #expect(abs(roll * 180 / .pi - tilt) < 2, "\(roll) rad for a tilt of \(tilt)°")
    }

    // The picture stored on its side: told that orientation 6 is up, the detector finds the face, and reports it in
    // the stored image's coordinates, where the upright box (x, y, w, h) lies at (y, x) with its sides swapped.
    @Test func aSidewaysImageWithItsOrientation() throws {
        let detector = try #require(CIDetector(ofType: CIDetectorTypeFace, context: nil))
        let image = CIImage(cgImage: try Sideways(upright: Tests.single).cgImage())
        let faces = detector.features(in: image, options: [CIDetectorImageOrientation: 6])
        #expect(faces.count == 1)
        let r = Tests.openCVSingle[0]
        let face = try #require(faces.first as? CIFaceFeature)
        Self.expectBounds(face.bounds, CGRect(x: r.1, y: r.0, width: r.3, height: r.2))
        // An upright point (u, v) (from the top left) is stored at (v, 640 − u), which in Core Image's coordinates
        // (y up from the stored picture's bottom, 640 rows) is (v, u): the eyes as the upright picture has them, and
        // the face level in it.
        let drawn = Tests.single.faces[0]
        let upright = (
            left: SIMD2(drawn.centre.x - 0.42 * drawn.halfWidth, drawn.centre.y - 0.105 * drawn.halfWidth),
            right: SIMD2(drawn.centre.x + 0.42 * drawn.halfWidth, drawn.centre.y - 0.105 * drawn.halfWidth)
        )
        for (got, u) in [(face.leftEyePosition, upright.left), (face.rightEyePosition, upright.right)] {
            let want = CGPoint(x: u.y, y: u.x)
            #expect(hypot(got.x - want.x, got.y - want.y) <= 0.1 * drawn.halfWidth, "\(got) against \(want)")
        }
        #expect(face.hasFaceAngle && abs(face.faceAngle) < 4, "\(face.faceAngle)°")
        #expect(detector.features(in: image).isEmpty, "upright, the face lies on its side")
    }
}

/// A picture stored turned a quarter clockwise from upright, as EXIF orientation 6 (`.right`) describes it: stored
/// pixel (x, y) shows upright pixel (width − 1 − y, x).
struct Sideways<Upright: DrawnPicture>: DrawnPicture {
    let upright: Upright
    var width: Int { upright.height }
    var height: Int { upright.width }
    func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) { upright.rgb(upright.width - 1 - y, x) }
}

/// Without the cascade file a face request fails, naming the package, and nothing crashes (spec §22.5 rule 21).
/// These run where the file is absent; `.ci/run` hides it in a private mount namespace and runs them again.
@Suite(.enabled(if: !ExternalTool.faceCascade.isPresent, "OpenCV's face cascade is present"))
struct VNDetectFaceRectanglesRequestAbsenceTests {
    @Test func theRequestFailsNamingThePackage() throws {
        let request = VNDetectFaceRectanglesRequest()
        var white: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_32BGRA, nil, &white) == kCVReturnSuccess)
        let handler = VNImageRequestHandler(cvPixelBuffer: try #require(white), options: [:])
        let error = try #require(#expect(throws: NSError.self) { try handler.perform([request]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.unsupportedRequest.rawValue)
        #expect(error.localizedDescription.contains("opencv-data"))
        #expect(request.results == nil)
    }
}
