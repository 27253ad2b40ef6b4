import ISP
import Imaging
import Testing

struct ConfidenceMapTests {
    /// The map is one 8-bit channel at 1/8 of the photo per side, with the photo's aspect ratio,
    /// and its values span 0…255.
    @Test func mapFormat() throws {
        let pipeline = try ConstantColorFixture.pipeline(width: 160, height: 120)
        let result = pipeline.capture(scene: ConstantColorFixture.chartScene(illuminant: .constant(1), lux: 50, distance: 0.5))
        let plane = result.confidenceMap.plane
        #expect(plane.channels == 1)
        #expect(plane.width == 20 && plane.height == 15)
        #expect(Double(plane.width) / Double(plane.height) == 160.0 / 120.0)
        let values = plane.packedElements
        #expect(values.contains(255) && values.contains(0))
        #expect((0...1).contains(result.centerWeightedMeanConfidence))
    }

    /// A map confident in the centre scores higher than one confident only at the edges, and
    /// uniform maps score their value.
    @Test func centreWeighting() {
        let w = 32, h = 24
        // A disc holding half the tiles: the two maps have the same unweighted mean, 0.5.
        let radius = (Double(w * h) / 2 / Double.pi).squareRoot()
        let centre = PixelPlane<UInt8>(width: w, height: h) { x, y, _ in
            let dx = Double(x) + 0.5 - 16, dy = Double(y) + 0.5 - 12
            return (dx * dx + dy * dy).squareRoot() < radius ? 255 : 0
        }
        let edge = centre.map { 255 - $0 }
        let a = ConfidenceMap.centerWeightedMean(centre), b = ConfidenceMap.centerWeightedMean(edge)
        #expect(a > b)
        #expect(abs(a + b - 1) < 1e-9)
        #expect(ConfidenceMap.centerWeightedMean(PixelPlane(width: w, height: h, repeating: 255)) == 1)
        #expect(ConfidenceMap.centerWeightedMean(PixelPlane(width: w, height: h, repeating: 0)) == 0)
    }

    /// The SNR ramp of color-science spec §3.4 with our limits 4 and 16.
    @Test func snrRamp() {
        #expect(ConfidenceMap.confidence(snr: 2) == 0)
        #expect(ConfidenceMap.confidence(snr: 10) == 0.5)
        #expect(ConfidenceMap.confidence(snr: 40) == 1)
    }
}
