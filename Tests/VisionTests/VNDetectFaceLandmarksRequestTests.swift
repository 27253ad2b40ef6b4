import CoreVideo
import ExternalTools
import Foundation
import Testing
import Vision

/// Face landmarks as apps ask for them (spec §22.11 rule 38), on the faces drawn in code that the face rectangle tests
/// use. The reference is the drawing's own layout: each feature's place in half-widths of the face from the centre of
/// its oval (`DrawnFace.shapes`), turned with the face.
@Suite(.needs(.faceCascade, .landmarkModel))
struct VNDetectFaceLandmarksRequestTests {
    /// Where the drawing puts each feature, in half-widths from the face's centre, y down, upright.
    enum Layout {
        static let leftPupil = SIMD2(-0.42, -0.105), rightPupil = SIMD2(0.42, -0.105)
        /// The brows are the upper halves of ellipses centred 0.368 above the centre, 0.074 high: their arc's
        /// points lie about 0.04 above that centre line on average.
        static let leftBrow = SIMD2(-0.42, -0.41), rightBrow = SIMD2(0.42, -0.41)
        /// The mouth is an ellipse centred 0.84 below the centre, 0.316 wide each side.
        static let mouth = SIMD2(0.0, 0.84), mouthHalfWidth = 0.316
        /// The bottom of the face's oval: its centre 0.105 down plus its half-height 1.316.
        static let chin = SIMD2(0.0, 1.421)
    }

    /// The landmarks of the one face in `picture`, found by the request on a BGRA buffer.
    static func landmarks(_ picture: DrawnFace) throws -> (VNFaceObservation, VNFaceLandmarks2D) {
        let request = VNDetectFaceLandmarksRequest()
        #expect(request.revision == VNDetectFaceLandmarksRequestRevision3)
        try VNImageRequestHandler(cvPixelBuffer: try picture.pixelBuffer(), orientation: .up, options: [:])
            .perform([request])
        let results = try #require(request.results)
        #expect(results.count == 1)
        let face = try #require(results.first)
        return (face, try #require(face.landmarks))
    }

    /// A region's points in the drawing's layout: from the image (origin at the bottom left) to pixels from the top
    /// left, then to half-widths from the face's centre, the face's turn undone.
    static func inLayout(_ region: VNFaceLandmarkRegion2D?, of face: DrawnFace.Face, in picture: DrawnFace) throws
        -> [SIMD2<Double>]
    {
        let points = try #require(region).pointsInImage(imageSize: CGSize(width: picture.width, height: picture.height))
        let (c, s) = (cos(face.angle * .pi / 180), sin(face.angle * .pi / 180))
        return points.map { p in
            let d = (SIMD2(Double(p.x), Double(picture.height) - Double(p.y)) - face.centre) / face.halfWidth
            return SIMD2(d.x * c - d.y * s, d.x * s + d.y * c)
        }
    }

    static func mean(_ points: [SIMD2<Double>]) -> SIMD2<Double> { points.reduce(.zero, +) / Double(points.count) }

    static func expectNear(
        _ got: SIMD2<Double>, _ want: SIMD2<Double>, within tolerance: Double, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let d = got - want
        #expect((d * d).sum().squareRoot() < tolerance, "\(what): \(got) vs \(want)", sourceLocation: sourceLocation)
    }

    // A level face: each region has the 68-point layout's count of points, and the pupils, brows, mouth and chin lie
    // where the drawing put them, within a tenth to a seventh of the face's half-width.
    @Test func theLandmarksOfALevelFaceLieOnItsFeatures() throws {
        let picture = VNDetectFaceRectanglesRequestTests.single
        let (face, landmarks) = try Self.landmarks(picture)
        #expect(face.roll != nil && landmarks.confidence == 1)
        let counts = [
            landmarks.allPoints, landmarks.faceContour, landmarks.leftEyebrow, landmarks.rightEyebrow,
            landmarks.noseCrest, landmarks.nose, landmarks.leftEye, landmarks.rightEye, landmarks.outerLips,
            landmarks.innerLips, landmarks.leftPupil, landmarks.rightPupil, landmarks.medianLine,
        ].map { $0?.pointCount ?? 0 }
        #expect(counts == [68, 17, 5, 5, 4, 5, 6, 6, 12, 8, 1, 1, 10])
        #expect(landmarks.faceContour?.pointsClassification == .openPath)
        #expect(landmarks.leftEye?.pointsClassification == .closedPath)
        #expect(landmarks.allPoints?.pointsClassification == .disconnected)

        let drawn = picture.faces[0]
        func layout(_ region: VNFaceLandmarkRegion2D?) throws -> [SIMD2<Double>] {
            try Self.inLayout(region, of: drawn, in: picture)
        }
        Self.expectNear(try layout(landmarks.leftPupil)[0], Layout.leftPupil, within: 0.15, "left pupil")
        Self.expectNear(try layout(landmarks.rightPupil)[0], Layout.rightPupil, within: 0.15, "right pupil")
        Self.expectNear(Self.mean(try layout(landmarks.leftEyebrow)), Layout.leftBrow, within: 0.1, "left brow")
        Self.expectNear(Self.mean(try layout(landmarks.rightEyebrow)), Layout.rightBrow, within: 0.1, "right brow")
        let lips = try layout(landmarks.outerLips)
        Self.expectNear(Self.mean(lips), Layout.mouth, within: 0.1, "mouth")
        // The mouth's corners, the outer lips' first and seventh points.
        #expect(abs(lips[0].x + Layout.mouthHalfWidth) < 0.06 && abs(lips[6].x - Layout.mouthHalfWidth) < 0.06)
        // The chin, the jaw's middle point.
        Self.expectNear(try layout(landmarks.faceContour)[8], Layout.chin, within: 0.1, "chin")
        // The pupil on the picture's left is the left one.
        #expect(try layout(landmarks.leftPupil)[0].x < 0 && layout(landmarks.rightPupil)[0].x > 0)
    }

    // Faces tilted by 12° and −9° (counterclockwise on screen): the landmarks turn with them, so in the upright layout
    // the pupils and the mouth are still where the drawing put them.
    @Test(arguments: [12.0, -9.0])
    func theLandmarksTurnWithATiltedFace(angle: Double) throws {
        let drawn = DrawnFace.Face(centre: SIMD2(320, 250), halfWidth: 80, angle: angle)
        let picture = DrawnFace(width: 640, height: 480, faces: [drawn])
        let (_, landmarks) = try Self.landmarks(picture)
        let left = try Self.inLayout(landmarks.leftPupil, of: drawn, in: picture)[0]
        let right = try Self.inLayout(landmarks.rightPupil, of: drawn, in: picture)[0]
        Self.expectNear(left, Layout.leftPupil, within: 0.15, "left pupil at \(angle)°")
        Self.expectNear(right, Layout.rightPupil, within: 0.15, "right pupil at \(angle)°")
        let lips = Self.mean(try Self.inLayout(landmarks.outerLips, of: drawn, in: picture))
        Self.expectNear(lips, Layout.mouth, within: 0.1, "mouth at \(angle)°")
    }

    // A request given the faces (as apps pass on a rectangles request's results) places landmarks in those boxes and
    // keeps them; with no face given or found, there are no results.
    @Test func givenFacesAreUsedAndNoFaceGivesNoResults() throws {
        let picture = VNDetectFaceRectanglesRequestTests.single
        let buffer = try picture.pixelBuffer()
        let rectangles = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(cvPixelBuffer: buffer, options: [:]).perform([rectangles])
        let found = try #require(rectangles.results)
        let request = VNDetectFaceLandmarksRequest()
        request.inputFaceObservations = found
        try VNImageRequestHandler(cvPixelBuffer: buffer, options: [:]).perform([request])
        let given = try #require(request.results)
        #expect(given.map(\.boundingBox) == found.map(\.boundingBox))
        let (_, alone) = try Self.landmarks(picture)
        #expect(given.first?.landmarks?.allPoints?.normalizedPoints == alone.allPoints?.normalizedPoints)

        request.inputFaceObservations = []
        try VNImageRequestHandler(cvPixelBuffer: buffer, options: [:]).perform([request])
        #expect(request.results?.isEmpty == true)
        let wall = DrawnFace(width: 320, height: 240, faces: [])
        let bare = VNDetectFaceLandmarksRequest()
        try VNImageRequestHandler(cvPixelBuffer: try wall.pixelBuffer(), options: [:]).perform([bare])
        #expect(bare.results?.isEmpty == true)
    }

    // The Swift interface (spec §22.10 rule 35) places the same points as the `VN…` request, and converts them into
    // the image from either corner; given the faces a rectangles request found, it places the same points again.
    @Test func theSwiftInterfacePlacesTheSameLandmarks() async throws {
        let picture = VNDetectFaceRectanglesRequestTests.single
        let buffer = try picture.pixelBuffer()
        let faces = try await DetectFaceLandmarksRequest().perform(on: buffer)
        #expect(faces.count == 1)
        let landmarks = try #require(faces.first?.landmarks)
        let (_, classic) = try Self.landmarks(picture)
        #expect(landmarks.allPoints.points.map(\.cgPoint) == classic.allPoints?.normalizedPoints)
        #expect(landmarks.leftEye.pointsClassification == .closedPath && landmarks.leftEye.points.count == 6)
        let size = CGSize(width: picture.width, height: picture.height)
        let shown = landmarks.leftPupil.pointsInImageCoordinates(size, origin: .upperLeft)
        let classicShown = try #require(classic.leftPupil).pointsInImage(imageSize: size)
        // The `VN…` conversion goes through `vector_float2`, so the two agree to a thousandth of a pixel.
        #expect(
            abs(shown[0].x - classicShown[0].x) < 1e-3 && abs(shown[0].y - (size.height - classicShown[0].y)) < 1e-3)

        var given = DetectFaceLandmarksRequest()
        given.inputFaceObservations = try await DetectFaceRectanglesRequest().perform(on: buffer)
        let placed = try await given.perform(on: buffer)
        #expect(placed.first?.landmarks?.allPoints.points == landmarks.allPoints.points)
    }

    // `VNImagePointForFaceLandmarkPoint` scales a point of the face's box into the image: x = (box x + p x · box width)
    // · image width, likewise y, origin at the bottom left.
    @Test func aLandmarkPointMapsIntoTheImage() {
        let box = CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25)
        let p = VNImagePointForFaceLandmarkPoint(vector_float2(0.5, 0.25), box, 640, 480)
        #expect(abs(p.x - 320) < 1e-9 && abs(p.y - 270) < 1e-9)
    }
}
