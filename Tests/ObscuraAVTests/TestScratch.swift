import Foundation

/// The folder this test process writes its scene files to, one per process, removed when the process exits: the
/// scenes are read by path, so they must outlive the call that writes them, and a run must leave nothing behind in
/// the temporary directory.
enum TestScratch {
    /// The process's folder, created on first use.
    static let root: URL = {
        let root = folder(pid: getpid())
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // A C exit handler captures nothing: it finds the folder again from the process id.
        atexit { try? FileManager.default.removeItem(at: TestScratch.folder(pid: getpid())) }
        return root
    }()

    /// A subfolder of the process's folder, created if needed.
    static func folder(_ name: String) throws -> URL {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func folder(pid: Int32) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("obscura-av-tests-\(pid)")
    }
}
