import ObscuraAV
import ObscuraSupport

/// `calibration: {present: true, baseline_mm: {min: 9.5, max: 10.5}}`: checks
/// `AVCapturePhoto.cameraCalibrationData` on every photo of the step (spec §5, §10).
///
/// `present` (default true) says whether each photo carries calibration; `baseline_mm` bounds the
/// distance between the extrinsic translations of the first and last photos (millimetres), the
/// stereo baseline when they are two constituent photos.
struct CalibrationExpectation: Expectation {
    static let keys = ["calibration"]
    let present: Bool
    let baseline: ClosedRange<Double>?
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("calibration")
        let map = try node.mapping(allowedKeys: ["present", "baseline_mm"])
        present = try map.optional("present")?.bool() ?? true
        if let b = map.optional("baseline_mm") {
            let bounds = try b.mapping(allowedKeys: ["min", "max"])
            let lower = try bounds.optional("min")?.double(in: 0...1000) ?? 0
            let upper = try bounds.optional("max")?.double(in: 0...1000) ?? 1000
            guard lower <= upper else { throw b.error("min must not exceed max") }
            baseline = lower...upper
        } else {
            baseline = nil
        }
        location = node.location
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        let calibrations = outcome.photos.map(\.cameraCalibrationData)
        var expected = present ? "calibration on every photo" : "no calibration"
        var actual = "\(calibrations.compactMap { $0 }.count) of \(calibrations.count) photos carry calibration"
        var passed =
            !calibrations.isEmpty && (present ? calibrations.allSatisfy { $0 != nil } : calibrations.allSatisfy { $0 == nil })
        if let baseline {
            expected += ", baseline \(baseline.lowerBound)…\(baseline.upperBound) mm"
            if let first = calibrations.first ?? nil, let last = calibrations.last ?? nil, calibrations.count > 1 {
                let d = last.extrinsicMatrix.columns.3 - first.extrinsicMatrix.columns.3
                let mm = Double((d * d).sum().squareRoot())
                actual += ", baseline \(String(format: "%.2f", mm)) mm"
                passed = passed && baseline.contains(mm)
            } else {
                actual += ", no baseline (fewer than two calibrated photos)"
                passed = false
            }
        }
        return ExpectationResult(key: "calibration", passed: passed, expected: expected, actual: actual, location: location)
    }
}
