import ObscuraSupport

/// `exception: NSInvalidArgumentException`, `reason_contains: flashMode`, `rule: "§3.2 rule 24"`;
/// or `exception: none` to insist that nothing was raised.
struct ExceptionExpectation: Expectation {
    static let keys = ["exception", "reason_contains", "rule"]
    let name: String?
    let reasonContains: String?
    let rule: String?
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.optional("exception") ?? expect.required("exception")
        let text = try node.string()
        name = text == "none" ? nil : text
        reasonContains = try expect.optional("reason_contains")?.string()
        rule = try expect.optional("rule")?.string()
        location = node.location
        if name == nil && (reasonContains != nil || rule != nil), let extra = expect.keyNode("reason_contains")
            ?? expect.keyNode("rule")
        {
            throw LocatedError(extra.location, "'exception: none' cannot carry a reason or a rule")
        }
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        var expected = name ?? "no exception"
        if let reasonContains { expected += ", reason containing '\(reasonContains)'" }
        if let rule { expected += ", rule '\(rule)'" }
        guard let raised = outcome.exception else {
            return ExpectationResult(
                key: "exception", passed: name == nil, expected: expected, actual: "no exception",
                location: location)
        }
        var actual = "\(raised.name): \(raised.reason)"
        if let fired = raised.rule { actual += " (\(fired))" }
        let passed = name == raised.name
            && (reasonContains.map { raised.reason.contains($0) } ?? true)
            && (rule.map { raised.rule?.contains($0) ?? false } ?? true)
        return ExpectationResult(key: "exception", passed: passed, expected: expected, actual: actual, location: location)
    }
}
