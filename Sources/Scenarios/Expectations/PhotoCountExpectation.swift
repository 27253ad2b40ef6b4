import ObscuraSupport

/// `photo_count: 2` (photos delivered) and `expectedPhotoCount: 2` (the resolved settings' count).
struct PhotoCountExpectation: Expectation {
    static let keys = ["photo_count", "expectedPhotoCount"]
    let delivered: Int?
    let expectedCount: Int?
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        delivered = try expect.optional("photo_count")?.int(in: 0...1000)
        expectedCount = try expect.optional("expectedPhotoCount")?.int(in: 0...1000)
        let node = try expect.optional("photo_count") ?? expect.required("expectedPhotoCount")
        location = node.location
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        let photos = outcome.photos.count
        let resolved = outcome.captures.compactMap { $0.resolved?.expectedPhotoCount }
        var expected: [String] = []
        var actual: [String] = []
        var passed = true
        if let delivered {
            expected.append("\(delivered) photos delivered")
            actual.append("\(photos) photos delivered")
            passed = passed && photos == delivered
        }
        if let expectedCount {
            expected.append("expectedPhotoCount \(expectedCount)")
            actual.append(resolved.isEmpty ? "no resolved settings" : "expectedPhotoCount \(resolved.map(String.init).joined(separator: ", "))")
            passed = passed && resolved == [expectedCount]
        }
        return ExpectationResult(
            key: "photo_count", passed: passed, expected: expected.joined(separator: "; "),
            actual: actual.joined(separator: "; "), location: location)
    }
}
