import Foundation

/// Which values a key-value observation hands to its handler (Foundation's KVO options).
///
/// swift-corelibs-foundation has no key-value observing; Obscura provides the block-based API
/// for the properties the capture spec marks KVO-observable.
public struct NSKeyValueObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Include the new value.
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    /// Include the old value.
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
    /// Call the handler once immediately, at registration.
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
    /// Call the handler before each change as well as after.
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}

/// The kind of a change.
public enum NSKeyValueChange: UInt, Sendable {
    case setting = 1
    case insertion = 2
    case removal = 3
    case replacement = 4
}

/// One change delivered to an observation's handler.
public struct NSKeyValueObservedChange<Value> {
    public typealias Kind = NSKeyValueChange
    public let kind: Kind
    /// The new value, when `.new` was requested (nil for a prior notification).
    public let newValue: Value?
    /// The old value, when `.old` was requested.
    public let oldValue: Value?
    /// Always nil: Obscura observes only settings, not collection mutations.
    public let indexes: IndexSet?
    /// Whether this is the notification sent before the change (`.prior`).
    public let isPrior: Bool
}

/// A live observation; it ends when invalidated or deallocated.
public final class NSKeyValueObservation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancel: (() -> Void)?

    init(cancel: @escaping () -> Void) { self.cancel = cancel }

    /// Stops the observation.
    public func invalidate() {
        let action = lock.withLock { () -> (() -> Void)? in
            defer { cancel = nil }
            return cancel
        }
        action?()
    }

    deinit { invalidate() }
}

/// The protocol that carries `observe(_:options:changeHandler:)`, as in Foundation.
public protocol _KeyValueCodingAndObserving {}

extension _KeyValueCodingAndObserving {
    /// Observes a property. The handler runs on the thread that made the change, after it.
    /// Only the properties Obscura documents as observable ever report changes.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        guard let host = self as? ObservationHost else { return NSKeyValueObservation {} }
        let object = UncheckedSendable(self)
        // The last value the handler was given: changes may be reported from several threads.
        let lastLock = NSLock()
        var last = self[keyPath: keyPath]
        let initial = last
        // Values that change without a setter (3A's ISO and exposure, a recording's state) are found by
        // comparing with the last value given, when the registry is asked to look (`refresh`).
        let changed: (() -> Bool)? = (initial as? AnyHashable).map { _ in
            {
                let current = object.value[keyPath: keyPath] as? AnyHashable
                return lastLock.withLock { (last as? AnyHashable) != current }
            }
        }
        let id = host.observers.add(keyPath, changed: changed) { prior in
            let current = object.value[keyPath: keyPath]
            if prior {
                guard options.contains(.prior) else { return }
                changeHandler(
                    object.value,
                    NSKeyValueObservedChange(
                        kind: .setting, newValue: nil, oldValue: options.contains(.old) ? current : nil,
                        indexes: nil, isPrior: true))
                return
            }
            let old = lastLock.withLock { () -> Value in
                defer { last = current }
                return last
            }
            changeHandler(
                object.value,
                NSKeyValueObservedChange(
                    kind: .setting, newValue: options.contains(.new) ? current : nil,
                    oldValue: options.contains(.old) ? old : nil, indexes: nil, isPrior: false))
        }
        if options.contains(.initial) {
            changeHandler(
                self,
                NSKeyValueObservedChange(
                    kind: .setting, newValue: options.contains(.new) ? initial : nil, oldValue: nil, indexes: nil,
                    isPrior: false))
        }
        let registry = host.observers
        return NSKeyValueObservation { registry.remove(id) }
    }
}

/// An object whose observable properties report their changes to a registry.
protocol ObservationHost: AnyObject {
    var observers: ObserverRegistry { get }
}

/// The observers of one object, by key path.
final class ObserverRegistry: @unchecked Sendable {
    private struct Entry {
        let id: Int
        let keyPath: AnyKeyPath
        /// Whether the value differs from the one last given to the handler; nil when it cannot tell.
        let changed: (() -> Bool)?
        let fire: (_ prior: Bool) -> Void
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var nextID = 0

    func add(_ keyPath: AnyKeyPath, changed: (() -> Bool)? = nil, fire: @escaping (_ prior: Bool) -> Void) -> Int {
        lock.withLock {
            nextID += 1
            entries.append(Entry(id: nextID, keyPath: keyPath, changed: changed, fire: fire))
            return nextID
        }
    }

    /// Reports every observed property whose value differs from the one its handler last saw: for
    /// state that moves by itself (3A converging, a recording growing), called where it may have moved.
    /// Cheap when nothing is observed.
    func refresh() {
        // A fresh array, not the stored one's buffer: a removal under the lock on another thread must
        // not change what is being walked here (as `AVCaptureSession`'s getters do).
        let all = lock.withLock { entries.map { $0 } }
        for entry in all where entry.changed?() == true { entry.fire(false) }
    }

    func remove(_ id: Int) {
        lock.withLock { entries.removeAll { $0.id == id } }
    }

    /// Reports a change of `keyPath`; call after the change, outside any lock.
    func didChange(_ keyPath: AnyKeyPath) {
        let matching = lock.withLock { entries.filter { $0.keyPath == keyPath } }
        for entry in matching { entry.fire(false) }
    }
}
