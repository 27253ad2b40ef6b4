/// Knobs of the renderer that do not change the physics.
public struct RenderOptions: Sendable, Hashable {
    /// Worker threads; nil uses every core. Output bytes never depend on it.
    public var threadCount: Int?
    /// Shadow rays per pixel for an ambient key light with a non-zero angular radius.
    public var softShadowSamples: Int
    /// Whether frames carry the noise-free flash and ambient components.
    public var keepsComponents: Bool

    /// Options.
    public init(threadCount: Int? = nil, softShadowSamples: Int = 4, keepsComponents: Bool = true) {
        self.threadCount = threadCount
        self.softShadowSamples = max(1, softShadowSamples)
        self.keepsComponents = keepsComponents
    }
}
