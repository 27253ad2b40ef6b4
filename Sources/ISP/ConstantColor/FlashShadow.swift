import Imaging
import Sensor

/// How far a pixel lies in the flash's own shadow, 0 (lit) … 1 (in shadow), and the flash-only value
/// its surface would have there if the flash had reached it.
///
/// The flash sits a centimetre from the lens, so every object casts a thin shadow of the flash on
/// what lies behind it: a one- or two-pixel sliver along each depth edge, and a wider one behind an
/// object well in front of a wall (the object's shadow on the wall behind it). There the flash-only
/// value f = flash − ambient is about zero, and so is any colour made from it: the tile's flash weight,
/// set by the lit pixels around, would show it as a dark ghost of the object, and in a sliver as
/// noise around zero turned into saturated magenta and green by the colour mapping. The fill
/// F ⊘ (1 + ρ) is no better there: with F ≈ A it is A·f/(A + f), too dark and tinted towards the
/// ambient light's strongest channel.
///
/// The ambient frame still sees the surface. Per tile, κ = Σ A ⊘ Σ f·e over its lit pixels and those
/// of its 8 neighbours, e each pixel's irradiance gain (`IrradianceGains`), is
/// the ambient irradiance relative to the flash's at the picture's centre. A lit pixel is one whose
/// flash-only sum stands 3σ above zero, so the shadows themselves do not count; only every fourth row
/// is summed, which a ratio of sums over 3 × 3 tiles does not miss. κ, unlike the ratio ρ of the
/// fill, does not jump at depth edges (the ambient irradiance hardly changes there; the flash's falls
/// with the square of the distance), so p = A ⊘ κ predicts the flash-only
/// value at the centre's irradiance of a wall pixel behind an object even where κ came partly from the
/// object. A lit pixel's measured value brought to the centre, m = f · e, is p again; in a flash
/// shadow m ≈ 0. A pixel counts as shadowed (our choices) by its visibility v, the least-squares
/// fit of m = v·p over the channels (each weighted by its noise, σ from the shot and read noise of
/// both frames):
/// - v must stand out of the noise below 1: its z-score (1 − v)/σ_v ramps the share from 0 at 3 to 1
///   at 5, so noise alone does not switch a lit pixel;
/// - v, and every channel that can tell (p_c above 4σ_c) by (m_c − 2σ_c)/p_c, must be at most 0.35,
///   the share reaching 1 at 0.15. A flash shadow is hard (the flash is small) and darkens every
///   channel; a sphere's limb, which the flash grazes, and a surface under more ambient light than
///   its neighbours (facing the room light) keep well over a third of p; a coloured light κ does not
///   know (a narrow-band light) raises one channel of p only, and the others stay lit.
/// The pipeline applies it only where the frames agree (the tiles' consistency above 0.9) and the pixel is
/// neither clipped nor impossibly negative: after motion, A ⊘ κ is whatever the ambient frame saw
/// there, a ghost; there the fill F ⊘ (1 + ρ) stays. A pixel the flash measurably lit (its flash-only sum
/// 3σ above zero) counts only where the depth map puts an occluder between its surface and the flash
/// (`FlashOcclusion`): a surface under much more ambient light than the tiles around, which the flash
/// grazes (a side turned towards a strong coloured light), can fall below a third of p in every telling channel
/// without being in any shadow. A pixel the flash did not measurably light keeps the estimate whatever the
/// depth map says: its flash-only value is noise, and the depth map's edges are a pixel coarse.
///
/// A light whose shadow overlaps the flash's is in κ but not in A there, so p lacks its colour and level;
/// the pipeline takes the value from lit pixels of the same surface along the row (`surfaceEstimate`), and
/// p only where the row has none.
///
/// The estimate is no measurement: the confidence map keeps the shadow's low SNR.
struct FlashShadow: Sendable {
    /// Per tile, κ (lane 3: 1 where known, 0 where no lit pixel is near).
    let kappa: [SIMD4<Float>]
    let tile: Int, mw: Int, mh: Int
    /// How far along its row a shadowed pixel looks for lit pixels of its own surface, and how many it takes on
    /// each side (`surfaceEstimate`; `Self.donorReach` and `Self.donorsPerSide` grown with the picture).
    let donorReach: Int, donorsPerSide: Int

    /// Per tile, the mean flash-only value times the irradiance gain of its lit pixels with a depth that no flash
    /// module is hidden from, lane 3 their mean depth (all 0 where none): the surface value a shadowed pixel falls
    /// back on where its row has no donor (`tileEstimate`). Without the penumbra's pixels, part lit, a tile at
    /// a shadow's edge is not taken for a dark surface.
    let surfaces: [SIMD4<Float>]

    /// Every `rowStep`-th row from `rowOffset` is summed (`ShadowTileStatistics`).
    static let rowStep = 4, rowOffset = 2

    /// Per tile, the sums of `ShadowTileStatistics`. Bands of whole tile rows own their tiles, summed in pixel
    /// order, so the sums never depend on the number of cores.
    static func sums(
        _ flashFrame: SensorReadout, _ ambient: SensorReadout, depth: [Float], shift: SIMD2<Double>, limits: ClipLimits,
        irradiance: IrradianceGains?, grid: TileGrid, noise: NoiseParameters, blocked: [UInt8]? = nil
    ) -> [ShadowTileStatistics] {
        let width = grid.width, tile = grid.tileSize, mw = grid.columns
        var sums = [ShadowTileStatistics](repeating: ShadowTileStatistics(), count: grid.count)
        let hasDepth = depth.count == width * grid.height
        FramePair.with(flash: flashFrame, ambient: ambient, shift: shift, noise: noise) { pair in
            sums.withUnsafeMutableBufferPointer { buffer in
                let out = SharedPointer(buffer)
                BandParallel.forEachBand(height: grid.rows) { tileRows in
                    let rows = FramePair.Rows(pair)
                    let fl = rows.flash, am = rows.ambient, clip = rows.clipped
                    let lit = UnsafeMutablePointer<Float>.allocate(capacity: width)
                    defer { lit.deallocate() }
                    lit.initialize(repeating: 1, count: width)
                    let irradianceRows = irradiance.map { FlashIrradiance.Map.Rows($0.map) }
                    // Two rows of each tile (a quarter of an 8-pixel tile's): κ is a ratio of sums over 3 × 3
                    // tiles, which 144 pixels of 576 estimate as well, at a quarter of the pass.
                    let band = grid.pixelRows(of: tileRows)
                    for y in Swift.stride(
                        from: band.lowerBound + min(Self.rowOffset, tile - 1), to: band.upperBound, by: Self.rowStep)
                    {
                        rows.load(y)
                        if let irradiance, let irradianceRows { irradiance.row(y, rows: irradianceRows, into: lit) }
                        let tileRow = out.base + (y / tile) * mw
                        // Tile by tile along the row, so that no pixel divides by the tile size.
                        for tx in 0..<mw {
                            let t = tileRow + tx
                            for x in grid.pixelColumns(of: tx) where !clip[x] {
                                let f = UnsafeRawPointer(fl + 3 &* x).loadUnaligned(as: SIMD4<Float>.self)
                                let a = UnsafeRawPointer(am + 3 &* x).loadUnaligned(as: SIMD4<Float>.self)
                                guard limits.isLit(flash: f, ambient: a) else { continue }
                                let e = f - a
                                let lifted = SIMD3(Double(e[0] * lit[x]), Double(e[1] * lit[x]), Double(e[2] * lit[x]))
                                t.pointee.ambient += SIMD3(Double(a[0]), Double(a[1]), Double(a[2]))
                                t.pointee.flashOnly += lifted
                                guard hasDepth else { continue }
                                let z = depth[y * width + x]
                                guard z.isFinite, z > 0, (blocked?[y * width + x] ?? 0) == 0 else { continue }
                                t.pointee.surface += lifted
                                t.pointee.depth += Double(z)
                                t.pointee.surfacePixels += 1
                            }
                        }
                    }
                }
            }
        }
        return sums
    }

    /// κ of every tile from `sums` (see the type's description). A tile whose 3 × 3 tiles have no lit pixel (deep
    /// inside a wide shadow: an object's shadow on a wall half a metre behind it is a few pixels wide at 640 × 480 and
    /// forty at 4032 × 3024) takes the mean of its known 4-neighbours, ring by ring outwards (`TileFill`), as the
    /// fill's ratio does (`FillRatios`): κ, the ambient irradiance relative to the flash's, changes slowly across a
    /// surface. Unknown only where no tile of the picture has a lit pixel.
    init(sums: [ShadowTileStatistics], grid: TileGrid) {
        let mw = grid.columns, mh = grid.rows, tile = grid.tileSize, width = grid.width
        self.tile = tile
        self.mw = mw
        self.mh = mh
        let scale = ConstantColorPipeline.neighbourhoodScale(width: width)
        donorReach = Int((Double(Self.donorReach) * scale).rounded())
        // More donors in a wider shadow: its rows are estimated apart, and row-to-row noise would show as streaks.
        donorsPerSide = Int((Double(Self.donorsPerSide) * scale).rounded())
        surfaces = sums.map { s in
            let n = s.surfacePixels
            guard n > 0 else { return .zero }
            let mean = s.surface / n
            return SIMD4(Float(mean.x), Float(mean.y), Float(mean.z), Float(s.depth / n))
        }
        var kappa = [SIMD4<Float>](repeating: .zero, count: mw * mh)
        for ty in 0..<mh {
            for tx in 0..<mw {
                var a = SIMD3<Double>(0, 0, 0), f = SIMD3<Double>(0, 0, 0)
                for n in grid.neighbourhood(tx, ty) {
                    a += sums[n].ambient
                    f += sums[n].flashOnly
                }
                guard (0..<3).allSatisfy({ a[$0] > 0 && f[$0] > 0 }) else { continue }
                let k = a / f
                kappa[ty * mw + tx] = SIMD4(Float(k.x), Float(k.y), Float(k.z), 1)
            }
        }
        var known = kappa.map { $0[3] > 0 }
        TileFill.fillInward(&kappa, known: &known, width: mw, height: mh)
        self.kappa = kappa
    }

    /// κ interpolated to row `y` at every tile column, into `out` (`mw` values), lane 3 the weight of the
    /// tiles that know it; a pixel interpolates between two columns (`kappa(_:_:a:)`).
    @inline(__always)
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let v = min(max((Float(y) + 0.5) / Float(tile) - 0.5, 0), Float(mh - 1))
        let y0 = Int(v), y1 = min(Int(v) + 1, mh - 1)
        let b = v - Float(y0)
        kappa.withUnsafeBufferPointer { k in
            guard let base = k.baseAddress else { return }
            for tx in 0..<mw { out[tx] = (1 - b) * base[y0 * mw + tx] + b * base[y1 * mw + tx] }
        }
    }

    /// How far along its row a shadowed pixel looks for lit pixels of its own surface at 640 pixels wide (the
    /// reach grows with the picture, `ConstantColorPipeline.neighbourhoodScale`), and how many it takes on each
    /// side at 640 (our choices: an object's shadow on a wall half a metre behind it is a few pixels wide at 640;
    /// twelve pixels a side keep the donors' noise out of the colour where the flash is weak, at the back of a
    /// table, and where the search stops at another surface on one side: with four, each row of the shadow
    /// beside a thin object took a visibly different colour).
    static let donorReach = 24, donorsPerSide = 12
    /// A donor's depth may differ from the shadowed pixel's by this share of it (3σ of the depth's 0.5 %,
    /// as `SurfaceColours` matches its donors), or it is another surface.
    static let donorDepth: Float = 0.015
    /// How far around a donor its surface must continue: the irradiance map's tangent step (half its 8-pixel
    /// cell, `FlashIrradiance.Map`).
    static let donorMargin = 4

    /// The flash-only value of a shadowed pixel at `x` from the lit pixels of its own surface along the row
    /// (their mean, irradiance-corrected as `p` is); `p` where the row has none.
    ///
    /// A ⊘ κ is right only where the shadowed pixel has the ambient light of the lit pixels κ comes from.
    /// Where another light's shadow overlaps the flash's (a coloured light from the side, whose shadow of an
    /// object falls on the wall next to the flash's), the ambient frame lacks that light there: A ⊘ κ lacks its
    /// colour (the complementary hue where that light is missing) and its level (a grey outline of the object).
    /// Where κ came from another surface under other light (at 4032 pixels wide an object's shadow on the wall
    /// is wider than κ's tiles, and κ is the object's, which that light does not reach), A ⊘ κ is off by orders
    /// of magnitude. The lit pixels of the same surface beside the shadow measured its flash-only value itself.
    /// A donor has the pixel's depth within its noise, and so has every pixel within `donorMargin` of it along
    /// its row and column (the irradiance's surface normal comes from those neighbours, and beside a depth edge
    /// it is off: a wall pixel next to a nearer object came out half again too bright), unless the row has no
    /// such donor, when any does. Both searches stop on each side at the first pixel of another depth: beyond
    /// another surface, what lies at the pixel's depth again is seldom its surface (a surface seen again beyond
    /// a thin object, or another object's receding side, gave the surface beside the shadow streaks of other
    /// colours, row by row). Only where neither finds a donor does a third look beyond (a strip of wall between
    /// two nearer objects, all of it in their shadow). A donor is measurably lit (`ClipLimits.isLit`, every
    /// channel positive), hidden from none of the flash's modules (`blocked`, the `FlashOcclusion` mask, where
    /// given: in a strip of wall between two nearer objects the only lit pixels before the search stops may be
    /// the penumbra's, hidden from one module, and one of those made a dark line of a row) and has at least half
    /// the level of the brightest donor found (one in the shadow's penumbra is not). The texture of a surface
    /// inside the shadow is not recovered: the ambient frame has it, but with the ambient light's own shadows,
    /// which a flash shadow mostly overlaps.
    @inline(__always)
    func surfaceEstimate(
        _ p: SIMD4<Float>, at x: Int, width: Int, flash fl: UnsafePointer<Float>, ambient am: UnsafePointer<Float>,
        clipped: UnsafePointer<Bool>, gains lit: UnsafePointer<Float>, depth plane: UnsafePointer<Float>,
        blocked: [UInt8]? = nil, y: Int, height: Int, limits: ClipLimits
    ) -> SIMD4<Float> {
        let depth = plane + y * width
        let z = depth[x]
        guard z.isFinite, z > 0 else { return p }
        // Whether the surface at depth z continues `donorMargin` pixels around pixel j of the row.
        @inline(__always) func inside(_ j: Int) -> Bool {
            for d in 1...Self.donorMargin {
                for (u, v) in [(j - d, y), (j + d, y), (j, y - d), (j, y + d)] {
                    guard u >= 0, u < width, v >= 0, v < height else { return false }
                    let zz = plane[v * width + u]
                    guard zz.isFinite, abs(zz - z) <= Self.donorDepth * z else { return false }
                }
            }
            return true
        }
        return withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: 2 * donorsPerSide) { donors in
            // Donors well inside the surface, on the pixel's side of any other surface, first; without any, those
            // beside its edges too; without any still, those beyond other surfaces.
            for (strict, beyond) in [(true, false), (false, false), (false, true)] {
                var found = 0
                var brightest: Float = 0
                for direction in [-1, 1] {
                    var taken = 0
                    var j = x + direction
                    while taken < donorsPerSide, j >= 0, j < width, abs(j - x) <= donorReach {
                        defer { j += direction }
                        let dz = depth[j] - z
                        // Another surface ends the search on this side: what lies beyond it at the pixel's depth
                        // is seldom the pixel's surface (a surface seen again beyond a thin object, another
                        // object's side). The last search looks beyond (a strip of wall between two nearer objects).
                        if depth[j].isFinite, abs(dz) > Self.donorDepth * z {
                            if beyond { continue } else { break }
                        }
                        guard !clipped[j], depth[j].isFinite else { continue }
                        let f = UnsafeRawPointer(fl + 3 &* j).loadUnaligned(as: SIMD4<Float>.self)
                        let a = UnsafeRawPointer(am + 3 &* j).loadUnaligned(as: SIMD4<Float>.self)
                        guard limits.isLit(flash: f, ambient: a), !strict || inside(j) else { continue }
                        // Hidden from one of the flash's modules (the penumbra beside the shadow): part lit.
                        if let blocked, blocked[y &* width &+ j] > 0 { continue }
                        var m = (f - a) * lit[j]
                        m[3] = 0
                        guard m[0] > 0, m[1] > 0, m[2] > 0 else { continue }
                        donors[found] = m
                        found += 1
                        taken += 1
                        brightest = max(brightest, m[0] + m[1] + m[2])
                    }
                }
                var sum = SIMD4<Float>(repeating: 0), count: Float = 0
                for n in 0..<found where donors[n][0] + donors[n][1] + donors[n][2] >= 0.5 * brightest {
                    sum += donors[n]
                    count += 1
                }
                guard count > 0 else { continue }
                var out = sum / count
                out[3] = p[3]
                return out
            }
            return tileEstimate(x: x, y: y, depth: z) ?? p
        }
    }

    /// Where a shadowed pixel's row has no donor (a long shadow along a wall), the surface value of the nearest
    /// tiles whose lit pixels lie at its depth (within `donorDepth`), ring by ring within the donor reach: the
    /// mean of that ring's matching tiles; nil where none does.
    func tileEstimate(x: Int, y: Int, depth z: Float) -> SIMD4<Float>? {
        let tx = x / tile, ty = y / tile
        let rings = max(1, donorReach / tile)
        for r in 0...rings {
            var sum = SIMD4<Float>(repeating: 0), count: Float = 0
            for sy in max(0, ty - r)...min(mh - 1, ty + r) {
                for sx in max(0, tx - r)...min(mw - 1, tx + r) where max(abs(sx - tx), abs(sy - ty)) == r {
                    let s = surfaces[sy * mw + sx]
                    guard s[3] > 0, abs(s[3] - z) <= Self.donorDepth * z, s[0] > 0, s[1] > 0, s[2] > 0 else { continue }
                    sum += s
                    count += 1
                }
            }
            if count > 0 {
                var out = sum / count
                out[3] = 0
                return out
            }
        }
        return nil
    }

    /// The shadowed share of a pixel and the flash-only estimate p = A ⊘ κ (at the centre's irradiance),
    /// from κ interpolated to it (`row(_:into:)`, lane 3 the weight of the tiles that know it), its rates
    /// `flash` and `ambient` (e⁻/s), its own irradiance gain `own` and the frames' noise (`limits`). The
    /// share is 0 where nothing tells.
    @inline(__always)
    static func estimate(kappa interpolated: SIMD4<Float>, flash f: SIMD4<Float>, ambient a: SIMD4<Float>,
        own: Float, limits: ClipLimits) -> (share: Float, value: SIMD4<Float>)
    {
        // Only where all four tiles know κ: at the edge of the known ones the interpolation extrapolates.
        guard interpolated[3] > 0.999 else { return (0, .zero) }
        var k = interpolated / interpolated[3]
        k[3] = 1
        let p = a / k
        let m = (f - a) * own
        // A lit pixel (every channel at least half its positive prediction) has v ≥ 0.5: no share, whatever
        // the noise, and most pixels stop here.
        let half = (m .>= 0.5 * p) .& (p .> SIMD4<Float>(repeating: 0))
        if half[0] && half[1] && half[2] { return (0, p) }
        let inverse = 1 / k
        let variance = limits.flashOnlyVariance(flash: f, ambient: a) * own * own
            + limits.ambientVariance(a) * inverse * inverse
        // m = v·p by least squares, each channel weighted by its noise, and each telling channel's
        // visibility less 2σ (noise must not let a shadowed pixel look lit).
        var mp: Float = 0, pp: Float = 0, lit: Float = -1
        for c in 0..<3 where variance[c] > 0 {
            mp += m[c] * p[c] / variance[c]
            pp += p[c] * p[c] / variance[c]
            let sigma = variance[c].squareRoot()
            if p[c] > 4 * sigma { lit = max(lit, (m[c] - 2 * sigma) / p[c]) }
        }
        guard pp > 0, lit > -1 else { return (0, p) }
        let v = mp / pp
        let z = (1 - v) * pp.squareRoot()
        let significant = min(max((z - 3) / 2, 0), 1)
        let dark = min(max((0.35 - v) / 0.2, 0), 1) * min(max((0.35 - lit) / 0.2, 0), 1)
        return (significant * dark, p)
    }
}

/// What the `FlashShadow` pass sums in one tile, over the lit (`ClipLimits.isLit`), unclipped pixels of the rows it
/// reads; rates in e⁻/s, each flash-only rate times the pixel's irradiance gain (`IrradianceGains`).
struct ShadowTileStatistics: Sendable {
    /// Σ ambient rates per channel.
    var ambient = SIMD3<Double>(0, 0, 0)
    /// Σ flash-only rates times the gain, per channel.
    var flashOnly = SIMD3<Double>(0, 0, 0)
    /// Over those with a depth and hidden from no flash module (`FlashOcclusion`): Σ flash-only rates times the gain.
    var surface = SIMD3<Double>(0, 0, 0)
    /// Σ their depth, metres, and their count.
    var depth = 0.0, surfacePixels = 0.0
}
