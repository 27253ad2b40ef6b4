import ObscuraSupport

/// `callbacks: [willBeginCapture, willCapturePhoto, …]`: the exact delegate callback sequence.
struct CallbacksExpectation: Expectation {
    static let keys = ["callbacks"]
    static let names = [
        "willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture",
    ]
    let sequence: [String]
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("callbacks")
        let table = Dictionary(uniqueKeysWithValues: Self.names.map { ($0, $0) })
        sequence = try node.sequence().map { try $0.named(table, what: "callback") }
        location = node.location
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        let actual = outcome.callbackNames
        var detail = actual.isEmpty ? "no callbacks" : actual.joined(separator: ", ")
        if actual != sequence, let i = zip(actual, sequence).enumerated().first(where: { $0.element.0 != $0.element.1 })?
            .offset ?? Optional(min(actual.count, sequence.count))
        {
            detail += " (differs at position \(i + 1))"
        }
        return ExpectationResult(
            key: "callbacks", passed: actual == sequence, expected: sequence.joined(separator: ", "), actual: detail,
            location: location)
    }
}
