import Foundation

/// The pipeline's one large scratch plane (linear Display P3 between the blend and the encoding, 145 MB at
/// 12 MP), kept from one capture to the next instead of allocated afresh.
///
/// A fresh plane of that size is mapped by the allocator straight from the kernel and returned to it when
/// freed, so every capture paid a page fault and a zero fill per 4 KB on first touch (about 2 µs each here,
/// 35,000 pages: as much CPU time as the encoding itself). The pass that fills the plane writes every
/// element, so a reused plane gives the same bytes as a fresh one. The cost is memory: the plane stays
/// resident while the pipeline (or a copy of it) lives. Captures running at the same time each get their
/// own plane; only one is kept.
final class ScratchPlane: @unchecked Sendable {
    private let lock = NSLock()
    private var spare: [Float] = []

    /// A plane of `count` floats with unspecified contents: the kept one if its size fits, else a new one.
    func take(count: Int) -> [Float] {
        let kept = lock.withLock { () -> [Float] in
            defer { spare = [] }
            return spare
        }
        return kept.count == count ? kept : ParallelRows.uninitialized(count)
    }

    /// Keeps `plane` for the next `take`.
    func keep(_ plane: [Float]) {
        lock.withLock { spare = plane }
    }
}
