import Foundation

/// Paths inside the repository, found from this source file's location.
enum TestPaths {
    /// The repository root: this file is `Tests/ScenesTests/TestPaths.swift`.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The seed scenes.
    static let scenes = root + "/Scenes"
    /// The broken-scene corpus.
    static let broken = root + "/Tests/ScenesTests/Broken"
}
