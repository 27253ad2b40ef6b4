/// How a layer fits video into its bounds (`AVLayerVideoGravity`), with Apple's raw strings.
public struct AVLayerVideoGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Stretch to fill the bounds exactly, aspect ratio not kept.
    public static let resize = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResize")
    /// Fit inside the bounds, aspect ratio kept (letterboxed); the default.
    public static let resizeAspect = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspect")
    /// Cover the bounds, aspect ratio kept (cropped).
    public static let resizeAspectFill = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspectFill")
}
