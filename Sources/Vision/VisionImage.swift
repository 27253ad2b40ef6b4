import CoreImage
import Foundation
import Imaging
import ObscuraAV
import Sensor

/// The image a request handler analyses: the luma of its pixels (0…1, on the encoded values) as stored, and the
/// orientation that turns them upright. Requests see the upright picture (spec §22.1 rule 2), so their normalised
/// coordinates are those of the image as displayed.
struct VisionImage {
    /// One channel of luma, as stored, top row first.
    let stored: PixelPlane<Float>
    /// How the stored pixels turn into the upright picture.
    let orientation: ExifOrientation
    /// Where the pixels came from, for the requests that read their colour (`colourRegion`).
    var source: VisionImageSource? = nil

    /// The upright picture's size.
    var uprightWidth: Int { orientation.swapsAxes ? stored.height : stored.width }
    var uprightHeight: Int { orientation.swapsAxes ? stored.width : stored.height }

    /// The part of the upright picture a region of interest covers (normalised, origin at the bottom left), to the
    /// nearest pixel, box-averaged by the integer factor that brings its longer side to at most `workingSize`
    /// pixels (and at least `minimumFactor`): the detectors' working copy, made in one pass over the region's pixels
    /// (crop, turn and average), so that a 12 MP frame is never turned or copied whole.
    func region(_ roi: CGRect, workingSize: Int, minimumFactor: Int = 1) throws -> WorkingRegion {
        let (x0, y0, width, height) = try crop(roi)
        let factor = max(1, minimumFactor, (max(width, height) + workingSize - 1) / workingSize)
        let map = UprightIndexMap(orientation, width: stored.width, height: stored.height)
        let (outWidth, outHeight) = (width / factor, height / factor)
        let norm = 1 / Float(factor * factor)
        let stride = stored.rowStride
        let plane = stored.withUnsafeBufferPointer { source in
            LumaPlane.filled(width: outWidth, height: outHeight) { j, row in
                for i in 0..<outWidth {
                    var sum: Float = 0
                    for v in (y0 + j * factor)..<(y0 + (j + 1) * factor) {
                        for u in (x0 + i * factor)..<(x0 + (i + 1) * factor) {
                            let (x, y) = map.stored(u, v)
                            sum += source[y * stride + x]
                        }
                    }
                    row[i] = sum * norm
                }
            }
        }
        return WorkingRegion(plane: plane, factor: factor, width: width, height: height)
    }

    /// The region's encoded R'G'B' (three channels, 0…1), cropped, turned and box-averaged as `region` does its
    /// luma; nil where the source holds no colour (grey pictures, one-component buffers), for the caller to fall back
    /// on the luma.
    func colourRegion(_ roi: CGRect, workingSize: Int) throws -> WorkingRegion? {
        let (x0, y0, width, height) = try crop(roi)
        let factor = max(1, (max(width, height) + workingSize - 1) / workingSize)
        let map = UprightIndexMap(orientation, width: stored.width, height: stored.height)
        let (outWidth, outHeight) = (width / factor, height / factor)
        let norm = 1 / Float(factor * factor)
        return try source?.withColour { rgb in
            var values = [Float](repeating: 0, count: 3 * outWidth * outHeight)
            for j in 0..<outHeight {
                for i in 0..<outWidth {
                    var sum = SIMD3<Float>.zero
                    for v in (y0 + j * factor)..<(y0 + (j + 1) * factor) {
                        for u in (x0 + i * factor)..<(x0 + (i + 1) * factor) {
                            let (x, y) = map.stored(u, v)
                            sum += rgb(x, y)
                        }
                    }
                    for c in 0..<3 { values[3 * (j * outWidth + i) + c] = sum[c] * norm }
                }
            }
            let plane = PixelPlane<Float>(width: outWidth, height: outHeight, channels: 3, elements: values)
            return WorkingRegion(plane: plane, factor: factor, width: width, height: height)
        }
    }

    /// The upright pixels a region of interest covers: its top-left corner and size, to the nearest pixel.
    func crop(_ roi: CGRect) throws -> (x0: Int, y0: Int, width: Int, height: Int) {
        // Outside the unit square fails; observations are normalised to the region (spec §22.1 rule 4).
        let unit = VNNormalizedIdentityRect
        // A hair of tolerance for regions computed in floating point that land a rounding error outside.
        let slack: CGFloat = 1e-9
        guard roi.width > 0, roi.height > 0, roi.minX >= unit.minX - slack, roi.minY >= unit.minY - slack,
            roi.maxX <= unit.maxX + slack, roi.maxY <= unit.maxY + slack
        else { throw VisionFailure.regionOfInterestOutside(roi) }
        let w = Double(uprightWidth), h = Double(uprightHeight)
        let x0 = max(0, Int((Double(roi.minX) * w).rounded())),
            x1 = min(uprightWidth, Int((Double(roi.maxX) * w).rounded()))
        // Rows count down from the top; the region's y counts up from the bottom.
        let y0 = max(0, Int(((1 - Double(roi.maxY)) * h).rounded()))
        let y1 = min(uprightHeight, Int(((1 - Double(roi.minY)) * h).rounded()))
        guard x1 > x0, y1 > y0 else { throw VisionFailure.emptyImage(width: max(0, x1 - x0), height: max(0, y1 - y0)) }
        return (x0, y0, x1 - x0, y1 - y0)
    }
}

/// A region's working copy: `plane` holds blocks of `factor × factor` pixels of a region `width × height` pixels
/// large (the last partial block of each row and column left out, as the detector's own reduction does).
struct WorkingRegion {
    let plane: PixelPlane<Float>
    let factor: Int
    let width: Int
    let height: Int

    /// The working copy as 8-bit luma, rows packed, top row first: what the code and text readers take.
    func lumaBytes() -> [UInt8] {
        let (width, height, stride) = (plane.width, plane.height, plane.rowStride)
        var luma = [UInt8](repeating: 0, count: width * height)
        plane.withUnsafeBufferPointer { source in
            for y in 0..<height {
                for x in 0..<width {
                    luma[y * width + x] = UInt8(min(max(source[y * stride + x] * 255 + 0.5, 0), 255))
                }
            }
        }
        return luma
    }

    /// A working-copy corner (pixels, top-left origin) in Vision's normalised coordinates of the region.
    func normalised(_ p: SIMD2<Double>) -> CGPoint {
        CGPoint(x: p.x * Double(factor) / Double(width), y: 1 - p.y * Double(factor) / Double(height))
    }
}

/// Which stored pixel an upright pixel comes from: the inverse of `ExifOrientation.transform` on pixel centres, a
/// signed permutation of the axes, read off the transform itself so that the orientations have one definition.
struct UprightIndexMap {
    /// stored x = ux·u + vx·v + cx, stored y = uy·u + vy·v + cy.
    let ux: Int, vx: Int, cx: Int
    let uy: Int, vy: Int, cy: Int

    init(_ orientation: ExifOrientation, width: Int, height: Int) {
        let (w, h) = (Double(width), Double(height))
        func upright(_ x: Double, _ y: Double) -> SIMD2<Int> {
            let p = orientation.transform(SIMD2(x + 0.5, y + 0.5), width: w, height: h)
            return SIMD2(Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
        }
        // Where stored (0, 0), (1, 0) and (0, 1) land; the forward map is o + a·x + b·y with a, b unit axes.
        let o = upright(0, 0), a = upright(1, 0) &- o, b = upright(0, 1) &- o
        // Invert the signed permutation: u − o.x = a.x·x + b.x·y, v − o.y = a.y·x + b.y·y, with a ⟂ b unit vectors,
        // so x = a.x·(u − o.x) + a.y·(v − o.y) and y = b.x·(u − o.x) + b.y·(v − o.y).
        ux = a.x
        vx = a.y
        cx = -(a.x * o.x + a.y * o.y)
        uy = b.x
        vy = b.y
        cy = -(b.x * o.x + b.y * o.y)
    }

    @inline(__always) func stored(_ u: Int, _ v: Int) -> (Int, Int) {
        (ux * u + vx * v + cx, uy * u + vy * v + cy)
    }
}

/// Single-channel planes filled row by row through a buffer, without a call per pixel across modules.
enum LumaPlane {
    static func filled(
        width: Int, height: Int, _ fillRow: (Int, UnsafeMutableBufferPointer<Float>) -> Void
    ) -> PixelPlane<Float> {
        var plane = PixelPlane<Float>(width: width, height: height)
        let stride = plane.rowStride
        plane.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                fillRow(y, UnsafeMutableBufferPointer(rebasing: buffer[(y * stride)..<(y * stride + width)]))
            }
        }
        return plane
    }
}

/// Where a handler's pixels come from; read when a request is performed, as Apple's handler reads them.
enum VisionImageSource {
    case pixelBuffer(CVPixelBuffer)
    case cgImage(CGImage)
    /// Pixels already decoded, 1 to 4 channels of encoded values 0…1 (grey, grey and alpha, RGB or RGBA), top row
    /// first: how an image from another framework (a rendered `CIImage`) reaches the detector.
    case plane(PixelPlane<Float>)

    /// A Core Image image rendered over its extent by a context in its default working space. An empty or
    /// infinite extent renders to nothing: an empty picture, which `perform(_:)` answers with
    /// `VNErrorCode.invalidImage` (spec §22.1).
    static func rendering(_ image: CIImage) -> VisionImageSource {
        guard let rendered = CIContext().createCGImage(image, from: image.extent) else {
            return .plane(PixelPlane(width: 0, height: 0))
        }
        return .cgImage(rendered)
    }

    /// Calls `body` with a reader of the stored pixels' encoded R'G'B' (column, row; 0…1), or returns nil without
    /// calling it where the source holds no colour.
    func withColour<R>(_ body: ((Int, Int) -> SIMD3<Float>) throws -> R) throws -> R? {
        switch self {
        case .pixelBuffer(let buffer): return try PixelBufferLuma.withColour(buffer, body)
        case .cgImage(let image): return try CGImageLuma.withColour(image, body)
        case .plane(let plane):
            guard plane.channels >= 3 else { return nil }
            return try body { x, y in SIMD3(plane[x, y, 0], plane[x, y, 1], plane[x, y, 2]) }
        }
    }

    /// The luma, as stored (not yet turned upright).
    func luma() throws -> PixelPlane<Float> {
        switch self {
        case .pixelBuffer(let buffer): return try PixelBufferLuma.read(buffer)
        case .cgImage(let image): return try CGImageLuma.read(image)
        case .plane(let plane):
            guard !plane.isEmpty else { throw VisionFailure.emptyImage(width: plane.width, height: plane.height) }
            guard plane.channels <= 4 else { throw VisionFailure.unreadableFormat("\(plane.channels) channels") }
            let colour = plane.channels >= 3
            return LumaPlane.filled(width: plane.width, height: plane.height) { y, row in
                for x in 0..<plane.width {
                    row[x] = colour ? Rec709Luma.of(plane[x, y, 0], plane[x, y, 1], plane[x, y, 2]) : plane[x, y, 0]
                }
            }
        }
    }
}

/// Luma from encoded R'G'B' with the Rec. 709 weights, as the scanner's detector weighs colour pixels.
enum Rec709Luma {
    @inline(__always) static func of(_ r: Float, _ g: Float, _ b: Float) -> Float {
        0.2126 * r + 0.7152 * g + 0.0722 * b
    }
}

extension VisionImage {
    init(source: VisionImageSource, orientation: CGImagePropertyOrientation) throws {
        stored = try source.luma()
        guard let exif = ExifOrientation(rawValue: Int(orientation.rawValue)) else {
            preconditionFailure("every CGImagePropertyOrientation is an EXIF orientation")
        }
        self.orientation = exif
        self.source = source
    }
}
