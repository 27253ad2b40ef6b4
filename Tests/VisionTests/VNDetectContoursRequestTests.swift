import CoreVideo
import Foundation
import Testing
import Vision

/// Ink on paper: dark square frames (a square with a square hole) and dots on white, each given by its outer and
/// inner half-widths in pixels around a centre (an inner half-width of 0 is a solid square).
private struct Ink: DrawnPicture {
    let width: Int
    let height: Int
    var marks: [(x: Int, y: Int, outer: Int, inner: Int)]

    func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        for m in marks {
            let (dx, dy) = (abs(x - m.x), abs(y - m.y))
            let inOuter = dx < m.outer && dy < m.outer
            let inInner = m.inner > 0 && dx < m.inner && dy < m.inner
            if inOuter && !inInner { return (30, 30, 35) }
        }
        return (235, 232, 225)
    }
}

@Suite struct VNDetectContoursRequestTests {
    static func observation(_ request: VNDetectContoursRequest, on picture: some DrawnPicture) throws
        -> VNContoursObservation
    {
        try VNImageRequestHandler(cvPixelBuffer: picture.pixelBuffer(), options: [:]).perform([request])
        let results = try #require(request.results)
        #expect(results.count == 1)
        return try #require(results.first)
    }

    /// The extent of a contour's points.
    static func extent(_ contour: VNContour) -> CGRect {
        let xs = contour.normalizedPoints.map { CGFloat($0.x) }, ys = contour.normalizedPoints.map { CGFloat($0.y) }
        let (x0, x1, y0, y1) = (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    @Test func requestsStartAsApplesDo() {
        let request = VNDetectContoursRequest()
        #expect(request.contrastAdjustment == 2)
        #expect(request.contrastPivot == 0.5)
        #expect(request.detectsDarkOnLight)
        #expect(request.maximumImageDimension == 512)
        #expect(request.revision == VNDetectContourRequestRevision1)
        #expect(VNDetectContoursRequest.supportedRevisions == IndexSet(integer: 1))
        #expect(request.results == nil)
    }

    @Test func aDarkSquareIsOneContourRoundItsEdgePixels() throws {
        // A solid square 79 pixels a side (x 161…239, y 111…189 of 400 × 300): its contour runs through its edge
        // pixels' centres, half a pixel inside its edges.
        let ink = Ink(width: 400, height: 300, marks: [(x: 200, y: 150, outer: 40, inner: 0)])
        let observation = try Self.observation(VNDetectContoursRequest(), on: ink)
        #expect(observation.contourCount == 1 && observation.topLevelContourCount == 1)
        let square = try #require(observation.topLevelContours.first)
        #expect(square.indexPath == IndexPath(index: 0) && square.childContourCount == 0)
        let extent = Self.extent(square)
        let expected = CGRect(x: 161.5 / 400, y: 1 - 189.5 / 300, width: 78 / 400.0, height: 78 / 300.0)
        #expect(abs(extent.minX - expected.minX) < 1e-6 && abs(extent.maxX - expected.maxX) < 1e-6, "\(extent)")
        #expect(abs(extent.minY - expected.minY) < 1e-6 && abs(extent.maxY - expected.maxY) < 1e-6, "\(extent)")
        // Each of its 4 × 78 edge pixels once.
        #expect(square.pointCount == 4 * 78)
        #expect(abs(square.aspectRatio - 400.0 / 300) < 1e-6)
        // Simplified, a square keeps its four corners.
        let corners = try square.polygonApproximation(epsilon: 0.005)
        #expect(corners.pointCount == 4, "\(corners.normalizedPoints)")
        for corner in corners.normalizedPoints {
            let nearest = [
                (expected.minX, expected.minY), (expected.maxX, expected.minY), (expected.maxX, expected.maxY),
                (expected.minX, expected.maxY),
            ].map { hypot(Double($0.0) - Double(corner.x), Double($0.1) - Double(corner.y)) }.min()!
            #expect(nearest < 1e-6, "\(corner)")
        }
        #expect(throws: NSError.self) { try square.polygonApproximation(epsilon: -1) }
    }

    @Test func aFrameEnclosesItsHoleWhichEnclosesADot() throws {
        // A square frame (outer half-width 60, inner 40) with a dot (half-width 10) in its hole, and a dot apart.
        let ink = Ink(
            width: 400, height: 300,
            marks: [
                (x: 150, y: 150, outer: 60, inner: 40), (x: 150, y: 150, outer: 10, inner: 0),
                (x: 330, y: 150, outer: 15, inner: 0),
            ])
        let observation = try Self.observation(VNDetectContoursRequest(), on: ink)
        #expect(observation.contourCount == 4 && observation.topLevelContourCount == 2)
        let frame = try observation.contour(at: IndexPath(indexes: [0]))
        #expect(frame.childContourCount == 1)
        let hole = try frame.childContour(at: 0)
        #expect(hole.indexPath == IndexPath(indexes: [0, 0]) && hole.childContourCount == 1)
        let dot = try observation.contour(at: IndexPath(indexes: [0, 0, 0]))
        #expect(dot.childContourCount == 0)
        // The hole lies inside the frame's outline, the dot inside the hole's.
        #expect(Self.extent(frame).contains(Self.extent(hole)) && Self.extent(hole).contains(Self.extent(dot)))
        let apart = try observation.contour(at: IndexPath(indexes: [1]))
        #expect(Self.extent(apart).midX > 0.75)
        // Every contour by flat index, and the index paths they have, name the same contours.
        let all = try (0..<observation.contourCount).map { try observation.contour(at: $0) }
        #expect(Set(all.map(\.indexPath)) == [[0], [0, 0], [0, 0, 0], [1]])
        #expect(throws: NSError.self) { try observation.contour(at: 4) }
        #expect(throws: NSError.self) { try observation.contour(at: IndexPath(indexes: [2])) }
        #expect(throws: NSError.self) { try dot.childContour(at: 0) }
    }

    @Test func lightOnDarkTracesTheLightRegions() throws {
        // With `detectsDarkOnLight` false, the white paper is what is traced: one region running round the
        // picture's edge, with the dark square as its hole.
        let ink = Ink(width: 400, height: 300, marks: [(x: 200, y: 150, outer: 40, inner: 0)])
        let request = VNDetectContoursRequest()
        request.detectsDarkOnLight = false
        let observation = try Self.observation(request, on: ink)
        #expect(observation.contourCount == 2 && observation.topLevelContourCount == 1)
        let paper = try #require(observation.topLevelContours.first)
        #expect(Self.extent(paper).width > 0.99 && paper.childContourCount == 1)
    }

    @Test func aSmallerWorkingCopyGivesFewerPointsOnTheSameOutline() throws {
        let ink = Ink(width: 640, height: 480, marks: [(x: 320, y: 240, outer: 100, inner: 0)])
        let request = VNDetectContoursRequest()
        request.maximumImageDimension = 64
        let square = try #require(try Self.observation(request, on: ink).topLevelContours.first)
        // A factor of 10: the square is 20 working pixels a side, 4 × 19 edge pixels, within a working pixel of
        // the drawn outline.
        #expect(square.pointCount == 76)
        let extent = Self.extent(square)
        #expect(abs(extent.midX - 0.5) < 1.0 / 64 && abs(extent.width - 200.0 / 640) < 2.0 / 64, "\(extent)")
    }

    @Test func contoursAreNormalisedToTheRegionOfInterest() throws {
        // The square fills the middle of the right half: in the region, its centre is at x 0.5.
        let ink = Ink(width: 400, height: 300, marks: [(x: 300, y: 150, outer: 30, inner: 0)])
        let request = VNDetectContoursRequest()
        request.regionOfInterest = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let observation = try Self.observation(request, on: ink)
        let square = try #require(observation.topLevelContours.first)
        #expect(abs(Self.extent(square).midX - 0.5) < 0.01 && abs(square.aspectRatio - 200.0 / 300) < 1e-6)
        // The observation's path holds every contour; its bounds are the square's.
        let bounds = observation.normalizedPath.boundingBox
        #expect(abs(bounds.width - Self.extent(square).width) < 1e-6)
        #expect(square.normalizedPath.contains(CGPoint(x: 0.5, y: 0.5)))
    }

    @Test func thePivotMovesTheSplit() throws {
        // A mid-grey square (luma about 0.45) on white: at the default pivot 0.5 it is dark; with the pivot at 0.3 and
        // the contrast doubled, the split falls at 0.4 and the square is light.
        struct Grey: DrawnPicture {
            let width = 200, height = 200
            func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
                abs(x - 100) < 30 && abs(y - 100) < 30 ? (115, 115, 115) : (240, 240, 240)
            }
        }
        let request = VNDetectContoursRequest()
        #expect(try Self.observation(request, on: Grey()).contourCount == 1)
        request.contrastPivot = 0.3
        #expect(try Self.observation(request, on: Grey()).contourCount == 0)
    }
}
