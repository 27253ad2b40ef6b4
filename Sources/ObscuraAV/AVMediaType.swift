/// A media type (`AVMediaType`), e.g. `.video`.
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let video = AVMediaType(rawValue: "vide")
    public static let audio = AVMediaType(rawValue: "soun")
    public static let depthData = AVMediaType(rawValue: "dpth")
    public static let metadata = AVMediaType(rawValue: "meta")
    /// Metadata objects (faces, machine-readable codes) from a camera.
    public static let metadataObject = AVMediaType(rawValue: "mobj")
}
