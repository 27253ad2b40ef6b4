import Foundation
import Testing
import Vision

/// The coordinate helpers: a scale between normalised and pixel coordinates, the same origin.
@Suite struct VNUtilsTests {
    @Test func rectsScaleToAndFromPixels() {
        let normalised = CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25)
        #expect(VNImageRectForNormalizedRect(normalised, 400, 300) == CGRect(x: 100, y: 150, width: 200, height: 75))
        #expect(VNNormalizedRectForImageRect(CGRect(x: 100, y: 150, width: 200, height: 75), 400, 300) == normalised)
        #expect(VNImagePointForNormalizedPoint(CGPoint(x: 0.5, y: 0.25), 400, 300) == CGPoint(x: 200, y: 75))
        #expect(VNNormalizedIdentityRect == CGRect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test func regionOfInterestRects() {
        // The right half of a 400 × 300 image; its own left half is pixels 200…300 across, all rows.
        let roi = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let inRegion = CGRect(x: 0, y: 0, width: 0.5, height: 1)
        let pixels = CGRect(x: 200, y: 0, width: 100, height: 300)
        #expect(VNImageRectForNormalizedRectUsingRegionOfInterest(inRegion, 400, 300, roi) == pixels)
        #expect(VNNormalizedRectForImageRectUsingRegionOfInterest(pixels, 400, 300, roi) == inRegion)
    }

    @Test func rectangleObservationFromCorners() {
        let o = VNRectangleObservation(
            requestRevision: 1, topLeft: CGPoint(x: 0.2, y: 0.8), topRight: CGPoint(x: 0.7, y: 0.9),
            bottomRight: CGPoint(x: 0.6, y: 0.3), bottomLeft: CGPoint(x: 0.1, y: 0.2))
        // The bounding box is the corners' extent: x 0.1…0.7, y 0.2…0.9.
        #expect(o.boundingBox.origin == CGPoint(x: 0.1, y: 0.2))
        #expect(abs(o.boundingBox.width - 0.6) < 1e-12 && abs(o.boundingBox.height - 0.7) < 1e-12)
        #expect(o.confidence == 1 && o.topRight == CGPoint(x: 0.7, y: 0.9))
        #expect(
            o.uuid
                != VNRectangleObservation(
                    requestRevision: 1, topLeft: .zero, topRight: .zero,
                    bottomRight: .zero, bottomLeft: .zero
                ).uuid)
    }
}
