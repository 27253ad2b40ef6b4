import ObscuraAV
import ObscuraSupport

/// `photos: [{isConstantColorFallbackPhoto: false, confidence_level: {min: 0.8}}, …]`: one entry
/// per delivered photo, in delivery order, each checking the properties it names.
struct PhotosExpectation: Expectation {
    static let keys = ["photos"]
    static let fields = [
        "photoCount", "isConstantColorFallbackPhoto", "isRawPhoto", "isFlashEnabled", "sourceDeviceType",
        "confidence_level", "dimensions",
    ]

    struct Check: Sendable {
        let field: String
        let expected: String
        let range: ClosedRange<Double>?
    }

    let photos: [[Check]]
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("photos")
        photos = try node.sequence().map { item in
            let map = try item.mapping(allowedKeys: Self.fields)
            return try map.entries.map { entry in
                if entry.key == "confidence_level" {
                    let bounds = try entry.value.mapping(allowedKeys: ["min", "max"])
                    let lower = try bounds.optional("min")?.double(in: 0...1) ?? 0
                    let upper = try bounds.optional("max")?.double(in: 0...1) ?? 1
                    guard lower <= upper else { throw entry.value.error("min must not exceed max") }
                    return Check(field: entry.key, expected: "\(lower)…\(upper)", range: lower...upper)
                }
                if entry.key == "sourceDeviceType" {
                    _ = try entry.value.named(deviceTypesByName, what: "device type")
                }
                return Check(field: entry.key, expected: try entry.value.scalarString(), range: nil)
            }
        }
        location = node.location
    }

    static func value(_ field: String, of photo: AVCapturePhoto) -> String {
        switch field {
        case "photoCount": return String(photo.photoCount)
        case "isConstantColorFallbackPhoto": return String(photo.isConstantColorFallbackPhoto)
        case "isRawPhoto": return String(photo.isRawPhoto)
        case "isFlashEnabled": return String(photo.resolvedSettings.isFlashEnabled)
        case "sourceDeviceType": return photo.sourceDeviceType.map(deviceTypeName) ?? "nil"
        case "confidence_level": return String(photo.constantColorCenterWeightedMeanConfidenceLevel)
        case "dimensions":
            let d = photo.resolvedSettings.photoDimensions
            return "\(d.width)x\(d.height)"
        default: preconditionFailure("photo field '\(field)' listed without a reader")
        }
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        let delivered = outcome.photos
        var expected: [String] = []
        var actual: [String] = []
        var passed = delivered.count == photos.count
        for (i, checks) in photos.enumerated() {
            expected.append("#\(i + 1) " + checks.map { "\($0.field)=\($0.expected)" }.joined(separator: " "))
            guard i < delivered.count else {
                actual.append("#\(i + 1) missing")
                continue
            }
            var parts: [String] = []
            for check in checks {
                let value = Self.value(check.field, of: delivered[i])
                let ok: Bool
                if let range = check.range, let number = Double(value) {
                    ok = range.contains(number)
                } else {
                    ok = value == check.expected
                }
                passed = passed && ok
                parts.append("\(check.field)=\(value)\(ok ? "" : " ✗")")
            }
            actual.append("#\(i + 1) " + parts.joined(separator: " "))
        }
        if delivered.count != photos.count { actual.append("\(delivered.count) photos delivered, \(photos.count) expected") }
        return ExpectationResult(
            key: "photos", passed: passed, expected: expected.joined(separator: "; "),
            actual: actual.joined(separator: "; "), location: location)
    }
}
