import Imaging

/// The gains that bring the flash-only signal to the irradiance at the picture's centre: E_c / E(x),
/// E from a `FlashIrradiance.Map`, E_c its value at the centre cell. The photo's exposure is set
/// afterwards from the result, so the reference only keeps the values near the uncorrected ones
/// (the flash-only diagnostic shares the exposure). Gains are held within 1/64 … 64 (our choice:
/// eight times nearer or farther than the centre), where a beam's edge or a grazing surface would
/// otherwise raise noise without bound.
struct IrradianceGains: Sendable {
    let map: FlashIrradiance.Map
    let reference: Float
    /// Per confidence tile (the map's cells), the gain at its centre.
    let tiles: [Double]

    static let limit: Float = 64

    init(_ map: FlashIrradiance.Map) {
        self.map = map
        let cells = map.cells
        let centre = min(map.height / 2 / map.cell, (map.height - 1) / map.cell) * ((map.width + map.cell - 1)
            / map.cell) + min(map.width / 2 / map.cell, (map.width - 1) / map.cell)
        let r = cells[centre] > 0 ? cells[centre] : (cells.max() ?? 1)
        reference = Float(r)
        tiles = cells.map { Double(Self.gain(reference: Float(r), $0 > 0 ? Float($0) : 0)) }
    }

    @inline(__always)
    static func gain(reference: Float, _ e: Float) -> Float {
        e > 0 ? min(max(reference / e, 1 / limit), limit) : limit
    }

    /// The gains of row `y` into `out` (`map.width` values), read through a band's `rows`.
    @inline(__always)
    func row(_ y: Int, rows: FlashIrradiance.Map.Rows, into out: UnsafeMutablePointer<Float>) {
        rows.irradiance(row: y, into: out)
        for x in 0..<map.width { out[x] = Self.gain(reference: reference, out[x]) }
    }
}
