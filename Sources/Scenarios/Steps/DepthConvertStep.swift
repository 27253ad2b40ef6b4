import ObscuraAV
import ObscuraSupport

/// `depth_convert: fdis`: converts the newest photo's `depthData` with `converting(toDepthDataType:)`
/// (spec §9). The target is a depth type's four-character code (`hdis`, `fdis`, `hdep`, `fdep`), its
/// CoreVideo name (`DisparityFloat32`, …), or any other four-character code such as `420v`, which
/// the API refuses with `NSInvalidArgumentException` (spec §13 N14). The result is readable as
/// `converted_depth.depthDataType`.
struct DepthConvertStep: ScenarioStep {
    static let key = "depth_convert"
    static let summary = "converts the newest photo's depthData with converting(toDepthDataType:)"

    /// The depth types by code and by CoreVideo name, for parsing and "did you mean".
    static let typesByName: [String: OSType] = DepthFormatChoice.typesByName.merging(
        [
            "hdis": kCVPixelFormatType_DisparityFloat16, "fdis": kCVPixelFormatType_DisparityFloat32,
            "hdep": kCVPixelFormatType_DepthFloat16, "fdep": kCVPixelFormatType_DepthFloat32,
        ],
        uniquingKeysWith: { first, _ in first })

    let target: OSType
    let targetText: String

    init(value: YAMLNode?, step: YAMLNode) throws {
        let node = try Self.requireValue(value, step: step)
        let text = try node.scalarString()
        targetText = text
        if let known = Self.typesByName[text] {
            target = known
        } else if Self.isFourCharacterCode(text) {
            // Any other code is passed through unchanged: refusing it is the API's job (N14).
            target = fourCharCode(text)
        } else {
            target = try node.named(Self.typesByName, what: "depth data type (or a four-character code)")
        }
    }

    /// Whether `text` is four printable ASCII characters, the form of a four-character code.
    static func isFourCharacterCode(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 4 && bytes.allSatisfy { (0x20...0x7E).contains($0) }
    }

    var apiCalls: [String] {
        ["let converted = photo.depthData?.converting(toDepthDataType: \"\(targetText)\")  // OSType \(target)"]
    }

    var specSections: [String] { ["§9", "§13"] }

    func perform(_ context: RunContext) throws {
        // A refused conversion must not leave an earlier step's result behind for the expectations.
        context.convertedDepth = nil
        let photo = try ImageStepSupport.newestPhoto(context, step: Self.key)
        guard let depth = photo.depthData else {
            throw StepFailure(
                "'\(Self.key)': the photo carries no depth data (capture with isDepthDataDeliveryEnabled: true)")
        }
        context.convertedDepth = depth.converting(toDepthDataType: target)
    }
}
