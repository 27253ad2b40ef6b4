import Foundation
import PackagePlugin

/// Compiles the data folders of a target (`DeviceProfiles/`, `Scenes/`) into it as one generated Swift
/// source, so that a program linking the target needs no resource folder beside its executable.
///
/// The folders stay ordinary files in the repository, the one place they are edited; the generated
/// source lives in the build folder only and is remade whenever one of the files changes.
@main
struct EmbedData: BuildToolPlugin {
    /// The folders of the target that are embedded, each with everything below it.
    static let folders = ["DeviceProfiles", "Scenes"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // The target sits at SwiftPM's default path. `target.directoryURL` would say so directly, but it
        // needs tools version 6.1 and the package keeps 6.0 for its dependents.
        let root = context.package.directoryURL.appendingPathComponent("Sources/\(target.name)")
        var relativePaths: [String] = []
        for folder in Self.folders {
            relativePaths += try Self.files(below: folder, in: root)
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(relativePaths.count) data files into \(target.name)",
                executable: try context.tool(named: "DataEmbedder").url,
                arguments: [output.path, root.path] + relativePaths,
                inputFiles: relativePaths.map { root.appendingPathComponent($0) },
                outputFiles: [output])
        ]
    }

    /// The plain files below `folder` (a path relative to `root`), as sorted relative paths; hidden
    /// entries (editor and system litter) are left out.
    static func files(below folder: String, in root: URL) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        var found: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: base.path) where !name.hasPrefix(".") {
            let relative = folder + "/" + name
            var isDirectory: ObjCBool = false
            let path = root.appendingPathComponent(relative).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            found += isDirectory.boolValue ? try files(below: relative, in: root) : [relative]
        }
        return found.sorted()
    }
}
