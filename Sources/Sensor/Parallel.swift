import Foundation
import Imaging

/// Work split into bands processed by a fixed number of workers.
enum Parallel {
    /// Calls `body` once for every band in `0..<bands`. Workers take the next unclaimed band as
    /// they finish one, so a core slowed by other work takes fewer bands instead of holding the
    /// others up at the end. Results must not depend on which worker runs a band (each band
    /// writes only its own pixels).
    static func forEachBand(_ bands: Int, threads: Int?, _ body: @Sendable (Int) -> Void) {
        let workers = max(1, min(bands, threads ?? WorkerThreads.cores))
        if workers == 1 {
            for b in 0..<bands { body(b) }
            return
        }
        WorkerThreads.forEach(bands, workers: workers, body)
    }
}
