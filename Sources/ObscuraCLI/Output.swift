import Foundation
import ObscuraSupport
import Imaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints a value as JSON with sorted keys, so scripts can rely on a stable layout.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    // A figure that could not be measured (a mean over no patches) is written as the string "nan", not
    // left to fail the whole summary with an encoding error.
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let data = try encoder.encode(value)
    say(JSONText.escapingInvisibleControls(String(decoding: data, as: UTF8.self)))
}

/// A summary field that may have no value, written as JSON `null` then rather than left out, so every
/// key of a summary is always there for scripts.
struct OrNull<Value: Encodable>: Encodable {
    var value: Value?
    init(_ value: Value?) { self.value = value }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

/// Prints a line of a command's summary: to standard output, unless an output file went there
/// (`--out -`), in which case the summary goes to standard error so the file's bytes stay intact.
func say(_ line: String) {
    if OutputFiles.standardOutputTaken.value {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    } else {
        print(line)
    }
}

/// A number with a fixed count of decimals, without locale surprises.
func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

/// A number with an explicit sign.
func signed(_ value: Double, _ decimals: Int) -> String {
    String(format: "%+.\(decimals)f", value)
}

/// The single-file outputs of the commands: `-` for standard output, else an atomic write into a
/// folder created as needed. Failures are one line naming the path and the reason (exit 3).
enum OutputFiles {
    /// The path that means standard output.
    static let standardOutput = "-"

    /// Set once a file went to standard output; `say` then writes to standard error.
    static let standardOutputTaken = Flag()

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        var value: Bool { lock.withLock { raised } }
        func raise() { lock.withLock { raised = true } }
    }

    /// Refuses two outputs bound for standard output in one command.
    static func checkOneStandardOutput(_ paths: [String?], options: [String]) throws {
        let toStdout = zip(paths, options).filter { $0.0 == standardOutput }.map(\.1)
        if toStdout.count > 1 {
            throw CommandFailure.badInput(
                "\(toStdout.joined(separator: " and ")) both name standard output ('-'); give one of them a file")
        }
    }

    /// Refuses two outputs of one command bound for one file, which would leave only the last written: the
    /// paths are compared as written out from the working directory (`a/./b.png` and `a/b.png` are one), and
    /// by the file they name where both exist (a link and its target). Standard output is
    /// `checkOneStandardOutput`'s.
    static func checkDistinct(_ outputs: [(path: String?, what: String)]) throws {
        let files = outputs.compactMap { o in o.path.map { (path: $0, what: o.what) } }
            .filter { $0.path != standardOutput }
        for (i, a) in files.enumerated() {
            for b in files[(i + 1)...] where sameFile(a.path, b.path) {
                throw CommandFailure.badInput(
                    "\(a.what) and \(b.what) both name \(b.path); the second would replace the first: give them "
                        + "different names")
            }
        }
    }

    /// Refuses an output that names one of the command's inputs, which writing it would destroy, and an output
    /// that is a folder, before any work is done.
    static func checkNotAnInput(_ output: (path: String, what: String), inputs: [(path: String, what: String)])
        throws
    {
        guard output.path != standardOutput else { return }
        for input in inputs where sameFile(input.path, output.path) {
            throw CommandFailure.badInput(
                "\(output.what) \(output.path) is \(input.what); writing it would replace what is read: give "
                    + "another name")
        }
        var status = stat()
        if stat(output.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw CommandFailure.badInput("\(output.what) \(output.path) is a folder: give a file name")
        }
    }

    /// Refuses an output folder that overlaps a folder the command reads: the same folder, one holding it
    /// (replacing the output would remove what was read) or one inside it (the output would be read as part
    /// of that folder the next time). Paths are compared with their links resolved.
    static func checkFolderApart(_ output: (path: String, what: String), inputs: [(path: String, what: String)])
        throws
    {
        let out = resolvedPath(output.path)
        for input in inputs {
            let read = resolvedPath(input.path)
            let relation: String
            if out == read {
                relation = "is"
            } else if read.hasPrefix(out + "/") {
                relation = "holds"
            } else if out.hasPrefix(read + "/") {
                relation = "lies inside"
            } else {
                continue
            }
            throw CommandFailure.badInput(
                "\(output.what) \(output.path) \(relation) \(input.what) \(input.path), which is read: name an output "
                    + "folder apart from the folders read")
        }
    }

    /// `path` absolute, with its links resolved as far as it exists (a folder not yet made keeps its name
    /// under its resolved parent).
    static func resolvedPath(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        if FileManager.default.fileExists(atPath: url.path) { return url.resolvingSymlinksInPath().path }
        let parent = url.deletingLastPathComponent()
        guard parent.path != url.path else { return url.path }
        return URL(fileURLWithPath: resolvedPath(parent.path)).appendingPathComponent(url.lastPathComponent).path
    }

    /// Whether two paths name one file that the second write would replace: the same path once normalised, or
    /// one existing file. A device or pipe (`/dev/null` twice) replaces nothing: each write goes through.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat()
        var y = stat()
        let aExists = stat(a, &x) == 0, bExists = stat(b, &y) == 0
        if (aExists && x.st_mode & S_IFMT != S_IFREG) || (bExists && y.st_mode & S_IFMT != S_IFREG) { return false }
        if URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path {
            return true
        }
        return aExists && bExists && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Writes `bytes` to `path`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try write([(bytes, path)])
    }

    /// Writes several outputs of one command as a set: every file is complete on disk before any
    /// destination is replaced (`AtomicFile.write(_:)`); standard output is written last.
    static func write(_ files: [(bytes: [UInt8], path: String)]) throws {
        let onDisk = files.filter { $0.path != standardOutput }
        // `/dev/stdout` or `/proc/self/fd/1` name standard output too: the summary must then keep off it.
        if onDisk.contains(where: { isStandardOutput($0.path) }) { standardOutputTaken.raise() }
        for file in onDisk {
            try makeFolders(containing: file.path)
            StaleTemporaries.sweep(folder(of: file.path))
        }
        do {
            try AtomicFile.write(onDisk)
        } catch {
            throw CommandFailure.outputFailed("\(error)")
        }
        for file in files where file.path == standardOutput {
            standardOutputTaken.raise()
            try writeAll(file.bytes, to: STDOUT_FILENO, path: "standard output")
        }
    }

    /// Whether `path` is the file standard output is open on.
    static func isStandardOutput(_ path: String) -> Bool {
        var named = stat()
        var output = stat()
        guard stat(path, &named) == 0, fstat(STDOUT_FILENO, &output) == 0 else { return false }
        return named.st_dev == output.st_dev && named.st_ino == output.st_ino
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Creates the folders above `path`, one component at a time, so the failing one is named.
    static func makeFolders(containing path: String) throws {
        // Split by hand: `-` and other one-component names have no folder to make.
        guard path != standardOutput, let slash = path.lastIndex(of: "/") else { return }
        let folder = String(path[..<slash])
        guard !folder.isEmpty else { return }
        var current = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) == 0 || errno == EEXIST {
                var info = stat()
                if stat(current, &info) == 0 && info.st_mode & 0o170000 == 0o040000 { continue }
                throw CommandFailure.outputFailed("cannot create folder \(current): a file of that name is in the way")
            }
            throw CommandFailure.outputFailed("cannot create folder \(current): \(String(cString: strerror(errno)))")
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0, from: offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw CommandFailure.outputFailed("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}

/// `write(2)` of `buffer[offset...]`; named apart from `OutputFiles.write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer, from offset: Int) -> Int {
    guard let base = buffer.baseAddress, offset < buffer.count else { return 0 }
    return write(descriptor, base + offset, buffer.count - offset)
}
