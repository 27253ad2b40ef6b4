import ObscuraSupport

/// An output a step asks to save, with the file it goes to inside the output directory.
public struct SaveRequest: Sendable, Hashable {
    /// What can be saved.
    public enum Kind: String, Sendable, CaseIterable {
        /// Every processed photo the step delivered, except Constant Color fallbacks (PNG).
        case photo
        /// The Constant Color fallback (ambient) photo (PNG).
        case fallback
        /// The Constant Color confidence maps of the step's photos (8-bit PNG).
        case confidence_map
        /// The step's last streamed depth map: 16-bit PNG in millimetres plus a float `.pfm` in metres.
        case depth
        /// The step's last streamed depth map as an 8-bit picture, near bright.
        case depth_visualisation

        /// Whether the output comes from a capture step (else from a stream step).
        var fromCapture: Bool { self == .photo || self == .fallback || self == .confidence_map }
    }

    /// The file format of a saved photo (`save: [{photo: pot.jpg, format: jpeg}]`).
    public enum PhotoFormat: String, Sendable, CaseIterable {
        case png, jpeg, heic

        /// The extensions a path of the format may end in, the usual one first.
        public var extensions: [String] {
            switch self {
            case .png: return ["png"]
            case .jpeg: return ["jpg", "jpeg"]
            case .heic: return ["heic"]
            }
        }

        /// The format whose extension ends `path`, if any.
        static func named(by path: String) -> PhotoFormat? {
            allCases.first { format in format.extensions.contains { path.lowercased().hasSuffix("." + $0) } }
        }
    }

    /// What to save.
    public let kind: Kind
    /// A saved photo's file format: PNG (lossless, the default), or JPEG or HEIC as the photo path
    /// writes them, with Exif and an ICC profile.
    public var format: PhotoFormat = .png
    /// The path relative to the output directory, or nil for the default name.
    public let relativePath: String?
    /// Where the request is written in the scenario.
    public let location: SourceLocation

    /// Checks that a user-given relative path cannot leave the output directory, and that it ends in
    /// one of `extensions`.
    static func validateRelative(_ path: String, node: YAMLNode, extensions: [String] = ["png"]) throws {
        if path.hasPrefix("/") || path.hasPrefix("~") {
            throw node.error("output paths must be relative to the output directory, found \(TextExcerpt.quoted(path))")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains("..") {
            throw node.error("output paths may not contain '..' (they must stay inside the output directory)")
        }
        if parts.contains(where: \.isEmpty) || parts.last == "." {
            throw node.error("output path \(TextExcerpt.quoted(path)) is not a file name")
        }
        guard extensions.contains(where: { path.lowercased().hasSuffix("." + $0) }) else {
            let names = extensions.map { "." + $0 }.joined(separator: " or ")
            throw node.error("output path \(TextExcerpt.quoted(path)) must end in \(names)")
        }
    }
}
