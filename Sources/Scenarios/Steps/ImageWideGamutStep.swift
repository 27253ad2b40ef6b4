import Imaging
import ISP
import ObscuraSupport

/// `image_wide_gamut: {tolerance: 0.001, save: p3-highlight.png}`: the wide-gamut highlight filter on the newest
/// photo (ISP `WideColor`): pixels outside sRGB keep their colour, the rest turn grey. A Display P3 photo is read
/// as P3, any other as sRGB. The `outside_srgb` expectation checks the fraction of pixels kept.
struct ImageWideGamutStep: ScenarioStep {
    static let key = "image_wide_gamut"
    static let summary = "keeps the colour of the newest photo's pixels outside sRGB and turns the rest grey"

    let tolerance: Float
    let savePath: String?

    init(value: YAMLNode?, step: YAMLNode) throws {
        guard let value else {
            tolerance = 0.001
            savePath = nil
            return
        }
        let map = try value.mapping(allowedKeys: ["tolerance", "save"])
        tolerance = Float(try map.optional("tolerance")?.double(in: 0...1) ?? 0.001)
        savePath = try ImageStepSupport.savePath(map)
    }

    var apiCalls: [String] {
        [
            "let linear = WideColor.extendedLinearSRGB(fromDisplayP3: photoPixels)",
            "let highlight = WideColor.highlightOutOfGamut(linear, tolerance: \(tolerance))",
        ]
    }

    var specSections: [String] { [] }

    func perform(_ context: RunContext) throws {
        let (_, image) = try ImageStepSupport.lastPhoto(context, step: Self.key)
        guard image.channels >= 3 else { throw StepFailure("'image_wide_gamut': the photo is not a colour image") }
        let pixels = ImageStepSupport.floats(image)
        let linear = image.colorSpace == .displayP3 ? WideColor.extendedLinearSRGB(fromDisplayP3: pixels)
            : WideColor.extendedLinearSRGB(fromSRGB: pixels)
        var outside = 0
        for y in 0..<linear.height {
            for x in 0..<linear.width
            where WideColor.isOutsideSRGB(SIMD3(linear[x, y, 0], linear[x, y, 1], linear[x, y, 2]),
                                          tolerance: tolerance) {
                outside += 1
            }
        }
        context.imageResult = ImageStepResult(
            outsideSRGBFraction: Double(outside) / Double(max(1, linear.width * linear.height)))
        let highlight = WideColor.highlightOutOfGamut(linear, tolerance: tolerance)
        let encoded = UInt16Image(converting: WideColor.displayP3(fromExtendedLinearSRGB: highlight))
        try ImageStepSupport.save(PNGImage(pixels: encoded, colorSpace: .displayP3), to: savePath, context, kind: "wide-gamut highlight")
    }
}
