/// What covers an object: one material, or a texture that indexes materials.
///
/// Textures map onto planes through local coordinates: u runs along +X from the left edge, v
/// along −Y from the top edge, both 0…1, so a card reads upright when its +Y points up.
public enum Surface: Sendable, Hashable {
    /// One material everywhere.
    case uniform(Material)
    /// A chart of `columns × rows` patches in reading order (row 0 at the top), separated by a
    /// border material. `gap` is the border width as a fraction of one cell's size.
    case grid(columns: Int, rows: Int, patches: [Material], border: Material, gap: Double)
    /// An image card: `indices` (row-major, top row first) select materials from `palette`.
    case image(width: Int, height: Int, indices: [UInt16], palette: [Material])

    /// Every material this surface can show, in a fixed order (texture indices refer to it).
    public var materials: [Material] {
        switch self {
        case let .uniform(m): return [m]
        case let .grid(_, _, patches, border, _): return patches + [border]
        case let .image(_, _, _, palette): return palette
        }
    }
}
