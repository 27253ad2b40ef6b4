import Imaging
import Testing

@Suite struct ContrastStretchTests {
    /// 100 pixels: one 0, 48 × 50, one 100, 49 × 150, one 255. With 1 % clipping k = 1, so the levels are the
    /// 2nd smallest (50) and 2nd largest (150) values: 50 → 0, 100 → 127.5 → 128, 150 → 255.
    @Test func handComputedHistogram() {
        let values: [UInt8] = [0] + Array(repeating: 50, count: 48) + [100] + Array(repeating: 150, count: 49) + [255]
        let image = UInt8Image(width: 10, height: 10, channels: 1, elements: values)
        let stretch = ContrastStretch()
        #expect(stretch.levels(of: image) == [Float(50) / 255...Float(150) / 255])
        let out = stretch.apply(to: image)
        let map: [UInt8: UInt8] = [0: 0, 50: 0, 100: 128, 150: 255, 255: 255]
        #expect(out.packedElements == values.map { map[$0] ?? 1 })
        // No clipping: minimum and maximum are 0 and 255, the identity.
        #expect(ContrastStretch(clip: 0).apply(to: image) == image)
    }

    @Test func channelsAreStretchedIndependentlyAndAlphaIsKept() {
        // Red spans 20…220, green 100…120, blue is flat; alpha varies and must pass through.
        let image = UInt8Image(width: 11, height: 1, channels: 4) { x, _, c in
            switch c {
            case 0: UInt8(20 + 20 * x)
            case 1: UInt8(100 + 2 * x)
            case 2: 77
            default: UInt8(x * 10)
            }
        }
        let out = ContrastStretch(clip: 0).apply(to: image)
        #expect(out[0, 0, 0] == 0 && out[10, 0, 0] == 255 && out[5, 0, 0] == 128)  // (120−20)/200·255 = 127.5
        #expect(out[0, 0, 1] == 0 && out[10, 0, 1] == 255 && out[4, 0, 1] == 102)  // 8/20 · 255 = 102
        #expect((0..<11).allSatisfy { out[$0, 0, 2] == 77 && out[$0, 0, 3] == UInt8($0 * 10) })
    }

    @Test func floatPlaneMatchesIntegerDefinition() {
        let values: [Float] = (0..<200).map { Float($0) / 199 }
        let plane = FloatPlane(width: 20, height: 10, channels: 1, elements: values)
        // k = ⌊0.05 · 200⌋ = 10: levels are values[10] and values[189].
        let levels = ContrastStretch(clip: 0.05).levels(of: plane)
        #expect(levels == [values[10]...values[189]])
        let out = ContrastStretch(clip: 0.05).apply(to: plane)
        #expect(out[0, 0] == 0 && out[19, 9] == 1)
        #expect(abs(out[10, 5] - (values[110] - values[10]) / (values[189] - values[10])) < 1e-6)
    }

    @Test func floatLevelsAreTheOrderStatisticsOfASort() {
        // Negative, positive, repeated and non-finite samples; the levels are the k-th values of the sorted finite
        // samples, here found by sorting in the test. 73 000 samples, enough for the radix selection to run.
        var generator = SplitMix64(state: 19)
        let width = 292, height = 250
        var values: [Float] = []
        for n in 0..<(width * height * 2) {
            let r = generator.next()
            switch n % 97 {
            case 0: values.append(.nan)
            case 1: values.append(n % 2 == 0 ? .infinity : -.infinity)
            case 2...9: values.append(Float(r % 7) - 3)  // repeats straddling zero
            default: values.append(Float(Int64(bitPattern: r) >> 40) * 1e-4)
            }
        }
        let plane = FloatPlane(width: width, height: height, channels: 2, elements: values)
        for clip in [0.0, 0.01, 0.137, 0.49] {
            let stretch = ContrastStretch(lowClip: clip, highClip: clip / 2)
            let finite = stride(from: 0, to: values.count, by: 2).map { values[$0] }.filter(\.isFinite).sorted()
            let k = Int(clip * Double(finite.count)), kHigh = Int(clip / 2 * Double(finite.count))
            #expect(stretch.levels(of: plane) == [finite[k]...finite[finite.count - 1 - kHigh]], "clip \(clip)")
        }
    }

    @Test func sameResultForAnyThreadCount() {
        var generator = SplitMix64(state: 3)
        let image = UInt8Image(width: 131, height: 203, channels: 3) { _, _, _ in
            UInt8(truncatingIfNeeded: generator.next() >> 7) / 2 + 40
        }
        let one = ContrastStretch().apply(to: image, threads: 1)
        #expect(ContrastStretch().apply(to: image, threads: 5) == one)
    }

    /// Padded rows (a stride longer than the pixels) give the same picture as packed ones: the output is written
    /// from the source's rows, not copied with its layout.
    @Test func paddedRowsGiveThePackedResult() {
        var generator = SplitMix64(state: 5)
        let packed = UInt8Image(width: 37, height: 23, channels: 3) { _, _, _ in
            UInt8(truncatingIfNeeded: generator.next() >> 9)
        }
        var padded = UInt8Image(width: 37, height: 23, channels: 3, rowStride: 37 * 3 + 5, repeating: 255)
        for y in 0..<23 {
            for x in 0..<37 {
                for c in 0..<3 { padded[x, y, c] = packed[x, y, c] }
            }
        }
        let stretch = ContrastStretch(clip: 0.05)
        let expected = stretch.apply(to: packed)
        #expect(stretch.apply(to: padded) == expected)
        // The stretch did something, so the comparison can fail.
        #expect(expected != packed)
    }
}
