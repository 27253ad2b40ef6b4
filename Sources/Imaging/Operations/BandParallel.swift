/// Row bands processed by a set of workers (`WorkerThreads`), which take bands one at a time.
///
/// The threading contract: a band's body writes only the rows of its band, and its result does not depend on which
/// worker runs it or in which order bands finish, so every operation built on this is bit-identical for any thread
/// count.
package enum BandParallel {
    /// Rows per band: small enough to balance two to sixteen cores, large enough to amortise thread start-up.
    package static let rowsPerBand = 32

    /// Calls `body(rows)` for consecutive bands of `rowsPerBand` rows covering `0..<height`.
    /// Workers take bands one at a time, so a core slowed by other work takes fewer bands instead of holding the
    /// others up at the end.
    package static func forEachBand(
        height: Int, rowsPerBand: Int = BandParallel.rowsPerBand, threads: Int?, _ body: @Sendable (Range<Int>) -> Void
    ) {
        guard height > 0 else { return }
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        WorkerThreads.forEach(bands, workers: threads ?? WorkerThreads.cores) { b in
            body((b * rowsPerBand)..<min(height, (b + 1) * rowsPerBand))
        }
    }
}
