import Foundation

/// Paths of the repository and test inputs, found from this file's location.
enum TestPaths {
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let profiles = repositoryRoot.appendingPathComponent("DeviceProfiles").path
    static let broken = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Broken")
        .path
}
