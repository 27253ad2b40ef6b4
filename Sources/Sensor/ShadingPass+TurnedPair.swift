import Imaging

extension ShadingPass {
    /// Where the turned frame's truth planes go: per pixel, the depth and ids of the point it shows (nil where the
    /// frames leave them out, `RenderOptions.keepsTruth`).
    struct Truth: Sendable {
        let depth: SharedPointer<Float>
        let objects: SharedPointer<UInt16>
        let materials: SharedPointer<UInt16>
    }

    /// Two exposures of one renderer in one pass, the second seen by the camera after a small turn
    /// (`Renderer.render(_:_:turnedTo:)`): the first frame's pixels as `run(rows:output:)` makes them, and each
    /// of the second frame's pixels from the mean signal at its source point in the first frame's image, the four
    /// pixel centres around it weighed bilinearly, before its own noise chain. The fixed pattern is the sensor's,
    /// so both frames draw it at their own pixel: it does not move with the picture.
    ///
    /// The fast path (`path`) first sums the second frame's light at every first-frame pixel its band's sources
    /// reach, once each, where the reference sums it afresh at each of the four pixels around every source (each
    /// pixel is a corner of about four sources): the same sums by the same operations, so the same bits.
    static func runTurnedPair(
        _ a: ShadingPass, _ b: ShadingPass, view: TurnedView, rows: Range<Int>, outputs: (a: Output, b: Output),
        truth: Truth?, path: KernelPath = .fast
    ) {
        precondition(
            a.geometry === b.geometry && a.fixedKey == b.fixedKey && a.prnu == b.prnu && a.dsnu == b.dsnu,
            "exposures rendered together share one renderer")
        a.withTables { ta in
            b.withTables { tb in
                // A Constant Color pair's usual lists (five ambient slots on both frames, a flash of two or three
                // modules on the second only) get their sums unrolled; other lists read them per pixel.
                switch (ta.ambientSlots.count, tb.ambientSlots.count, ta.flashSlots.count, tb.flashSlots.count) {
                case (5, 5, 0, 4):
                    runTurnedPair(
                        a, b, view, rows, outputs, truth, path, FixedSlots<Five>(ta.ambientSlots),
                        FixedSlots<Five>(tb.ambientSlots), NoSlots(), FixedSlots<Four>(tb.flashSlots))
                case (5, 5, 0, 6):
                    runTurnedPair(
                        a, b, view, rows, outputs, truth, path, FixedSlots<Five>(ta.ambientSlots),
                        FixedSlots<Five>(tb.ambientSlots), NoSlots(), FixedSlots<Six>(tb.flashSlots))
                default:
                    runTurnedPair(
                        a, b, view, rows, outputs, truth, path, ListedSlots(ta.ambientSlots),
                        ListedSlots(tb.ambientSlots),
                        ListedSlots(ta.flashSlots), ListedSlots(tb.flashSlots))
                }
            }
        }
    }

    private static func runTurnedPair<AA: SlotSum, AB: SlotSum, FA: SlotSum, FB: SlotSum>(
        _ a: ShadingPass, _ b: ShadingPass, _ view: TurnedView, _ rows: Range<Int>, _ outputs: (a: Output, b: Output),
        _ truth: Truth?, _ path: KernelPath, _ ambientSumA: AA, _ ambientSumB: AB, _ flashSumA: FA, _ flashSumB: FB
    ) {
        // The loops are specialised on the factors' precision, so they read them without a test per read.
        a.geometry.factors.withBuffers { f in
            if f.isHalf {
                runTurnedPair(
                    a, b, view, rows, outputs, truth, path, ambientSumA, ambientSumB, flashSumA, flashSumB, f.half)
            } else {
                runTurnedPair(
                    a, b, view, rows, outputs, truth, path, ambientSumA, ambientSumB, flashSumA, flashSumB, f.single)
            }
        }
    }

    private static func runTurnedPair<AA: SlotSum, AB: SlotSum, FA: SlotSum, FB: SlotSum, P: FactorPlane>(
        _ a: ShadingPass, _ b: ShadingPass, _ view: TurnedView, _ rows: Range<Int>, _ outputs: (a: Output, b: Output),
        _ truth: Truth?, _ path: KernelPath, _ ambientSumA: AA, _ ambientSumB: AB, _ flashSumA: FA, _ flashSumB: FB,
        _ factors: P
    ) {
        if path == .fast {
            let done = runCachedTurnedPair(
                a, b, view, rows, outputs, truth, ambientSumA, ambientSumB, flashSumA, flashSumB, factors)
            if done { return }
        }
        runTurnedPairReference(
            a, b, view, rows, outputs, truth, ambientSumA, ambientSumB, flashSumA, flashSumB, factors)
    }

    /// The pixels around a turned pixel's source in the first frame's image: the four pixel centres around it and
    /// their bilinear weights, and the nearest one (for the truth planes).
    struct Source {
        let x0: Int, y0: Int, x1: Int, y1: Int
        let wx: Float, wy: Float
        let nearest: Int

        /// Pixel (x, y)'s source point, as sample coordinates (centres at whole numbers), kept inside the image.
        @inline(__always) init(
            _ view: TurnedView, x: Int, y: Int, depth: UnsafeBufferPointer<Float>, width: Int, height: Int
        ) {
            let q = view.source(x: x, y: y, depth: depth)
            let sx = min(max(q.x - 0.5, 0), Double(width - 1))
            let sy = min(max(q.y - 0.5, 0), Double(height - 1))
            x0 = min(Int(sx), max(width - 2, 0))
            y0 = min(Int(sy), max(height - 2, 0))
            x1 = min(x0 + 1, width - 1)
            y1 = min(y0 + 1, height - 1)
            wx = Float(sx - Double(x0))
            wy = Float(sy - Double(y0))
            nearest = Int(Lanes.rounded(sy)) &* width &+ Int(Lanes.rounded(sx))
        }
    }

    /// The plain pass: every source's four pixels summed where they are read.
    private static func runTurnedPairReference<AA: SlotSum, AB: SlotSum, FA: SlotSum, FB: SlotSum, P: FactorPlane>(
        _ a: ShadingPass, _ b: ShadingPass, _ view: TurnedView, _ rows: Range<Int>, _ outputs: (a: Output, b: Output),
        _ truth: Truth?, _ ambientSumA: AA, _ ambientSumB: AB, _ flashSumA: FA, _ flashSumB: FB, _ factors: P
    ) {
        let normals = NormalTable.shared
        let poisson = PoissonTable.shared
        let width = a.width, height = a.geometry.height
        let none = Int(RawFrame.none)
        let emits = !a.emission.isEmpty
        a.geometry.withBuffers { g in
            a.withTables { ta in
                b.withTables { tb in
                    // The second frame's mean at first-frame pixel n, weighed by w: the room's light, the flash's,
                    // and a screen's own light (which the room's flicker does not touch).
                    @inline(__always) func add(
                        _ n: Int, row: Int, _ w: Float, _ ambient: inout SIMD4<Float>, _ flash: inout SIMD4<Float>,
                        _ emitted: inout SIMD4<Float>
                    ) {
                        let m = Int(g.materials[n])
                        guard m != none, w > 0 else { return }
                        let f = factors.pixel(n, row: row)
                        ambient += ambientSumB.sum(f, m, tb.ambientRates) * w
                        flash += flashSumB.sum(f, m, tb.flashRates) * w
                        if emits { emitted += b.emission[m] * w }
                    }
                    RowInputs.with(width: width) { row in
                        for y in rows {
                            let first = y &* width
                            let gainA = a.ambientGain(row: y), gainB = b.ambientGain(row: y)
                            for x in 0..<width {
                                let pixel = first &+ x
                                a.shadeFirstOfPair(
                                    pixel, column: x, row: y, gain: gainA, g.materials, ta, ambientSumA, flashSumA,
                                    factors, outputs.a, into: row, normals)

                                // The turned frame: the pixel's point in the first image.
                                let s = Source(view, x: x, y: y, depth: g.depth, width: width, height: height)
                                let (x0, y0, x1, y1, wx, wy) = (s.x0, s.y0, s.x1, s.y1, s.wx, s.wy)
                                var ambientB = SIMD4<Float>.zero, flashB = SIMD4<Float>.zero
                                var emittedB = SIMD4<Float>.zero
                                add(y0 &* width &+ x0, row: y0, (1 - wx) * (1 - wy), &ambientB, &flashB, &emittedB)
                                add(y0 &* width &+ x1, row: y0, wx * (1 - wy), &ambientB, &flashB, &emittedB)
                                add(y1 &* width &+ x0, row: y1, (1 - wx) * wy, &ambientB, &flashB, &emittedB)
                                add(y1 &* width &+ x1, row: y1, wx * wy, &ambientB, &flashB, &emittedB)
                                ambientB = ambientB * gainB + emittedB
                                store(pixel: pixel, ambient: ambientB, flash: flashB, outputs.b)
                                row.second[x] = ambientB + flashB + b.dark
                                if let truth {
                                    let nearest = s.nearest
                                    truth.depth.base[pixel] = g.depth[nearest]
                                    truth.objects.base[pixel] = g.objects[nearest]
                                    truth.materials.base[pixel] = g.materials[nearest]
                                }
                            }
                            a.exposeRow(first, width, row.means, row.pattern, normals, poisson, outputs.a)
                            b.exposeRow(first, width, row.second, row.pattern, normals, poisson, outputs.b)
                        }
                    }
                }
            }
        }
    }
}

extension ShadingPass {
    /// One pixel of a turned pair's first frame, as the reference and the fast path both make it: its own sums (the
    /// room's light at the row's flicker `gain`, a screen's own light), stored, with its mean and fixed pattern
    /// for the row's noise.
    @inline(__always)
    func shadeFirstOfPair<AS: SlotSum, FS: SlotSum, P: FactorPlane>(
        _ pixel: Int, column x: Int, row y: Int, gain: Float, _ materials: UnsafeBufferPointer<UInt16>,
        _ tables: Tables, _ ambientSum: AS, _ flashSum: FS, _ factors: P, _ output: Output,
        into row: RowInputs, _ normals: NormalTable
    ) {
        var ambient = SIMD4<Float>.zero, flash = SIMD4<Float>.zero
        let m = Int(materials[pixel])
        if m != Int(RawFrame.none) {
            let f = factors.pixel(pixel, row: y)
            ambient = ambientSum.sum(f, m, tables.ambientRates) * gain
            flash = flashSum.sum(f, m, tables.flashRates)
            if !emission.isEmpty { ambient += emission[m] }
        }
        Self.store(pixel: pixel, ambient: ambient, flash: flash, output)
        row.means[x] = ambient + flash + dark
        row.pattern[x] = pattern(pixel: pixel, normals)
    }
}
