#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting a POSIX thread that runs a Swift closure: the one place that talks to `pthread_create`,
/// for `WorkerThreads` and for the emulator's exception-catching threads.
package enum POSIXThread {
    /// `pthread_create` refused; `status` is its error number.
    package struct StartFailure: Error {
        package let status: Int32
    }

    /// Starts a thread running `body`, with `stackBytes` of stack when given (else the system's
    /// default); a detached thread cannot be joined. The closure is released when it returns.
    @discardableResult
    package static func start(
        stackBytes: Int? = nil, detached: Bool = false, _ body: @escaping @Sendable () -> Void
    ) throws(StartFailure) -> pthread_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        #if canImport(Darwin)
        guard status == 0, let thread else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw StartFailure(status: status)
        }
        #else
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw StartFailure(status: status)
        }
        #endif
        return thread
    }

    /// The closure a started thread runs.
    private final class Body: @unchecked Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
