import ObscuraAV
import ObscuraSupport

/// `depth: {present: true, type: hdis, accuracy: relative, filtered: true, min_width: 700}`:
/// checks `AVCapturePhoto.depthData` on every photo of the step (spec §5, §9).
///
/// `present` (default true) says whether each photo carries depth; the other keys, which need it,
/// check the depth type (`hdis`, `fdis`, `hdep`, `fdep`), `depthDataAccuracy` (`relative` or
/// `absolute`), `isDepthDataFiltered`, the map's `width` and `height` or their lower bounds
/// `min_width` and `min_height`, and whether it carries `calibration`.
struct DepthExpectation: Expectation {
    static let keys = ["depth"]
    static let fields = [
        "present", "type", "accuracy", "filtered", "width", "height", "min_width", "min_height", "calibration",
    ]
    let present: Bool
    let type: String?
    let accuracy: AVDepthData.Accuracy?
    let filtered: Bool?
    let width: Int?, height: Int?, minWidth: Int?, minHeight: Int?
    let calibration: Bool?
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("depth")
        let map = try node.mapping(allowedKeys: Self.fields)
        present = try map.optional("present")?.bool() ?? true
        if let t = map.optional("type") {
            let name = try t.string()
            guard ["hdis", "fdis", "hdep", "fdep"].contains(name) else {
                throw t.error("depth type '\(name)' is not one of hdis, fdis, hdep, fdep")
            }
            type = name
        } else {
            type = nil
        }
        accuracy = try map.optional("accuracy")?.named(["relative": .relative, "absolute": .absolute], what: "accuracy")
        filtered = try map.optional("filtered")?.bool()
        width = try map.optional("width")?.int(in: 1...100_000)
        height = try map.optional("height")?.int(in: 1...100_000)
        minWidth = try map.optional("min_width")?.int(in: 1...100_000)
        minHeight = try map.optional("min_height")?.int(in: 1...100_000)
        calibration = try map.optional("calibration")?.bool()
        location = node.location
    }

    private var expectedText: String {
        guard present else { return "no depthData" }
        var parts = ["depthData"]
        if let type { parts.append("type \(type)") }
        if let accuracy { parts.append(accuracy == .absolute ? "absolute" : "relative") }
        if let filtered { parts.append(filtered ? "filtered" : "unfiltered") }
        if let width { parts.append("width \(width)") }
        if let height { parts.append("height \(height)") }
        if let minWidth { parts.append("width ≥ \(minWidth)") }
        if let minHeight { parts.append("height ≥ \(minHeight)") }
        if let calibration { parts.append(calibration ? "with calibration" : "without calibration") }
        return parts.joined(separator: ", ")
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        let photos = outcome.photos
        guard !photos.isEmpty else {
            return ExpectationResult(
                key: "depth", passed: false, expected: expectedText, actual: "no photos", location: location)
        }
        var actual: [String] = []
        var passed = true
        for photo in photos {
            guard let depth = photo.depthData else {
                actual.append("photo \(photo.photoCount): no depthData")
                passed = passed && !present
                continue
            }
            let map = depth.depthDataMap
            let (w, h) = (CVPixelBufferGetWidth(map), CVPixelBufferGetHeight(map))
            let typeName = fourCharString(depth.depthDataType)
            actual.append(
                "photo \(photo.photoCount): '\(typeName)' \(w)x\(h), "
                    + "\(depth.depthDataAccuracy == .absolute ? "absolute" : "relative"), "
                    + "\(depth.isDepthDataFiltered ? "filtered" : "unfiltered"), "
                    + "\(depth.cameraCalibrationData == nil ? "without" : "with") calibration")
            var ok = present
            if let type { ok = ok && typeName == type }
            if let accuracy { ok = ok && depth.depthDataAccuracy == accuracy }
            if let filtered { ok = ok && depth.isDepthDataFiltered == filtered }
            if let width { ok = ok && w == width }
            if let height { ok = ok && h == height }
            if let minWidth { ok = ok && w >= minWidth }
            if let minHeight { ok = ok && h >= minHeight }
            if let calibration { ok = ok && (depth.cameraCalibrationData != nil) == calibration }
            passed = passed && ok
        }
        return ExpectationResult(
            key: "depth", passed: passed, expected: expectedText, actual: actual.joined(separator: "; "),
            location: location)
    }
}
