/// Knobs of the renderer that do not change the physics.
public struct RenderOptions: Sendable, Hashable {
    /// Worker threads; nil uses every core. Output bytes never depend on it.
    public var threadCount: Int?
    /// Shadow rays per pixel for an ambient key light with a non-zero angular radius.
    public var softShadowSamples: Int
    /// Whether frames carry the noise-free flash and ambient components.
    public var keepsComponents: Bool
    /// Whether frames carry the noisy electrons plane (`RawFrame.electrons`). When false that plane
    /// is empty and only the DN plane, what a real sensor reports, is made: at 12 MP this saves
    /// writing 145 MB of fresh memory per frame. The DN values are the same either way.
    public var keepsElectrons: Bool
    /// Whether frames carry the frame means of the noise-free flash and ambient components
    /// (`RawFrame.meanFlashElectrons`, `RawFrame.meanAmbientElectrons`) when they do not keep the
    /// components themselves. The means are summed band by band as the frame is shaded, so a
    /// 12 MP frame needs no 290 MB of component planes for them. Frames that keep the components
    /// always carry their means.
    public var keepsComponentMeans: Bool
    /// Whether frames carry the render's truth planes (`RawFrame.depth`, `RawFrame.objectIDs`,
    /// `RawFrame.materialIDs`). When false those planes are empty, as in a frame made from a readout: a frame
    /// that is only developed needs none of them, and at 12 MP they hold 97 MB per frame, which a renderer's
    /// frames would otherwise keep alive after the renderer itself is gone. The DN values are the same either way.
    public var keepsTruth: Bool
    /// Whether the renderer keeps its per-pixel light factors at half precision (2 bytes each instead of 4): within
    /// 2⁻¹¹ (0.05 %) of their single-precision values, below a sensor's pixel-to-pixel gain spread, for half the
    /// memory (218 MB less at 12 MP with nine factors a pixel). Off, the renderer's electrons match the reference
    /// renderer's to single precision, which its tests hold it to.
    public var halfFactors: Bool

    /// Options.
    public init(
        threadCount: Int? = nil, softShadowSamples: Int = 4, keepsComponents: Bool = true,
        keepsElectrons: Bool = true, keepsComponentMeans: Bool = false, keepsTruth: Bool = true,
        halfFactors: Bool = false
    ) {
        self.threadCount = threadCount
        self.softShadowSamples = max(1, softShadowSamples)
        self.keepsComponents = keepsComponents
        self.keepsElectrons = keepsElectrons
        self.keepsComponentMeans = keepsComponentMeans
        self.keepsTruth = keepsTruth
        self.halfFactors = halfFactors
    }
}
