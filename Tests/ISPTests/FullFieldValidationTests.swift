import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

/// The full-field validation (`FullFieldValidation`) on the iPhone 15 Pro, reduced protocol (8 lights),
/// at a 224×168 picture of the whole field.
struct FullFieldValidationTests {
    static func pipeline() throws -> ConstantColorPipeline {
        let device = try ConstantColorFixture.device()
        var pipeline = try ConstantColorPipeline(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 224, height: 168,
            depthSensor: .ideal, settings: .init(developsFallback: false, rendersFlashFallOff: false))
        // The pipeline's own accuracy, as with its ideal depth: captured without the device's error sources.
        pipeline.captureErrors = .none
        return pipeline
    }

    /// At 0.3 m the flash reaches most of the chart: every one of the 164 patches is measured, each in
    /// its own place on the 14 × 12 grid, most trusted under some light; Constant Color is more
    /// accurate on the trusted pictures than the ordinary photo balanced by grey world, which a chart
    /// of mostly skin patches pulls towards blue.
    @Test func nearChartIsMappedAndBeatsAutoWhiteBalance() throws {
        let result = try FullFieldValidation.run(
            pipeline: try Self.pipeline(), baseline: .autoWhiteBalance, protocol: .reduced, distances: [0.3])
        let d = try #require(result.distances.first)
        #expect(d.cells.count == ConstantColorValidation.chartPatches.count)
        #expect(Set(d.cells.map { $0.row * result.columns + $0.column }).count == d.cells.count)
        let trusted = d.cells.filter(\.isTrusted).count
        #expect(trusted >= 100, "patches trusted under some light \(trusted)")
        #expect(d.trustedPictures >= 100 * 4, "trusted patch pictures \(d.trustedPictures)")
        #expect(d.isMeaningful)
        #expect(d.accuracyConstantColor.mean < d.accuracyBaseline.mean,
            "Constant Color \(d.accuracyConstantColor.mean), baseline \(d.accuracyBaseline.mean)")
    }

    /// At 0.3, 0.5 and 1 m, against the ordinary photo balanced from the true room light (the harder
    /// baseline), the trusted patch pictures (a patch's own confidence ≥ 0.8 in that picture) meet
    /// the protocol's targets over the whole field: mean ΔE00 at most 2.5 against the reflectance
    /// under D65, Constant Color more accurate than the ordinary photo on every trusted patch over the
    /// pictures it is trusted in, and a variance reduction of at least 90 %. The per-pixel flash
    /// irradiance is what makes the lightness right away from the centre (with one flash level the
    /// corners keep the beam's and the card's fall-off, and the full protocol's mean was 6.1 at 0.3 m).
    ///
    /// Bounds from the figures' standard errors, as in `ConstantColorValidationTests`: the mean ΔE00
    /// of the trusted pictures measures 1.34 at 0.3 m (123 trusted patches, sd of their means 0.77,
    /// SE 0.069), 1.33 at 0.5 m (101 patches, sd 0.78, SE 0.078) and 1.48 at 1 m (19 patches, the
    /// nearest the flash's axis under the dimmest lights; sd 0.75, SE 0.17). Each is bounded 4σ above:
    /// 1.62, 1.64 and 2.17, inside the target. The smallest per-patch lead over the ordinary photo is
    /// 2.5 ΔE00, far beyond a patch mean's noise. The variance reduction measures 0.997–0.999
    /// (Constant Color's variance a few thousandths of the ordinary photo's): the target itself, 0.90,
    /// would need a thirtyfold rise, so it is the bound.
    @Test func nearChartsMeetTheTargetsOverTheWholeField() throws {
        let result = try FullFieldValidation.run(
            pipeline: try Self.pipeline(), baseline: .knownLight, protocol: .reduced, distances: [0.3, 0.5, 1.0])
        #expect(result.distances.count == 3)
        for (d, bound) in zip(result.distances, [1.62, 1.64, 2.17]) {
            #expect(d.isMeaningful)
            #expect(d.trustedPictures > 0)
            let mean = d.accuracyConstantColor.mean
            #expect(mean <= bound, "\(d.metres) m: mean ΔE00 \(mean)")
            let worse = d.cells.filter {
                $0.isTrusted && $0.trustedDeltaEConstantColor > $0.trustedDeltaEBaseline
            }
            #expect(worse.isEmpty, "\(d.metres) m: less accurate than the ordinary photo on \(worse.map(\.name))")
            #expect(d.varianceReduction >= 0.9, "\(d.metres) m: variance reduction \(d.varianceReduction)")
        }
    }

    /// At 1.5 m the flash-only signal is a ninth of 0.5 m's and no patch reaches confidence 0.8 under
    /// any light, not even the dimmest: no patch picture is trusted, and
    /// the variance reduction, which would then compare the ambient fill with the ambient photo, is
    /// flagged as not meaningful rather than reported as a success.
    @Test func farChartHasNoConfidenceAndNoMeaningfulReduction() throws {
        let result = try FullFieldValidation.run(
            pipeline: try Self.pipeline(), baseline: .knownLight, protocol: .reduced, distances: [1.5])
        let d = try #require(result.distances.first)
        #expect(d.trustedPictures == 0)
        #expect(!d.isMeaningful)
        #expect(d.accuracyConstantColor.mean.isNaN)
    }
}
