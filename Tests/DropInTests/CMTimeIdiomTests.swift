import CoreMedia
import Foundation
import Testing

// CMTime code as iOS apps write it, with CoreMedia's documented results at the edges (spec §18.1).

extension DropIn {
    @Suite struct CMTimeIdiomTests {
        @Test func secondsThatOverflowHalveTheTimescale() {
            // 1e17 s × 600 exceeds Int64; halving 600 → 300 → 150 → 75 brings 7.5e18 within range (spec §18.1 [D]).
            let time = CMTime(seconds: 1e17, preferredTimescale: 600)
            #expect(time.isValid && time.isNumeric)
            #expect(time.timescale == 75)
            #expect(time.value == 7_500_000_000_000_000_000)
            #expect(!time.hasBeenRounded)
        }

        @Test func secondsBeyondEveryTimescaleBecomeInfinite() {
            #expect(CMTime(seconds: 1e300, preferredTimescale: 600).isPositiveInfinity)
            #expect(CMTimeMakeWithSeconds(-1e300, preferredTimescale: 1).isNegativeInfinity)
        }

        @Test func nanAndInfiniteSeconds() {
            #expect(!CMTime(seconds: .nan, preferredTimescale: 600).isValid)
            #expect(CMTime(seconds: .infinity, preferredTimescale: 600).isPositiveInfinity)
            #expect(CMTime(seconds: -.infinity, preferredTimescale: 600).isNegativeInfinity)
        }

        @Test func nonPositiveTimescaleIsInvalid() {
            // spec §18.1 [D]: the preferred timescale must be positive.
            #expect(!CMTime(seconds: 1, preferredTimescale: 0).isValid)
            #expect(!CMTimeMakeWithSeconds(1, preferredTimescale: -600).isValid)
            #expect(!CMTimeMake(value: 1, timescale: 0).isValid)
        }

        @Test func inexactSecondsAreFlaggedRounded() {
            // spec §18.1 [D]: rounded when the value, read back as seconds, is not the seconds given.
            let time = CMTimeMakeWithSeconds(0.1234, preferredTimescale: 600)
            #expect(time.value == 74 && time.hasBeenRounded)
            #expect(!CMTimeMakeWithSeconds(0.5, preferredTimescale: 600).hasBeenRounded)
        }

        @Test func addOnTheLeastCommonTimescale() {
            let sum = CMTimeAdd(CMTimeMake(value: 1, timescale: 3), CMTimeMake(value: 1, timescale: 4))
            #expect(sum.value == 7 && sum.timescale == 12 && !sum.hasBeenRounded)
            let difference = CMTimeMake(value: 3, timescale: 4) - CMTimeMake(value: 1, timescale: 4)
            #expect(difference == CMTimeMake(value: 1, timescale: 2))
        }

        @Test func addAboveTheMaximumTimescaleRoundsOntoIt() {
            // lcm(65536, 65537) = 4 295 032 832 > kCMTimeMaxTimescale: the sum lands on 0x7fffffff, rounded.
            let sum = CMTimeAdd(CMTimeMake(value: 1, timescale: 65536), CMTimeMake(value: 1, timescale: 65537))
            #expect(Int(sum.timescale) == kCMTimeMaxTimescale)
            #expect(sum.hasBeenRounded)
            let exact = 1.0 / 65536 + 1.0 / 65537
            #expect(abs(sum.seconds - exact) <= 0.5 / Double(kCMTimeMaxTimescale))
        }

        @Test func addThatOverflowsHalvesTheTimescaleThenGoesInfinite() {
            let big = CMTimeMake(value: .max, timescale: 1000)
            let doubled = big + big
            // 2 × (2^63 − 1) / 1000 s is exactly (2^63 − 1) / 500 s.
            #expect(doubled.timescale == 500 && doubled.value == .max && !doubled.hasBeenRounded)
            #expect((CMTimeMake(value: .max, timescale: 1) + CMTimeMake(value: 1, timescale: 1)).isPositiveInfinity)
            #expect((CMTimeMake(value: .min, timescale: 1) - CMTimeMake(value: 1, timescale: 1)).isNegativeInfinity)
        }

        @Test func infiniteAndIndefiniteOperands() {
            #expect(!CMTimeAdd(.positiveInfinity, .negativeInfinity).isValid)
            #expect(CMTimeSubtract(.positiveInfinity, CMTimeMake(value: 5, timescale: 1)).isPositiveInfinity)
            #expect(CMTimeAdd(.indefinite, CMTimeMake(value: 1, timescale: 1)).isIndefinite)
            #expect(!CMTimeAdd(.invalid, CMTimeMake(value: 1, timescale: 1)).isValid)
            #expect(CMTime.indefinite.seconds.isNaN && CMTime.positiveInfinity.seconds == .infinity)
        }

        @Test func multiplyOverflowHalvesTheTimescaleThenGoesInfinite() {
            let product = CMTimeMultiply(CMTimeMake(value: .max, timescale: 2), multiplier: 2)
            #expect(product.value == .max && product.timescale == 1)
            #expect(CMTimeMultiply(CMTimeMake(value: .max, timescale: 1), multiplier: 2).isPositiveInfinity)
            #expect(CMTimeMultiply(CMTimeMake(value: .max, timescale: 1), multiplier: -2).isNegativeInfinity)
            #expect(CMTimeMultiply(.positiveInfinity, multiplier: -1).isNegativeInfinity)
        }

        @Test func multiplyByRatioAndFloat() {
            let second = CMTimeMake(value: 600, timescale: 600)
            let ratio = CMTimeMultiplyByRatio(second, multiplier: 3, divisor: 2)
            #expect(ratio.value == 900 && ratio.timescale == 600)
            #expect(!CMTimeMultiplyByRatio(second, multiplier: 1, divisor: 0).isValid)
            let half = CMTimeMultiplyByFloat64(CMTimeMake(value: 2, timescale: 1), multiplier: 0.5)
            #expect(half.seconds == 1)
            #expect(!CMTimeMultiplyByFloat64(second, multiplier: .nan).isValid)
        }

        @Test func convertScaleRoundsAsAsked() {
            let third = CMTimeMake(value: 1, timescale: 3)
            // 1/3 s on a timescale of 10 is 3.33… units.
            #expect(CMTimeConvertScale(third, timescale: 10, method: .default).value == 3)
            #expect(CMTimeConvertScale(third, timescale: 10, method: .roundAwayFromZero).value == 4)
            #expect(CMTimeConvertScale(third, timescale: 10, method: .roundTowardZero).value == 3)
            #expect(CMTimeConvertScale(third, timescale: 10, method: .roundTowardPositiveInfinity).value == 4)
            let minusThird = CMTimeMake(value: -1, timescale: 3)
            #expect(CMTimeConvertScale(minusThird, timescale: 10, method: .roundTowardNegativeInfinity).value == -4)
            // 1/4 s on a timescale of 2 is exactly half a unit.
            let quarter = CMTimeMake(value: 1, timescale: 4)
            #expect(CMTimeConvertScale(quarter, timescale: 2, method: .roundHalfAwayFromZero).value == 1)
            #expect(CMTimeConvertScale(quarter, timescale: 2, method: .roundTowardZero).value == 0)
            #expect(CMTimeConvertScale(third, timescale: 10, method: .default).hasBeenRounded)
        }

        @Test func convertScaleExactAndInvalid() {
            let half = CMTimeMake(value: 1, timescale: 2).convertScale(600, method: .default)
            #expect(half.value == 300 && half.timescale == 600 && !half.hasBeenRounded)
            #expect(!CMTimeConvertScale(CMTimeMake(value: 1, timescale: 2), timescale: 0, method: .default).isValid)
            #expect(CMTimeConvertScale(.positiveInfinity, timescale: 600, method: .default).isPositiveInfinity)
        }

        @Test func absoluteValueMinimumAndMaximum() {
            let negative = CMTimeMake(value: -3, timescale: 2)
            #expect(CMTimeAbsoluteValue(negative) == CMTimeMake(value: 3, timescale: 2))
            #expect(CMTimeAbsoluteValue(.negativeInfinity).isPositiveInfinity)
            let a = CMTimeMake(value: 1, timescale: 3), b = CMTimeMake(value: 1, timescale: 2)
            #expect(CMTimeMinimum(a, b) == a && CMTimeMaximum(a, b) == b)
            #expect(CMTimeMaximum(b, .positiveInfinity).isPositiveInfinity)
        }

        @Test func comparisonIsByTimeNotRepresentation() {
            #expect(CMTimeMake(value: 1, timescale: 2) == CMTimeMake(value: 300, timescale: 600))
            #expect(CMTimeCompare(CMTimeMake(value: 1, timescale: 3), CMTimeMake(value: 1, timescale: 2)) == -1)
            #expect(CMTime.negativeInfinity < CMTime.zero && CMTime.zero < CMTime.positiveInfinity)
        }

        @Test func timeRangeIsHalfOpen() {
            let range = CMTimeRangeMake(
                start: CMTimeMake(value: 1, timescale: 1), duration: CMTimeMake(value: 2, timescale: 1))
            #expect(range.end == CMTimeMake(value: 3, timescale: 1))
            #expect(CMTimeRangeGetEnd(range) == range.end)
            #expect(range.containsTime(CMTimeMake(value: 1, timescale: 1)))
            #expect(CMTimeRangeContainsTime(range, time: CMTimeMake(value: 2999, timescale: 1000)))
            #expect(!range.containsTime(CMTimeMake(value: 3, timescale: 1)))
            #expect(!range.containsTime(CMTimeMake(value: 999, timescale: 1000)))
        }

        @Test func timeRangeFromStartAndEnd() {
            let range = CMTimeRange(start: CMTimeMake(value: 1, timescale: 2), end: CMTimeMake(value: 2, timescale: 1))
            #expect(range.duration == CMTimeMake(value: 3, timescale: 2))
            #expect(range.isValid && !range.isEmpty)
            #expect(CMTimeRange.zero.isEmpty)
            #expect(!CMTimeRange(start: .zero, duration: CMTimeMake(value: -1, timescale: 1)).isValid)
        }

        @Test func timeRangeIntersectionAndUnion() {
            let a = CMTimeRange(start: CMTimeMake(value: 0, timescale: 1), duration: CMTimeMake(value: 4, timescale: 1))
            let b = CMTimeRange(start: CMTimeMake(value: 2, timescale: 1), duration: CMTimeMake(value: 4, timescale: 1))
            let overlap = a.intersection(b)
            #expect(overlap.start == CMTimeMake(value: 2, timescale: 1))
            #expect(overlap.duration == CMTimeMake(value: 2, timescale: 1))
            let union = CMTimeRangeGetUnion(a, otherRange: b)
            #expect(union.start == .zero && union.end == CMTimeMake(value: 6, timescale: 1))
            let apart = CMTimeRange(start: CMTimeMake(value: 10, timescale: 1), duration: CMTimeMake(value: 1, timescale: 1))
            #expect(a.intersection(apart).isEmpty)
        }
    }
}
