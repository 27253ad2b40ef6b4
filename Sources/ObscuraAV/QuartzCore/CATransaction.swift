import Foundation

/// Groups changes to layers (QuartzCore's `CATransaction`), as code that moves overlays over a preview writes:
/// `begin()`, settings such as `setDisableActions(true)`, the changes, `commit()`.
///
/// Layers here are geometry without drawing, so a change of a property applies at once and only animations added to
/// layers play (spec §19.4). What a transaction keeps is what code reads back: its settings, which belong to
/// the innermost transaction open on the calling thread and go with it at its commit, and its completion block,
/// which runs when the outermost transaction commits, or, when animations that end were added in it, on the main
/// queue once the last of them has ended. Outside `begin()`/`commit()` the settings belong to the thread's implicit
/// transaction, which `flush()` commits (Core Animation commits it when the run loop next turns).
open class CATransaction: NSObject {
    /// The settings of one transaction.
    private final class Frame {
        var values: [String: Any] = [:]
        var completion: (() -> Void)?
        /// The host time at which the last animation added in the transaction ends.
        var animationsEnd = -CFTimeInterval.infinity
    }

    /// The calling thread's transactions, the implicit one first.
    private final class Stack {
        var frames = [Frame()]
    }

    private static let stackKey = "com.apple.QuartzCore.CATransaction.stack"

    private static var stack: Stack {
        let dictionary = Thread.current.threadDictionary
        if let stack = dictionary[stackKey] as? Stack { return stack }
        let made = Stack()
        dictionary[stackKey] = made
        return made
    }

    private static var current: Frame { stack.frames[stack.frames.count - 1] }

    /// Opens a transaction nested in the current one.
    open class func begin() { stack.frames.append(Frame()) }

    /// Closes the innermost transaction; closing the outermost runs the completion blocks set in it and in the
    /// transactions nested in it. Without an open transaction, commits the implicit one.
    open class func commit() {
        let stack = stack
        guard stack.frames.count > 1 else { return flush() }
        let frame = stack.frames.removeLast()
        if stack.frames.count == 1 {
            complete(frame)
        } else {
            let outer = stack.frames[stack.frames.count - 1]
            outer.animationsEnd = max(outer.animationsEnd, frame.animationsEnd)
        }
        if stack.frames.count > 1, let completion = frame.completion {
            // A nested transaction's block waits for the outermost commit, as its changes do.
            let outer = stack.frames[stack.frames.count - 1]
            let earlier = outer.completion
            outer.completion = {
                earlier?()
                completion()
            }
        }
    }

    /// Commits the implicit transaction: its completion block runs, and its settings return to their defaults.
    open class func flush() {
        let stack = stack
        let implicit = stack.frames[0]
        stack.frames[0] = Frame()
        complete(implicit)
    }

    /// Runs a committed transaction's completion block: now, or on the main queue when its animations end.
    private static func complete(_ frame: Frame) {
        guard let completion = frame.completion else { return }
        guard frame.animationsEnd > CACurrentMediaTime() else { return completion() }
        let block = UncheckedBlock(completion)
        LayerAnimations.onMain(at: frame.animationsEnd) { block.run() }
    }

    /// Tells the current transaction that an animation added in it ends at host time `end` (never, when infinite).
    static func noteAnimation(ending end: CFTimeInterval) {
        guard end.isFinite else { return }
        current.animationsEnd = max(current.animationsEnd, end)
    }

    /// A completion block carried to the main queue, where Core Animation runs it.
    private struct UncheckedBlock: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Core Animation's lock, for changes to layers from several threads; the layers here lock themselves.
    open class func lock() {}
    /// Releases Core Animation's lock.
    open class func unlock() {}

    /// The duration animations of the current transaction would have: 0.25 s unless set.
    open class func animationDuration() -> CFTimeInterval {
        (value(forKey: kCATransactionAnimationDuration) as? NSNumber)?.doubleValue ?? 0.25
    }
    open class func setAnimationDuration(_ dur: CFTimeInterval) {
        setValue(NSNumber(value: dur), forKey: kCATransactionAnimationDuration)
    }

    /// Whether the current transaction's property changes skip their implicit animations: false unless set.
    open class func disableActions() -> Bool {
        (value(forKey: kCATransactionDisableActions) as? NSNumber)?.boolValue ?? false
    }
    open class func setDisableActions(_ flag: Bool) {
        setValue(NSNumber(value: flag), forKey: kCATransactionDisableActions)
    }

    /// The block run when the current transaction's changes are done.
    open class func completionBlock() -> (() -> Void)? { current.completion }
    open class func setCompletionBlock(_ block: (() -> Void)?) { current.completion = block }

    /// A setting of the current transaction by key (`kCATransactionDisableActions`, `kCATransactionAnimationDuration`,
    /// or the app's own); one not set there is looked up in the transactions it is nested in (our choice).
    open class func value(forKey key: String) -> Any? {
        if key == kCATransactionCompletionBlock { return current.completion }
        return stack.frames.reversed().lazy.compactMap { $0.values[key] }.first
    }
    open class func setValue(_ anObject: Any?, forKey key: String) {
        if key == kCATransactionCompletionBlock {
            current.completion = anObject as? () -> Void
        } else {
            current.values[key] = anObject
        }
    }
}

/// `kCATransactionAnimationDuration`: the transaction's animation duration, seconds.
public let kCATransactionAnimationDuration = "animationDuration"
/// `kCATransactionDisableActions`: whether the transaction's changes skip their implicit animations.
public let kCATransactionDisableActions = "disableActions"
/// `kCATransactionAnimationTimingFunction`: the transaction's timing function.
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
/// `kCATransactionCompletionBlock`: the transaction's completion block.
public let kCATransactionCompletionBlock = "completionBlock"

/// `CACurrentMediaTime()`: the host's time in seconds, the clock `CMClockGetHostTimeClock()` reads, which overlay
/// code stamps its animations and frame intervals with.
public func CACurrentMediaTime() -> CFTimeInterval { CMClockGetTime(CMClockGetHostTimeClock()).seconds }
