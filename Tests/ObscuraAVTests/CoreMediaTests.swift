import Foundation
import ObscuraAV
import Testing

@Suite struct CMTimeTests {
    // CMTime.h: comparison is by value, not representation.
    @Test func equalityIsByValue() {
        #expect(CMTime(value: 1, timescale: 2) == CMTime(value: 2, timescale: 4))
        #expect(CMTime(value: 1, timescale: 30) < CMTime(value: 1, timescale: 24))
        #expect(CMTime.negativeInfinity < CMTime(value: -1_000_000, timescale: 1))
        #expect(CMTime(value: 1_000_000, timescale: 1) < CMTime.positiveInfinity)
        #expect(!CMTime.invalid.isValid && CMTime.zero.isNumeric)
    }

    // CMTimeCompare's documented order: −∞ < every finite time < indefinite < +∞ < invalid.
    @Test func orderIsApplesDocumentedOne() {
        let ordered: [CMTime] = [
            .negativeInfinity, CMTime(value: -5, timescale: 1), .zero, CMTime(value: 7, timescale: 3), .indefinite,
            .positiveInfinity, .invalid,
        ]
        for (i, a) in ordered.enumerated() {
            for (j, b) in ordered.enumerated() {
                #expect(CMTimeCompare(a, b) == (i < j ? -1 : i > j ? 1 : 0), "\(a) against \(b)")
            }
        }
        #expect(ordered.shuffled().sorted() == ordered)
        #expect(CMTimeMinimum(.invalid, .zero) == .zero && CMTimeMaximum(.zero, .invalid) == .invalid)
    }

    // Hashing and equality never trap, as on Apple's platforms, even for a hand-made time flagged valid
    // whose timescale is zero or negative: it sorts and hashes as an invalid time.
    @Test func handMadeTimesNeverTrap() {
        let odd = [
            CMTime(value: 1, timescale: 0, flags: .valid, epoch: 0),
            CMTime(value: 0, timescale: 0, flags: .valid, epoch: 0),
            CMTime(value: -3, timescale: -2, flags: .valid, epoch: 0),
            CMTime(value: .min, timescale: .min, flags: .valid, epoch: 0),
        ]
        var set = Set(odd)
        set.insert(.invalid)
        #expect(set.count == 1)
        for time in odd {
            #expect(time == CMTime.invalid)
            #expect(CMTime.zero < time)
            #expect(time.hashValue == CMTime.invalid.hashValue)
        }
        #expect(Set([CMTime(value: 1, timescale: 2), CMTime(value: 2, timescale: 4)]).count == 1)
    }

    @Test func arithmeticIsExactOnTheCommonTimescale() {
        let sum = CMTime(value: 1, timescale: 30) + CMTime(value: 1, timescale: 24)
        #expect(sum.timescale == 120 && sum.value == 9)  // 4/120 + 5/120
        #expect((CMTime(value: 1, timescale: 2) - CMTime(value: 1, timescale: 3)) == CMTime(value: 1, timescale: 6))
        #expect(CMTimeAdd(.positiveInfinity, CMTime(value: 1, timescale: 1)).isPositiveInfinity)
        #expect(!CMTimeAdd(.positiveInfinity, .negativeInfinity).isValid)
        #expect(CMTimeMultiply(CMTime(value: 1, timescale: 30), multiplier: 30) == CMTime(value: 1, timescale: 1))
        #expect(CMTime(seconds: 0.5, preferredTimescale: 600).value == 300)
        #expect(CMTimeGetSeconds(CMTime(value: 3, timescale: 4)) == 0.75)
        #expect(CMTime.invalid.seconds.isNaN)
    }
}

@Suite struct CVPixelBufferTests {
    // The codes are the big-endian bytes of their four characters (CVPixelBuffer.h).
    @Test(arguments: [
        ("420v", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
        ("420f", kCVPixelFormatType_420YpCbCr8BiPlanarFullRange),
        ("BGRA", kCVPixelFormatType_32BGRA), ("RGhA", kCVPixelFormatType_64RGBAHalf),
        ("L008", kCVPixelFormatType_OneComponent8), ("hdep", kCVPixelFormatType_DepthFloat16),
        ("fdep", kCVPixelFormatType_DepthFloat32), ("hdis", kCVPixelFormatType_DisparityFloat16),
        ("fdis", kCVPixelFormatType_DisparityFloat32),
    ])
    func pixelFormatConstantsAreTheirFourCharacterCodes(_ text: String, _ code: OSType) {
        let bytes = Array(text.utf8)
        #expect(code == OSType(bytes[0]) << 24 | OSType(bytes[1]) << 16 | OSType(bytes[2]) << 8 | OSType(bytes[3]))
    }

    @Test func biPlanarBufferHasLumaAndHalfSizeChroma() throws {
        var out: CVPixelBuffer?
        #expect(
            CVPixelBufferCreate(nil, 641, 481, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, &out)
                == kCVReturnSuccess)
        let buffer = try #require(out)
        #expect(CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 2)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 1) == 321 && CVPixelBufferGetHeightOfPlane(buffer, 1) == 241)
        #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) >= 641)
        #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, 1) >= 642)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 1) != nil)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 2) == nil)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, .readOnly) != kCVReturnSuccess)
    }

    @Test func depthBufferIsOneFloatPlane() throws {
        var out: CVPixelBuffer?
        _ = CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_DisparityFloat32, nil, &out)
        let buffer = try #require(out)
        #expect(!CVPixelBufferIsPlanar(buffer))
        #expect(CVPixelBufferGetBytesPerRow(buffer) >= 320 * 4)
        #expect(CVPixelBufferGetBaseAddress(buffer) != nil)
        var bad: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 4, 4, 0x7878_7878, nil, &bad) == kCVReturnInvalidPixelFormat)
    }
}

@Suite struct SIMDMatrixTests {
    // spec §10: an intrinsic matrix's principal point is in the third column.
    @Test func matricesAreColumnMajor() {
        let k = matrix_float3x3(rows: [SIMD3(1000, 0, 320), SIMD3(0, 1000, 240), SIMD3(0, 0, 1)])
        #expect(k.columns.2 == SIMD3(320, 240, 1))
        #expect(k[0, 0] == 1000 && k[2, 1] == 240)
        #expect(k * SIMD3<Float>(0, 0, 1) == SIMD3(320, 240, 1))
        let e = matrix_float4x3(columns: (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(-10, 0, 0)))
        #expect(e[3].x == -10)
    }
}
