import Imaging
import Testing

/// Each vector step against the scalar rule its documentation states, lane by lane. The same tests run on the
/// vector build and on the `OBSCURA_PORTABLE` build, so both bodies answer to one written rule.
@Suite struct LanesTests {
    /// Bit patterns, so that −0 and NaN payloads count.
    func bits(_ x: SIMD4<Float>) -> [UInt32] { (0..<4).map { x[$0].bitPattern } }

    @Test func minimumAndMaximumTakeTheSecondOperandOnNaNAndTies() {
        let x = SIMD4<Float>(.nan, 1, -0.0, 3)
        let y = SIMD4<Float>(0, .nan, 0.0, 2)
        // x > y ? x : y and x < y ? x : y, as IEEE comparisons: false for NaN and for −0 against +0.
        #expect(bits(Lanes.maximum(x, y)) == bits(SIMD4(0, .nan, 0.0, 3)))
        #expect(bits(Lanes.minimum(x, y)) == bits(SIMD4(0, .nan, 0.0, 2)))
        #expect(bits(Lanes.maximum(x, 0.0)) == bits(SIMD4(0, 1, 0.0, 3)))
        #expect(bits(Lanes.minimum(x, 2)) == bits(SIMD4(2, 1, -0.0, 2)))
    }

    @Test func comparisonsSetOneBitPerLane() {
        let x = SIMD4<Float>(1, 2, 3, .nan)
        let y = SIMD4<Float>(2, 2, 2, 2)
        #expect(Lanes.greaterOrEqual(x, y) == 0b0110)
        #expect(Lanes.greaterThan(x, y) == 0b0100)
        #expect(Lanes.lessThan(x, 2) == 0b0001)
    }

    @Test func squareRootIsCorrectlyRounded() {
        let x = SIMD4<Float>(2, 0, .leastNormalMagnitude / 4, 16_777_215)
        let r = Lanes.squareRoot(x)
        for i in 0..<4 { #expect(r[i] == x[i].squareRoot()) }
    }

    /// To the nearest integer with ties away from zero, the sign of a zero kept, as `rounded()` defines it (IEEE
    /// roundToIntegralTiesToAway): ties, the doubles either side of them, the largest double under ½, values near
    /// and beyond 2⁵², zeros, infinities, NaN, and a sweep of magnitudes from 10⁻³⁰⁰ to 10³⁰⁰.
    @Test func roundingTakesTiesAwayFromZero() {
        #expect(Lanes.rounded(2.5) == 3)
        #expect(Lanes.rounded(-2.5) == -3)
        #expect(Lanes.rounded(0.49999999999999994) == 0)
        #expect(Lanes.rounded(-0.3).sign == .minus && Lanes.rounded(-0.3) == 0)
        #expect(Lanes.rounded(.nan).isNaN)
        var probes: [Double] = [0, -0.0, .infinity, -.infinity, 0x1p52, -0x1p52, 0x1p52 - 0.5, 0x1p53 + 2, 1e300]
        for k in -1000...1000 {
            let tie = Double(k) + 0.5
            probes += [tie, tie.nextUp, tie.nextDown, Double(k), Double(k).nextUp, Double(k).nextDown]
        }
        var x = 1e-300
        while x < 1e300 {
            probes += [x, -x, x * 1.37, -x * 0.73]
            x *= 3.1
        }
        for v in probes {
            #expect(Lanes.rounded(v).bitPattern == v.rounded().bitPattern, "\(v)")
        }
    }

    /// Four lanes stored as half patterns are the scalar patterns, lane by lane: every 4099th Float bit pattern
    /// (all exponents, both signs, NaN and infinities among them), the bounds 2⁻¹⁴ and 65504 and their neighbours,
    /// and values whose rounding carries into the exponent. The scalar step is itself held to `Float16` by
    /// `PackedFactorsTests`.
    @Test func halfPatternsOfFourLanesAreTheScalarOnes() {
        var probes: [Float] = [0, -0.0, .infinity, -.infinity, .nan, 0x1p-14, 65504, 65520, 0x1.ffep0, 0x1.fffp0]
        probes += [Float(0x1p-14).nextDown, Float(0x1p-14).nextUp, Float(65504).nextUp, Float(65504).nextDown]
        for bits in stride(from: UInt32(0), to: UInt32.max - 4099, by: 4099) { probes.append(Float(bitPattern: bits)) }
        while probes.count % 4 != 0 { probes.append(1) }
        var wrong = 0
        var out = [UInt16](repeating: 0xaaaa, count: 4)
        for i in stride(from: 0, to: probes.count, by: 4) {
            let v = SIMD4(probes[i], probes[i + 1], probes[i + 2], probes[i + 3])
            Lanes.storeHalfPatterns(v, to: &out)
            for k in 0..<4 where out[k] != Lanes.halfPattern(probes[i + k]) { wrong += 1 }
        }
        #expect(probes.count > 1_000_000)
        #expect(wrong == 0)
    }

    @Test func bitwiseOrSetsTheClipLane() {
        let dn = SIMD4<Float>(1023, 64, 5, 0)
        #expect(Lanes.bitwiseOr(dn, SIMD4(0, 0, 0, 1)) == SIMD4(1023, 64, 5, 1))
    }

    @Test func threeWordsReadsThreeValuesAndZeroesTheFourth() {
        let words: [UInt16] = [65535, 1, 2, 999]
        let v = words.withUnsafeBytes { Lanes.threeWords($0.baseAddress!) }
        #expect(v == SIMD4(65535, 1, 2, 0))
    }

    @Test func shufflesPlaceEachLane() {
        let p0 = SIMD4<Float>(1, 2, 3, 4), p1 = SIMD4<Float>(5, 6, 7, 8)
        let p2 = SIMD4<Float>(9, 10, 11, 12), p3 = SIMD4<Float>(13, 14, 15, 16)
        let (r, g, b) = Lanes.transposed3(p0, p1, p2, p3)
        #expect(r == SIMD4(1, 5, 9, 13))
        #expect(g == SIMD4(2, 6, 10, 14))
        #expect(b == SIMD4(3, 7, 11, 15))
        #expect(Lanes.interleavedLow(p0, p1) == SIMD4(1, 5, 2, 6))
        #expect(Lanes.highHalves(p0, p1) == SIMD4(3, 4, 7, 8))
    }

    @Test func conversionsRoundAsTheScalarOnes() {
        #expect(Lanes.widenedLow(SIMD4(0.1, -3, 7, 8)) == SIMD2(Double(Float(0.1)), -3))
        let narrow = Lanes.narrowed(SIMD2(0.1, 1e40))
        #expect(narrow.x == Float(0.1))
        #expect(narrow.y == .infinity)
        #expect(Lanes.truncated(2.99) == 2)
        #expect(Lanes.truncated(65535.5) == 65535)
    }

    @Test func exponentScaleIsTwoToTheRoundedExponent() {
        // 1.5·2⁵² + k holds k in its low bits; the step must give exactly 2ᵏ.
        for k in [-1000, -5, 0, 1, 10, 1000] {
            let shifted = Double(k) + 6_755_399_441_055_744.0
            let scale = Lanes.exponentScale(SIMD2(shifted, shifted))
            let expected = Double(sign: .plus, exponent: k, significand: 1)
            #expect(scale == SIMD2(expected, expected))
        }
    }

    @Test func bothBetweenIsStrictInBothLanes() {
        #expect(Lanes.bothBetween(SIMD2(-1021.5, 1022.9), -1022, 1023))
        #expect(!Lanes.bothBetween(SIMD2(-1022, 0), -1022, 1023))
        #expect(!Lanes.bothBetween(SIMD2(0, 1023), -1022, 1023))
    }

    @Test func storesWriteThreeLanes() {
        var words = [UInt16](repeating: 7, count: 4)
        words.withUnsafeMutableBufferPointer {
            Lanes.storeTruncated(SIMD4(0.9, 65535.5, 1024.2, 9), to: $0.baseAddress!)
        }
        #expect(words == [0, 65535, 1024, 7])
        var floats = [Float](repeating: 7, count: 4)
        floats.withUnsafeMutableBufferPointer { Lanes.store3(SIMD4(1, -2, 3.5, 9), to: $0.baseAddress!) }
        #expect(floats == [1, -2, 3.5, 7])
    }

    @Test func addTwelveWordsAddsInOrder() {
        let words: [UInt16] = (0..<12).map { UInt16(60_000 + $0) }
        var s0 = SIMD4<UInt32>(1, 1, 1, 1), s1 = SIMD4<UInt32>.zero, s2 = SIMD4<UInt32>.zero
        words.withUnsafeBytes { Lanes.addTwelveWords($0.baseAddress!, to: &s0, &s1, &s2) }
        #expect(s0 == SIMD4(60_001, 60_002, 60_003, 60_004))
        #expect(s1 == SIMD4(60_004, 60_005, 60_006, 60_007))
        #expect(s2 == SIMD4(60_008, 60_009, 60_010, 60_011))
    }

    @Test func integerStepsFollowTheirScalarRules() {
        // A logical shift fills with zeros, also for a negative pattern.
        #expect(Lanes.shiftedRight(SIMD4(-1, 256, 0x1234_5678, 1), by: 16) == SIMD4(0xFFFF, 0, 0x1234, 0))
        // A signed comparison: −1 is below 0.
        #expect(Lanes.greaterThan(SIMD4(-1, 5, 5, 0), SIMD4(0, 4, 5, -1)) == SIMD4(0, -1, 0, -1))
        #expect(Lanes.packedBytes(SIMD4(1, 2, 255, 0)) == 0x00FF_0201)
    }

    @Test func bilinearRGBIsTheRoundedWeightedSum() {
        // Two rows of two RGB taps, followed by bytes the step must not use; weights summing to 16384.
        let rows: [[UInt8]] = [[255, 0, 17, 3, 254, 128, 99, 99], [1, 255, 200, 250, 7, 64, 99, 99]]
        let cases: [(UInt32, UInt32, UInt32, UInt32)] = [
            (16384, 0, 0, 0), (0, 0, 0, 16384), (4096, 4096, 4096, 4096), (9001, 3, 7000, 380), (1, 2, 3, 16378),
        ]
        for (n, (w00, w10, w01, w11)) in cases.enumerated() {
            // The pixel alone, and paired with the next case's weights on the rows swapped (the two-pixel step).
            let (x10, x01, x11, x00) = cases[(n + 1) % cases.count]
            let (got, pair) = rows[0].withUnsafeBytes { upper in
                rows[1].withUnsafeBytes { lower in
                    let p0 = upper.baseAddress!, p1 = lower.baseAddress!
                    let alone = Lanes.bilinearRGB(p0, p1, upper: w00 | w10 << 16, lower: w01 | w11 << 16)
                    let pair = Lanes.bilinearRGB(
                        (p0, p1, w00 | w10 << 16, w01 | w11 << 16), (p1, p0, x00 | x10 << 16, x01 | x11 << 16))
                    return (alone, pair)
                }
            }
            func expected(_ c: Int, _ top: [UInt8], _ bottom: [UInt8], _ w: [UInt32]) -> UInt32 {
                let sum = UInt32(top[c]) * w[0] + UInt32(top[c + 3]) * w[1] + UInt32(bottom[c]) * w[2]
                    + UInt32(bottom[c + 3]) * w[3]
                return (sum + 8192) >> 14
            }
            for c in 0..<3 {
                let first = expected(c, rows[0], rows[1], [w00, w10, w01, w11])
                let second = expected(c, rows[1], rows[0], [x00, x10, x01, x11])
                let shift = UInt32(8 * c)
                #expect((got >> shift) & 0xFF == first, "channel \(c) of \([w00, w10, w01, w11])")
                #expect(UInt32(truncatingIfNeeded: pair >> UInt64(shift)) & 0xFF == first)
                #expect(UInt32(truncatingIfNeeded: pair >> UInt64(32 + shift)) & 0xFF == second)
            }
        }
    }

    @Test func lowWordsAreThirtyTwoBitsFromTheShift() {
        let a = SIMD2<Int64>(0x1234_5678_9ABC_DEF0, -1), b = SIMD2<Int64>(1 << 40, -(1 << 40) + 5)
        // Bits 22 ..< 54 of each lane (two's complement), written out by hand.
        let words = Lanes.lowWords(a, b, shiftedRight: 22)
        #expect(words == SIMD4(Int32(bitPattern: 0xD159_E26A), -1, 1 << 18, -(1 << 18)))
        #expect(Lanes.lowWords(a, b, shiftedRight: 0) == SIMD4(Int32(bitPattern: 0x9ABC_DEF0), -1, 0, 5))
    }

    @Test func multiplyAddPairsMultipliesSignedHalves() {
        // Lanes as (low, high) 16-bit halves: (3, 2)·(5, 7) = 29; (−1, 0)·(100, 9) = −100; (32767, −32768) squared
        // = 32767² + 32768²; (1023, 0)·(1023, 0) = 1023².
        let a = SIMD4<Int32>(3 | 2 << 16, 0xFFFF, 32767 | -32768 << 16, 1023)
        let b = SIMD4<Int32>(5 | 7 << 16, 100 | 9 << 16, 32767 | -32768 << 16, 1023)
        #expect(Lanes.multiplyAddPairs(a, b) == SIMD4<Int32>(29, -100, 32767 * 32767 + 32768 * 32768, 1023 * 1023))
    }
}
