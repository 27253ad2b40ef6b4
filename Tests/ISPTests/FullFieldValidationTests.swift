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
        return try ConstantColorPipeline(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 224, height: 168,
            settings: .init(developsFallback: false))
    }

    /// At 0.3 m the flash reaches most of the chart: every one of the 164 patches is measured, each in
    /// its own place on the 14 × 12 grid, most with high confidence; Constant Color is more accurate
    /// on them than the ordinary photo balanced by grey world, which a chart of mostly skin patches
    /// pulls towards blue.
    @Test func nearChartIsMappedAndBeatsAutoWhiteBalance() throws {
        let result = try FullFieldValidation.run(
            pipeline: try Self.pipeline(), baseline: .autoWhiteBalance, protocol: .reduced, distances: [0.3])
        let d = try #require(result.distances.first)
        #expect(d.cells.count == ConstantColorValidation.chartPatches.count)
        #expect(Set(d.cells.map { $0.row * result.columns + $0.column }).count == d.cells.count)
        #expect(d.highConfidenceCount >= 100, "high-confidence patches \(d.highConfidenceCount)")
        #expect(d.isMeaningful)
        #expect(d.accuracyConstantColor.mean < d.accuracyBaseline.mean,
            "Constant Color \(d.accuracyConstantColor.mean), baseline \(d.accuracyBaseline.mean)")
    }

    /// At 1.5 m the flash increment drowns in the room light at every patch: no patch is trusted, and
    /// the variance reduction, which then compares the ambient fill with the ambient photo, is flagged
    /// as not meaningful rather than reported as a success.
    @Test func farChartHasNoConfidenceAndNoMeaningfulReduction() throws {
        let result = try FullFieldValidation.run(
            pipeline: try Self.pipeline(), baseline: .knownLight, protocol: .reduced, distances: [1.5])
        let d = try #require(result.distances.first)
        #expect(d.highConfidenceCount == 0)
        #expect(!d.isMeaningful)
        #expect(d.accuracyConstantColor.mean.isNaN)
    }
}
