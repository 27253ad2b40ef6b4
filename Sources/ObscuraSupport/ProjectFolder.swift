import Foundation
import ObscuraData

/// Finds a project folder (`DeviceProfiles/`, `Scenes/`) by walking up from a starting place, else
/// the copy compiled into the package (`BundledData`).
///
/// What the walk finds widens what scenarios may read (`FileReferences`), so a checkout must not be
/// able to plant one that reaches elsewhere (`DeviceProfiles -> /`). A folder found by walking up
/// counts only when, links resolved, it is a real folder inside the tree of the folder it was found
/// in (the repository's own `Scenes -> Sources/ObscuraData/Scenes` is), and when it holds Obscura's
/// own README for that folder, itself a plain file.
public enum ProjectFolder {
    /// The first line of Obscura's README in each folder the walk may find.
    static let readmeHeadings = ["DeviceProfiles": "# Device profiles", "Scenes": "# Scenes"]

    /// The folder `name` as the catalogues look for it: `explicit` when given, else the environment variable
    /// `variable` when set (either counts only if it is a folder: a wrong path is no reason to look elsewhere),
    /// else the walk of `find`.
    public static func locate(
        named name: String, explicit: String?, variable: String, environment: [String: String],
        currentDirectory: String, executable: String?
    ) -> String? {
        func isDirectory(_ path: String) -> Bool {
            var flag: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
        }
        if let explicit { return isDirectory(explicit) ? explicit : nil }
        if let value = environment[variable], !value.isEmpty { return isDirectory(value) ? value : nil }
        return find(named: name, currentDirectory: currentDirectory, executable: executable)
    }

    /// Why `locate` found no folder `name`, as an error naming what the user gave: the explicit path or the
    /// variable's value that is not a folder, else that the walk found none.
    public static func notFound(
        named name: String, explicit: String?, variable: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> LocatedError {
        if let explicit { return LocatedError(.whole(explicit), "\(explicit) is not a folder (the \(name) directory)") }
        if let value = environment[variable], !value.isEmpty {
            return LocatedError(.whole(value), "\(variable)=\(value) is not a folder")
        }
        return LocatedError(.whole(name), "cannot find the \(name) directory; pass a path or set \(variable)")
    }

    /// The first folder called `name` that is Obscura's (`isObscuraFolder`), walking up from the current
    /// directory and then from the executable's folder; else the package's compiled-in copy. Found from the
    /// current directory, the path stays relative (`../Scenes`), so that messages name files the way the user
    /// would type them.
    public static func find(named name: String, currentDirectory: String, executable: String?) -> String? {
        func walkUp(from start: URL, relative: Bool) -> String? {
            var dir = start.standardizedFileURL
            var levels = 0
            while true {
                let candidate = dir.appendingPathComponent(name).path
                if isObscuraFolder(candidate, named: name, in: dir.path) {
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
        return BundledData.folder(named: name)
    }

    /// Whether `candidate`, the entry `name` of the folder `parent`, is once links are resolved a folder
    /// inside `parent`'s tree holding Obscura's README for `name` as a plain file.
    static func isObscuraFolder(_ candidate: String, named name: String, in parent: String) -> Bool {
        var info = stat()
        guard let realParent = realPath(parent), let realCandidate = realPath(candidate),
            realCandidate.hasPrefix(realParent == "/" ? "/" : realParent + "/"),
            stat(realCandidate, &info) == 0, info.st_mode & S_IFMT == S_IFDIR
        else { return false }
        let readme = realCandidate + "/README.md"
        guard lstat(readme, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size < 1 << 20,
            let heading = readmeHeadings[name],
            let data = FileManager.default.contents(atPath: readme),
            let text = String(data: data, encoding: .utf8)
        else { return false }
        return text.split(separator: "\n", maxSplits: 1).first.map(String.init) == heading
    }

    private static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
