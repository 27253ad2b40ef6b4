/// One rule a capture evaluated, or one decision it made, as `Emulator.trace` records it.
///
/// Every validation rule of `capturePhoto(with:delegate:)` that runs leaves an entry, whether it
/// passed or raised, so that `obscura explain` can tell the whole story of a request, not only
/// the rule that fired.
public struct TraceEntry: Sendable, Hashable, CustomStringConvertible {
    /// What came of the rule.
    public enum Outcome: String, Sendable, Hashable {
        /// The rule's condition held; the call went on.
        case passed
        /// The rule raised its exception; the call stopped here.
        case raised
        /// Not a check but a choice the capture made (flash, exposure, photo count).
        case decided
    }

    /// The specification section, e.g. `§3.2`.
    public let section: String
    /// The rule number inside the section's table, if it has one.
    public let rule: Int?
    /// What came of it.
    public let outcome: Outcome
    /// A sentence a person can read.
    public let sentence: String

    /// An entry.
    public init(section: String, rule: Int?, outcome: Outcome, sentence: String) {
        self.section = section
        self.rule = rule
        self.outcome = outcome
        self.sentence = sentence
    }

    /// `§3.2 rule 11 passed: …`.
    public var description: String {
        "\(section)\(rule.map { " rule \($0)" } ?? "") \(outcome.rawValue): \(sentence)"
    }
}
