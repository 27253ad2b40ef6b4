import Imaging
import Testing

/// The box filter against each output pixel's mean computed here from the footprint's definition: every source
/// pixel whose span in output coordinates overlaps the output pixel counts once, and the mean rounds half up.
struct AreaScaleTests {
    @Test(arguments: [(37, 23, 5, 4, 3), (4032, 3024, 320, 240, 3), (10, 9, 10, 9, 1), (9, 7, 4, 3, 4)])
    func eachPixelIsItsFootprintsMean(_ w: Int, _ h: Int, _ ow: Int, _ oh: Int, _ channels: Int) {
        var state: UInt32 = 12345
        let source = PixelPlane<UInt8>(width: w, height: h, channels: channels) { _, _, _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let scaled = source.areaScaled(width: ow, height: oh)
        #expect(scaled.width == ow && scaled.height == oh && scaled.channels == channels)
        // Spot-check a spread of pixels (all of them for the small cases).
        let step = w * h > 100_000 ? 37 : 1
        var index = 0
        for y in 0..<oh {
            for x in 0..<ow {
                index += 1
                guard index % step == 0 else { continue }
                // Source pixel u covers [u, u + 1); output pixel x covers [x·w/ow, (x + 1)·w/ow).
                let us = (0..<w).filter { u in Double(u + 1) > Double(x * w) / Double(ow) && Double(u) < Double((x + 1) * w) / Double(ow) }
                let vs = (0..<h).filter { v in Double(v + 1) > Double(y * h) / Double(oh) && Double(v) < Double((y + 1) * h) / Double(oh) }
                for c in 0..<channels {
                    var sum = 0
                    for v in vs { for u in us { sum += Int(source[u, v, c]) } }
                    let n = us.count * vs.count
                    #expect(Int(scaled[x, y, c]) == (2 * sum + n) / (2 * n), "(\(x), \(y), \(c))")
                }
            }
        }
    }
}
