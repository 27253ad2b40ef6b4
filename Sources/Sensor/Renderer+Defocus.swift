import Foundation
import Imaging

extension Renderer {
    /// One frame with depth of field: each pixel's noise-free light replaced by its mean over the pixel centres
    /// inside its own circle of confusion (`LensFocus.blurDiameter`), then the noise chain and fixed pattern at
    /// every pixel as `render(_:)` draws them.
    ///
    /// The blur is optical, so it acts on the light before the sensor counts it: a blurred pixel's shot noise
    /// is that of its blurred mean, not a blur of noise. Pixels beyond the picture's edge are left out of a
    /// circle's mean. Away from depth edges this is the light the lens spreads there; at an edge between near and
    /// far it lets a blurred background take in some of an in-focus foreground's light, where a lens would hide
    /// that background behind the sharp edge [our approximation]. The truth planes are the pinhole frame's.
    ///
    /// A frame that keeps no component planes gets its component means from the sharp light: the blur moves
    /// light about and keeps its total, but for what crosses the picture's edge.
    ///
    /// The frame is made band by band: each band shades the sharp light of its own rows and of those its widest
    /// circle reaches, so no whole-frame plane is kept beyond the frame's own.
    ///
    /// `path` chooses how the discs' means are summed: `.fast` a band at a time, in strips of columns and four
    /// pixels that share a radius at once (`SharpLight.means(band:discs:)`), `.reference` one pixel at a time. Each
    /// pixel's sums are taken in the same order either way, so the bytes are the same.
    package func render(_ exposure: Exposure, blurredBy focus: LensFocus, path: KernelPath = .fast) -> RawFrame {
        let width = camera.width, height = camera.height, pixels = width * height
        let shading = ShadingPass(renderer: self, exposure: exposure)
        let fx = camera.fx
        let depth = geometry.depth
        // How many rows beyond its own a band reads, and bands of at least four times that, so that the rows
        // shaded twice stay under half of those shaded once.
        // Radii are taken to the nearest eighth of a pixel, so the widest is rounded up to one.
        let reach = Int((0.5 * focus.widestBlur(depths: depth, fx: fx) * 8).rounded(.up) / 8)
        let bandRows = Self.bandRows * max(1, (4 * reach + Self.bandRows - 1) / Self.bandRows)
        let keepsComponents = options.keepsComponents
        let discs = DiscTable(reach: reach)
        let shelf = SharpLight.Shelf {
            SharpLight(
                width: width, rowCapacity: bandRows + 2 * reach, separate: keepsComponents, bandRows: Self.bandRows)
        }
        var planes = Planes(pixels: pixels, options: options)
        var sums = BandSums(bands: bandCount, kept: planes.keepsMeans)
        planes.withOutput { out in
            sums.withRecorder { recorder in
                BandParallel.forEachBand(height: height, rowsPerBand: bandRows, threads: options.threadCount) { rows in
                    shelf.with { sharp in
                        sharp.fill(shading, rows: max(0, rows.lowerBound - reach)..<min(height, rows.upperBound + reach))
                        // The frame's own bands, so that its component sums add up as `render(_:)`'s do.
                        for first in stride(from: rows.lowerBound, to: rows.upperBound, by: Self.bandRows) {
                            let band = first..<min(rows.upperBound, first + Self.bandRows)
                            Self.shade(out, rows: band, width: width, recorder, first / Self.bandRows) { banded in
                                Self.expose(band, sharp, shading, banded, discs, path: path) { pixel in
                                    0.5 * focus.blurDiameter(depth: Double(depth[pixel]), fx: fx)
                                }
                            }
                        }
                    }
                }
            }
        }
        return frame(exposure, planes, sums.means(pixels: pixels))
    }

    /// The rows of `band`: each pixel's light over its circle of confusion of radius `radius(pixel)`, through the
    /// noise chain, into `output`.
    private static func expose(
        _ band: Range<Int>, _ sharp: SharpLight, _ shading: ShadingPass, _ output: ShadingPass.Output,
        _ discs: DiscTable, path: KernelPath, radius: (Int) -> Double
    ) {
        let width = sharp.width, first = band.lowerBound * width
        let normals = NormalTable.shared, poisson = PoissonTable.shared
        // A disc of radius under one pixel holds only the pixel's own centre: a frame in focus everywhere is the
        // pinhole frame, byte for byte.
        let radii = sharp.radii, means = sharp.bandMeans
        for i in 0..<(band.count * width) { radii[i] = Lanes.rounded(radius(first + i) * 8) / 8 }
        switch path {
        case .fast: sharp.means(band: band, discs: discs)
        case .reference:
            for i in 0..<(band.count * width) where radii[i] >= 1 {
                (means[2 * i], means[2 * i + 1]) = sharp.means(
                    x: i % width, y: band.lowerBound + i / width, disc: discs.disc(radius: radii[i]))
            }
        }
        ShadingPass.RowInputs.with(width: width) { row in
            for y in band {
                let start = y * width, offset = (y - band.lowerBound) * width
                for x in 0..<width {
                    let own = sharp.light(x: x, y: y)
                    let i = offset + x
                    let (f, a) = radii[i] >= 1 ? (means[2 * i], means[2 * i + 1]) : own
                    row.means[x] = a + f + shading.dark
                    let stored = sharp.separate ? (f, a) : own
                    ShadingPass.store(pixel: start + x, ambient: stored.1, flash: stored.0, output)
                    row.pattern[x] = shading.pattern(pixel: start + x, normals)
                }
                shading.exposeRow(start, width, row.means, row.pattern, normals, poisson, output)
            }
        }
    }
}

/// The noise-free flash and ambient light of a run of rows, as the pinhole frame has it, with per-row running
/// sums so that the light over a disc of pixel centres costs one difference per row of the disc. The sums are of
/// both lights apart (`separate`), or of their total alone, which is all the noise chain needs.
///
/// One is made per worker and refilled band after band (`Shelf`): fresh buffers for every band would each be
/// faulted in anew. It also holds a band's radii and disc means (`radii`, `bandMeans`) for the same reason.
private final class SharpLight: @unchecked Sendable {
    let width: Int
    let separate: Bool
    private let lanes: Int
    private let stride: Int
    private let rowCapacity: Int
    /// Per pixel, three values of each light.
    private let flash: UnsafeMutablePointer<Float>
    private let ambient: UnsafeMutablePointer<Float>
    /// Per row, width + 1 entries of the running sums (flash's three channels then ambient's, or the total's
    /// three): entry x holds the sums of the row's first x pixels.
    private let sums: UnsafeMutablePointer<Double>
    /// The rows held now.
    private(set) var rows = 0..<0

    /// The radius of each pixel of a band, row by row, and its disc's means: flash at 2i, ambient at 2i + 1.
    let radii: UnsafeMutablePointer<Double>
    let bandMeans: UnsafeMutablePointer<SIMD4<Float>>

    /// Columns per strip of `means(band:discs:)`: with a reach of 40 pixels, the rows a 16-row band's discs read
    /// span 96 rows of 337 entries, 0.8 MB of three-lane sums, which a core's level-2 cache holds (our choice).
    static let stripWidth = 256

    init(width: Int, rowCapacity: Int, separate: Bool, bandRows: Int) {
        self.width = width
        self.separate = separate
        self.rowCapacity = rowCapacity
        lanes = separate ? 6 : 3
        stride = (width + 1) * lanes
        flash = .allocate(capacity: rowCapacity * width * 3)
        ambient = .allocate(capacity: rowCapacity * width * 3)
        sums = .allocate(capacity: rowCapacity * stride)
        radii = .allocate(capacity: bandRows * width)
        bandMeans = .allocate(capacity: 2 * bandRows * width)
    }

    deinit {
        flash.deallocate()
        ambient.deallocate()
        sums.deallocate()
        radii.deallocate()
        bandMeans.deallocate()
    }

    /// Holds `rows` of the pinhole frame `shading` makes.
    func fill(_ shading: ShadingPass, rows: Range<Int>) {
        precondition(rows.count <= rowCapacity, "a band reads more rows than its scratch holds")
        self.rows = rows
        shading.means(rows: rows, flash: flash, ambient: ambient)
        for row in 0..<rows.count {
            var f = SIMD3<Double>.zero, a = SIMD3<Double>.zero
            for k in 0..<lanes { sums[row * stride + k] = 0 }
            for x in 0..<width {
                let p = (row * width + x) * 3
                f += SIMD3(Double(flash[p]), Double(flash[p + 1]), Double(flash[p + 2]))
                a += SIMD3(Double(ambient[p]), Double(ambient[p + 1]), Double(ambient[p + 2]))
                let s = row * stride + (x + 1) * lanes
                if separate {
                    (sums[s], sums[s + 1], sums[s + 2]) = (f.x, f.y, f.z)
                    (sums[s + 3], sums[s + 4], sums[s + 5]) = (a.x, a.y, a.z)
                } else {
                    (sums[s], sums[s + 1], sums[s + 2]) = (f.x + a.x, f.y + a.y, f.z + a.z)
                }
            }
        }
    }

    /// Pixel (x, y)'s own flash and ambient light, in lanes 0–2.
    func light(x: Int, y: Int) -> (flash: SIMD4<Float>, ambient: SIMD4<Float>) {
        let p = ((y - rows.lowerBound) * width + x) * 3
        return (SIMD4(flash[p], flash[p + 1], flash[p + 2], 0), SIMD4(ambient[p], ambient[p + 1], ambient[p + 2], 0))
    }

    /// The mean light over `disc` centred on pixel (x, y), inside the picture, in lanes 0–2: flash and ambient
    /// when the sums keep them apart, else their total as the flash and no ambient. The disc's rows must lie
    /// within `rows` where they lie within the picture.
    ///
    /// This is the plain reference: `means(band:discs:)` must give each pixel these values.
    func means(x: Int, y: Int, disc: DiscTable.Disc) -> (flash: SIMD4<Float>, ambient: SIMD4<Float>) {
        var first = SIMD3<Double>.zero, second = SIMD3<Double>.zero
        let top = max(rows.lowerBound, y &- disc.reach), bottom = min(rows.upperBound &- 1, y &+ disc.reach)
        // Indices stay far inside Int's range (a band's sums), so the loop wraps instead of checking overflow.
        var count = 0
        var row = top
        while row <= bottom {
            let half = disc.halfWidths[row &- y &+ disc.reach]
            let left = max(0, x &- half), right = min(width &- 1, x &+ half)
            let base = (row &- rows.lowerBound) &* stride
            let hi = base &+ (right &+ 1) &* lanes, lo = base &+ left &* lanes
            first += SIMD3(sums[hi] - sums[lo], sums[hi &+ 1] - sums[lo &+ 1], sums[hi &+ 2] - sums[lo &+ 2])
            if separate {
                second += SIMD3(
                    sums[hi &+ 3] - sums[lo &+ 3], sums[hi &+ 4] - sums[lo &+ 4], sums[hi &+ 5] - sums[lo &+ 5])
            }
            count &+= right &- left &+ 1
            row &+= 1
        }
        let scale = 1 / Double(count)
        first *= scale
        second *= scale
        return (
            SIMD4(Float(first.x), Float(first.y), Float(first.z), 0),
            SIMD4(Float(second.x), Float(second.y), Float(second.z), 0)
        )
    }

    /// `means(x:y:disc:)` of every pixel of `band` whose radius (`radii`) is at least a pixel, into `bandMeans`.
    ///
    /// Two things make it faster than pixel by pixel, and neither changes a value. The band goes in strips of
    /// columns (`stripWidth`), so the rows of sums that a strip's discs read stay in the core's cache instead of
    /// coming from memory again for each row of the band: a disc 80 pixels across reads 81 rows of sums, far more
    /// than the cache holds across the whole picture's width. And a run of pixels that share a radius, their discs
    /// inside the picture, is summed four pixels at a time (`four`). Each pixel's sums are taken row by row from the
    /// top, as `means(x:y:disc:)` takes them, so each mean is the same to the bit.
    func means(band: Range<Int>, discs: DiscTable) {
        for strip in Swift.stride(from: 0, to: width, by: Self.stripWidth) {
            let end = min(width, strip + Self.stripWidth)
            for y in band {
                let row = (y - band.lowerBound) * width
                var x = strip
                while x < end {
                    let r = radii[row + x]
                    guard r >= 1 else {
                        x += 1
                        continue
                    }
                    var next = x + 1
                    while next < end, radii[row + next] == r { next += 1 }
                    let disc = discs.disc(radius: r)
                    // Four at a time where all four discs lie inside the picture's width, so that no chord is cut at
                    // its edge; one at a time near the edges and at the run's end.
                    while x < next {
                        if x >= disc.reach, x &+ 3 &+ disc.reach < width, x &+ 4 <= next {
                            four(x, y: y, disc: disc, into: bandMeans + 2 * (row + x))
                            x += 4
                        } else {
                            (bandMeans[2 * (row + x)], bandMeans[2 * (row + x) + 1]) = means(x: x, y: y, disc: disc)
                            x += 1
                        }
                    }
                }
            }
        }
    }

    /// `means(x:y:disc:)` of pixels x…x + 3 of row y, whose chords all lie inside the picture, into `out`. A row's
    /// four chords start at consecutive pixels, so the four pixels' values of the running sums lie side by side at
    /// both ends: their differences are taken four values at a time and summed in registers over the disc's rows,
    /// each value's sum in the order `means` takes it.
    @inline(__always)
    private func four(_ x: Int, y: Int, disc: DiscTable.Disc, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        // The four pixels' sums, `lanes` values per pixel, pixel by pixel.
        var v0 = SIMD4<Double>.zero, v1 = SIMD4<Double>.zero, v2 = SIMD4<Double>.zero
        var v3 = SIMD4<Double>.zero, v4 = SIMD4<Double>.zero, v5 = SIMD4<Double>.zero
        let top = max(rows.lowerBound, y &- disc.reach), bottom = min(rows.upperBound &- 1, y &+ disc.reach)
        var count = 0
        var row = top
        @inline(__always) func difference(_ hi: Int, _ lo: Int) -> SIMD4<Double> {
            UnsafeRawPointer(sums + hi).loadUnaligned(as: SIMD4<Double>.self)
                - UnsafeRawPointer(sums + lo).loadUnaligned(as: SIMD4<Double>.self)
        }
        while row <= bottom {
            let half = disc.halfWidths[row &- y &+ disc.reach]
            let base = (row &- rows.lowerBound) &* stride
            let hi = base &+ (x &+ half &+ 1) &* lanes, lo = base &+ (x &- half) &* lanes
            v0 += difference(hi, lo)
            v1 += difference(hi &+ 4, lo &+ 4)
            v2 += difference(hi &+ 8, lo &+ 8)
            if separate {
                v3 += difference(hi &+ 12, lo &+ 12)
                v4 += difference(hi &+ 16, lo &+ 16)
                v5 += difference(hi &+ 20, lo &+ 20)
            }
            count &+= 2 &* half &+ 1
            row &+= 1
        }
        let scale = 1 / Double(count)
        let values = (v0 * scale, v1 * scale, v2 * scale, v3 * scale, v4 * scale, v5 * scale)
        let lanes = self.lanes, separate = self.separate
        withUnsafeBytes(of: values) { raw in
            let v = raw.assumingMemoryBound(to: Double.self)
            for k in 0..<4 {
                let p = lanes &* k
                out[2 &* k] = SIMD4(Float(v[p]), Float(v[p &+ 1]), Float(v[p &+ 2]), 0)
                out[2 &* k &+ 1] =
                    separate ? SIMD4(Float(v[p &+ 3]), Float(v[p &+ 4]), Float(v[p &+ 5]), 0) : SIMD4(repeating: 0)
            }
        }
    }

    /// The scratch of the workers of one frame: each band takes one, or makes one when all are in use, and puts
    /// it back when done. What a band computes depends on its rows only, never on which scratch it got.
    final class Shelf: @unchecked Sendable {
        private let lock = NSLock()
        private var idle: [SharpLight] = []
        private let make: () -> SharpLight

        init(_ make: @escaping () -> SharpLight) { self.make = make }

        func with<R>(_ body: (SharpLight) -> R) -> R {
            let scratch = lock.withLock { idle.popLast() } ?? make()
            defer { lock.withLock { idle.append(scratch) } }
            return body(scratch)
        }
    }
}

/// The pixel centres within a radius of a pixel's centre, as the half-width of each row's chord, for every radius
/// a frame's discs take: one to the frame's reach, in eighths of a pixel. Made once per frame and only read after.
private final class DiscTable: @unchecked Sendable {
    /// One radius's chords: half-widths of rows −reach…reach, from index 0.
    struct Disc {
        let reach: Int
        let halfWidths: UnsafePointer<Int>
    }

    private let storage: UnsafeMutablePointer<Int>
    /// Where each radius's chords start, by eighths of a pixel from one pixel.
    private let starts: [Int]

    init(reach: Int) {
        let eighths = Array(8..<(8 * (reach + 1)))
        var starts: [Int] = []
        var total = 0
        for m in eighths {
            starts.append(total)
            total += 2 * (m / 8) + 1
        }
        self.starts = starts
        storage = .allocate(capacity: max(1, total))
        for (m, start) in zip(eighths, starts) {
            let r = Double(m) / 8, reach = m / 8
            for dy in -reach...reach { storage[start + dy + reach] = Int((r * r - Double(dy * dy)).squareRoot()) }
        }
    }

    deinit { storage.deallocate() }

    /// The chords of radius `r`, a whole number of eighths from one pixel to the table's reach.
    func disc(radius r: Double) -> Disc {
        let m = Int(r * 8)
        return Disc(reach: m / 8, halfWidths: UnsafePointer(storage + starts[m - 8]))
    }
}
