import Foundation
import Imaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder a run writes into, written as a set: nothing appears at the destination until the
/// run is complete.
///
/// The run writes into a fresh `.obscura-tmp-…` folder beside the destination; `commit()` then
/// swaps it in by renaming, so a run killed midway never looks finished, and `--force` never
/// leaves old photos beside a new report. Temporaries of that name older than an hour, left by
/// killed runs, are swept when the next run starts beside them (`StaleTemporaries`).
///
/// Every run leaves a manifest (`.obscura-manifest.json`) naming the entries it wrote. `--force`
/// replaces only those: a folder that is not empty and holds no manifest is refused, since Obscura
/// did not make it, and entries the manifest does not name (a `.git/`, the user's notes) stay where
/// they are, untouched, while the run's own entries are exchanged around them.
///
/// Nothing is written outside the folder: relative paths with `..` or a leading `/` are refused,
/// and folders are opened one component at a time without following links (`DirectoryHandle`).
public final class OutputDirectory: Sendable {
    /// Where the outputs appear once committed.
    public let destination: String
    /// The folder being written: the temporary folder until `commit()`.
    public let root: String
    /// The path components from `root` to this view's folder (empty for the run's own folder).
    private let components: [String]
    private let handle: DirectoryHandle
    /// The destination of the whole run, which messages name instead of the temporary folder.
    private let runDestination: String
    /// The top-level entries this run has written, shared by every view of the run.
    private let written: WrittenEntries
    /// The entries an earlier run listed in the destination's manifest; nil when there was no earlier
    /// run there (no folder, or an empty one).
    private let previous: Set<String>?

    /// The manifest's file name.
    public static let manifestName = ".obscura-manifest.json"

    /// Why a directory cannot be used or a file cannot be written.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    /// Prepares a run into `path`: refuses an existing, non-empty folder unless `force`, a file or a
    /// symbolic link in its place, and creates the temporary folder beside it.
    public init(path: String, force: Bool) throws {
        let destination = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        // The run is renamed into place, so the destination must be a name inside a folder.
        guard let last = destination.split(separator: "/").last, DirectoryHandle.isPlainName(String(last)) else {
            throw Refusal(message: "\(path): cannot write the run there: name a folder to create or replace")
        }
        var info = stat()
        if lstat(destination, &info) == 0 {
            let kind = Self.kind(info.st_mode)
            guard kind == "a directory" else {
                throw Refusal(message: "\(destination): cannot write the run there: it is \(kind), not a folder")
            }
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []
            if !contents.isEmpty && !force {
                throw Refusal(
                    message: "\(destination) already exists; pass --force to replace it, or name another output folder")
            }
            if contents.isEmpty {
                previous = nil
            } else {
                guard let listed = Self.readManifest(in: destination) else {
                    // A manifest that is there but unreadable (damaged, a link, another version) proves nothing.
                    var manifestInfo = stat()
                    let present = lstat(destination + "/" + Self.manifestName, &manifestInfo) == 0
                    let why =
                        present
                        ? "its \(Self.manifestName) is not one an Obscura run writes: damaged, a link or too large"
                        : "it has no \(Self.manifestName)"
                    throw Refusal(
                        message: "\(destination) holds files Obscura did not write (\(why)); "
                            + "--force replaces only an earlier run's output: choose another --out, or empty it")
                }
                previous = listed
            }
        } else {
            previous = nil
        }
        let parent = Self.parent(of: destination)
        do {
            try DirectoryHandle.createFolders(parent)
        } catch {
            throw Refusal(message: "\(error)")
        }
        StaleTemporaries.sweep(parent)
        let base = Self.lastComponent(of: destination)
        var template = Array("\(parent)/\(StaleTemporaries.folderPrefix)\(base)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let start = buffer.baseAddress else { return false }
            return mkdtemp(start) != nil
        }
        guard made else {
            throw Refusal(message: "\(parent): cannot create a temporary folder: \(String(cString: strerror(errno)))")
        }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // mkdtemp makes the folder private; once swapped in it is an ordinary output folder.
        _ = chmod(temporary, 0o755)
        do {
            handle = try DirectoryHandle(opening: temporary)
        } catch {
            _ = rmdir(temporary)
            throw Refusal(message: "\(error)")
        }
        self.destination = destination
        runDestination = destination
        root = temporary
        components = []
        written = WrittenEntries()
    }

    private init(parent: OutputDirectory, name: String) {
        destination = parent.destination + "/" + name
        root = parent.root
        components = parent.components + [name]
        handle = parent.handle
        runDestination = parent.runDestination
        written = parent.written
        previous = parent.previous
    }

    /// A view that writes into the subfolder `name` of this one; it is committed with this one.
    public func nested(_ name: String) throws -> OutputDirectory {
        guard DirectoryHandle.isPlainName(name) else {
            throw Refusal(message: "'\(name)' cannot name a folder inside \(destination)")
        }
        return OutputDirectory(parent: self, name: name)
    }

    /// Writes bytes atomically at a path relative to the directory; returns that relative path.
    @discardableResult
    public func write(_ bytes: [UInt8], to relative: String) throws -> String {
        let path = try checkedPath(relative)
        // Two outputs of one run bound for one file would leave only the last: two steps saving the same name,
        // or a save named as another's companion (`d-view.png` beside the depth map `d.png`).
        guard written.claimFile(path.joined(separator: "/")) else {
            throw Refusal(
                message: "output path '\(relative)' is written twice in this run, and the second would replace the "
                    + "first: give the saves different names")
        }
        try withFolder(of: path, for: relative) { folder in try folder.writeFile(bytes, named: path[path.count - 1]) }
        return relative
    }

    /// The path of a file that another writer (a movie recorder) will create at `relative`, with its
    /// folders made as `write(_:to:)` makes them; the writer must create it exclusively. The entry is
    /// counted as written by the run.
    public func preparedPath(for relative: String) throws -> String {
        let path = try checkedPath(relative)
        try withFolder(of: path, for: relative) { _ in }
        return ([root] + path).joined(separator: "/")
    }

    /// The components from the run's folder to `relative`, which must stay inside it: no leading `/`,
    /// no `..`, no empty component, a plain last name, and not the manifest.
    private func checkedPath(_ relative: String) throws -> [String] {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !relative.hasPrefix("/"), !parts.contains(".."), !parts.contains(where: \.isEmpty),
            let name = parts.last, DirectoryHandle.isPlainName(name)
        else {
            throw Refusal(message: "output path '\(relative)' leaves the output directory")
        }
        let path = components + parts.filter { $0 != "." }
        guard path.first != Self.manifestName else {
            throw Refusal(message: "output path '\(relative)' is the run's manifest, which Obscura writes itself")
        }
        return path
    }

    /// Opens (making them) the folders of `path` without following links, runs `body` in the last one,
    /// and counts the path's first entry as written by the run.
    private func withFolder(of path: [String], for relative: String, _ body: (DirectoryHandle) throws -> Void) throws {
        do {
            try body(try handle.subdirectory(path: Array(path.dropLast())))
            written.insert(path[0])
        } catch {
            // The user knows the folder by its destination, not by the temporary name it has until the end.
            let reason = "\(error)".replacingOccurrences(of: root, with: runDestination)
            throw Refusal(message: "output path '\(relative)': \(reason)")
        }
    }

    /// Swaps the finished run in at the destination: an earlier folder there is moved aside, the new
    /// one renamed into place, and the old one removed.
    public func commit() throws {
        guard components.isEmpty else { return }
        // Only what is really there: a path prepared for another writer that never wrote is no entry.
        let entries = written.sorted.filter { name in
            var info = stat()
            return lstat(root + "/" + name, &info) == 0
        }
        try writeManifest(entries, into: handle, at: root)
        if let previous {
            let destinationHandle: DirectoryHandle
            do {
                destinationHandle = try DirectoryHandle(opening: destination)
            } catch {
                throw Refusal(message: "\(error)")
            }
            let present = Set((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? [])
            let foreign = present.subtracting(previous).subtracting([Self.manifestName])
            if !foreign.isEmpty {
                try exchange(entries, previous: previous, foreign: foreign, in: destinationHandle)
                return
            }
        }
        try swapWhole()
    }

    /// Moves the whole temporary folder into place; an earlier folder there holds only an earlier run's
    /// entries, and is moved aside and removed.
    private func swapWhole() throws {
        let parent = Self.parent(of: destination)
        var info = stat()
        var aside: String?
        if lstat(destination, &info) == 0 {
            let name = "\(parent)/\(StaleTemporaries.folderPrefix)\(Self.lastComponent(of: destination))-old-"
                + AtomicFile.randomSuffix()
            guard rename(destination, name) == 0 else {
                let reason = String(cString: strerror(errno))
                throw Refusal(message: "\(destination): cannot move the earlier run aside: \(reason)")
            }
            aside = name
        }
        guard rename(root, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            if let aside { _ = rename(aside, destination) }
            throw Refusal(message: "\(destination): cannot move the run into place: \(reason)")
        }
        if let aside { try? FileManager.default.removeItem(atPath: aside) }
    }

    /// Exchanges an earlier run's entries for this run's inside a destination that also holds entries
    /// Obscura did not write, which never move.
    ///
    /// Order matters for a run killed midway: the manifest first names both runs' entries, so the next
    /// `--force` can still clean up; the earlier entries move aside (the report with them, so the folder
    /// no longer looks finished); the new entries move in, reports last; the final manifest goes last.
    private func exchange(
        _ entries: [String], previous: Set<String>, foreign: Set<String>, in destinationHandle: DirectoryHandle
    ) throws {
        let clashes = foreign.intersection(entries).sorted()
        guard clashes.isEmpty else {
            throw Refusal(
                message: "\(destination): cannot replace \(clashes.joined(separator: ", ")): not written by an "
                    + "earlier run (not in its \(Self.manifestName)); move it away, or choose another --out")
        }
        try writeManifest(Array(previous.union(entries)).sorted(), into: destinationHandle, at: destination)
        let parent = Self.parent(of: destination)
        var template = Array(
            "\(parent)/\(StaleTemporaries.folderPrefix)\(Self.lastComponent(of: destination))-old-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let start = buffer.baseAddress else { return false }
            return mkdtemp(start) != nil
        }
        guard made else {
            throw Refusal(message: "\(parent): cannot create a temporary folder: \(String(cString: strerror(errno)))")
        }
        let aside = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func move(_ name: String, from source: String, to target: String) throws {
            guard rename(source + "/" + name, target + "/" + name) == 0 else {
                let reason = String(cString: strerror(errno))
                throw Refusal(message: "\(destination)/\(name): cannot move it: \(reason)")
            }
        }
        let reports: Set<String> = ["report.json", "report.html"]
        var movedAside: [String] = []
        var movedIn: [String] = []
        do {
            for name in previous.sorted(by: { reports.contains($0) && !reports.contains($1) }) {
                var info = stat()
                guard lstat(destination + "/" + name, &info) == 0 else { continue }
                try move(name, from: destination, to: aside)
                movedAside.append(name)
            }
            for name in entries.sorted(by: { !reports.contains($0) && reports.contains($1) }) {
                try move(name, from: root, to: destination)
                movedIn.append(name)
            }
            try writeManifest(entries, into: destinationHandle, at: destination)
        } catch {
            // Put the folder back as it was, as far as renames can: the new entries out, the earlier
            // ones in, so that a failed exchange loses nothing and leaves nothing beside the folder.
            for name in movedIn.reversed() { _ = rename(destination + "/" + name, root + "/" + name) }
            for name in movedAside.reversed() { _ = rename(aside + "/" + name, destination + "/" + name) }
            _ = rmdir(aside)
            throw error
        }
        try? FileManager.default.removeItem(atPath: aside)
        try? FileManager.default.removeItem(atPath: root)
    }

    private func writeManifest(_ entries: [String], into folder: DirectoryHandle, at path: String) throws {
        let manifest = Manifest(obscura_output_manifest: Manifest.version, entries: entries)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try folder.writeFile(Array(try encoder.encode(manifest)) + [0x0A], named: Self.manifestName)
        } catch {
            let reason = "\(error)".replacingOccurrences(of: root, with: runDestination)
            throw Refusal(message: "\(runDestination): cannot write the manifest: \(reason)")
        }
    }

    /// The entries an earlier run's manifest in `folder` lists; nil without a readable manifest.
    static func readManifest(in folder: String) -> Set<String>? {
        var info = stat()
        let path = folder + "/" + manifestName
        // The manifest itself must be a plain file: a link could make any folder look like ours.
        guard lstat(path, &info) == 0, info.st_mode & 0o170000 == 0o100000, info.st_size < 1 << 20,
            let data = FileManager.default.contents(atPath: path),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data),
            manifest.obscura_output_manifest == Manifest.version,
            manifest.entries.allSatisfy({ DirectoryHandle.isPlainName($0) && $0 != manifestName })
        else { return nil }
        return Set(manifest.entries)
    }

    /// The manifest's content: the top-level entries a run wrote.
    private struct Manifest: Codable {
        static let version = 1
        let obscura_output_manifest: Int
        let entries: [String]
    }

    /// Removes the temporary folder of a run that will not be committed.
    public func discard() {
        guard components.isEmpty else { return }
        try? FileManager.default.removeItem(atPath: root)
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    private static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? "out"
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & 0o170000 {
        case 0o040000: return "a directory"
        case 0o120000: return "a symbolic link"
        case 0o100000: return "a file"
        default: return "a special file"
        }
    }
}

/// The top-level names a run has written, from any of its views.
private final class WrittenEntries: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private var names: Set<String> = []
    private var files: Set<String> = []

    func insert(_ name: String) { lock.withLock { _ = names.insert(name) } }
    /// Records a file's path from the run's folder; false when the run has written it already.
    func claimFile(_ path: String) -> Bool { lock.withLock { files.insert(path).inserted } }
    var sorted: [String] { lock.withLock { names.sorted() } }
}
