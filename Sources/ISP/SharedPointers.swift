import Imaging

/// Shared read-only pointers to four arrays that parallel row bands read.
func withReadPointers<A, B, C, D, R>(
    _ a: [A], _ b: [B], _ c: [C], _ d: [D],
    _ body: (SharedReadPointer<A>, SharedReadPointer<B>, SharedReadPointer<C>, SharedReadPointer<D>) -> R
) -> R {
    a.withUnsafeBufferPointer { pa in
        b.withUnsafeBufferPointer { pb in
            c.withUnsafeBufferPointer { pc in
                d.withUnsafeBufferPointer { pd in
                    body(SharedReadPointer(pa), SharedReadPointer(pb), SharedReadPointer(pc), SharedReadPointer(pd))
                }
            }
        }
    }
}

/// Shared mutable pointers to two arrays that parallel row bands fill, each band its own rows or tiles.
func withPointers<A, B, R>(_ a: inout [A], _ b: inout [B], _ body: (SharedPointer<A>, SharedPointer<B>) -> R) -> R {
    a.withUnsafeMutableBufferPointer { pa in
        b.withUnsafeMutableBufferPointer { pb in body(SharedPointer(pa), SharedPointer(pb)) }
    }
}

/// Shared mutable pointers to three arrays that parallel row bands fill, each band its own rows or tiles.
func withPointers<A, B, C, R>(
    _ a: inout [A], _ b: inout [B], _ c: inout [C], _ body: (SharedPointer<A>, SharedPointer<B>, SharedPointer<C>) -> R
) -> R {
    withPointers(&a, &b) { pa, pb in c.withUnsafeMutableBufferPointer { pc in body(pa, pb, SharedPointer(pc)) } }
}
