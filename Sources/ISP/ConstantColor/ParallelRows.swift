import Dispatch
import Foundation

/// A pointer that workers share because each writes only its own rows.
struct RowBuffer<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
}

/// A read-only pointer that workers share.
struct ReadBuffer<Element>: @unchecked Sendable {
    let base: UnsafePointer<Element>
}

/// Rows split into bands handed to the cores. Results never depend on the number of workers:
/// every band writes only its own rows.
enum ParallelRows {
    /// Calls `body` with disjoint row ranges covering `0..<rows`.
    static func forEach(_ rows: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let band = 32
        let bands = (rows + band - 1) / band
        let workers = max(1, min(bands, ProcessInfo.processInfo.activeProcessorCount))
        if workers == 1 {
            body(0..<rows)
            return
        }
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var b = w
            while b < bands {
                body((b * band)..<min(rows, b * band + band))
                b += workers
            }
        }
    }

    /// A new array of `count` elements filled row band by row band; `body` gets the rows and a
    /// pointer to the whole output.
    static func fill<T>(
        count: Int, rows: Int, initial: T, _ body: @Sendable (Range<Int>, UnsafeMutablePointer<T>) -> Void
    ) -> [T] {
        var out = [T](repeating: initial, count: count)
        out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let shared = RowBuffer(base: base)
            forEach(rows) { range in body(range, shared.base) }
        }
        return out
    }
}
