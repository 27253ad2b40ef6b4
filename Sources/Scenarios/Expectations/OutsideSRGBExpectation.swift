import ObscuraSupport

/// `outside_srgb: {min: 0.02, max: 0.4}`: the fraction of pixels `image_wide_gamut` found outside sRGB.
struct OutsideSRGBExpectation: Expectation {
    static let keys = ["outside_srgb"]
    let range: ClosedRange<Double>
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("outside_srgb")
        location = node.location
        let map = try node.mapping(allowedKeys: ["min", "max"])
        let low = try map.optional("min")?.double(in: 0...1) ?? 0
        let high = try map.optional("max")?.double(in: 0...1) ?? 1
        guard low <= high else { throw node.error("'min' (\(low)) is above 'max' (\(high))") }
        range = low...high
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        let expected = "fraction outside sRGB in \(range.lowerBound)…\(range.upperBound)"
        guard let fraction = context.imageResult?.outsideSRGBFraction else {
            return ExpectationResult(key: "outside_srgb", passed: false, expected: expected,
                                     actual: "nothing measured (is this an image_wide_gamut step?)", location: location)
        }
        return ExpectationResult(
            key: "outside_srgb", passed: range.contains(fraction), expected: expected,
            actual: "fraction \((fraction * 10_000).rounded() / 10_000)", location: location)
    }
}
