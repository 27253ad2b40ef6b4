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
    /// Least recently used first.
    private var entries: [Entry] = []
    /// How many geometries are kept, and how many focus distances of each; the least recently used goes first.
    package let capacity: Int

    package init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The renderer for `geometry` focused at `focus`: a kept one, a kept one of the same geometry refocused,
    /// or else the one `build` makes.
    package func renderer(
        for geometry: Geometry, focus: LensFocus?, build: () throws -> Renderer
    ) rethrows -> Renderer {
        let (hit, sibling) = lock.withLock { () -> (Renderer?, Renderer?) in
            if let i = entries.firstIndex(where: { $0.geometry == geometry && $0.focus == focus }) {
                let entry = entries.remove(at: i)
                entries.append(entry)
                return (entry.renderer, nil)
            }
            return (nil, entries.last { $0.geometry == geometry }?.renderer)
        }
        if let hit { return hit }
        let renderer = try sibling.map { $0.focused(focus) } ?? build()
        lock.withLock {
            entries.removeAll { $0.geometry == geometry && $0.focus == focus }
            entries.append(Entry(geometry: geometry, focus: focus, renderer: renderer))
            trim(keeping: geometry)
        }
        return renderer
    }

    /// Drops the least recently used entries until at most `capacity` geometries are kept and `latest`, the one
    /// just added to, keeps at most `capacity` focus distances. The memory is in the geometries: a refocused
    /// renderer adds only its lens, so distances of one scene must not push other scenes off the shelf.
    private func trim(keeping latest: Geometry) {
        var geometries: [Geometry] = []
        for entry in entries.reversed() where !geometries.contains(entry.geometry) {
            geometries.append(entry.geometry)
        }
        let dropped = geometries.dropFirst(capacity)
        entries.removeAll { dropped.contains($0.geometry) }
        while entries.count(where: { $0.geometry == latest }) > capacity,
            let oldest = entries.firstIndex(where: { $0.geometry == latest })
        {
            entries.remove(at: oldest)
        }
    }
}
