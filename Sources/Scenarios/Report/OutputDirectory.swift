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
/// killed runs, are swept when the next run starts beside them.
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
                throw Refusal(message: "\(destination) already exists; pass --force to replace it, or choose --out")
            }
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
    }

    private init(parent: OutputDirectory, name: String) {
        destination = parent.destination + "/" + name
        root = parent.root
        components = parent.components + [name]
        handle = parent.handle
        runDestination = parent.runDestination
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
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !relative.hasPrefix("/"), !parts.contains(".."), !parts.contains(where: \.isEmpty),
            let name = parts.last, DirectoryHandle.isPlainName(name)
        else {
            throw Refusal(message: "output path '\(relative)' leaves the output directory")
        }
        do {
            let folder = try handle.subdirectory(path: components + parts.dropLast().filter { $0 != "." })
            try folder.writeFile(bytes, named: name)
        } catch {
            // The user knows the folder by its destination, not by the temporary name it has until the end.
            let reason = "\(error)".replacingOccurrences(of: root, with: runDestination)
            throw Refusal(message: "output path '\(relative)': \(reason)")
        }
        return relative
    }

    /// Swaps the finished run in at the destination: an earlier folder there is moved aside, the new
    /// one renamed into place, and the old one removed.
    public func commit() throws {
        guard components.isEmpty else { return }
        let parent = Self.parent(of: destination)
        var info = stat()
        var aside: String?
        if lstat(destination, &info) == 0 {
            let name = "\(parent)/\(StaleTemporaries.folderPrefix)\(Self.lastComponent(of: destination))-old-"
                + UUID().uuidString.prefix(8)
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
