import Foundation
import ObscuraSupport

/// Turns scene YAML files into validated `Scene` values, and finds scenes by name.
///
/// The schema is documented in `Scenes/README.md`. Every problem is reported as
/// `file:line:column: message`, unknown keys with the nearest allowed key as a suggestion; all
/// problems of a file are collected in one pass and thrown together as `LocatedErrors`, and no
/// scene is returned unless the whole file is valid.
///
/// The scenes directory is found, in order: an explicit path; the `OBSCURA_SCENES` environment
/// variable; a `Scenes/` folder found walking up from the current directory; one found walking
/// up from the running executable's directory; the copy compiled into the package (`BundledData`).
public struct SceneLoader: Sendable {
    /// The scenes directory.
    public let directory: String
    /// The scene documented as the default.
    public static let defaultSceneName = "violets-warm-room"
    /// The environment variable naming the scenes directory.
    public static let environmentVariable = "OBSCURA_SCENES"

    /// A loader rooted at an explicit or discovered directory.
    public init(directory explicit: String? = nil) throws {
        guard let found = SceneLoader.locate(explicit: explicit) else {
            throw ProjectFolder.notFound(named: "Scenes", explicit: explicit, variable: SceneLoader.environmentVariable)
        }
        directory = found
    }

    /// Loads and validates a scene file. Relative texture paths start at the file's directory.
    ///
    /// Textures must lie in the file's directory (or below it) or in one of `allowedDirectories`,
    /// after symbolic links are resolved.
    public static func load(path: String, allowedDirectories: [String] = []) throws -> Scene {
        let root = try YAMLDocument.load(path: path)
        let base = (path as NSString).deletingLastPathComponent
        return try SceneFileReader(
            file: path, baseDirectory: base.isEmpty ? "." : base, allowedDirectories: allowedDirectories
        ).read(root)
    }

    /// Loads and validates scene text; `file` is used in error locations, `baseDirectory` for
    /// texture paths, which must lie there or in one of `allowedDirectories`.
    public static func load(
        text: String, file: String, baseDirectory: String = ".", allowedDirectories: [String] = []
    ) throws -> Scene {
        let root = try YAMLDocument.parse(text, file: file)
        return try SceneFileReader(file: file, baseDirectory: baseDirectory, allowedDirectories: allowedDirectories)
            .read(root)
    }

    /// The scene files (`*.yaml`, not `*.scenario.yaml`), sorted by name.
    public var scenePaths: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".yaml") && !$0.hasSuffix(".scenario.yaml") }.sorted().map {
            (directory as NSString).appendingPathComponent($0)
        }
    }

    /// The scene names (file names without `.yaml`), sorted.
    public var names: [String] {
        scenePaths.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
    }

    /// Loads a scene by name (`violets-warm-room`) or by a path to a `.yaml` file.
    public func scene(_ nameOrPath: String) throws -> Scene {
        if nameOrPath.hasSuffix(".yaml") || nameOrPath.contains("/") {
            return try SceneLoader.load(path: nameOrPath)
        }
        let path = (directory as NSString).appendingPathComponent(nameOrPath + ".yaml")
        guard FileManager.default.fileExists(atPath: path) else {
            var message = "no scene \(TextExcerpt.quoted(nameOrPath)) in \(directory)"
            if let guess = EditDistance.suggestion(for: nameOrPath, among: names) {
                message += "; did you mean '\(guess)'?"
            }
            message += " (available: \(names.joined(separator: ", ")))"
            throw LocatedError(SourceLocation(file: directory, line: 1, column: 1), message)
        }
        return try SceneLoader.load(path: path)
    }

    /// The directory search described on the type, without loading anything.
    public static func locate(
        explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executable: String? = CommandLine.arguments.first
    ) -> String? {
        // A folder named Scenes is also the name of the source target (Sources/Scenes): the walk counts only
        // a folder holding the scene format's README (`ProjectFolder`), so it cannot stop at the sources.
        ProjectFolder.locate(
            named: "Scenes", explicit: explicit, variable: environmentVariable, environment: environment,
            currentDirectory: currentDirectory, executable: executable)
    }
}
