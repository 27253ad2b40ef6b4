import Imaging
import Sensor

/// Where the depth map puts something between a pixel's surface and the flash: the geometric half of
/// `FlashShadow`'s test.
///
/// `FlashShadow` finds a flash shadow by its photometric signature, a flash-only value far below what the ambient frame
/// predicts. A surface the flash grazes while the room light (or a coloured light) falls on it squarely has the same
/// signature (Lambert's cosine law: the flash's irradiance falls with the cosine of its incidence, the other light's
/// does not): such a side can keep a quarter of the predicted flash-only value in a channel, and would be taken for a
/// shadow and given the colour of the surface behind. And where the ambient frame is dark too (a surface in the shadow
/// of both lights) the signature says nothing. A flash shadow also has a cause the capture can see: an occluder nearer
/// the camera, between the surface and the flash.
///
/// The flash module at offset L from the lens along an image axis (the larger of its two offsets; the
/// other, and its depth offset, are a few millimetres at most) sees a surface point at depth Z where the
/// camera sees it, shifted by the disparity f·L/Z pixels (f the focal length along that axis): a pinhole
/// beside the lens, whose image lines are the camera's. Along a line of pixels taken from the flash's side
/// outwards, the flash-image position q = t + f·|L|/Z (t the pixel's position along the line) of a visible
/// surface keeps increasing; a pixel whose q falls behind one already passed is hidden from the flash by
/// that nearer surface. So one sweep per line and module finds every shadow (our choices for the edges of
/// the test): behind the previous pixel's q by more than `margin` of its own disparity (depth noise), or
/// behind the largest q two or more pixels back by more than that less one pixel (the depth map samples each
/// pixel at its centre, and an occluder's edge may lie anywhere in the next pixel; not from the previous pixel,
/// where that pixel would shadow any surface receding from the flash). Pixels without depth neither hide nor
/// are hidden. The lens's distortion moves a few-pixel shadow alike at both ends and is left out. Modules
/// at the same offset are swept once; a pixel's blocked share is that of the flash's intensity whose
/// modules it is hidden from. The depth is the flash frame's, as `FlashIrradiance` uses it.
public struct FlashOcclusion: Sendable {
    /// The modules grouped by sweep: along rows (true) or columns, the offset f·L in pixel·metres, and their
    /// share of the intensity.
    let sweeps: [(alongRows: Bool, disparity: Float, share: Float)]
    let width: Int, height: Int
    static let margin: Float = 0.01

    /// The test for a camera and its flash's modules; nil when the modules have no intensity or all sit at the
    /// lens.
    public init?(camera: CameraModel, irradiance: FlashIrradiance) {
        let total = irradiance.sources.reduce(0) { $0 + $1.intensityCandela }
        guard total > 0 else { return nil }
        width = camera.width
        height = camera.height
        var groups: [(alongRows: Bool, disparity: Float, share: Float)] = []
        for source in irradiance.sources {
            let p = source.positionInCamera
            let alongRows = abs(p.x) >= abs(p.y)
            let disparity = Float(alongRows ? camera.fx * p.x : camera.fy * p.y)
            guard abs(disparity) > 1e-6 else { continue }
            let share = Float(source.intensityCandela / total)
            // Modules within a tenth of a millimetre of each other along the axis cast the same shadows.
            let focal = Float(alongRows ? camera.fx : camera.fy)
            if let n = groups.firstIndex(where: {
                $0.alongRows == alongRows && abs($0.disparity - disparity) < 1e-4 * focal
            }) {
                groups[n].share += share
            } else {
                groups.append((alongRows, disparity, share))
            }
        }
        guard !groups.isEmpty else { return nil }
        sweeps = groups
    }

    /// Per pixel of the `width × height` depth plane, the share of the flash's intensity it is hidden from,
    /// 0…255.
    public func mask(depth: [Float]) -> [UInt8] {
        precondition(depth.count == width * height, "the depth plane must match the camera")
        var shares = [Float](repeating: 0, count: width * height)
        depth.withUnsafeBufferPointer { z in
            shares.withUnsafeMutableBufferPointer { out in
                let z = SharedReadPointer(z), out = SharedPointer(out)
                for sweep in sweeps where sweep.alongRows {
                    BandParallel.forEachBand(height: height) { band in
                        for line in band {
                            Self.sweep(
                                depth: z.base + line * width, step: 1, count: width, disparity: sweep.disparity,
                                share: sweep.share, into: out.base + line * width)
                        }
                    }
                }
                // Columns in blocks of adjacent ones, swept together row by row: one column alone reads a float from
                // each row, a cache line apart.
                let blocks = (width + Self.block - 1) / Self.block
                for sweep in sweeps where !sweep.alongRows {
                    BandParallel.forEachBand(height: blocks) { band in
                        for block in band {
                            let first = block * Self.block
                            Self.sweepColumns(
                                depth: z.base + first, columns: min(Self.block, width - first), width: width,
                                height: height, disparity: sweep.disparity, share: sweep.share, into: out.base + first)
                        }
                    }
                }
            }
        }
        return shares.withUnsafeBufferPointer { buffer in
            let shared = SharedReadPointer(buffer)
            return BandParallel.fill(count: width * height, rows: height, of: UInt8.self) { rows, out in
                for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
                    out[i] = UInt8(min(max(shared.base[i], 0), 1) * 255 + 0.5)
                }
            }
        }
    }

    /// Adjacent columns swept together (`sweepColumns`).
    package static let block = 16

    /// `columns` adjacent columns (at most `block`) of a `width`-wide plane, each swept as `sweep` sweeps one column,
    /// row by row for all of them at once; the same operations per column, so the same shares.
    package static func sweepColumns(
        depth z: UnsafePointer<Float>, columns: Int, width: Int, height: Int, disparity: Float, share: Float,
        into out: UnsafeMutablePointer<Float>
    ) {
        let magnitude = abs(disparity), forwards = disparity < 0
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * block) { state in
            let upToPrevious = state.baseAddress!, upToSecond = upToPrevious + block
            upToPrevious.initialize(repeating: -.infinity, count: 2 * block)
            for k in 0..<height {
                let row = (forwards ? k : height - 1 - k) * width
                for c in 0..<columns {
                    let depth = z[row + c]
                    guard depth.isFinite, depth > 0 else {
                        upToSecond[c] = upToPrevious[c]
                        continue
                    }
                    let shift = magnitude / depth
                    let q = Float(k) + 0.5 + shift
                    let tolerance = Self.margin * shift
                    if q < upToPrevious[c] - tolerance || q < upToSecond[c] + 1 - tolerance { out[row + c] += share }
                    upToSecond[c] = upToPrevious[c]
                    upToPrevious[c] = max(upToPrevious[c], q)
                }
            }
        }
    }

    /// One line of `count` pixels `step` apart: adds `share` to `out` where the line's pixel is hidden from a
    /// module of signed disparity `disparity` (f·L).
    package static func sweep(
        depth z: UnsafePointer<Float>, step: Int, count: Int, disparity: Float, share: Float,
        into out: UnsafeMutablePointer<Float>
    ) {
        let magnitude = abs(disparity)
        // From the flash's side outwards: a module at negative offset sees near points shifted towards
        // larger positions, so the sweep runs forwards; at a positive offset, backwards.
        let forwards = disparity < 0
        // The largest q up to the previous pixel, and up to the one before it.
        var upToPrevious = -Float.infinity, upToSecond = -Float.infinity
        for k in 0..<count {
            let i = forwards ? k : count - 1 - k
            let depth = z[i * step]
            guard depth.isFinite, depth > 0 else {
                // No surface here: it hides nothing, and the surfaces before it still hide what follows.
                upToSecond = upToPrevious
                continue
            }
            let shift = magnitude / depth
            let q = Float(k) + 0.5 + shift
            let tolerance = Self.margin * shift
            if q < upToPrevious - tolerance || q < upToSecond + 1 - tolerance { out[i * step] += share }
            upToSecond = upToPrevious
            upToPrevious = max(upToPrevious, q)
        }
    }
}
