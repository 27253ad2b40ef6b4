import Foundation
import Testing
import Vision

/// Measures of contours and points against their closed forms.
@Suite struct VNGeometryUtilsTests {
    /// The dark square of 79 pixels a side (edge-pixel centres 78 pixels apart) in a 400 × 300 picture, and the
    /// frame around it with its hole.
    static func contours() throws -> (square: VNContour, frame: VNContour, hole: VNContour) {
        struct Marks: DrawnPicture {
            let width = 400, height = 300
            func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
                let (dx, dy) = (abs(x - 100), abs(y - 150))
                let (ex, ey) = (abs(x - 300), abs(y - 150))
                let dark = (dx < 40 && dy < 40) || (ex < 60 && ey < 60 && !(ex < 40 && ey < 40))
                return dark ? (20, 20, 20) : (240, 240, 240)
            }
        }
        let request = VNDetectContoursRequest()
        try VNImageRequestHandler(cvPixelBuffer: Marks().pixelBuffer(), options: [:]).perform([request])
        let observation = try #require(request.results?.first)
        let top = observation.topLevelContours.sorted { $0.normalizedPoints[0].x < $1.normalizedPoints[0].x }
        #expect(top.count == 2)
        return (top[0], top[1], try top[1].childContour(at: 0))
    }

    @Test func areaAndPerimeterOfASquareContour() throws {
        let square = try Self.contours().square
        let (w, h) = (78.0 / 400, 78.0 / 300)
        var area = 0.0, perimeter = 0.0
        try VNGeometryUtils.calculateArea(&area, for: square, orientedArea: false)
        try VNGeometryUtils.calculatePerimeter(&perimeter, for: square)
        #expect(abs(area - w * h) < 1e-6, "\(area) vs \(w * h)")
        #expect(abs(perimeter - 2 * (w + h)) < 1e-6, "\(perimeter) vs \(2 * (w + h))")
        var oriented = 0.0
        try VNGeometryUtils.calculateArea(&oriented, for: square, orientedArea: true)
        #expect(abs(abs(oriented) - area) < 1e-9)
    }

    @Test func anOuterContourAndItsHoleTurnOppositeWays() throws {
        let (_, frame, hole) = try Self.contours()
        var outer = 0.0, inner = 0.0
        try VNGeometryUtils.calculateArea(&outer, for: frame, orientedArea: true)
        try VNGeometryUtils.calculateArea(&inner, for: hole, orientedArea: true)
        #expect(outer * inner < 0, "\(outer), \(inner)")
        // The frame's outline: edge-pixel centres 118 apart each way. The hole's border runs through the frame's
        // pixels beside the 79-pixel hole, 80 apart each way, and cuts each inner corner diagonally: 80² − 4 · ½.
        #expect(abs(abs(outer) - (118.0 / 400) * (118.0 / 300)) < 1e-7)
        #expect(abs(abs(inner) - 6398.0 / (400 * 300)) < 1e-7, "\(abs(inner) * 400 * 300)")
    }

    @Test func theBoundingCircleOfASquareIsItsCircumcircle() throws {
        let square = try Self.contours().square
        let circle = try VNGeometryUtils.boundingCircle(for: square)
        // Edge-pixel centres from 61.5 to 139.5 across and 111.5 to 189.5 down.
        let (cx, cy) = (100.5 / 400, 1 - 150.5 / 300)
        #expect(abs(circle.center.x - cx) < 1e-6 && abs(circle.center.y - cy) < 1e-6, "\(circle.center.location)")
        let half = hypot(39.0 / 400, 39.0 / 300)
        #expect(abs(circle.radius - half) < 1e-6 && abs(circle.diameter - 2 * half) < 1e-6)
        #expect(square.normalizedPoints.allSatisfy { circle.containsPoint(VNPoint(x: Double($0.x), y: Double($0.y))) })
    }

    @Test func boundingCirclesOfFewPoints() throws {
        // A right triangle's smallest circle stands on its hypotenuse; an equilateral one's is its circumcircle, of
        // radius side / √3; an obtuse one's stands on its longest side.
        let right = try VNGeometryUtils.boundingCircle(for: [
            VNPoint(x: 0, y: 0), VNPoint(x: 0.4, y: 0), VNPoint(x: 0, y: 0.3),
        ])
        #expect(
            abs(right.radius - 0.25) < 1e-12 && abs(right.center.x - 0.2) < 1e-12 && abs(right.center.y - 0.15) < 1e-12)
        let s = 0.5
        let equilateral = try VNGeometryUtils.boundingCircle(
            for: [
                VNPoint(x: 0.1, y: 0.1), VNPoint(x: 0.1 + s, y: 0.1),
                VNPoint(x: 0.1 + s / 2, y: 0.1 + s * 3.0.squareRoot() / 2),
            ])
        #expect(abs(equilateral.radius - s / 3.0.squareRoot()) < 1e-12)
        let obtuse = try VNGeometryUtils.boundingCircle(for: [
            VNPoint(x: 0, y: 0), VNPoint(x: 1, y: 0), VNPoint(x: 0.5, y: 0.1),
        ])
        #expect(abs(obtuse.radius - 0.5) < 1e-12)
        var points = [simd_float2(0.2, 0.2), simd_float2(0.6, 0.2)]
        let pair = try VNGeometryUtils.boundingCircle(for: &points, pointCount: 2)
        #expect(abs(pair.radius - 0.2) < 1e-6 && abs(pair.center.x - 0.4) < 1e-6)
        #expect(throws: NSError.self) { try VNGeometryUtils.boundingCircle(for: [VNPoint]()) }
    }

    @Test func circlesAndPointsMeasureAsApplesDo() {
        let circle = VNCircle(center: VNPoint(x: 0.5, y: 0.5), diameter: 0.4)
        #expect(circle.radius == 0.2)
        #expect(circle.containsPoint(VNPoint(x: 0.6, y: 0.5)) && !circle.containsPoint(VNPoint(x: 0.75, y: 0.5)))
        #expect(circle.containsPoint(VNPoint(x: 0.71, y: 0.5), inCircumferentialRingOfWidth: 0.04))
        #expect(!circle.containsPoint(VNPoint(x: 0.6, y: 0.5), inCircumferentialRingOfWidth: 0.04))
        #expect(VNPoint.distanceBetweenPoint(VNPoint(x: 0, y: 0), VNPoint(x: 0.3, y: 0.4)) == 0.5)
        #expect(VNCircle.zero.radius == 0 && VNPoint.zero.location == .zero)
    }
}
