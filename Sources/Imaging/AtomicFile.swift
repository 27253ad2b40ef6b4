#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that readers see either the old file or the whole new one, never a partial write.
///
/// The bytes go to a temporary file in the destination's directory (so `rename` stays on one file system), which
/// is flushed with `fsync` and then renamed over the destination (POSIX `rename` is atomic). The directory is then
/// synced so the rename survives a crash. On any failure the temporary file is removed and the destination is left
/// as it was.
///
/// Only regular files are ever replaced. A destination that is a character device or a FIFO (`/dev/null`,
/// `/dev/stdout` on a pipe) is written into directly, as a shell redirection would: renaming over it would turn
/// the device node into a regular file. Any other kind of file (a directory, socket or block device) is refused.
/// A symbolic link is followed: the file it leads to is replaced, and the link stays.
public enum AtomicFile {
    /// What follows the name in a temporary file's name, before the installation's token:
    /// `.NAME.tmp-TOKEN-XXXXXX` (`StaleTemporaries`).
    public static let temporaryMarker = ".tmp-"

    /// Atomically replaces (or creates) the file at `path` with `bytes`.
    ///
    /// A replaced file keeps its permission bits; a new file gets `0644`.
    public static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        try write([(bytes, path)])
    }

    /// Writes several files as one set, as far as a file system allows: every file is written and
    /// flushed to its temporary before any destination is replaced, so a failure while writing leaves
    /// every destination as it was. The renames then follow one another.
    public static func write(_ files: [(bytes: [UInt8], path: String)]) throws(AtomicFileError) {
        var staged: [Staged] = []
        do {
            for file in files { staged.append(try stage(file.bytes, to: file.path)) }
        } catch {
            for item in staged { item.discard() }
            throw error
        }
        // The renames follow one another with ending signals held back (`SignalDeferral`), so an
        // interrupted command leaves the whole old set or the whole new one; the folders are synced
        // only after the last rename, so nothing slow sits between two renames.
        try SignalDeferral.run { () throws(AtomicFileError) in
            for (i, item) in staged.enumerated() {
                do throws(AtomicFileError) {
                    try item.commit()
                } catch {
                    for rest in staged[(i + 1)...] { rest.discard() }
                    throw error
                }
            }
        }
        for item in staged { item.syncDirectory() }
    }

    /// A file ready to be put in place: flushed to a temporary beside it, or bound for a device or FIFO.
    private enum Staged {
        case temporary(path: String, temporaryPath: String, directory: String)
        case inPlace(bytes: [UInt8], path: String)

        func commit() throws(AtomicFileError) {
            switch self {
            case let .inPlace(bytes, path):
                try writeInPlace(bytes, to: path)
            case let .temporary(path, temporaryPath, _):
                guard rename(temporaryPath, path) == 0 else {
                    let error = AtomicFileError(path: path, operation: "rename into place")
                    _ = unlink(temporaryPath)
                    throw error
                }
            }
        }

        /// Syncs the folder so the rename survives a crash. Best effort: the data is already in
        /// place; a folder that cannot be synced is not a failed write.
        func syncDirectory() {
            guard case let .temporary(_, _, directory) = self else { return }
            let directoryDescriptor = open(directory, O_RDONLY)
            if directoryDescriptor >= 0 {
                _ = fsync(directoryDescriptor)
                _ = close(directoryDescriptor)
            }
        }

        func discard() {
            if case let .temporary(_, temporaryPath, _) = self { _ = unlink(temporaryPath) }
        }
    }

    private static func stage(_ bytes: [UInt8], to given: String) throws(AtomicFileError) -> Staged {
        guard !given.isEmpty, !given.hasSuffix("/") else {
            throw AtomicFileError(path: given, operation: "name the file", reason: "the path names no file")
        }
        var destination = stat()
        let exists = stat(given, &destination) == 0
        if exists {
            switch FileKind(destination.st_mode) {
            case .regular: break
            case .characterDevice, .fifo: return .inPlace(bytes: bytes, path: given)
            case let other:
                throw AtomicFileError(path: given, operation: "write", reason: "it is \(other.description), not a file")
            }
        }
        // A link is written through, never replaced: renaming over `/dev/stdout` (a link to the shell's
        // redirection target) would put a file in /dev in its place.
        var path = given
        var link = stat()
        if lstat(given, &link) == 0, FileKind(link.st_mode) == .symbolicLink {
            guard exists, let real = realpath(given, nil) else {
                throw AtomicFileError(path: given, operation: "write", reason: "it is a symbolic link to nothing")
            }
            path = String(cString: real)
            free(real)
        }
        let directory = directoryName(of: path)
        let baseName = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        var template = Array("\(directory)/.\(baseName)\(StaleTemporaries.fileMarker)XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw AtomicFileError(path: path, operation: "create a temporary file") }
        let temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)

        var succeeded = false
        var closed = false
        defer {
            if !closed { _ = close(descriptor) }
            if !succeeded { _ = unlink(temporaryPath) }
        }

        var existing = stat()
        let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        guard fchmod(descriptor, mode) == 0 else { throw AtomicFileError(path: path, operation: "set permissions") }

        try writeAll(bytes, to: descriptor, path: path)
        guard fsync(descriptor) == 0 else { throw AtomicFileError(path: path, operation: "flush (fsync)") }
        closed = true
        guard close(descriptor) == 0 else { throw AtomicFileError(path: path, operation: "close") }
        succeeded = true
        return .temporary(path: path, temporaryPath: temporaryPath, directory: directory)
    }

    /// Writes into an existing character device or FIFO without creating, truncating or renaming anything.
    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        // Opened without blocking: a FIFO that no process reads is refused at once (ENXIO) instead of
        // waiting for a reader for ever. Once open, writes block as a shell redirection's do.
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENXIO {
                throw AtomicFileError(path: path, operation: "write", reason: "it is a FIFO that no process reads")
            }
            throw AtomicFileError(path: path, operation: "open")
        }
        defer { _ = close(descriptor) }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            throw AtomicFileError(path: path, operation: "set blocking writes")
        }
        // The name may have been swapped for something else between stat and open.
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else { throw AtomicFileError(path: path, operation: "inspect") }
        let kind = FileKind(opened.st_mode)
        guard kind == .characterDevice || kind == .fifo else {
            throw AtomicFileError(path: path, operation: "write", reason: "it changed to \(kind.description)")
        }
        try writeAll(bytes, to: descriptor, path: path)
    }

    /// Writes every byte to an open descriptor, retrying interrupted and short writes.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(AtomicFileError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in writeSome(descriptor, buffer, from: offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw AtomicFileError(path: path, operation: "write")
            }
            offset += written
        }
    }

    /// Six characters as `mkstemp` would choose them, for names made relative to a folder descriptor.
    public static func randomSuffix() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }
}

/// `write(2)` of `buffer[offset...]`; named apart from `AtomicFile.write`.
private func writeSome(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer, from offset: Int) -> Int {
    guard let base = buffer.baseAddress, offset < buffer.count else { return 0 }
    return write(descriptor, base + offset, buffer.count - offset)
}

/// A file that could not be written atomically; the destination is unchanged.
public struct AtomicFileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The destination path.
    public let path: String
    /// The step that failed, such as "rename into place".
    public let operation: String
    /// The system's reason.
    public let reason: String

    /// Makes an error with the reason given, or with the current `errno`'s text.
    init(path: String, operation: String, reason: String? = nil) {
        self.path = path
        self.operation = operation
        self.reason = reason ?? String(cString: strerror(errno))
    }

    /// `path: cannot <operation>: <reason>`.
    public var description: String { "\(path): cannot \(operation): \(reason)" }
}

/// The type bits of `st_mode` (POSIX `S_IFMT`), named so errors can say what a path is.
enum FileKind: Equatable {
    case regular, directory, characterDevice, blockDevice, fifo, socket, symbolicLink, unknown

    init(_ mode: mode_t) {
        switch mode & 0o170000 {
        case 0o100000: self = .regular
        case 0o040000: self = .directory
        case 0o020000: self = .characterDevice
        case 0o060000: self = .blockDevice
        case 0o010000: self = .fifo
        case 0o140000: self = .socket
        case 0o120000: self = .symbolicLink
        default: self = .unknown
        }
    }

    var description: String {
        switch self {
        case .regular: return "a regular file"
        case .directory: return "a directory"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .fifo: return "a FIFO"
        case .socket: return "a socket"
        case .symbolicLink: return "a symbolic link"
        case .unknown: return "a special file"
        }
    }
}
