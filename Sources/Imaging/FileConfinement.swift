#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A set of folders that file references in shared input files may point into.
///
/// Scenario and scene files travel between teams and run on machines that hold secrets, so a
/// reference (`device: ../../.ssh/id_rsa.yaml`, a texture `png: /etc/shadow`) must not reach
/// outside the folders the user vouched for. Paths are compared after resolving every symbolic
/// link, so a link inside an allowed folder that points elsewhere is outside.
public struct FileConfinement: Sendable, Equatable {
    /// The allowed folders, as real paths (no links, no `.` or `..`), without duplicates.
    public let roots: [String]

    /// Confinement to `directories`; folders that do not exist are left out, as nothing can be
    /// read from them.
    public init(allowing directories: [String]) {
        var roots: [String] = []
        for directory in directories {
            guard let real = FileConfinement.realPath(directory), !roots.contains(real) else { continue }
            roots.append(real)
        }
        self.roots = roots
    }

    /// Whether `path` (absolute, or relative to the working directory) really lies inside one of the
    /// roots once its links are resolved.
    public func contains(_ path: String) -> Bool {
        let real = FileConfinement.resolved(path)
        return roots.contains { root in
            real == root || real.hasPrefix(root == "/" ? "/" : root + "/")
        }
    }

    /// This confinement with more folders allowed.
    public func allowing(_ directories: [String]) -> FileConfinement {
        FileConfinement(allowing: roots + directories)
    }

    /// The folder part of `path` (`.` for a bare name, `/` for a name at the root), split by hand:
    /// Foundation's `deletingLastPathComponent` has trapped on some one-component paths on Linux.
    public static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let folder = trimmed[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// `name` inside `folder`.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `realpath(3)` of an existing path; nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The real path of `path`; for a path that does not exist yet, the real path of its nearest
    /// existing ancestor followed by the remaining components, with `.` and `..` removed (a
    /// component that does not exist cannot be a link).
    public static func resolved(_ path: String) -> String {
        if let real = realPath(path) { return real }
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        var parts = absolute.split(separator: "/").map(String.init)
        var tail: [String] = []
        while !parts.isEmpty {
            let candidate = "/" + parts.joined(separator: "/")
            if let real = realPath(candidate) {
                return normalised(real, tail.reversed())
            }
            tail.append(parts.removeLast())
        }
        return normalised("/", tail.reversed())
    }

    private static func normalised(_ base: String, _ components: [String]) -> String {
        var parts = base.split(separator: "/").map(String.init)
        for component in components {
            switch component {
            case ".", "": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(component)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "/" }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
