/// The rule of the capture specification that made a call fail, so a person can be told why.
///
/// Rules are cited as the specification cites them: a section (`§3.2`), an optional rule number
/// in that section's table, and how sure we are that Apple behaves this way.
public struct CaptureRule: Sendable, Hashable, CustomStringConvertible {
    /// How the rule is known (spec §0).
    public enum Confidence: String, Sendable, Hashable {
        /// Documented by Apple.
        case documented = "D"
        /// Stated by Apple engineers in a WWDC session.
        case stated = "T"
        /// Observed in crash reports, third-party code or decompiled dumps.
        case observed = "O"
        /// Inferred; a design choice of the emulator.
        case inferred = "I"
    }

    /// The specification section, e.g. `§3.2`.
    public let section: String
    /// The rule number inside the section's table, if it has one.
    public let number: Int?
    /// How the rule is known.
    public let confidence: Confidence
    /// One line saying what the rule demands.
    public let summary: String

    /// A rule of a section, with how it is known.
    public init(_ section: String, rule number: Int? = nil, _ confidence: Confidence, _ summary: String) {
        self.section = section
        self.number = number
        self.confidence = confidence
        self.summary = summary
    }

    /// `spec §3.2 rule 11 [D]: summary`.
    public var description: String {
        let rule = number.map { " rule \($0)" } ?? ""
        return "spec \(section)\(rule) [\(confidence.rawValue)]: \(summary)"
    }
}
