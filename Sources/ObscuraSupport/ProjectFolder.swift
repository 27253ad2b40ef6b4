import Foundation
import ObscuraData

/// Finds a project folder (`DeviceProfiles/`, `Scenes/`) by walking up from a starting place, else
/// the copy bundled with the package.
public enum ProjectFolder {
    /// The first folder called `name` that `accepts` takes, walking up from the current directory and
    /// then from the executable's folder; else the package's bundled copy. Found from the current
    /// directory, the path stays relative (`../Scenes`), so that messages name files the way the
    /// user would type them.
    public static func find(
        named name: String, currentDirectory: String, executable: String?, accepts: (String) -> Bool
    ) -> String? {
        func walkUp(from start: URL, relative: Bool) -> String? {
            var dir = start.standardizedFileURL
            var levels = 0
            while true {
                let candidate = dir.appendingPathComponent(name).path
                if accepts(candidate) {
                    return relative ? String(repeating: "../", count: levels) + name : candidate
                }
                levels += 1
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { return nil }
                dir = parent
            }
        }
        if let found = walkUp(
            from: URL(fileURLWithPath: currentDirectory, isDirectory: true),
            relative: currentDirectory == FileManager.default.currentDirectoryPath)
        {
            return found
        }
        if let executable {
            let resolved = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            if let found = walkUp(from: resolved, relative: false) { return found }
        }
        return BundledData.folder(named: name).flatMap { accepts($0) ? $0 : nil }
    }
}
