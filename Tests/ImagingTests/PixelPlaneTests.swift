import Imaging
import Testing

@Suite struct PixelPlaneTests {
    /// The BGRA writer is a byte shuffle: each output pixel holds the plane's blue, green and red at that position
    /// and an opaque alpha, in rows of the buffer's own length, with the plane's padding skipped.
    @Test func bgraHoldsTheSameBytesReordered() {
        var generator = SystemRandomNumberGenerator()
        let (width, height) = (7, 5)
        var plane = PixelPlane<UInt8>(width: width, height: height, channels: 3, rowStride: 3 * width + 4)
        for y in 0..<height {
            for x in 0..<width { for c in 0..<3 { plane[x, y, c] = .random(in: 0...255, using: &generator) } }
        }
        let bytesPerRow = 4 * width + 12
        var out = [UInt8](repeating: 7, count: bytesPerRow * height)
        out.withUnsafeMutableBytes { plane.writeBGRA(to: $0.baseAddress!, bytesPerRow: bytesPerRow) }
        for y in 0..<height {
            for x in 0..<width {
                let o = y * bytesPerRow + 4 * x
                #expect(Array(out[o..<(o + 4)]) == [plane[x, y, 2], plane[x, y, 1], plane[x, y, 0], 255])
            }
            // The row's padding is left alone.
            #expect(out[(y * bytesPerRow + 4 * width)..<((y + 1) * bytesPerRow)].allSatisfy { $0 == 7 })
        }
    }

    @Test func subscriptAddressesInterleavedChannels() {
        var plane = FloatPlane(width: 3, height: 2, channels: 2)
        plane[2, 1, 1] = 5
        #expect(plane[2, 1, 1] == 5)
        #expect(plane.packedElements == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5])
        plane._checkInvariants()
    }

    @Test func paddedRowsKeepPaddingOutOfEquality() {
        var padded = UInt8Image(width: 2, height: 2, channels: 1, rowStride: 4, repeating: 9)
        padded[1, 1] = 3
        let packed = UInt8Image(width: 2, height: 2, channels: 1, elements: [9, 9, 9, 3])
        #expect(padded == packed)
        #expect(padded.withUnsafeBufferPointer { $0.count } == 8)
        #expect(Array(padded.row(1)) == [9, 3])
        padded._checkInvariants()
    }

    @Test func copyOnWriteLeavesTheOriginalAlone() {
        let original = sampleImage()
        var copy = original
        let sharedBefore =
            original.withUnsafeBufferPointer { $0.baseAddress }
            == copy.withUnsafeBufferPointer {
                $0.baseAddress
            }
        #expect(sharedBefore, "a plain copy shares the buffer")
        copy[0, 0, 0] = 200
        #expect(original[0, 0, 0] == 0)
        #expect(copy[0, 0, 0] == 200)
        #expect(original.withUnsafeBufferPointer { $0.baseAddress } != copy.withUnsafeBufferPointer { $0.baseAddress })
    }

    @Test func uniquelyOwnedMutationDoesNotCopy() {
        var plane = FloatPlane(width: 64, height: 64)
        let before = plane.withUnsafeBufferPointer { $0.baseAddress }
        plane[10, 10] = 1
        plane.withMutableRow(3) { row in row[5] = 2 }
        #expect(plane.withUnsafeBufferPointer { $0.baseAddress } == before)
        #expect(plane[5, 3] == 2)
    }

    @Test func normalisedConversionsFollowTheDocumentedScale() {
        let bytes = UInt8Image(width: 3, height: 1, elements: [0, 128, 255])
        let floats = FloatPlane(converting: bytes)
        #expect(floats.packedElements == [0, 128.0 / 255.0, 1.0])

        let wide = UInt16Image(converting: bytes)
        // 255 × 257 = 65535, so 8-bit codes widen exactly by × 257.
        #expect(wide.packedElements == [0, 128 * 257, 65535])
        #expect(UInt8Image(converting: wide) == bytes)

        let outOfRange = FloatPlane(width: 5, height: 1, elements: [-0.5, .nan, 0.5, 1.5, .infinity])
        #expect(UInt8Image(converting: outOfRange).packedElements == [0, 0, 128, 255, 255])
        #expect(UInt16Image(converting: outOfRange).packedElements == [0, 0, 32768, 65535, 65535])
    }

    @Test func halfFloatRoundTripsRepresentableValues() {
        // Each value is exactly representable in IEEE 754 binary16 (10-bit significand).
        let values: [Float] = [0, 1, -2, 0.5, 0.25, 1.5, 2048, 65504, 0.000061035156, 0.333251953125]
        let plane = FloatPlane(width: values.count, height: 1, elements: values)
        let half = HalfPlane(converting: plane)
        #expect(FloatPlane(converting: half) == plane)
        // 1/3 is not representable: it rounds to the nearest half, 0.333251953125 (within 2^-12 relative).
        let third = HalfPlane(converting: FloatPlane(width: 1, height: 1, elements: [1.0 / 3.0]))
        #expect(third[0, 0] == Float16(0.333251953125))
        let overflow = HalfPlane(converting: FloatPlane(width: 1, height: 1, elements: [70000]))
        #expect(overflow[0, 0] == .infinity)
    }

    @Test func channelsSplitAndMerge() {
        let rgb = sampleImage(width: 4, height: 3, channels: 3)
        let red = rgb.channel(0)
        let blue = rgb.channel(2)
        #expect(red.channels == 1)
        #expect(blue[3, 2] == rgb[3, 2, 2])
        let merged = UInt8Image(mergingChannelsOf: [rgb.channel(0), rgb.channel(1), rgb.channel(2)])
        #expect(merged == rgb)
        let rgba = UInt8Image(mergingChannelsOf: [rgb, UInt8Image(width: 4, height: 3, repeating: 255)])
        #expect(rgba.channels == 4)
        #expect(rgba[1, 1, 3] == 255 && rgba[1, 1, 1] == rgb[1, 1, 1])
    }

    @Test func mapKeepsShape() {
        let plane = UInt8Image(width: 2, height: 2, channels: 1, rowStride: 3, repeating: 10)
        let doubled = plane.map { UInt16($0) * 2 }
        #expect(doubled.packedElements == [20, 20, 20, 20])
        #expect(doubled.rowStride == 2)
        doubled._checkInvariants()
    }
}
