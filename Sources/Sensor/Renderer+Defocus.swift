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
    /// `path` chooses how a disc's mean is summed: `.fast` takes four neighbouring pixels that share a radius at once
    /// (each pixel's sums in the same order, so the same bytes), `.reference` one pixel at a time.
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
        let shelf = SharpLight.Shelf {
            SharpLight(width: width, rowCapacity: bandRows + 2 * reach, reach: reach, separate: keepsComponents)
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
                                Self.expose(band, sharp, shading, banded, path: path) { pixel in
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
        path: KernelPath, radius: (Int) -> Double
    ) {
        let width = sharp.width
        let normals = NormalTable.shared, poisson = PoissonTable.shared
        // Neighbours mostly share a radius to an eighth of a pixel, and with it the disc's chords.
        var disc = SharpLight.Disc(reach: sharp.reach)
        let radii = UnsafeMutablePointer<Double>.allocate(capacity: width)
        defer { radii.deallocate() }
        // The means of four pixels that share a disc (`SharpLight.means4`), from `block` on.
        var block = -4
        let blockMeans = SharpLight.Block()
        ShadingPass.RowInputs.with(width: width) { row in
            for y in band {
                let start = y * width
                // A disc of radius under one pixel holds only the pixel's own centre: a frame in focus
                // everywhere is the pinhole frame, byte for byte.
                for x in 0..<width { radii[x] = Lanes.rounded(radius(start + x) * 8) / 8 }
                block = -4
                for x in 0..<width {
                    let own = sharp.light(x: x, y: y)
                    var (f, a) = own
                    let r = radii[x]
                    if r >= 1 {
                        disc.set(radius: r)
                        if x >= block + 4, path == .fast, x + 3 < width, x >= disc.reach, x + 3 + disc.reach < width,
                            radii[x + 1] == r, radii[x + 2] == r, radii[x + 3] == r
                        {
                            sharp.means4(x: x, y: y, disc: disc, into: blockMeans)
                            block = x
                        }
                        (f, a) = x < block + 4 ? blockMeans.pixel(x - block) : sharp.means(x: x, y: y, disc: disc)
                    }
                    row.means[x] = a + f + shading.dark
                    if !sharp.separate { (f, a) = own }
                    ShadingPass.store(pixel: start + x, ambient: a, flash: f, output)
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
/// faulted in anew.
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

    /// The widest disc's reach, rows.
    let reach: Int

    init(width: Int, rowCapacity: Int, reach: Int, separate: Bool) {
        self.width = width
        self.reach = reach
        self.separate = separate
        self.rowCapacity = rowCapacity
        lanes = separate ? 6 : 3
        stride = (width + 1) * lanes
        flash = .allocate(capacity: rowCapacity * width * 3)
        ambient = .allocate(capacity: rowCapacity * width * 3)
        sums = .allocate(capacity: rowCapacity * stride)
    }

    deinit {
        flash.deallocate()
        ambient.deallocate()
        sums.deallocate()
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
    @inline(__always)
    func means(x: Int, y: Int, disc: borrowing Disc) -> (flash: SIMD4<Float>, ambient: SIMD4<Float>) {
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

    /// The means of four pixels over one disc, as `means` returns them: pixel k's flash at 2k, its ambient at
    /// 2k + 1. Written once per four pixels into a buffer of the row's loop, so that taking one pixel's means is
    /// two loads (kept in a value, the four pixels' sums went through memory again for every pixel read).
    struct Block: ~Copyable {
        let means = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 8)

        deinit { means.deallocate() }

        /// Pixel `k`'s (0…3) means.
        @inline(__always) func pixel(_ k: Int) -> (flash: SIMD4<Float>, ambient: SIMD4<Float>) {
            (means[2 &* k], means[2 &* k &+ 1])
        }
    }

    /// `means` of pixels x…x + 3 of row y over one `disc`, whose chords must all lie inside the picture, into
    /// `block`. A row's four chords start at consecutive pixels, so the four pixels' values of the running sums lie
    /// side by side at both ends: their differences are taken four values at a time, each value's sum in the order
    /// `means` takes it, so each pixel's mean is the same.
    @inline(__always)
    func means4(x: Int, y: Int, disc: borrowing Disc, into block: borrowing Block) {
        // The four pixels' sums, `lanes` values per pixel, pixel by pixel.
        var values = (
            SIMD4<Double>.zero, SIMD4<Double>.zero, SIMD4<Double>.zero, SIMD4<Double>.zero, SIMD4<Double>.zero,
            SIMD4<Double>.zero
        )
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
            values.0 += difference(hi, lo)
            values.1 += difference(hi &+ 4, lo &+ 4)
            values.2 += difference(hi &+ 8, lo &+ 8)
            if separate {
                values.3 += difference(hi &+ 12, lo &+ 12)
                values.4 += difference(hi &+ 16, lo &+ 16)
                values.5 += difference(hi &+ 20, lo &+ 20)
            }
            count &+= 2 &* half &+ 1
            row &+= 1
        }
        let scale = 1 / Double(count)
        values.0 *= scale
        values.1 *= scale
        values.2 *= scale
        values.3 *= scale
        values.4 *= scale
        values.5 *= scale
        let lanes = self.lanes, separate = self.separate, out = block.means
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

    /// The pixel centres within a radius of a pixel's centre, as the half-width of each row's chord, in a buffer
    /// sized for the widest disc of the frame and rewritten only when the radius changes.
    struct Disc: ~Copyable {
        private(set) var radius = 0.0
        private(set) var reach = 0
        /// Half-widths of rows −reach…reach, from index 0.
        let halfWidths: UnsafeMutablePointer<Int>

        init(reach widest: Int) { halfWidths = .allocate(capacity: 2 * widest + 1) }

        deinit { halfWidths.deallocate() }

        mutating func set(radius r: Double) {
            guard r != radius else { return }
            radius = r
            reach = Int(r)
            for dy in -reach...reach { halfWidths[dy + reach] = Int((r * r - Double(dy * dy)).squareRoot()) }
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
