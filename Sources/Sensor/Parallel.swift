import Foundation
import Dispatch

/// A pointer that may cross threads because every worker writes disjoint elements.
struct SharedBuffer<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>

    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        guard let base = buffer.baseAddress else { preconditionFailure("an image needs at least one pixel") }
        self.base = base
    }
}

/// Work split into bands processed by a fixed number of workers.
enum Parallel {
    /// Calls `body` once for every band in `0..<bands`; worker w takes bands w, w + n, w + 2n, …
    /// Results must not depend on which worker runs a band (each band writes only its own pixels).
    static func forEachBand(_ bands: Int, threads: Int?, _ body: @Sendable (Int) -> Void) {
        let workers = max(1, min(bands, threads ?? ProcessInfoCores.count))
        if workers == 1 {
            for b in 0..<bands { body(b) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var b = w
            while b < bands {
                body(b)
                b += workers
            }
        }
    }
}

/// The number of cores to use when the caller does not say.
enum ProcessInfoCores {
    static var count: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
