import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Parallel loops on plain POSIX threads that live for one call.
///
/// The pixel kernels of Imaging, Sensor and ISP run their row bands through here. The loops are
/// called from the emulator's own threads, which end afterwards; the threads here keep no state
/// beyond the call. The caller works as one of the workers, and `pthread_join` orders every
/// worker's writes before the return. Bodies must not raise an `NSException` (a raise ends the
/// calling thread without joining the others); a body that starts its own loop multiplies the
/// threads.
package enum WorkerThreads {
    /// Calls `body(index)` once for every index in `0..<count`, on up to `workers` threads at once.
    /// Workers take the next unclaimed index as they finish one, so a core slowed by other work
    /// takes fewer indices. `body` must not depend on which worker runs an index.
    package static func forEach(_ count: Int, workers: Int, _ body: @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let threads = max(1, min(workers, count))
        if threads == 1 {
            for index in 0..<count { body(index) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let job = Job(count: count, body: body)
            var started: [pthread_t] = []
            started.reserveCapacity(threads - 1)
            for _ in 1..<threads {
                // A thread the system refuses leaves its share to the others, the caller included.
                if let thread = try? POSIXThread.start({ job.work() }) { started.append(thread) }
            }
            job.work()
            for thread in started { pthread_join(thread, nil) }
        }
    }

    /// The number of workers when the caller does not say: the processors this process may run on
    /// (see `WorkerCount`), or `OBSCURA_THREADS`.
    package static var cores: Int { WorkerCount.current }

    /// One loop: the body and the next index to hand out.
    private final class Job: @unchecked Sendable {
        let count: Int
        let body: @Sendable (Int) -> Void
        private let lock = NSLock()
        private var next = 0

        init(count: Int, body: @escaping @Sendable (Int) -> Void) {
            self.count = count
            self.body = body
        }

        func work() {
            while let index = claim() { body(index) }
        }

        private func claim() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }
}

/// A pointer that workers share because each writes only its own elements (its rows or bands).
package struct SharedPointer<Element>: @unchecked Sendable {
    package let base: UnsafeMutablePointer<Element>

    package init(base: UnsafeMutablePointer<Element>) { self.base = base }

    /// The buffer's start; pixel buffers are never empty (an image has at least one pixel).
    package init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        guard let base = buffer.baseAddress else { preconditionFailure("an image needs at least one pixel") }
        self.base = base
    }
}

/// A read-only pointer that workers share.
package struct SharedReadPointer<Element>: @unchecked Sendable {
    package let base: UnsafePointer<Element>

    package init(base: UnsafePointer<Element>) { self.base = base }

    /// The buffer's start; pixel buffers are never empty (an image has at least one pixel).
    package init(_ buffer: UnsafeBufferPointer<Element>) {
        guard let base = buffer.baseAddress else { preconditionFailure("an image needs at least one pixel") }
        self.base = base
    }
}
