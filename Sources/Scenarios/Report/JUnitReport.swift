import Foundation

/// `junit.xml`: the run in the JUnit XML layout that CI services read (Jenkins, GitLab, GitHub
/// test reporters), one `<testsuite>` per scenario and one `<testcase>` per expectation.
///
/// The layout follows the widely used Ant/Jenkins `junit-10.xsd` shape: `<testsuites>` holds
/// totals, each `<testsuite>` its counts and time, each `<testcase>` a `classname` (the scenario),
/// a `name` (the step and the expectation) and, when the expectation failed, a `<failure>` whose
/// message starts with the expectation's `file:line:column:`, the file named as the user gave it,
/// so a log or annotation can point at it. A scenario file that could not be read is a test case
/// with an `<error>` at its location (`Problem`). Times are the wall-clock seconds of the run; a
/// step's time is given to each of its expectations' cases, since they are checked together.
/// report.json leaves the times and the path as given out, to stay reproducible; `RunRecord`
/// (run.json) keeps them, so results read back by `obscura report merge` have them too, and show
/// 0 only without a run.json.
public enum JUnitReport {
    /// A scenario file that could not be read or run: reported as a test case with an `<error>`,
    /// so one bad file shows in CI beside the scenarios that ran.
    public struct Problem: Sendable, Codable, Equatable {
        /// The scenario's name (its file name without `.scenario.yaml`).
        public var name: String
        /// The file as the user named it.
        public var file: String
        /// Where the problem is (`file:line:column`), or the file alone when there is no place in it.
        public var location: String
        /// Every problem found, one a line, each with its own location.
        public var message: String

        public init(name: String, file: String, location: String, message: String) {
            self.name = name
            self.file = file
            self.location = location
            self.message = message
        }
    }

    /// The file in a run's folder (several scenarios, `--out`) that lists the files that could not be run, so
    /// `obscura report merge` reports them as the run did. Written only when there are some.
    public static let problemsFileName = "errors.json"

    /// `problems` as the JSON of `problemsFileName`: an array of objects with `name`, `file`, `location` and
    /// `message`.
    public static func encodeProblems(_ problems: [Problem]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(problems)) + [0x0A]
    }

    /// The problems a `problemsFileName` file lists.
    public static func decodeProblems(_ bytes: [UInt8]) throws -> [Problem] {
        try JSONDecoder().decode([Problem].self, from: Data(bytes))
    }

    /// The XML text of `results`, then of `problems`.
    public static func render(_ results: [ScenarioResult], problems: [Problem] = [], name: String = "obscura")
        -> String
    {
        let tests = results.reduce(0) { $0 + $1.expectations.count } + problems.count
        let failures = results.reduce(0) { $0 + $1.failures.count }
        let time = results.reduce(0) { $0 + ($1.wallSeconds ?? 0) }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(escape(name))\" tests=\"\(tests)\" failures=\"\(failures)\" "
            + "errors=\"\(problems.count)\" time=\"\(seconds(time))\">\n"
        for (id, result) in results.enumerated() {
            xml += suite(result, id: id)
        }
        for (n, problem) in problems.enumerated() {
            xml += suite(problem, id: results.count + n)
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func suite(_ problem: Problem, id: Int) -> String {
        var attributes = "classname=\"\(escape(problem.name))\" name=\"\(escape("load \(problem.file)"))\""
        let place = SourcePlace(problem.location)
        attributes += " file=\"\(escape(place?.file ?? problem.file))\""
        if let place { attributes += " line=\"\(place.line)\"" }
        let first = problem.message.split(separator: "\n").first.map(String.init) ?? problem.message
        let message = first.hasPrefix(problem.location) ? first : "\(problem.location): \(first)"
        return "  <testsuite name=\"\(escape(problem.name))\" id=\"\(id)\" package=\"obscura\" tests=\"1\" "
            + "failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\" file=\"\(escape(problem.file))\">\n"
            + "    <testcase \(attributes) time=\"0.000\">\n"
            + "      <error message=\"\(escape(message))\" type=\"scenario file\">\(escape(problem.message))</error>\n"
            + "    </testcase>\n  </testsuite>\n"
    }

    private static func suite(_ result: ScenarioResult, id: Int) -> String {
        var xml = "  <testsuite name=\"\(escape(result.name))\" id=\"\(id)\" package=\"obscura\" "
            + "tests=\"\(result.expectations.count)\" failures=\"\(result.failures.count)\" errors=\"0\" "
            + "skipped=\"0\" time=\"\(seconds(result.wallSeconds ?? 0))\" file=\"\(escape(result.givenFile ?? result.file))\">\n"
        xml += "    <properties>\n"
        for (key, value) in [("device", result.device), ("scene", result.scene), ("seed", "\(result.seed)"),
                             ("clock", result.clock)] {
            xml += "      <property name=\"\(key)\" value=\"\(escape(value))\"/>\n"
        }
        xml += "    </properties>\n"
        for step in result.steps {
            for verdict in step.expectations {
                xml += testCase(verdict, step: step, result: result)
            }
        }
        xml += "  </testsuite>\n"
        return xml
    }

    private static func testCase(_ verdict: ExpectationResult, step: ScenarioResult.StepResult, result: ScenarioResult)
        -> String
    {
        let name = "step \(step.index) \(step.key): \(verdict.key)"
        var attributes = "classname=\"\(escape(result.name))\" name=\"\(escape(name))\""
        let location = result.locatedAsGiven(verdict.location)
        let place = SourcePlace(location)
        if let place {
            attributes += " file=\"\(escape(place.file))\" line=\"\(place.line)\""
        }
        attributes += " time=\"\(seconds(step.wallSeconds ?? 0))\""
        if verdict.passed { return "    <testcase \(attributes)/>\n" }
        let message = "\(location): \(verdict.key) failed: expected \(verdict.expected); got \(verdict.actual)"
        return "    <testcase \(attributes)>\n"
            + "      <failure message=\"\(escape(message))\" type=\"\(escape(verdict.key))\">"
            + escape("\(location): \(verdict.key) failed\nexpected: \(verdict.expected)\n"
                + "actual:   \(verdict.actual)")
            + "</failure>\n    </testcase>\n"
    }

    /// `file:line:column` split into its parts; nil when the text has no such ending.
    private struct SourcePlace {
        let file: String
        let line: Int

        init?(_ location: String) {
            let parts = location.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 3, let line = Int(parts[parts.count - 2]), Int(parts[parts.count - 1]) != nil
            else { return nil }
            file = parts.dropLast(2).joined(separator: ":")
            self.line = line
        }
    }

    /// Seconds with millisecond resolution, as the schema's decimal; never NaN or negative.
    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value.isFinite ? max(0, value) : 0)
    }

    /// Text escaped for XML attributes and content. Characters XML 1.0 cannot hold at all (most
    /// C0 controls) become U+FFFD, so a scenario's text cannot make the file unreadable.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
