import ObscuraSupport

/// `notifications: [AVCaptureSessionRuntimeErrorNotification]`: notifications the session posted
/// during the step, each matched as a substring of the recorded text (name plus error).
struct NotificationsExpectation: Expectation {
    static let keys = ["notifications"]
    let expectedTexts: [String]
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("notifications")
        expectedTexts = try node.sequence().map { try $0.string() }
        location = node.location
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        let posted = outcome.notifications
        let passed = posted.count == expectedTexts.count
            && zip(posted, expectedTexts).allSatisfy { $0.0.contains($0.1) }
        return ExpectationResult(
            key: "notifications", passed: passed,
            expected: expectedTexts.isEmpty ? "none posted" : expectedTexts.joined(separator: ", "),
            actual: posted.isEmpty ? "none posted" : posted.joined(separator: ", "), location: location)
    }
}
