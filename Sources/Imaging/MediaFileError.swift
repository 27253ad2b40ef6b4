/// A picture or movie file that could not be read (`PictureFile`, `MovieFile`, `Y4M`).
public struct MediaFileError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure it was.
    public enum Code: Sendable, Hashable {
        /// The file could not be opened or read.
        case unreadable
        /// The picture or movie declares, or would decode to, more pixels than allowed.
        case tooLarge
        /// The bytes are not a picture or movie the decoders read.
        case undecodable
        /// The library that decodes this kind of file is missing (FFmpeg's, for movies).
        case decoderMissing
    }

    /// What kind of failure it was.
    public let code: Code
    /// What went wrong, in words.
    public let message: String

    /// An error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
