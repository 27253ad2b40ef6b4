import Devices
import Foundation
import ISP
import Spectra
import Testing

/// Apple's validation protocol (WWDC24 10162), reduced to the extreme lights (2 illuminances ×
/// 2 CCTs × 2 tints), through the public API, on the iPhone 15 Pro profile (centre crop).
struct ConstantColorValidationTests {
    @Test func reducedProtocolMeetsTargets() throws {
        let device = try ConstantColorFixture.device()
        var pipeline = try ConstantColorValidation.chartPipeline(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 224, height: 168)
        // The pipeline's own figures: captured without the device's error sources (`validate --ideal`), which
        // these bounds were measured on; what the errors cost is the validate command's to report.
        pipeline.captureErrors = .none
        let result = try ConstantColorValidation.run(pipeline: pipeline, protocol: .reduced, keepSamples: 0)
        // Bounds from the figures' standard errors, so that a real regression fails, not just one past
        // the protocol's targets (90 %, mean ΔE00 2). The reduction R = 1 − V̄_C/V̄_O is a ratio of means
        // over n = 164 patches; by the delta method with the patches' spread (sd 0.29 of a mean 0.21 for
        // Constant Color, 465 of 1158 for the normal photo, whose auto white balance swings across these
        // extreme lights; covariance −7.5), SE(R) = 0.00002 around the 0.99982 measured with this seed: the
        // bound is 4σ below it, 0.99974, which a doubling of Constant Color's variance crosses. The
        // high-confidence mean ΔE00 (1.42 over 120 patches, sd of the patch means 0.79) has SE 0.073: the
        // bound 1.75 is 4σ above. The patches' spread stands in for the noise's: the chart is fixed, but
        // which patches a change hurts is not, so this is the conservative choice.
        #expect(result.varianceReduction >= 0.99974, "variance reduction \(result.varianceReduction)")
        // Confidence follows the weakest channel: the darkest skin tones, black 2, blue and purple
        // drop just below 0.8 on average over the lights, their red or blue flash-only signal being
        // the weakest (measured: 120 of 164 patches stay trusted). Most of the chart stays trusted.
        #expect(result.highConfidenceCount >= 115, "high-confidence patches \(result.highConfidenceCount)")
        let high = result.deltaEConstantColorHighConfidence
        #expect(high.mean <= 1.75, "high-confidence mean ΔE00 \(high.mean)")
        // Constant Color must beat the ordinary photo, which keeps part of each room light's cast.
        #expect(result.deltaEConstantColor.mean < result.deltaEOrdinary.mean)
    }

    /// The hand turns the phone between the frames, and without optical stabilisation (the iPad Pro's wide camera)
    /// the chart lies several pixels away in the Constant Color photo from where a still camera sees it: about half
    /// a patch of this 224 × 168 chart. The registration follows the chart, and so must the protocol, as a laboratory
    /// finds the chart in each photo it measures. Measured where each photo shows it, the hand alone leaves the
    /// chart's colour within ΔE00 0.3 of the still capture's on average, and the patches as trusted; pixel lists
    /// fixed where a still camera sees the chart read the neighbouring patches instead (their mean ΔE00 lies 4.2
    /// above the still capture's).
    @Test func theProtocolFindsTheChartWhereTheTurnedPhotoShowsIt() throws {
        let device = try ConstantColorFixture.device("ipad-pro-m4")
        var pipeline = try ConstantColorValidation.chartPipeline(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 224, height: 168,
            settings: .init(developsFallback: false))
        #expect(pipeline.captureErrors.magnitudes.stabilisationStops == 0)
        var hand = pipeline.captureErrors.magnitudes
        for source in CaptureErrors.Source.allCases where source != .handMotion { hand = hand.without(source) }
        pipeline.captureErrors.magnitudes = hand
        let turned = try ConstantColorValidation.run(pipeline: pipeline, protocol: .reduced, keepSamples: 0)
        pipeline.captureErrors = .none
        let still = try ConstantColorValidation.run(pipeline: pipeline, protocol: .reduced, keepSamples: 0)
        let (a, b) = (turned.deltaEConstantColor.mean, still.deltaEConstantColor.mean)
        #expect(abs(a - b) <= 0.3, "mean ΔE00 \(a) with the hand's turn, \(b) without")
        #expect(turned.highConfidenceCount >= still.highConfidenceCount - 5)
    }

    /// Several units of the device pool their photos: each patch's pooled variance is, by the law of total variance,
    /// the mean of the units' own variances plus the variance of their means, each unit run alone with its own key;
    /// without the device's errors every unit is the same one, and pooling changes nothing.
    @Test func unitsPoolTheirPhotos() throws {
        let device = try ConstantColorFixture.device()
        var pipeline = try ConstantColorValidation.chartPipeline(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 112, height: 84,
            settings: .init(developsFallback: false))
        let bright = ConstantColorValidation.Conditions(illuminances: [800], temperatures: [3000, 7500], tints: [0])
        let pooled = try ConstantColorValidation.run(pipeline: pipeline, protocol: bright, keepSamples: 0, units: 3)
        #expect(pooled.units == 3)
        var alone: [ConstantColorValidation] = []
        for unit in 0..<3 {
            var phone = pipeline
            phone.captureErrors.unit = pipeline.captureErrors.unit + UInt64(unit)
            alone.append(try ConstantColorValidation.run(pipeline: phone, protocol: bright, keepSamples: 0))
        }
        var betweenSum = 0.0
        for p in pooled.patches.indices where pooled.patches[p].varianceConstantColor.isFinite {
            let means = alone.map { SIMD3($0.patches[p].meanConstantColor.L, $0.patches[p].meanConstantColor.a,
                $0.patches[p].meanConstantColor.b) }
            let grand = means.reduce(SIMD3<Double>(0, 0, 0), +) / 3
            let between = means.map { (($0 - grand) * ($0 - grand)).sum() }.reduce(0, +) / 3
            let within = alone.map { $0.patches[p].varianceConstantColor }.reduce(0, +) / 3
            let v = pooled.patches[p].varianceConstantColor
            #expect(
                abs(v - (within + between)) <= 1e-9 * max(1, v),
                "\(pooled.patches[p].name): \(v) ≠ \(within) + \(between)")
            betweenSum += between
        }
        // The units differ: their flash LEDs and sensor curves are drawn apart.
        #expect(betweenSum > 0)
        pipeline.captureErrors = .none
        let same = try ConstantColorValidation.run(pipeline: pipeline, protocol: bright, keepSamples: 0, units: 3)
        let one = try ConstantColorValidation.run(pipeline: pipeline, protocol: bright, keepSamples: 0)
        #expect(abs(same.varianceReduction - one.varianceReduction) <= 1e-12)
    }

    /// The baseline photo balanced for the true room light keeps exactly the share of its cast asked for: with none
    /// kept, the chart's six neutral patches come out neutral under every light (a*, b* near 0: a white balance for
    /// the light's own spectrum makes a spectrally flat surface grey whatever the light), and with the ordinary
    /// photo's share kept they follow the lights' colours from 3000 K to 7500 K and ±0.02 Duv. At 800 lux, where the
    /// normal photo's noise is small: in a 10 lux room its undenoised noise, bent by the tone curve and the 8-bit
    /// floor pixel by pixel, moves a grey's mean colour by several units (the note on `Baseline`).
    @Test func knownLightBaselineKeepsTheShareOfTheCastAskedFor() throws {
        let device = try ConstantColorFixture.device()
        var pipeline = try ConstantColorValidation.chartPipeline(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 224, height: 168,
            settings: .init(developsFallback: false))
        pipeline.captureErrors = .none
        let bright = ConstantColorValidation.Conditions(
            illuminances: [800], temperatures: [3000, 7500], tints: [-0.02, 0.02])
        func neutrals(warmth: Double) throws -> [ConstantColorValidation.Patch] {
            let result = try ConstantColorValidation.run(
                pipeline: pipeline, protocol: bright, baseline: .knownLight, baselineWarmth: warmth, keepSamples: 0)
            #expect(result.baseline == .knownLight && result.baselineWarmth == warmth)
            return Array(result.patches[18..<24])
        }
        for patch in try neutrals(warmth: 0) {
            let (a, b) = (patch.meanOrdinary.a, patch.meanOrdinary.b)
            #expect(abs(a) < 1.5 && abs(b) < 1.5, "\(patch.name): mean a* \(a), b* \(b)")
            // Lightness is free to move (the tone curve's shoulder on the white patch); the chroma is not.
            #expect(patch.varianceOrdinary < 4, "\(patch.name): variance \(patch.varianceOrdinary)")
        }
        // A fifth of the cast between 3000 K and 7500 K spans some 15 units of b* (the full cast about 75).
        let warm = try neutrals(warmth: 0.2)
        let grey = try #require(warm.first { $0.name.hasPrefix("neutral 5") })
        #expect(grey.varianceOrdinary > 20, "neutral 5 with a fifth of the cast kept: variance \(grey.varianceOrdinary)")
    }
}
