import Imaging
import Testing

@Suite struct DepthMaskTests {
    @Test func depthDisparityRoundTripKeepsHoles() {
        let depth = FloatPlane(width: 4, height: 2, channels: 1, elements: [0.5, 1, 2, 4, .nan, 0, .infinity, 0.25])
        let disparity = DepthDisparity.disparity(fromDepth: depth)
        let expected: [Float] = [2, 1, 0.5, 0.25, .nan, 0, 0, 4]
        for (got, want) in zip(disparity.packedElements, expected) {
            #expect(got == want || (got.isNaN && want.isNaN), "\(got) vs \(want)")
        }
        let back = DepthDisparity.depth(fromDisparity: disparity)
        #expect(back[0, 0] == 0.5 && back[3, 0] == 4 && back[3, 1] == 0.25)
        #expect(back[0, 1].isNaN && back[1, 1] == 0)
        // Infinity went to disparity 0, a hole; it comes back as a hole (0), not as infinity.
        #expect(back[2, 1] == 0)
        #expect(DepthDisparity.reciprocal(-2).isNaN)
    }

    @Test func resampleSkipsHoles() {
        // 2 × 1 → 4 × 1 with centres aligned: samples at −0.25, 0.25, 0.75, 1.25 → clamped 0, 0.25, 0.75, 1.
        let map = FloatPlane(width: 2, height: 1, channels: 1, elements: [1, 3])
        #expect(map.resizedSkippingHoles(width: 4, height: 1).packedElements == [1, 1.5, 2.5, 3])
        // A hole neighbour does not pull values toward zero: the valid tap alone decides.
        let holey = FloatPlane(width: 2, height: 1, channels: 1, elements: [2, 0])
        #expect(holey.resizedSkippingHoles(width: 4, height: 1).packedElements.prefix(3) == [2, 2, 2])
        #expect(holey.resizedSkippingHoles(width: 4, height: 1)[3, 0].isNaN)
    }

    @Test func blendFloodsTheFarBackground() {
        // Disparity: near (2.0) on the left half, far (0.5) on the right, one hole.
        let disparity = FloatPlane(width: 4, height: 1, channels: 1, elements: [2, 2, 0.5, .nan])
        let photo = UInt8Image(width: 4, height: 1, channels: 3, repeating: 200)
        let out = BackgroundBlend().apply(to: photo, disparity: disparity)
        #expect(out.packedElements == [200, 200, 200, 200, 200, 200, 0, 0, 255, 0, 0, 255])
        let mask = BackgroundBlend(threshold: 0.5).mask(disparity: disparity, width: 4, height: 1)
        #expect(mask.packedElements == [1, 1, 0, 0])
    }
}
