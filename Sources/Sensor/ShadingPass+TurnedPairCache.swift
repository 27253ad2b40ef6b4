import Imaging

extension ShadingPass {
    /// The most values of the second frame's sums one band may hold (two per pixel of the rows its sources reach):
    /// 32 MB. A band whose sources spread wider (a close surface's parallax under a camera that moved) takes the
    /// reference path, which holds none.
    static let largestTurnedSums = 2 << 20

    /// `runTurnedPair`'s fast path for one band: where each pixel's source lies, then the second frame's ambient and
    /// flash sums at every first-frame pixel of the rows those sources reach, then the pixel loop of the reference
    /// with each corner's sums read instead of summed. False, with nothing written, when the sources reach more rows
    /// than `largestTurnedSums` allows.
    static func runCachedTurnedPair<AA: SlotSum, AB: SlotSum, FA: SlotSum, FB: SlotSum, P: FactorPlane>(
        _ a: ShadingPass, _ b: ShadingPass, _ view: TurnedView, _ rows: Range<Int>, _ outputs: (a: Output, b: Output),
        _ truth: Truth?, _ ambientSumA: AA, _ ambientSumB: AB, _ flashSumA: FA, _ flashSumB: FB, _ factors: P
    ) -> Bool {
        let width = a.width, height = a.geometry.height
        let none = Int(RawFrame.none)
        return a.geometry.withBuffers { g in
            let sources = UnsafeMutablePointer<Source>.allocate(capacity: rows.count * width)
            defer { sources.deallocate() }
            var top = height, bottom = 0
            for y in rows {
                let first = (y - rows.lowerBound) &* width
                for x in 0..<width {
                    let s = Source(view, x: x, y: y, depth: g.depth, width: width, height: height)
                    sources[first &+ x] = s
                    top = min(top, s.y0)
                    bottom = max(bottom, s.y1)
                }
            }
            let reached = top...bottom
            guard reached.count * width * 2 <= largestTurnedSums else { return false }
            // Per reached pixel: the second frame's ambient sum, then its flash sum (`add` of the reference). A
            // pixel that shows nothing is never read: the loop tests its material first, as the reference does.
            let sums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: reached.count * width * 2)
            defer { sums.deallocate() }
            b.withTables { tb in
                for r in reached {
                    let first = r &* width, local = (r - top) &* width
                    for x in 0..<width {
                        let n = first &+ x
                        let m = Int(g.materials[n])
                        guard m != none else { continue }
                        let f = factors.pixel(n, row: r)
                        sums[2 &* (local &+ x)] = ambientSumB.sum(f, m, tb.ambientRates)
                        sums[2 &* (local &+ x) &+ 1] = flashSumB.sum(f, m, tb.flashRates)
                    }
                }
            }
            shadeCachedTurnedPair(
                a, b, rows, outputs, truth, g, sources: sources, sums: sums, origin: top &* width, ambientSumA,
                flashSumA, factors)
            return true
        }
    }

    /// The pixel loop of the fast path: the first frame as the reference makes it, the second from the cached sums
    /// at each source's corners (`sums` indexed as 2 × (pixel − origin), + 1 for the flash).
    private static func shadeCachedTurnedPair<AA: SlotSum, FA: SlotSum, P: FactorPlane>(
        _ a: ShadingPass, _ b: ShadingPass, _ rows: Range<Int>, _ outputs: (a: Output, b: Output), _ truth: Truth?,
        _ g: GeometryCache.Buffers, sources: UnsafeMutablePointer<Source>, sums: UnsafeMutablePointer<SIMD4<Float>>,
        origin: Int, _ ambientSumA: AA, _ flashSumA: FA, _ factors: P
    ) {
        let normals = NormalTable.shared
        let poisson = PoissonTable.shared
        let width = a.width
        let none = Int(RawFrame.none)
        let emits = !a.emission.isEmpty
        a.withTables { ta in
            @inline(__always) func add(
                _ n: Int, _ w: Float, _ ambient: inout SIMD4<Float>, _ flash: inout SIMD4<Float>,
                _ emitted: inout SIMD4<Float>
            ) {
                let m = Int(g.materials[n])
                guard m != none, w > 0 else { return }
                let i = 2 &* (n &- origin)
                ambient += sums[i] * w
                flash += sums[i &+ 1] * w
                if emits { emitted += b.emission[m] * w }
            }
            RowInputs.with(width: width) { row in
                for y in rows {
                    let first = y &* width
                    let gainA = a.ambientGain(row: y), gainB = b.ambientGain(row: y)
                    for x in 0..<width {
                        let pixel = first &+ x
                        a.shadeFirstOfPair(
                            pixel, column: x, row: y, gain: gainA, g.materials, ta, ambientSumA, flashSumA, factors,
                            outputs.a, into: row, normals)

                        let s = sources[(y - rows.lowerBound) &* width &+ x]
                        var ambientB = SIMD4<Float>.zero, flashB = SIMD4<Float>.zero
                        var emittedB = SIMD4<Float>.zero
                        add(s.y0 &* width &+ s.x0, (1 - s.wx) * (1 - s.wy), &ambientB, &flashB, &emittedB)
                        add(s.y0 &* width &+ s.x1, s.wx * (1 - s.wy), &ambientB, &flashB, &emittedB)
                        add(s.y1 &* width &+ s.x0, (1 - s.wx) * s.wy, &ambientB, &flashB, &emittedB)
                        add(s.y1 &* width &+ s.x1, s.wx * s.wy, &ambientB, &flashB, &emittedB)
                        ambientB = ambientB * gainB + emittedB
                        store(pixel: pixel, ambient: ambientB, flash: flashB, outputs.b)
                        row.second[x] = ambientB + flashB + b.dark
                        if let truth {
                            truth.depth.base[pixel] = g.depth[s.nearest]
                            truth.objects.base[pixel] = g.objects[s.nearest]
                            truth.materials.base[pixel] = g.materials[s.nearest]
                        }
                    }
                    a.exposeRow(first, width, row.means, row.pattern, normals, poisson, outputs.a)
                    b.exposeRow(first, width, row.second, row.pattern, normals, poisson, outputs.b)
                }
            }
        }
    }
}
