import ObscuraSupport

/// Reads the `optics`, `intrinsics`, `extrinsics` and `distortion` sections of a camera.
enum OpticsReader {
    static let opticsKeys = [
        "focal_length_mm", "focal_length_35mm_equiv_mm", "f_number", "pixel_size_um", "sensor_px",
        "minimum_focus_distance_mm", "provenance",
    ]
    static func optics(_ node: YAMLNode) throws -> CameraOptics {
        let map = try node.mapping(allowedKeys: opticsKeys)
        return CameraOptics(
            focalLengthMM: try map.required("focal_length_mm").positiveDouble(),
            focalLength35mmEquivalentMM: try map.required("focal_length_35mm_equiv_mm").positiveDouble(),
            fNumber: try map.required("f_number").double(in: 0.5...32),
            pixelSizeUM: try map.required("pixel_size_um").double(in: 0.3...20),
            sensor: try map.required("sensor_px").dimensions(),
            // From a macro lens's 2 cm to a long telephoto's few metres.
            minimumFocusDistanceMM: try map.optional("minimum_focus_distance_mm")?.double(in: 1...10_000),
            provenance: try ProvenanceReader.read(map, sectionKeys: opticsKeys))
    }

    static let intrinsicsKeys = ["fx_px", "fy_px", "cx_px", "cy_px", "reference_px", "provenance"]
    static func intrinsics(_ node: YAMLNode) throws -> CameraIntrinsics {
        let map = try node.mapping(allowedKeys: intrinsicsKeys)
        return CameraIntrinsics(
            fx: try map.required("fx_px").positiveDouble(), fy: try map.required("fy_px").positiveDouble(),
            cx: try map.required("cx_px").positiveDouble(), cy: try map.required("cy_px").positiveDouble(),
            reference: try map.required("reference_px").dimensions(),
            provenance: try ProvenanceReader.read(map, sectionKeys: intrinsicsKeys))
    }

    static let extrinsicsKeys = ["reference", "rotation", "translation_mm", "provenance"]
    static func extrinsics(
        _ node: YAMLNode, selfID: String, reference: (YAMLNode) throws -> String
    ) throws -> CameraExtrinsics {
        let map = try node.mapping(allowedKeys: extrinsicsKeys)
        let referenceNode = try map.required("reference")
        let referenceID = try referenceNode.string() == selfID ? selfID : try reference(referenceNode)
        let rows = try map.required("rotation").sequence(count: 3)
        var rotation: [[Double]] = []
        for row in rows {
            let values = try row.sequence(count: 3).map { try $0.double(in: -1...1) }
            rotation.append(values)
        }
        // A rotation matrix has orthonormal rows; 1e-3 allows values rounded to four decimals.
        for i in 0..<3 {
            for j in 0..<3 {
                let dot = (0..<3).reduce(0.0) { $0 + rotation[i][$1] * rotation[j][$1] }
                if abs(dot - (i == j ? 1 : 0)) > 1e-3 {
                    throw try map.required("rotation").error("is not a rotation: its rows are not orthonormal")
                }
            }
        }
        let translation = try map.required("translation_mm").sequence(count: 3).map { try $0.double() }
        return CameraExtrinsics(
            reference: referenceID, rotation: rotation, translationMM: translation,
            provenance: try ProvenanceReader.read(map, sectionKeys: extrinsicsKeys))
    }

    static let distortionKeys = ["center_px", "lookup_table", "inverse_lookup_table", "provenance"]
    static func distortion(_ node: YAMLNode) throws -> LensDistortion {
        let map = try node.mapping(allowedKeys: distortionKeys)
        let center = try map.required("center_px").sequence(count: 2).map { try $0.nonNegativeDouble() }
        // A relative elongation of −1 would collapse the radius to zero; real tables stay near 0.
        func table(_ key: String) throws -> [Double] {
            let node = try map.required(key)
            let values = try node.doubles(minimum: 2)
            for (i, item) in try node.sequence().enumerated() where values[i] <= -1 || values[i] > 1 {
                throw item.error("must be between -1 and 1 (a relative elongation), found \(values[i])")
            }
            return values
        }
        let forward = try table("lookup_table")
        let inverse = try table("inverse_lookup_table")
        return LensDistortion(
            centerX: center[0], centerY: center[1], lookupTable: forward, inverseLookupTable: inverse,
            provenance: try ProvenanceReader.read(map, sectionKeys: distortionKeys))
    }
}

extension OpticsReader {
    static let shadingKeys = ["natural", "image_height", "relative_illumination", "correction", "provenance"]
    /// The `shading` section (see `LensShadingProfile`): `natural: cos4`, a table of
    /// `relative_illumination` against `image_height`, or both.
    static func shading(_ node: YAMLNode) throws -> LensShadingProfile {
        let map = try node.mapping(allowedKeys: shadingKeys)
        var natural = false
        if let law = map.optional("natural") {
            guard try law.string() == "cos4" else {
                throw law.error("the natural fall-off is 'cos4' (the cos⁴ law), found \(try law.string())")
            }
            natural = true
        }
        var heights: [Double] = [], values: [Double] = []
        switch (map.optional("image_height"), map.optional("relative_illumination")) {
        case (nil, nil):
            guard natural else {
                throw map.node.error(
                    "needs 'natural: cos4', a table of 'relative_illumination' against 'image_height', or both")
            }
        case let (h?, nil):
            throw h.error("'image_height' needs its 'relative_illumination' values")
        case let (nil, v?):
            throw v.error("'relative_illumination' needs the 'image_height' it is sampled at")
        case let (h?, v?):
            heights = try h.doubles(minimum: 2)
            values = try v.doubles(minimum: 2)
            guard values.count == heights.count else {
                throw v.error("has \(values.count) values for \(heights.count) image heights")
            }
            let heightItems = try h.sequence(), valueItems = try v.sequence()
            // Heights run from the principal point (0) outwards; a little beyond 1 covers a principal
            // point off the reference centre.
            guard heights[0] == 0 else { throw heightItems[0].error("the first image height is 0 (the centre)") }
            for i in 1..<heights.count where !(heights[i] > heights[i - 1] && heights[i] <= 2) {
                throw heightItems[i].error("image heights increase, up to 2 (1 is the farthest corner)")
            }
            // Relative to the centre: 1 there, and a lens passes no more than it does on axis.
            guard values[0] == 1 else {
                throw valueItems[0].error("relative illumination is 1 at the centre, found \(values[0])")
            }
            for (i, item) in valueItems.enumerated() where !(values[i] > 0 && values[i] <= 1) {
                throw item.error("relative illumination lies in (0, 1], found \(values[i])")
            }
        }
        return LensShadingProfile(
            naturalCosineFourth: natural, imageHeights: heights, relativeIllumination: values,
            correction: try map.optional("correction")?.double(in: 0...1) ?? 1,
            provenance: try ProvenanceReader.read(map, sectionKeys: shadingKeys))
    }
}
