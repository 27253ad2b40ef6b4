#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open directory below which folders and files are created one component at a time, relative
/// to the open descriptor, never through a symbolic link.
///
/// Checking a path and then writing to it by name leaves a gap: a link planted in between (or
/// before, in a folder a scenario writes into) would be followed, and folders created through it
/// outside. Opening every component with `O_NOFOLLOW | O_DIRECTORY` relative to its parent's
/// descriptor closes that gap: what is opened is what is checked.
public final class DirectoryHandle: @unchecked Sendable {
    // @unchecked: the descriptor is fixed at init and closed once, in deinit.

    /// The directory's path, for messages.
    public let path: String
    private let descriptor: Int32

    /// Opens an existing directory the user named (a link there is the user's own choice).
    public init(opening path: String) throws(AtomicFileError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AtomicFileError(path: path, operation: "open the folder") }
        self.path = path
        self.descriptor = descriptor
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Creates the folders of `path` that are missing, one component at a time, so that a failure
    /// names the component that failed.
    public static func createFolders(_ path: String) throws(AtomicFileError) {
        guard !path.isEmpty else { return }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) == 0 { continue }
            let code = errno
            var info = stat()
            if code == EEXIST, stat(current, &info) == 0 {
                if FileKind(info.st_mode) == .directory { continue }
                let kind = FileKind(info.st_mode).description
                throw AtomicFileError(path: current, operation: "create the folder", reason: "\(kind) is in the way")
            }
            errno = code
            throw AtomicFileError(path: current, operation: "create the folder")
        }
    }

    /// Whether `name` can name one entry of a directory: not empty, `.` or `..`, and without `/`.
    public static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0)
    }

    /// The folder `name` inside this one, created when missing and `create` is set. A symbolic link or
    /// anything but a folder of that name is refused.
    public func subdirectory(_ name: String, create: Bool = true) throws(AtomicFileError) -> DirectoryHandle {
        let childPath = path + "/" + name
        guard Self.isPlainName(name) else {
            throw AtomicFileError(path: childPath, operation: "open the folder", reason: "not a plain name")
        }
        if create && mkdirat(descriptor, name, 0o755) != 0 && errno != EEXIST {
            throw AtomicFileError(path: childPath, operation: "create the folder")
        }
        let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else {
            let code = errno
            if code == ELOOP || code == ENOTDIR, let kind = kind(of: name), kind != .directory {
                throw AtomicFileError(
                    path: childPath, operation: "open the folder", reason: "it is \(kind.description)")
            }
            errno = code
            throw AtomicFileError(path: childPath, operation: "open the folder")
        }
        return DirectoryHandle(path: childPath, descriptor: child)
    }

    /// The folder reached through `components` (each a plain name), created as needed.
    public func subdirectory(
        path components: [String], create: Bool = true
    ) throws(AtomicFileError) -> DirectoryHandle {
        var current = self
        for component in components { current = try current.subdirectory(component, create: create) }
        return current
    }

    /// What the entry `name` is, without following a link; nil when it does not exist.
    func kind(of name: String) -> FileKind? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileKind(info.st_mode)
    }

    /// Atomically replaces (or creates) the regular file `name` in this folder, as `AtomicFile.write`
    /// does, but relative to the open folder. An existing link or non-regular file of that name is refused.
    public func writeFile(_ bytes: [UInt8], named name: String) throws(AtomicFileError) {
        let target = path + "/" + name
        guard Self.isPlainName(name) else {
            throw AtomicFileError(path: target, operation: "name the file", reason: "not a plain name")
        }
        if let existing = kind(of: name), existing != .regular {
            throw AtomicFileError(
                path: target, operation: "write", reason: "it is \(existing.description), not a file")
        }
        var temporary = ""
        var file: Int32 = -1
        for _ in 0..<16 {
            temporary = StaleTemporaries.fileName(for: name)
            file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if file >= 0 || errno != EEXIST { break }
        }
        guard file >= 0 else { throw AtomicFileError(path: target, operation: "create a temporary file") }
        var succeeded = false
        var closed = false
        defer {
            if !closed { _ = close(file) }
            if !succeeded { _ = unlinkat(descriptor, temporary, 0) }
        }
        try AtomicFile.writeAll(bytes, to: file, path: target)
        guard fsync(file) == 0 else { throw AtomicFileError(path: target, operation: "flush (fsync)") }
        closed = true
        guard close(file) == 0 else { throw AtomicFileError(path: target, operation: "close") }
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            throw AtomicFileError(path: target, operation: "rename into place")
        }
        succeeded = true
        _ = fsync(descriptor)
    }
}
