/// An error from a Spectra computation asked to work outside its domain.
public struct SpectraError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong, and what range would have been accepted.
    public let message: String

    /// An error with a message for a person.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
