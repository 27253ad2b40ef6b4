import Foundation

/// Runs the built `obscura` executable and captures what it prints, as a user's shell would.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard output as bytes, for commands that write a file there (`--out -`).
        var stdoutBytes: [UInt8] = []
    }

    /// The `obscura` binary next to the running test bundle (SwiftPM puts both in the products folder).
    static let executable: URL = {
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundleDir, bundleDir.deletingLastPathComponent(),
                          Bundle.main.bundleURL.deletingLastPathComponent()]
        for dir in candidates {
            let url = dir.appendingPathComponent("obscura")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundleDir.appendingPathComponent("obscura")
    }()

    /// The repository root, so commands run where a user of the README would run them.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Longest a command may run; a child still alive after it is killed and the run fails, so a hung
    /// command fails its test instead of stalling the suite.
    static let timeLimit: TimeInterval = 600

    struct TimedOut: Error, CustomStringConvertible {
        let arguments: [String]
        var description: String { "obscura \(arguments.joined(separator: " ")) ran past \(Int(CLIRunner.timeLimit)) s" }
    }

    /// Runs `arguments` in `directory` (the repository root when nil) with `environment` added to this
    /// process's; `program` is the binary to run, the built one when nil.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, program: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = program ?? executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? repositoryRoot
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Both pipes drain at once: a child that fills one pipe while the other is being read would
        // otherwise block for ever (a crash report on stderr can exceed a pipe's 64 KB).
        let drained = DispatchGroup()
        let outData = PipeDrain(out.fileHandleForReading, group: drained)
        let errData = PipeDrain(err.fileHandleForReading, group: drained)
        if exited.wait(timeout: .now() + timeLimit) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            throw TimedOut(arguments: arguments)
        }
        drained.wait()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData.bytes, as: UTF8.self),
                      stderr: String(decoding: errData.bytes, as: UTF8.self), stdoutBytes: [UInt8](outData.bytes))
    }
}

/// Reads a pipe to its end on a background queue.
private final class PipeDrain: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    init(_ handle: FileHandle, group: DispatchGroup) {
        group.enter()
        DispatchQueue.global().async {
            let all = handle.readDataToEndOfFile()
            self.lock.withLock { self.data = all }
            group.leave()
        }
    }

    var bytes: Data { lock.withLock { data } }
}
