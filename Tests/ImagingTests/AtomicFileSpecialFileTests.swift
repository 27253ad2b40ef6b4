import Foundation
import Imaging
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Destinations that are not regular files: written into (devices, FIFOs) or refused, never renamed over.
@Suite struct AtomicFileSpecialFileTests {
    /// The type bits of `lstat`, so a replaced node is seen even behind a name.
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o170000
    }

    static let fifoType: mode_t = 0o010000
    static let characterDeviceType: mode_t = 0o020000

    /// Writes `bytes` into a FIFO while a reader drains it; returns what the reader got.
    static func writeThroughFIFO(_ bytes: [UInt8], at path: String) throws -> [UInt8] {
        // A reader that is open before the write, as a shell pipeline's is: opened without waiting, and
        // held open by a spare write end of our own until the write is over, so it reads to the end.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        let spare = open(path, O_WRONLY | O_NONBLOCK)
        try #require(spare >= 0)
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) & ~O_NONBLOCK)
        let received = Received()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let handle = FileHandle(fileDescriptor: reader, closeOnDealloc: true)
            received.set([UInt8](handle.readDataToEndOfFile()))
            done.signal()
        }
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            close(spare)
            done.wait()
            throw error
        }
        close(spare)
        done.wait()
        return received.value
    }

    // A FIFO that no process reads is refused at once, not waited on for ever.
    @Test func fifoWithoutAReaderIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = "\(directory.path)/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        let started = Date()
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([1, 2, 3], to: path) }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(Self.fileType(path) == Self.fifoType)
        #expect(throws: PNGError.self) { _ = try PNG.read(contentsOf: path) }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        func set(_ value: [UInt8]) { lock.withLock { bytes = value } }
        var value: [UInt8] { lock.withLock { bytes } }
    }

    @Test func fifoIsWrittenIntoAndStaysAFIFO() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = "\(directory.path)/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        let payload = [UInt8](repeating: 42, count: 200_000)  // more than a pipe buffer holds
        let got = try Self.writeThroughFIFO(payload, at: path)
        #expect(got == payload)
        #expect(Self.fileType(path) == Self.fifoType)
        #expect(try directory.contents() == ["pipe"])
    }

    @Test func devNullStaysACharacterDevice() throws {
        // Proved on a FIFO first: only when the in-place branch exists is /dev/null touched, so this test
        // cannot itself replace /dev/null when run as root against code that renames.
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let probe = "\(directory.path)/probe"
        #expect(mkfifo(probe, 0o600) == 0)
        _ = try Self.writeThroughFIFO([1, 2, 3], at: probe)
        try #require(Self.fileType(probe) == Self.fifoType, "writes over a FIFO replace it; /dev/null left alone")
        try #require(Self.fileType("/dev/null") == Self.characterDeviceType)
        try AtomicFile.write([UInt8](repeating: 1, count: 4096), to: "/dev/null")
        #expect(Self.fileType("/dev/null") == Self.characterDeviceType)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: "/dev")).contains { $0.hasPrefix(".null.tmp-") })
    }

    @Test func directoryIsRefusedWithoutATemporaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let target = "\(directory.path)/folder"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        do {
            try AtomicFile.write([1], to: target)
            Issue.record("writing over a directory succeeded")
        } catch {
            #expect(error.description.contains(target))
            #expect(error.description.contains("directory"))
        }
        #expect(try directory.contents() == ["folder"])
    }

    @Test func socketIsRefusedAndKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = "\(directory.path)/s"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([1], to: path) }
        #expect(Self.fileType(path) == 0o140000)
        #expect(try directory.contents() == ["s"])
    }
}

/// Which names the sweep of abandoned temporaries may touch, and when.
@Suite struct StaleTemporariesTests {
    @Test func onlyOurNamesAndOnlyWhenOld() throws {
        let token = StaleTemporaries.installationToken
        #expect(token.count == 12)
        #expect(StaleTemporaries.isAtomicFileTemporary(".photo.png.tmp-\(token)-a1B2c3"))
        #expect(!StaleTemporaries.isAtomicFileTemporary(".photo.png.tmp-a1B2c3"))
        #expect(!StaleTemporaries.isAtomicFileTemporary(".notes.txt.tmp-abc123"))
        #expect(!StaleTemporaries.isAtomicFileTemporary("photo.png.tmp-\(token)-a1B2c3"))
        #expect(!StaleTemporaries.isAtomicFileTemporary(".photo.png.tmp-\(token)-a1B2c"))
        #expect(!StaleTemporaries.isAtomicFileTemporary(".photo.png.tmp-\(token)-a1B2c!"))
        #expect(StaleTemporaries.isRunFolder(".obscura-tmp-\(token)-out-x1y2z3"))
        #expect(!StaleTemporaries.isRunFolder(".obscura-tmp-out-x1y2z3"))
        #expect(!StaleTemporaries.isRunFolder(".obscura-tmp-mine"))
        #expect(!StaleTemporaries.isRunFolder(".obscura-tmp-\(token)-"))
        #expect(StaleTemporaries.isAtomicFileTemporary(StaleTemporaries.fileName(for: "x.png")))

        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let fm = FileManager.default
        let ourFolder = ".obscura-tmp-\(token)-run-abc"
        let ourFile = ".x.png.tmp-\(token)-abcdef"
        try fm.createDirectory(atPath: directory.path + "/" + ourFolder, withIntermediateDirectories: false)
        try fm.createDirectory(atPath: directory.path + "/.obscura-tmp-mine", withIntermediateDirectories: false)
        _ = fm.createFile(atPath: directory.path + "/" + ourFile, contents: Data([1]))
        _ = fm.createFile(atPath: directory.path + "/.notes.txt.tmp-abc123", contents: Data([1]))
        _ = fm.createFile(atPath: directory.path + "/x.png", contents: Data([1]))
        // A link of a matching name is not one of ours: never followed, never removed.
        let link = ".obscura-tmp-\(token)-link"
        try fm.createSymbolicLink(atPath: directory.path + "/" + link, withDestinationPath: directory.path)
        let now = Date()
        #expect(StaleTemporaries.sweep(directory.path, now: now).isEmpty)
        let later = now.addingTimeInterval(2 * StaleTemporaries.maximumAge)
        let removed = StaleTemporaries.sweep(directory.path, now: later).sorted()
        #expect(removed == [ourFolder, ourFile].sorted())
        #expect(try directory.contents() == [".notes.txt.tmp-abc123", ".obscura-tmp-mine", link, "x.png"].sorted())
    }
}

/// A link as the destination: the file it leads to is replaced; the link itself stays a link.
@Suite struct AtomicFileLinkTests {
    @Test func linkIsWrittenThroughAndKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let elsewhere = try TemporaryDirectory()
        defer { elsewhere.cleanUp() }
        let target = elsewhere.path + "/real.png"
        try AtomicFile.write([1], to: target)
        let link = directory.path + "/out.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try AtomicFile.write([2, 3], to: link)
        #expect(AtomicFileSpecialFileTests.fileType(link) == 0o120000)
        #expect(FileManager.default.contents(atPath: target) == Data([2, 3]))
        #expect(try directory.contents() == ["out.png"])
        #expect(try elsewhere.contents() == ["real.png"])
    }

    @Test func linkToNothingIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let link = directory.path + "/out.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path + "/missing")
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([1], to: link) }
        #expect(AtomicFileSpecialFileTests.fileType(link) == 0o120000)
    }
}

#if canImport(Glibc)
/// A signal that asks the process to end, arriving while a set of files is renamed into place, waits
/// until the whole set is in place.
@Suite(.serialized) struct SignalDeferralTests {
    /// The signal the test's own handler received (0 for none): an atomic, as handlers need.
    static let handled = Atomic<Int32>(0)

    @Test func anEndingSignalWaitsForTheStep() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { SignalDeferralTests.handled.store($0, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        var old = sigaction()
        try #require(sigaction(SIGHUP, &action, &old) == 0)
        defer { _ = sigaction(SIGHUP, &old, nil) }
        Self.handled.store(0, ordering: .relaxed)
        func heard() -> Int32 { Self.handled.load(ordering: .sequentiallyConsistent) }
        // The test runner's threads block signals; a thread of our own takes them, as a CLI's main
        // thread would.
        let stop = DispatchSemaphore(value: 0)
        let listening = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGHUP)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            listening.signal()
            while stop.wait(timeout: .now() + .milliseconds(5)) == .timedOut {}
        }
        listening.wait()
        defer { stop.signal() }
        var stepsDone = 0
        SignalDeferral.run {
            _ = kill(getpid(), SIGHUP)
            usleep(100_000)
            #expect(heard() == 0, "the signal reached its handler inside the step")
            stepsDone += 1
        }
        for _ in 0..<100 where heard() == 0 { usleep(10_000) }
        #expect(stepsDone == 1)
        #expect(heard() == SIGHUP, "the held-back signal reached the handler after the step")
    }
}
#endif
