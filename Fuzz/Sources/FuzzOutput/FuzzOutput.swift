import Foundation
import FuzzDriver
import Scenarios

/// The output layer under arbitrary requests: what a destination folder holds before a run (a manifest,
/// files of the user's, links), then the paths a run writes, nests and prepares, then `commit` with or
/// without `--force`. Each input is a list of lines:
///
///     manifest TEXT        the destination's .obscura-manifest.json before the run
///     user NAME            a file of the user's in the destination
///     link NAME            a link in the destination to the guard file outside it
///     force                run with --force
///     write PATH           the run writes a file at PATH
///     nested NAME PATH     the run writes PATH inside its subfolder NAME
///     prepare PATH         the run prepares PATH for another writer
///
/// Refusals are expected. A finding is a trap, a file of the user's lost or changed, the guard outside
/// changed, or an entry appearing beside the destination.
let sandbox: String = {
    let path = NSTemporaryDirectory() + "obscura-fuzz-output-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// A name a user's file could have that the harness itself can write and read back: printable ASCII,
/// at most 64 characters, not `.` or `..`, no `/`. (Foundation cuts a path at a NUL, so a harness
/// file with one in its name could not be checked.)
func isPlausibleName(_ name: String) -> Bool {
    name.count <= 64 && name != "." && name != ".." && !name.contains("/")
        && name.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
}

/// Whether anything, a dangling link included, is at `path`.
func exists(_ path: String) -> Bool {
    (try? FileManager.default.attributesOfItem(atPath: path)) != nil
        || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOutput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    let fm = FileManager.default
    let destination = sandbox + "/out"
    let guardFile = sandbox + "/guard.txt"
    try? fm.removeItem(atPath: destination)
    try? fm.createDirectory(atPath: destination, withIntermediateDirectories: true)
    try? Data("guard".utf8).write(to: URL(fileURLWithPath: guardFile))
    var users: [String: Data] = [:]
    var force = false
    var requests: [[String]] = []
    for line in text.split(separator: "\n").prefix(64) {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        guard let verb = words.first else { continue }
        switch verb {
        case "manifest" where words.count > 1:
            try? Data(words[1...].joined(separator: " ").utf8).write(
                to: URL(fileURLWithPath: destination + "/.obscura-manifest.json"))
        // Each name once: the harness must not write a user file through a link it planted itself.
        case "user" where words.count > 1 && isPlausibleName(words[1]) && !exists(destination + "/" + words[1]):
            let content = Data("user \(words[1])".utf8)
            if (try? content.write(to: URL(fileURLWithPath: destination + "/" + words[1]))) != nil {
                users[words[1]] = content
            }
        case "link" where words.count > 1 && isPlausibleName(words[1]) && !exists(destination + "/" + words[1]):
            try? fm.createSymbolicLink(atPath: destination + "/" + words[1], withDestinationPath: guardFile)
        case "force": force = true
        default: requests.append(words)
        }
    }
    let before = Set((try? fm.contentsOfDirectory(atPath: sandbox)) ?? [])
    // What the destination's manifest named before the run: only those entries may be replaced.
    let earlierManifest = fm.contents(atPath: destination + "/.obscura-manifest.json").map {
        String(decoding: $0, as: UTF8.self)
    }
    if let output = try? OutputDirectory(path: destination, force: force) {
        for request in requests {
            switch request.first {
            case "write" where request.count > 1: _ = try? output.write([1, 2, 3], to: request[1])
            case "nested" where request.count > 2:
                _ = try? output.nested(request[1]).write([4, 5], to: request[2])
            case "prepare" where request.count > 1: _ = try? output.preparedPath(for: request[1])
            default: break
            }
        }
        if (try? output.commit()) == nil { output.discard() }
    }
    let after = Set((try? fm.contentsOfDirectory(atPath: sandbox)) ?? [])
    guard after == before, fm.contents(atPath: guardFile) == Data("guard".utf8) else {
        fatalError("an entry appeared beside the destination or the guard changed: \(after.symmetricDifference(before))")
    }
    for (name, content) in users where fm.contents(atPath: destination + "/" + name) != content {
        // A user's file may only be gone if the manifest before the run listed it as the earlier run's.
        if earlierManifest?.contains("\"\(name)\"") != true { fatalError("the user's file \(name) was lost or changed") }
    }
    return 0
}

@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOutput))
    }
}
