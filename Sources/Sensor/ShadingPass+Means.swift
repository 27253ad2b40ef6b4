import Imaging

extension ShadingPass {
    /// The noise-free mean electrons of `rows` (flash and ambient, without the dark signal), three values a pixel
    /// into each plane from the rows' first pixel: the values `run(rows:output:)` feeds its noise chain, by the
    /// same sums, for a frame whose light is spread further before the sensor counts it (`Renderer+Defocus`).
    func means(rows: Range<Int>, flash: UnsafeMutablePointer<Float>, ambient: UnsafeMutablePointer<Float>) {
        withTables { t in
            geometry.factors.withBuffers { f in
                if f.isHalf {
                    means(rows, flash, ambient, ListedSlots(t.ambientSlots), ListedSlots(t.flashSlots), f.half)
                } else {
                    means(rows, flash, ambient, ListedSlots(t.ambientSlots), ListedSlots(t.flashSlots), f.single)
                }
            }
        }
    }

    private func means<A: SlotSum, F: SlotSum, P: FactorPlane>(
        _ rows: Range<Int>, _ flashPlane: UnsafeMutablePointer<Float>, _ ambientPlane: UnsafeMutablePointer<Float>,
        _ ambientSum: A, _ flashSum: F, _ factors: P
    ) {
        let emits = !emission.isEmpty
        let origin = rows.lowerBound * width
        geometry.withBuffers { g in
            withTables { t in
                for y in rows {
                    let gain = ambientGain(row: y)
                    for pixel in (y * width)..<((y + 1) * width) {
                        var ambient = SIMD4<Float>.zero, flash = SIMD4<Float>.zero
                        let m = Int(g.materials[pixel])
                        if m != Int(RawFrame.none) {
                            let f = factors.pixel(pixel, row: y)
                            ambient = ambientSum.sum(f, m, t.ambientRates) * gain
                            flash = flashSum.sum(f, m, t.flashRates)
                            if emits { ambient += emission[m] }
                        }
                        let i = (pixel - origin) * 3
                        for ch in 0..<3 {
                            flashPlane[i + ch] = flash[ch]
                            ambientPlane[i + ch] = ambient[ch]
                        }
                    }
                }
            }
        }
    }
}
