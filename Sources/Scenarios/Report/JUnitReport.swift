import Foundation

/// `junit.xml`: the run in the JUnit XML layout that CI services read (Jenkins, GitLab, GitHub
/// test reporters), one `<testsuite>` per scenario and one `<testcase>` per expectation.
///
/// The layout follows the widely used Ant/Jenkins `junit-10.xsd` shape: `<testsuites>` holds
/// totals, each `<testsuite>` its counts and time, each `<testcase>` a `classname` (the scenario),
/// a `name` (the step and the expectation) and, when the expectation failed, a `<failure>` whose
/// message starts with the expectation's `file:line:column:` so a log or annotation can point at
/// it. Times are the wall-clock seconds of the run; a step's time is given to each of its
/// expectations' cases, since they are checked together. Results read back from report.json
/// have no times (report.json leaves them out to stay reproducible) and show 0.
public enum JUnitReport {
    /// The XML text of `results`.
    public static func render(_ results: [ScenarioResult], name: String = "obscura") -> String {
        let tests = results.reduce(0) { $0 + $1.expectations.count }
        let failures = results.reduce(0) { $0 + $1.failures.count }
        let time = results.reduce(0) { $0 + ($1.wallSeconds ?? 0) }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(escape(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" "
            + "time=\"\(seconds(time))\">\n"
        for (id, result) in results.enumerated() {
            xml += suite(result, id: id)
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func suite(_ result: ScenarioResult, id: Int) -> String {
        var xml = "  <testsuite name=\"\(escape(result.name))\" id=\"\(id)\" package=\"obscura\" "
            + "tests=\"\(result.expectations.count)\" failures=\"\(result.failures.count)\" errors=\"0\" "
            + "skipped=\"0\" time=\"\(seconds(result.wallSeconds ?? 0))\" file=\"\(escape(result.file))\">\n"
        xml += "    <properties>\n"
        for (key, value) in [("device", result.device), ("scene", result.scene), ("seed", "\(result.seed)"),
                             ("clock", result.clock)] {
            xml += "      <property name=\"\(key)\" value=\"\(escape(value))\"/>\n"
        }
        xml += "    </properties>\n"
        for step in result.steps {
            for verdict in step.expectations {
                xml += testCase(verdict, step: step, scenario: result.name)
            }
        }
        xml += "  </testsuite>\n"
        return xml
    }

    private static func testCase(_ verdict: ExpectationResult, step: ScenarioResult.StepResult, scenario: String)
        -> String
    {
        let name = "step \(step.index) \(step.key): \(verdict.key)"
        var attributes = "classname=\"\(escape(scenario))\" name=\"\(escape(name))\""
        let place = SourcePlace(verdict.location)
        if let place {
            attributes += " file=\"\(escape(place.file))\" line=\"\(place.line)\""
        }
        attributes += " time=\"\(seconds(step.wallSeconds ?? 0))\""
        if verdict.passed { return "    <testcase \(attributes)/>\n" }
        let message = "\(verdict.location): \(verdict.key) failed: expected \(verdict.expected); got \(verdict.actual)"
        return "    <testcase \(attributes)>\n"
            + "      <failure message=\"\(escape(message))\" type=\"\(escape(verdict.key))\">"
            + escape("\(verdict.location): \(verdict.key) failed\nexpected: \(verdict.expected)\n"
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
