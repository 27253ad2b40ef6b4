/// A PNG that could not be decoded, encoded, read or written.
public struct PNGError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure it was. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let description: String

        /// The data does not start with the PNG signature.
        public static let notPNG = Code(description: "notPNG")
        /// The data is damaged: CRC, compressed stream, chunk layout or truncation.
        public static let corrupt = Code(description: "corrupt")
        /// The declared size is over the decoder's limits.
        public static let tooLarge = Code(description: "tooLarge")
        /// Memory ran out.
        public static let outOfMemory = Code(description: "outOfMemory")
        /// The image or its metadata cannot be stored as PNG.
        public static let invalidImage = Code(description: "invalidImage")
        /// The file could not be read or written.
        public static let io = Code(description: "io")
    }

    /// What kind of failure it was.
    public let code: Code
    /// What went wrong, in words.
    public let message: String
    /// The file involved, when there was one.
    public let path: String?

    /// Makes an error.
    public init(code: Code, message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    /// `path: message`, or the message alone.
    public var description: String {
        guard let path else { return "PNG: \(message)" }
        return "\(path): PNG: \(message)"
    }

    func at(path: String) -> PNGError { PNGError(code: code, message: message, path: path) }
}
