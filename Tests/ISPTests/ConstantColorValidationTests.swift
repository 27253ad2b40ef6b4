import Foundation
import ISP
import Spectra
import Testing

/// Apple's validation protocol (WWDC24 10162), reduced to the extreme lights (2 illuminances ×
/// 2 CCTs × 2 tints), through the public API, on the iPhone 15 Pro profile.
struct ConstantColorValidationTests {
    @Test func reducedProtocolMeetsTargets() throws {
        let device = try ConstantColorFixture.device()
        let pipeline = try ConstantColorValidation.chartPipeline(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 224, height: 168)
        let result = try ConstantColorValidation.run(pipeline: pipeline, protocol: .reduced, keepSamples: 0)
        // Apple reports 87 % on iPhone 15; the target is 90 %.
        #expect(result.varianceReduction >= 0.9, "variance reduction \(result.varianceReduction)")
        // Confidence follows the weakest channel: the darkest skin tones, black 2, blue and purple
        // drop just below 0.8 on average over the lights, their red or blue flash-only signal being
        // the weakest (measured: 125 of 164 patches stay trusted). Most of the chart stays trusted.
        #expect(result.highConfidenceCount >= 115, "high-confidence patches \(result.highConfidenceCount)")
        let high = result.deltaEConstantColorHighConfidence
        #expect(high.mean <= 2, "high-confidence mean ΔE00 \(high.mean)")
        // Constant Color must beat the ordinary photo, which keeps part of each room light's cast.
        #expect(result.deltaEConstantColor.mean < result.deltaEOrdinary.mean)
    }
}
