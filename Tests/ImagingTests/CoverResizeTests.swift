import Imaging
import Testing

/// The cover resize footage in direct mode follows, against values worked out by hand from its rule: scale to
/// cover, centre, crop; area means when shrinking, bilinear between pixel centres when enlarging.
struct CoverResizeTests {
    static func row(_ values: [UInt8]) -> PixelPlane<UInt8> {
        PixelPlane(width: values.count, height: 1, elements: values)
    }

    @Test func anotherAspectIsScaledToCoverAndCroppedAboutTheCentre() {
        // 4×2 onto 2×2: the scale is max(2/4, 2/2) = 1, so the two middle columns remain.
        let source = PixelPlane<UInt8>(width: 4, height: 2, elements: [10, 20, 30, 40, 50, 60, 70, 80])
        #expect(CoverResize.resized(source, width: 2, height: 2).packedElements == [20, 30, 60, 70])
    }

    @Test func shrinkingAveragesTheAreaEachPixelCovers() {
        // 6 onto 4: each output pixel covers 1.5 source pixels. [0, 1.5) → (0·1 + 30·0.5) / 1.5 = 10;
        // [1.5, 3) → (30·0.5 + 90·1) / 1.5 = 70; [3, 4.5) → (120·1 + 150·0.5) / 1.5 = 130;
        // [4.5, 6) → (150·0.5 + 255·1) / 1.5 = 220.
        let source = Self.row([0, 30, 90, 120, 150, 255])
        let twice = PixelPlane<UInt8>(width: 6, height: 2, elements: source.packedElements + source.packedElements)
        let out = CoverResize.resized(twice, width: 4, height: 1)
        // The height 2 onto 1 needs a scale of 1/2, the width 4/6: the cover scale is 2/3, so the rows are
        // cropped to 1.5 centred, [0.25, 1.75), both identical rows; the columns keep all six.
        #expect(out.packedElements == [10, 70, 130, 220])
    }

    @Test func halvesRoundAwayFromZero() {
        // 4×2 onto 2×1: a scale of 1/2 both ways; means 1.5 and 3.5.
        let source = PixelPlane<UInt8>(width: 4, height: 2, elements: [1, 2, 3, 4, 1, 2, 3, 4])
        #expect(CoverResize.resized(source, width: 2, height: 1).packedElements == [2, 4])
    }

    @Test func enlargingInterpolatesBetweenPixelCentresAndHoldsTheEdges() {
        // 2 onto 4 (scale 2): centres at −0.25, 0.25, 0.75, 1.25 in source pixels; the outer two clamp.
        let out = CoverResize.resized(Self.row([0, 100]), width: 4, height: 2)
        #expect(out.packedElements == [0, 25, 75, 100, 0, 25, 75, 100])
    }

    @Test func depthTakesTheNearestSampleNeverAMean() {
        let source = PixelPlane<UInt16>(width: 4, height: 1, elements: [500, 500, 3000, 3000])
        let tall = PixelPlane<UInt16>(width: 4, height: 2, elements: [500, 500, 3000, 3000, 500, 500, 3000, 3000])
        #expect(CoverResize.nearest(tall, width: 2, height: 1).packedElements == [500, 3000])
        let enlarged = CoverResize.nearest(source, width: 8, height: 2).packedElements
        #expect(Array(enlarged.prefix(8)) == [500, 500, 500, 500, 3000, 3000, 3000, 3000])
    }
}
