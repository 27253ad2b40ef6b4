import CaptureRules
import Foundation
import Imaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a raised `NSException` goes: a trap with Apple's uncaught-exception text, or the
/// recording of `Emulation.catchException`.
///
/// Catching works without unwinding support in Swift: the body of `catchException` runs on its
/// own thread, and a raise on that thread records the exception, wakes the waiting caller and
/// ends the thread. Nothing after the raising call runs, as with `@try` in Objective-C. Callers
/// must therefore never raise while holding a lock: API code checks under its lock, unlocks, and
/// only then raises (change the state under the lock, unlock, then call out).
///
/// The catching thread is a plain POSIX thread whose catcher lives in a thread-specific slot
/// without a destructor. The body, and everything it captured, is released by the caller once it
/// wakes, never by the catching thread: objects of the caller's must not be torn down while a
/// dying thread destroys its thread-specific data, where the thread's Foundation and Dispatch
/// state is already gone. (A raise ends the thread without unwinding, so whatever the body's own
/// frames retained then stays retained, the catcher itself included, as in Objective-C without
/// ARC exception safety: a small leak per raised exception.)
enum ExceptionRaiser {
    /// Raises: records when the current thread is catching, otherwise traps.
    static func raise(_ exception: NSException) -> Never {
        let rule = exception.userInfo?[RuleKey.userInfoKey] as? CaptureRule
        Emulation.shared.record(exception, rule: rule)
        if let catcher = ExceptionCatcher.current {
            ExceptionCatcher.current = nil
            catcher.finish(with: exception)
            pthread_exit(nil)
        }
        let text =
            "*** Terminating app due to uncaught exception '\(exception.name.rawValue)', "
            + "reason: '\(exception.reason ?? "")'\n"
        FileHandle.standardError.write(Data(text.utf8))
        fatalError("uncaught exception \(exception.name.rawValue)")
    }

    /// Runs `body` on a catching thread and returns what it raised, if anything.
    static func catching(_ body: @escaping () -> Void) -> NSException? {
        let work = Unmanaged.passRetained(CatchingWork(body))
        let catcher = ExceptionCatcher(work: work.toOpaque(), world: Emulation.shared.scopedWorld)
        catcher.start()
        let exception = catcher.wait()
        work.release()
        return exception
    }
}

/// The body of one `catchException` call, owned by its caller.
final class CatchingWork {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// One catching thread and its rendezvous with its caller.
final class ExceptionCatcher: @unchecked Sendable {
    /// Stack of a catching thread: scenario steps run whole image pipelines on it.
    static let stackBytes = 8 << 20

    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    /// The caller's `CatchingWork`, kept alive by the caller until the thread has finished.
    private let work: UnsafeMutableRawPointer
    private var exception: NSException?
    /// The device world the body sees; touched only by the catching thread once it runs.
    private(set) var world: DeviceWorld?

    init(work: UnsafeMutableRawPointer, world: DeviceWorld?) {
        self.work = work
        self.world = world
    }

    /// Starts the catching thread, detached, with `stackBytes` of stack.
    func start() {
        do {
            try POSIXThread.start(stackBytes: Self.stackBytes, detached: true) { self.run() }
        } catch {
            preconditionFailure("cannot start a catching thread (pthread_create returned \(error.status))")
        }
    }

    /// The catching thread's work: run the body without taking a reference to it, then wake the
    /// caller.
    private func run() {
        ExceptionCatcher.current = self
        Unmanaged<CatchingWork>.fromOpaque(work)._withUnsafeGuaranteedRef { $0.body() }
        ExceptionCatcher.current = nil
        finish(with: nil)
    }

    /// Records the outcome, lets go of the world and wakes the caller.
    func finish(with exception: NSException?) {
        world = nil
        lock.withLock { self.exception = exception }
        done.signal()
    }

    func wait() -> NSException? {
        done.wait()
        return lock.withLock { exception }
    }

    /// The catcher of the calling thread, if it is a catching thread.
    static var current: ExceptionCatcher? {
        get {
            guard let raw = pthread_getspecific(slot) else { return nil }
            return Unmanaged<ExceptionCatcher>.fromOpaque(raw).takeUnretainedValue()
        }
        set {
            pthread_setspecific(slot, newValue.map { Unmanaged.passUnretained($0).toOpaque() })
        }
    }

    /// The thread-specific slot; no destructor, as a catcher never outlives its thread's run.
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "cannot create the catching thread's key (status \(status))")
        return key
    }()
}

/// A value moved across threads whose safety the code around it guarantees.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
