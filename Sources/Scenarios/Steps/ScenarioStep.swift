import ObscuraSupport

/// One API step of a scenario: a few calls a client app would make.
///
/// Adding a step is one file: a type conforming to this protocol, listed in `StepRegistry`.
public protocol ScenarioStep: Sendable {
    /// The key that names the step in a scenario file.
    static var key: String { get }
    /// What the step does, in a line, for `Scenes/README.md` and `obscura explain`.
    static var summary: String { get }
    /// Parses the step's value; `value` is nil for a bare step such as `- commit`.
    init(value: YAMLNode?, step: YAMLNode) throws
    /// The API calls the step makes, written as Swift, for reports and narration.
    var apiCalls: [String] { get }
    /// The spec sections whose rules these calls are checked against.
    var specSections: [String] { get }
    /// Makes the calls. An `NSException` raised by the API ends the step, as `@try` would;
    /// a thrown error is a problem of the scenario itself (a missing output, a bad device).
    func perform(_ context: RunContext) throws
}

extension ScenarioStep {
    /// Refuses a value for steps that take none.
    static func requireNoValue(_ value: YAMLNode?) throws {
        if let value { throw value.error("'\(key)' takes no value") }
    }

    /// The step's value, which must be present.
    static func requireValue(_ value: YAMLNode?, step: YAMLNode) throws -> YAMLNode {
        guard let value else { throw step.error("'\(key)' needs a value") }
        return value
    }
}

/// A failure of the scenario itself while running, at the step that caused it.
public struct StepFailure: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let message: String
    /// Makes a failure.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A step that names other files: the loader resolves and confines them (`FileReferences`) and
/// reads them while loading, so a step never opens a file while the scenario runs.
protocol FileReferencingStep: ScenarioStep {
    /// The step with its files read; errors are located at the keys that name the files.
    func resolvingFiles(_ references: FileReferences) throws -> Self
}
