import Foundation

// Capture code written for iOS 15 and later, Apple's AVCam among it, waits for a session's interruptions and errors
// with `for await … in NotificationCenter.default.notifications(named:)`. Foundation on Linux has no such sequence,
// so that code compiles and runs unchanged, this one delivers the same notifications, in the order posted.

#if !canImport(Darwin)
extension NotificationCenter {
    /// The notifications named `name` (from `object` only, when given) posted from now on, as an asynchronous
    /// sequence. Observing starts when the sequence is made and ends when it is released.
    public func notifications(named name: Notification.Name, object: AnyObject? = nil) -> Notifications {
        Notifications(center: self, name: name, object: object)
    }

    /// An asynchronous sequence of the notifications a center posts under one name.
    public final class Notifications: AsyncSequence, @unchecked Sendable {
        public typealias Element = Notification

        private let center: NotificationCenter
        private let stream: AsyncStream<UncheckedSendable<Notification>>
        private let token: NSObjectProtocol

        init(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
            self.center = center
            let (stream, continuation) = AsyncStream<UncheckedSendable<Notification>>.makeStream(
                bufferingPolicy: .unbounded)
            self.stream = stream
            // Posting runs the block on the poster's thread; the stream keeps each notification until it is read, and
            // only the reader touches it then.
            token = center.addObserver(forName: name, object: object, queue: nil) {
                continuation.yield(UncheckedSendable($0))
            }
        }

        deinit { center.removeObserver(token) }

        /// Reads the notifications one after another, waiting for the next to be posted.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<UncheckedSendable<Notification>>.AsyncIterator
            /// Keeps the observer registered while the iterator is read.
            let owner: Notifications

            public mutating func next() async -> Notification? { await base.next()?.value }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator(), owner: self)
        }
    }
}
#endif
