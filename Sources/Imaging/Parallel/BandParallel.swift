/// Row bands processed by a set of workers (`WorkerThreads`), which take bands one at a time: the one band loop of
/// Imaging, Sensor and ISP.
///
/// The threading contract: a band's body writes only the rows of its band, and its result does not depend on which
/// worker runs it or in which order bands finish, so every operation built on this is bit-identical for any thread
/// count.
package enum BandParallel {
    /// Rows per band: small enough to balance two to sixteen cores, large enough to amortise thread start-up. Fixed,
    /// so results reduced band by band never depend on the number of workers.
    package static let rowsPerBand = 32

    /// Calls `body(rows)` for consecutive bands of `rowsPerBand` rows covering `0..<height`.
    /// Workers take bands one at a time, so a core slowed by other work takes fewer bands instead of holding the
    /// others up at the end.
    package static func forEachBand(
        height: Int, rowsPerBand: Int = BandParallel.rowsPerBand, threads: Int? = nil,
        _ body: @Sendable (Range<Int>) -> Void
    ) {
        guard height > 0 else { return }
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        WorkerThreads.forEach(bands, workers: threads ?? WorkerThreads.cores) { b in
            body((b * rowsPerBand)..<min(height, (b + 1) * rowsPerBand))
        }
    }

    /// A new array of `count` plain values (floats, bytes) filled row band by row band; `body` gets
    /// the rows and a pointer to the whole output, and must write every element of its rows.
    ///
    /// The array starts uninitialised: a serial zero fill of a 12 MP plane costs as much as the
    /// pass itself, and its page faults then land on one core instead of on the workers.
    package static func fill<T: BitwiseCopyable>(
        count: Int, rows: Int, of type: T.Type, threads: Int? = nil,
        _ body: @Sendable (Range<Int>, UnsafeMutablePointer<T>) -> Void
    ) -> [T] {
        var out: [T] = uninitialized(count)
        out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let shared = SharedPointer(base: base)
            forEachBand(height: rows, threads: threads) { range in body(range, shared.base) }
        }
        return out
    }

    /// An array of `count` plain values left uninitialised, for a parallel pass that writes every
    /// element (so the pages are first touched by the workers, not by a serial zero fill). An empty
    /// array is `[]`: the initialiser with capacity 0 stores the count into the standard library's
    /// shared empty-array storage, a write that every thread making such an array repeats, and that
    /// the thread sanitizer rightly reports as a race.
    package static func uninitialized<T: BitwiseCopyable>(_ count: Int) -> [T] {
        count == 0 ? [] : [T](unsafeUninitializedCapacity: count) { _, n in n = count }
    }

    /// One value per band of `rowsPerBand` rows covering `0..<rows`, in band order; `body` gets the
    /// band's rows. Merging the values in order makes a reduction deterministic for any core count.
    package static func bands<T>(
        _ rows: Int, initial: T, threads: Int? = nil, _ body: @Sendable (Range<Int>) -> T
    ) -> [T] {
        let count = (rows + rowsPerBand - 1) / rowsPerBand
        var out = [T](repeating: initial, count: count)
        out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let shared = SharedPointer(base: base)
            WorkerThreads.forEach(count, workers: threads ?? WorkerThreads.cores) { b in
                shared.base[b] = body((b * rowsPerBand)..<min(rows, b * rowsPerBand + rowsPerBand))
            }
        }
        return out
    }
}
