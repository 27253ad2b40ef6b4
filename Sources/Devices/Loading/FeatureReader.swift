import ObscuraSupport

/// Reads a camera's `features` and `depth` sections.
enum FeatureReader {
    static let featureKeys = [
        "constant_color", "constituent_photo_delivery", "calibration_data_delivery", "intrinsic_matrix_delivery",
        "max_photo_quality_prioritization", "autofocus", "mattes", "provenance",
    ]

    static func features(_ node: YAMLNode) throws -> CameraFeatures {
        let map = try node.mapping(allowedKeys: featureKeys)
        return CameraFeatures(
            constantColor: try map.optional("constant_color")?.bool() ?? false,
            constituentPhotoDelivery: try map.optional("constituent_photo_delivery")?.bool() ?? false,
            calibrationDataDelivery: try map.optional("calibration_data_delivery")?.bool() ?? false,
            intrinsicMatrixDelivery: try map.optional("intrinsic_matrix_delivery")?.bool() ?? false,
            maxPhotoQualityPrioritization: try map.optional("max_photo_quality_prioritization")?
                .choice(QualityPrioritization.self) ?? .quality,
            autoFocus: try map.optional("autofocus")?.choice(AutoFocusKind.self),
            mattes: try map.optional("mattes").map(mattes),
            provenance: try ProvenanceReader.read(map, sectionKeys: featureKeys))
    }

    /// `mattes: {portrait_effects: true, semantic_segmentation: [hair, skin, teeth, glasses], scale: 0.5}`.
    static func mattes(_ node: YAMLNode) throws -> MatteSupport {
        let map = try node.mapping(allowedKeys: ["portrait_effects", "semantic_segmentation", "scale"])
        return MatteSupport(
            portraitEffects: try map.optional("portrait_effects")?.bool() ?? false,
            semanticSegmentation: try map.optional("semantic_segmentation")?.sequence()
                .map { try $0.choice(MatteSupport.SemanticType.self) } ?? [],
            scale: try map.required("scale").double(in: 0.0625...1))
    }

    /// Used when a camera has no `features`: nothing optional supported, quality allowed.
    static let defaultFeatures = CameraFeatures(
        constantColor: false, constituentPhotoDelivery: false, calibrationDataDelivery: false,
        intrinsicMatrixDelivery: false, maxPhotoQualityPrioritization: .quality,
        provenance: ProvenanceMap(Provenance(.modelled, "schema defaults")))

    static let depthKeys = [
        "technology", "accuracy", "baseline_mm", "min_range_m", "max_range_m", "relative_error_at_1m", "holes",
        "provenance",
    ]

    static func depth(_ node: YAMLNode) throws -> DepthCapability {
        let map = try node.mapping(allowedKeys: depthKeys)
        let minNode = try map.required("min_range_m")
        let minRange = try minNode.positiveDouble()
        let maxNode = try map.required("max_range_m")
        let maxRange = try maxNode.positiveDouble()
        guard minRange < maxRange else {
            throw maxNode.error("must exceed min_range_m (\(minRange)), found \(maxRange)")
        }
        return DepthCapability(
            technology: try map.required("technology").choice(DepthTechnology.self),
            accuracy: try map.required("accuracy").choice(DepthAccuracy.self),
            baselineMM: try map.optional("baseline_mm")?.positiveDouble(),
            minRangeM: minRange, maxRangeM: maxRange,
            relativeErrorAt1m: try map.required("relative_error_at_1m").double(in: 0...1),
            holes: try map.required("holes").choice(DepthHoleBehavior.self),
            provenance: try ProvenanceReader.read(map, sectionKeys: depthKeys))
    }
}
