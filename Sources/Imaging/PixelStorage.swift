/// The shared buffer behind planes and views.
///
/// `@unchecked Sendable` is sound because the buffer is only mutated through a `PixelPlane` that holds the sole
/// reference (copy-on-write via `isKnownUniquelyReferenced`); shared instances are never written.
final class PixelStorage<Component: PixelComponent>: @unchecked Sendable {
    var elements: ContiguousArray<Component>

    init(elements: ContiguousArray<Component>) {
        self.elements = elements
    }
}
