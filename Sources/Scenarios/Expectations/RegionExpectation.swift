import Foundation
import Imaging
import ObscuraAV
import ObscuraSupport
import Spectra

/// `region: {photo: 1, rect: [0.4, 0.4, 0.2, 0.2], mean_lab: {L: 50, a: 0, b: 0, max_delta_e00: 2},
/// delta_e00_to: {reflectance: colorchecker:13, illuminant: D65, max: 3}}`: colour statistics of a
/// rectangle of a delivered photo (fractions of the width and height, from the top-left).
struct RegionExpectation: Expectation {
    static let keys = ["region"]
    let photoIndex: Int
    let rect: RegionStatistics.Rect
    let meanLab: (Lab, Double)?
    let reference: (ReferenceColor, Double)?
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("region")
        let map = try node.mapping(allowedKeys: ["photo", "rect", "mean_lab", "delta_e00_to"])
        photoIndex = try map.optional("photo")?.int(in: 1...100) ?? 1
        let r = try map.optional("rect").map { try $0.sequence(count: 4).map { try $0.double(in: 0...1) } }
            ?? [0.25, 0.25, 0.5, 0.5]
        guard r[2] > 0, r[3] > 0, r[0] + r[2] <= 1 + 1e-9, r[1] + r[3] <= 1 + 1e-9 else {
            throw (map.optional("rect") ?? node).error("rect [x, y, width, height] must lie inside the image")
        }
        rect = RegionStatistics.Rect(x: r[0], y: r[1], width: r[2], height: r[3])
        if let labNode = map.optional("mean_lab") {
            let m = try labNode.mapping(allowedKeys: ["L", "a", "b", "max_delta_e00"])
            meanLab = (
                Lab(L: try m.required("L").double(), a: try m.required("a").double(), b: try m.required("b").double()),
                try m.optional("max_delta_e00")?.positiveDouble() ?? 2
            )
        } else {
            meanLab = nil
        }
        if let refNode = map.optional("delta_e00_to") {
            let m = try refNode.mapping(allowedKeys: ["reflectance", "object", "illuminant", "max"])
            let max = try m.required("max").positiveDouble()
            // The reference reads the same mapping without `max`.
            reference = (try ReferenceColor(refNode, ignoring: "max"), max)
        } else {
            reference = nil
        }
        guard meanLab != nil || reference != nil else {
            throw node.error("a region needs 'mean_lab' or 'delta_e00_to'")
        }
        location = node.location
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        var expected: [String] = []
        if let (lab, tol) = meanLab { expected.append("mean Lab within ΔE00 \(tol) of \(Self.text(lab))") }
        if let (ref, max) = reference { expected.append("ΔE00 ≤ \(max) to \(ref.description)") }
        func fail(_ why: String) -> ExpectationResult {
            ExpectationResult(
                key: "region", passed: false, expected: expected.joined(separator: "; "), actual: why, location: location)
        }
        let photos = outcome.photos
        guard photoIndex <= photos.count else { return fail("photo \(photoIndex) was not delivered") }
        guard let data = photos[photoIndex - 1].pngFileDataRepresentation(),
            let image = try? PNG.decode([UInt8](data)),
            case let .eightBit(pixels) = image.pixels
        else { return fail("photo \(photoIndex) has no readable 8-bit file data") }
        let space: RGBColorSpace = image.colorSpace == .displayP3 ? .displayP3 : .sRGB
        guard let mean = RegionStatistics.meanLab(pixels, space: space, rect: rect) else {
            return fail("the region holds no pixels")
        }
        var actual = ["mean Lab \(Self.text(mean)) (\(space.name))"]
        var passed = true
        if let (lab, tol) = meanLab {
            let d = DeltaE.ciede2000(mean, lab)
            passed = passed && d <= tol
            actual.append("ΔE00 \(String(format: "%.2f", d)) to the expected Lab")
        }
        if let (ref, max) = reference {
            guard let refLab = ref.lab(scene: context.scene) else { return fail("cannot resolve \(ref.description)") }
            let d = DeltaE.ciede2000(mean, refLab)
            passed = passed && d <= max
            actual.append("ΔE00 \(String(format: "%.2f", d)) to \(Self.text(refLab))")
        }
        return ExpectationResult(
            key: "region", passed: passed, expected: expected.joined(separator: "; "),
            actual: actual.joined(separator: "; "), location: location)
    }

    static func text(_ lab: Lab) -> String {
        String(format: "L %.2f a %.2f b %.2f", lab.L, lab.a, lab.b)
    }
}
