import Foundation
import Sensor

/// The renderers kept for the last few photo requests, so that repeated captures of an unchanged scene only
/// expose and develop: a `Renderer` holds the scene's geometry pass, the costly and exposure-independent part of
/// a photo (about 200–265 MB at 12 MP).
///
/// A renderer is found by what its geometry depends on (`Geometry`: the scene, the camera, the size, the flash)
/// and by where the lens is focused. The focus changes only how the light spreads before the sensor counts it
/// (`Renderer.focused(_:)`), so a request that differs from a kept one in its focus alone shares that renderer's
/// geometry: an app that taps to focus at several distances traces the scene once and holds one copy of it.
package final class RendererShelf<Geometry: Hashable>: @unchecked Sendable {
    private struct Entry {
        let geometry: Geometry
        let focus: LensFocus?
        let renderer: Renderer
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    /// How many renderers are kept; the least recently made goes first.
    package let capacity: Int

    package init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The renderer for `geometry` focused at `focus`: a kept one, a kept one of the same geometry refocused,
    /// or else the one `build` makes.
    package func renderer(
        for geometry: Geometry, focus: LensFocus?, build: () throws -> Renderer
    ) rethrows -> Renderer {
        let (hit, sibling) = lock.withLock { () -> (Renderer?, Renderer?) in
            let same = entries.filter { $0.geometry == geometry }
            return (same.first { $0.focus == focus }?.renderer, same.last?.renderer)
        }
        if let hit { return hit }
        let renderer = try sibling.map { $0.focused(focus) } ?? build()
        lock.withLock {
            entries.removeAll { $0.geometry == geometry && $0.focus == focus }
            entries.append(Entry(geometry: geometry, focus: focus, renderer: renderer))
            if entries.count > capacity { entries.removeFirst() }
        }
        return renderer
    }
}
