import Foundation

/// The device catalogue and the seed scenes, compiled into every program that links the package, so
/// that the `obscura` tool copied alone, and a dependent package's tests, find them from any working
/// directory and any executable location, with no resource folder beside the executable.
///
/// The files are embedded by the `EmbedData` build plugin (`Plugins/EmbedData`) from the folders of this
/// target. Everything that reads them takes a path (scenario files confine their reads to real folders,
/// textures are found beside their scene), so the embedded copy is written out once as ordinary files:
/// to `obscura/data-DIGEST/` in the user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`), else in
/// the temporary folder under `obscura-UID/`. Each process compares that copy with the embedded bytes
/// before using it and writes it afresh when anything differs.
public enum BundledData {
    /// The bundled folder called `name` (`DeviceProfiles` or `Scenes`), if it could be written out.
    public static func folder(named name: String) -> String? {
        guard let root = writtenOut else { return nil }
        let path = root + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return path
    }

    /// The folder holding the written-out copy, made once per process on first use.
    private static let writtenOut: String? = {
        let folder = "data-" + digest
        for parent in cacheParents() {
            if let root = DataFolderWriter(parent: parent, folder: folder, files: decodedFiles).prepare() {
                return root
            }
        }
        return nil
    }()

    /// The embedded files with their bytes decoded.
    private static var decodedFiles: [(path: String, bytes: Data)] {
        files.compactMap { file in Data(base64Encoded: file.base64).map { (file.path, $0) } }
    }

    /// The folders that may hold Obscura's own cache folder, most preferred first: the user's cache
    /// (the XDG base directory rules), then the temporary folder under a name of this user's own.
    private static func cacheParents() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        var parents: [String] = []
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            parents.append(cache + "/obscura")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            parents.append(home + "/.cache/obscura")
        }
        let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        parents.append(temporary + "/obscura-\(geteuid())")
        return parents
    }
}

/// Writes a set of files under `parent/folder` unless an identical copy is already there.
///
/// `parent` is made if missing and used only when it is a real folder owned by this user that nobody
/// else may write to, so that another user of a shared temporary folder cannot plant or swap the data.
/// The files are written to a fresh sibling and renamed into place, so a reader sees a whole copy or
/// none, and processes starting together (parallel test runs) may race safely.
private struct DataFolderWriter {
    let parent: String
    let folder: String
    let files: [(path: String, bytes: Data)]

    /// The path of a verified copy, or nil when `parent` cannot be used.
    func prepare() -> String? {
        guard makeParent() else { return nil }
        let target = parent + "/" + folder
        if holdsCopy(target) { return target }
        let staging = parent + "/." + folder + "-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        defer { try? FileManager.default.removeItem(atPath: staging) }
        guard write(to: staging) else { return nil }
        if rename(staging, target) == 0 { return target }
        // Another process may have put a good copy there first.
        if holdsCopy(target) { return target }
        // A damaged copy (edited by hand, or cut short by a full disk) is moved aside and replaced.
        let damaged = staging + "-damaged"
        defer { try? FileManager.default.removeItem(atPath: damaged) }
        guard rename(target, damaged) == 0, rename(staging, target) == 0 else {
            return holdsCopy(target) ? target : nil
        }
        return target
    }

    /// Makes `parent` (and the folders above it) and checks that it is this user's alone.
    private func makeParent() -> Bool {
        try? FileManager.default.createDirectory(
            atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var info = stat()
        return lstat(parent, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == geteuid()
            && info.st_mode & 0o022 == 0
    }

    /// Whether `root` holds every file, each a plain file with exactly the embedded bytes.
    private func holdsCopy(_ root: String) -> Bool {
        files.allSatisfy { file in
            var info = stat()
            let path = root + "/" + file.path
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
                && FileManager.default.contents(atPath: path) == file.bytes
        }
    }

    private func write(to root: String) -> Bool {
        let manager = FileManager.default
        for file in files {
            let url = URL(fileURLWithPath: root + "/" + file.path)
            do {
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.bytes.write(to: url)
            } catch {
                return false
            }
        }
        return true
    }
}
