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
public enum AtomicFile {
    /// Atomically replaces (or creates) the file at `path` with `bytes`.
    ///
    /// A replaced file keeps its permission bits; a new file gets `0644`.
    public static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw AtomicFileError(path: path, operation: "name the file", reason: "the path names no file")
        }
        let directory = directoryName(of: path)
        let baseName = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        var template = Array("\(directory)/.\(baseName).tmp-XXXXXX".utf8CString)
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

        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                writeSome(descriptor, buffer, from: offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw AtomicFileError(path: path, operation: "write")
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else { throw AtomicFileError(path: path, operation: "flush (fsync)") }
        closed = true
        guard close(descriptor) == 0 else { throw AtomicFileError(path: path, operation: "close") }
        guard rename(temporaryPath, path) == 0 else {
            throw AtomicFileError(path: path, operation: "rename into place")
        }
        succeeded = true

        // Best effort: the data is already in place; a directory that cannot be synced is not a failed write.
        let directoryDescriptor = open(directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            _ = close(directoryDescriptor)
        }
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
