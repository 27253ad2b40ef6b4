/// The mattes a camera delivers with photos (`isPortraitEffectsMatteDeliverySupported`,
/// `availableSemanticSegmentationMatteTypes`), and their size.
///
/// Both need depth delivery, so only cameras with depth formats carry this.
public struct MatteSupport: Sendable, Hashable, Codable {
    /// The semantic segmentation mattes, by Apple's matte types.
    public enum SemanticType: String, Sendable, Hashable, Codable, CaseIterable {
        case hair, skin, teeth, glasses
    }

    /// Whether a portrait effects matte can come with a photo.
    public var portraitEffects: Bool
    /// The semantic segmentation matte types offered, in Apple's order.
    public var semanticSegmentation: [SemanticType]
    /// A matte's width and height as a share of the photo's (0.5: half the photo on each side).
    public var scale: Double

    /// Matte support from its values.
    public init(portraitEffects: Bool, semanticSegmentation: [SemanticType], scale: Double) {
        self.portraitEffects = portraitEffects
        self.semanticSegmentation = semanticSegmentation
        self.scale = scale
    }
}
