import Imaging
import Foundation

/// Rows split into bands handed to the cores. Results never depend on the number of workers:
/// every band writes only its own rows.
enum ParallelRows {
    /// Calls `body` with disjoint row ranges covering `0..<rows`, in bands of `bandHeight` rows.
    static func forEach(_ rows: Int, _ body: @Sendable (Range<Int>) -> Void) {
        BandParallel.forEachBand(height: rows, rowsPerBand: bandHeight, threads: nil, body)
    }

    /// A new array of `count` plain values (floats, bytes) filled row band by row band; `body` gets
    /// the rows and a pointer to the whole output, and must write every element of its rows.
    ///
    /// The array starts uninitialised: a serial zero fill of a 12 MP plane costs as much as the
    /// pass itself, and its page faults then land on one core instead of on the workers.
    static func fill<T: BitwiseCopyable>(
        count: Int, rows: Int, of type: T.Type, _ body: @Sendable (Range<Int>, UnsafeMutablePointer<T>) -> Void
    ) -> [T] {
        var out: [T] = ParallelRows.uninitialized(count)
        out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let shared = SharedPointer(base: base)
            forEach(rows) { range in body(range, shared.base) }
        }
        return out
    }
}

extension ParallelRows {
    /// An array of `count` plain values left uninitialised, for a parallel pass that writes every
    /// element (so the pages are first touched by the workers, not by a serial zero fill). An empty array is `[]`,
    /// since capacity 0 would store the count into the shared empty-array storage from every thread (a race).
    static func uninitialized<T: BitwiseCopyable>(_ count: Int) -> [T] {
        count == 0 ? [] : [T](unsafeUninitializedCapacity: count) { _, n in n = count }
    }

    /// Rows per band of `bands`: fixed, so results reduced band by band never depend on the number
    /// of workers.
    static let bandHeight = 32

    /// One value per band of `bandHeight` rows covering `0..<rows`, in band order; `body` gets the
    /// band's rows. Merging the values in order makes a reduction deterministic for any core count.
    static func bands<T>(_ rows: Int, initial: T, _ body: @Sendable (Range<Int>) -> T) -> [T] {
        let count = (rows + bandHeight - 1) / bandHeight
        var out = [T](repeating: initial, count: count)
        out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let shared = SharedPointer(base: base)
            WorkerThreads.forEach(count, workers: WorkerThreads.cores) { b in
                shared.base[b] = body((b * bandHeight)..<min(rows, b * bandHeight + bandHeight))
            }
        }
        return out
    }
}
