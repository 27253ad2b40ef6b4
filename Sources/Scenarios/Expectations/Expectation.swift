import ObscuraSupport

/// A check made after a step ran.
///
/// Adding an expectation is one file: a type conforming to this protocol, listed in
/// `ExpectationRegistry`. Each type claims the keys of the `expect:` mapping it reads.
public protocol Expectation: Sendable {
    /// The keys of `expect:` this expectation reads; the first one names it.
    static var keys: [String] { get }
    /// Parses the expectation from the `expect:` mapping, which holds at least one of `keys`.
    init(_ expect: YAMLMapping) throws
    /// Where the expectation is written.
    var location: SourceLocation { get }
    /// Compares what happened with what was expected.
    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult
}

/// The verdict on one expectation: what was expected and what happened.
public struct ExpectationResult: Sendable, Codable {
    /// The expectation's key (`exception`, `callbacks`, …).
    public let key: String
    /// Whether it held.
    public let passed: Bool
    /// What was expected, as a person would write it.
    public let expected: String
    /// What happened.
    public let actual: String
    /// `file:line:column` of the expectation.
    public let location: String

    /// Makes a verdict.
    public init(key: String, passed: Bool, expected: String, actual: String, location: SourceLocation) {
        self.key = key
        self.passed = passed
        self.expected = expected
        self.actual = actual
        self.location = location.description
    }
}
