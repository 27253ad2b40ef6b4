import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of Obscura's temporaries, and the sweep that removes those a killed run left behind.
///
/// Every temporary name carries this installation's token, a random word kept in the user's state
/// folder (`$XDG_STATE_HOME/obscura/installation-token`, else `~/.local/state/…`): folders are
/// `.obscura-tmp-TOKEN-…` (a run being written before it is swapped in) and files are
/// `.NAME.tmp-TOKEN-XXXXXX` (an `AtomicFile` write, or a movie being recorded). A user's own
/// `.obscura-tmp-mine` or `.notes.txt.tmp-abc123` cannot carry the token, so the sweep never takes
/// it. Where no state folder can be written, the token is new for each process: its temporaries are
/// then never swept by a later run, and nothing of anyone else's is either.
///
/// Only those names are touched, only in a folder Obscura is about to write into, and only once they
/// are older than an hour, so a run still writing next door is left alone. Sweeping is best effort: a
/// temporary that cannot be removed stays, and nothing is reported.
public enum StaleTemporaries {
    /// The prefix of every run folder's name, before the token.
    public static let folderMarker = ".obscura-tmp-"
    /// How old a temporary must be before it counts as abandoned, in seconds.
    public static let maximumAge: TimeInterval = 3600

    /// This installation's token: lowercase letters and digits.
    public static let installationToken: String = InstallationToken.load()

    /// The prefix of this installation's run folders: `.obscura-tmp-TOKEN-`.
    public static var folderPrefix: String { folderMarker + installationToken + "-" }

    /// The infix of this installation's file temporaries: `.tmp-TOKEN-`.
    public static var fileMarker: String { AtomicFile.temporaryMarker + installationToken + "-" }

    /// Whether `name` is one of this installation's run folders (the prefix and at least one character).
    public static func isRunFolder(_ name: String) -> Bool {
        name.hasPrefix(folderPrefix) && name.count > folderPrefix.count
    }

    /// Whether `name` is one of this installation's file temporaries: `.` + NAME + `.tmp-TOKEN-` + six
    /// letters or digits.
    public static func isAtomicFileTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.count > 1 + fileMarker.count + 6 else { return false }
        let suffix = name.suffix(6)
        guard suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
        return name.dropLast(6).hasSuffix(fileMarker)
    }

    /// A fresh temporary name for a file that will be renamed to `name`: `.NAME.tmp-TOKEN-XXXXXX`.
    public static func fileName(for name: String) -> String {
        "." + name + fileMarker + AtomicFile.randomSuffix()
    }

    /// Creates a new, empty temporary file in `directory` for a file that will become `name` there,
    /// exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`): an entry planted under the name, a link
    /// included, is never opened, truncated or removed. Returns its path and open descriptor.
    public static func createFile(in directory: String, for name: String) throws(AtomicFileError)
        -> (path: String, descriptor: Int32)
    {
        var path = ""
        for _ in 0..<16 {
            path = FileConfinement.join(directory, fileName(for: name))
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return (path, descriptor) }
            if errno != EEXIST { break }
        }
        throw AtomicFileError(path: FileConfinement.join(directory, name), operation: "create a temporary file")
    }

    /// Moves the finished temporary at `temporary` to `destination`, never replacing anything there: a
    /// file or link that appeared at the destination meanwhile stays, and the move fails with `EEXIST`.
    /// The temporary is gone afterwards either way.
    public static func publish(_ temporary: String, at destination: String) throws(AtomicFileError) {
        defer { _ = unlink(temporary) }
        guard link(temporary, destination) == 0 else {
            throw AtomicFileError(path: destination, operation: "move the finished file into place")
        }
    }

    /// Sweeps `directory`; returns the names removed.
    @discardableResult
    public static func sweep(_ directory: String, olderThan age: TimeInterval = maximumAge, now: Date = Date())
        -> [String]
    {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names where isRunFolder(name) || isAtomicFileTemporary(name) {
            let path = FileConfinement.join(directory, name)
            // Attributes of the entry itself: a link of a matching name is neither of ours.
            guard let attributes = try? fm.attributesOfItem(atPath: path),
                let type = attributes[.type] as? FileAttributeType,
                let modified = attributes[.modificationDate] as? Date,
                now.timeIntervalSince(modified) > age
            else { continue }
            let expected: FileAttributeType = isRunFolder(name) ? .typeDirectory : .typeRegular
            guard type == expected else { continue }
            if (try? fm.removeItem(atPath: path)) != nil { removed.append(name) }
        }
        return removed
    }
}

/// The installation token's file: read when present, else made once, so that every process of one
/// user agrees on it.
private enum InstallationToken {
    static let length = 12

    static func load() -> String {
        let environment = ProcessInfo.processInfo.environment
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.local/state"
        } else {
            return fresh()
        }
        let folder = base + "/obscura"
        let path = folder + "/installation-token"
        if let token = read(path) { return token }
        guard (try? DirectoryHandle.createFolders(folder)) != nil else { return fresh() }
        // Written whole to a private name, then linked into place: a second process either wins the
        // link or reads the winner's token, never a half-written one.
        // (Not through AtomicFile: its temporary names need this token.)
        let candidate = fresh()
        let temporary = folder + "/.installation-token-" + fresh()
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return candidate }
        defer { _ = unlink(temporary) }
        let written = (try? AtomicFile.writeAll(Array((candidate + "\n").utf8), to: descriptor, path: temporary)) != nil
        guard close(descriptor) == 0, written else { return candidate }
        if link(temporary, path) == 0 { return candidate }
        return read(path) ?? candidate
    }

    static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            text.count == length, text.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) })
        else { return nil }
        return text
    }

    static func fresh() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
