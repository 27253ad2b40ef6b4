import ObscuraSupport

/// `scan: {corners: [[x, y], …], tolerance: 0.01, min_confidence: 0.8, aspect_ratio: 0.82}`: the quadrilateral
/// `image_scan` found.
///
/// Corners are normalised with a bottom-left origin, as Vision reports them, in the order top-left, top-right,
/// bottom-right, bottom-left; each found corner must lie within `tolerance` (Euclidean, normalised units) of the
/// given one. `aspect_ratio` (width over height) must be matched within `aspect_tolerance` (relative, 0.02 by
/// default) and come from the photo's camera intrinsics. Give at least one of `corners`, `min_confidence` and
/// `aspect_ratio`.
struct ScanExpectation: Expectation {
    static let keys = ["scan"]
    let corners: [SIMD2<Double>]?
    let tolerance: Double
    let minimumConfidence: Double?
    let aspectRatio: Double?
    let aspectTolerance: Double
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("scan")
        location = node.location
        let map = try node.mapping(
            allowedKeys: ["corners", "tolerance", "min_confidence", "aspect_ratio", "aspect_tolerance"])
        if let list = map.optional("corners") {
            let points = try list.sequence().map { item -> SIMD2<Double> in
                let xy = try item.doubles()
                guard xy.count == 2 else { throw item.error("a corner is [x, y]") }
                return SIMD2(xy[0], xy[1])
            }
            guard points.count == 4 else {
                throw list.error("expected 4 corners (top-left, top-right, bottom-right, bottom-left)")
            }
            corners = points
        } else {
            corners = nil
        }
        tolerance = try map.optional("tolerance")?.double(in: 0...1) ?? 0.01
        minimumConfidence = try map.optional("min_confidence")?.double(in: 0...1)
        aspectRatio = try map.optional("aspect_ratio")?.double(in: 0.01...100)
        aspectTolerance = try map.optional("aspect_tolerance")?.double(in: 0...1) ?? 0.02
        if corners == nil && minimumConfidence == nil && aspectRatio == nil {
            throw node.error("'scan' needs 'corners', 'min_confidence' or 'aspect_ratio'")
        }
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        var expected: [String] = []
        if let corners {
            expected.append("corners within \(tolerance) of " + corners.map { "(\($0.x), \($0.y))" }
                .joined(separator: " "))
        }
        if let minimumConfidence { expected.append("confidence ≥ \(minimumConfidence)") }
        if let aspectRatio {
            expected.append("aspect ratio \(aspectRatio) within \(aspectTolerance * 100) % from the camera intrinsics")
        }
        guard let quad = context.imageResult?.quadrilateral else {
            return ExpectationResult(key: "scan", passed: false, expected: expected.joined(separator: "; "),
                                     actual: "no quadrilateral (is this an image_scan step?)", location: location)
        }
        let found = [quad.topLeft, quad.topRight, quad.bottomRight, quad.bottomLeft]
        var passed = true
        var worst = 0.0
        if let corners {
            worst = zip(found, corners).map { a, b in ((a - b) * (a - b)).sum().squareRoot() }.max() ?? 0
            passed = worst <= tolerance
        }
        if let minimumConfidence { passed = passed && Double(quad.confidence) >= minimumConfidence }
        let aspect = context.imageResult?.aspectRatio
        if let aspectRatio {
            if let aspect {
                passed = passed && aspect.method == .cameraIntrinsics
                    && abs(aspect.value / aspectRatio - 1) <= aspectTolerance
            } else {
                passed = false
            }
        }
        func r(_ v: Double) -> String { String((v * 10_000).rounded() / 10_000) }
        var actual = "corners " + found.map { "(\(r($0.x)), \(r($0.y)))" }.joined(separator: " ")
            + ", farthest \(r(worst)), confidence \(r(Double(quad.confidence)))"
        if let aspect { actual += ", aspect ratio \(r(aspect.value)) from the \(aspect.method.rawValue)" }
        return ExpectationResult(key: "scan", passed: passed, expected: expected.joined(separator: "; "),
                                 actual: actual, location: location)
    }
}
