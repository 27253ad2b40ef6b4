import Foundation

/// Where a raised `NSException` goes: a trap with Apple's uncaught-exception text, or the
/// recording of `Emulator.catchException`.
///
/// Catching works without unwinding support in Swift: the body of `catchException` runs on its
/// own thread, and a raise on that thread records the exception, wakes the waiting caller and
/// ends the thread. Nothing after the raising call runs, as with `@try` in Objective-C. Callers
/// must therefore never raise while holding a lock: API code checks under its lock, unlocks, and
/// only then raises (DESIGN.md, Time: "lock, change an enum state, unlock, then call out").
enum ExceptionRaiser {
    /// The key under which a catching thread keeps its catcher.
    static let catcherKey = "org.obscura.exception-catcher"

    /// Raises: records when the current thread is catching, otherwise traps.
    static func raise(_ exception: NSException) -> Never {
        let rule = exception.userInfo?[RuleKey.userInfoKey] as? CaptureRule
        Emulator.shared.record(exception, rule: rule)
        if let catcher = Thread.current.threadDictionary[catcherKey] as? ExceptionCatcher {
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
        let catcher = ExceptionCatcher()
        let work = UncheckedSendable(body)
        let world = Emulator.shared.scopedWorld
        let thread = Thread {
            Thread.current.threadDictionary[catcherKey] = catcher
            if let world { Thread.current.threadDictionary[Emulator.worldKey] = world }
            work.value()
            catcher.finish(with: nil)
        }
        thread.stackSize = 8 << 20
        thread.start()
        return catcher.wait()
    }
}

/// One catching thread's rendezvous with its caller.
final class ExceptionCatcher: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var exception: NSException?

    func finish(with exception: NSException?) {
        self.exception = exception
        done.signal()
    }

    func wait() -> NSException? {
        done.wait()
        return exception
    }
}

/// A value moved across threads whose safety the code around it guarantees.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
