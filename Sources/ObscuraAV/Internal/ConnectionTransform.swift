import Foundation
import Sensor

/// How a connection reorients video: a clockwise rotation by a multiple of 90°, then an optional horizontal
/// mirror, applied to the pixels of every plane and to the camera intrinsic matrix (spec §1.5 [D]).
///
/// Coordinates are continuous with the origin at the top-left corner of the top-left pixel, so pixel
/// (x, y) covers [x, x + 1) × [y, y + 1) and its centre is (x + 0.5, y + 0.5), as the renderer samples.
/// For a source of W × H, a quarter turn clockwise maps (u, v) to (H − u', …): precisely
///
///     0°: (u, v)   90°: (H − v, u)   180°: (W − u, H − v)   270°: (v, W − u)
///
/// and the mirror then maps u to W' − u, W' being the rotated width. On pixel indices the same maps hold with
/// W − 1 and H − 1 in place of W and H.
struct ConnectionTransform: Equatable {
    /// Clockwise quarter turns, 0…3.
    let quarterTurns: Int
    let mirrored: Bool

    init(rotationAngle: CGFloat, mirrored: Bool) {
        quarterTurns = ((Int((rotationAngle / 90).rounded()) % 4) + 4) % 4
        self.mirrored = mirrored
    }

    var isIdentity: Bool { quarterTurns == 0 && !mirrored }
    /// Whether width and height trade places.
    var swapsAxes: Bool { quarterTurns % 2 == 1 }

    /// The Exif orientation that tells a viewer to apply this transform to a stored picture: the turn, then
    /// the mirror across the turned picture's vertical axis, as `sourcePixel` does. Row 0 of the picture
    /// lands on the right for a quarter turn (`.right`) and on the left once mirrored (`.leftMirrored`,
    /// the transpose).
    var exifOrientation: ExifOrientation {
        let turned: [ExifOrientation] = mirrored ? [.upMirrored, .leftMirrored, .downMirrored, .rightMirrored]
            : [.up, .right, .down, .left]
        return turned[quarterTurns]
    }

    /// The dimensions after the transform.
    func dimensions(_ d: CMVideoDimensions) -> CMVideoDimensions {
        swapsAxes ? CMVideoDimensions(width: d.height, height: d.width) : d
    }

    /// The source pixel that lands on destination pixel (dx, dy), for a source of `width` × `height`.
    func sourcePixel(_ dx: Int, _ dy: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        let outWidth = swapsAxes ? height : width
        let ux = mirrored ? outWidth - 1 - dx : dx
        switch quarterTurns {
        case 1: return (dy, height - 1 - ux)
        case 2: return (width - 1 - ux, height - 1 - dy)
        case 3: return (width - 1 - dy, ux)
        default: return (ux, dy)
        }
    }

    /// A reoriented copy of `buffer`, every plane moved element by element (a 4:2:0 chroma plane moves as
    /// interleaved CbCr pairs), attachments kept. The buffer itself when the transform is the identity.
    func apply(_ buffer: CVPixelBuffer) -> CVPixelBuffer {
        guard !isIdentity, let layout = PixelFormatLayout.of(buffer.pixelFormat) else { return buffer }
        let (w, h) = swapsAxes ? (buffer.height, buffer.width) : (buffer.width, buffer.height)
        guard let out = CVPixelBuffer(width: w, height: h, pixelFormat: buffer.pixelFormat) else { return buffer }
        for (index, spec) in layout.planes.enumerated() {
            let source = buffer.planes[index], destination = out.planes[index]
            switch spec.bytesPerPixel {
            case 1: move(UInt8.self, from: source, to: destination)
            case 2: move(UInt16.self, from: source, to: destination)
            case 4: move(UInt32.self, from: source, to: destination)
            default: move(UInt64.self, from: source, to: destination)
            }
        }
        out.attachmentEntries = buffer.attachmentEntries
        return out
    }

    private func move<Element>(_: Element.Type, from source: CVPixelBuffer.Plane, to destination: CVPixelBuffer.Plane) {
        for dy in 0..<destination.height {
            let row = (destination.base + dy * destination.bytesPerRow).assumingMemoryBound(to: Element.self)
            for dx in 0..<destination.width {
                let s = sourcePixel(dx, dy, width: source.width, height: source.height)
                row[dx] = (source.base + s.y * source.bytesPerRow).assumingMemoryBound(to: Element.self)[s.x]
            }
        }
    }

    /// The intrinsic matrix of the reoriented buffer, for a source of `width` × `height` pixels.
    ///
    /// The camera frame turns with the image about the optical axis (and flips its x axis with a mirror), so
    /// the matrix keeps its form: focal lengths trade places on a quarter turn, and the principal point moves
    /// as any point does under the maps above.
    func apply(intrinsics k: simd_float3x3, width: Int, height: Int) -> simd_float3x3 {
        let (fx, fy, cx, cy) = (k[0, 0], k[1, 1], k[2, 0], k[2, 1])
        let (w, h) = (Float(width), Float(height))
        var (fx2, fy2, cx2, cy2) = (fx, fy, cx, cy)
        switch quarterTurns {
        case 1: (fx2, fy2, cx2, cy2) = (fy, fx, h - cy, cx)
        case 2: (cx2, cy2) = (w - cx, h - cy)
        case 3: (fx2, fy2, cx2, cy2) = (fy, fx, cy, w - cx)
        default: break
        }
        if mirrored { cx2 = (swapsAxes ? h : w) - cx2 }
        return simd_float3x3(simd_float3(fx2, 0, 0), simd_float3(0, fy2, 0), simd_float3(cx2, cy2, 1))
    }

    /// Replaces a `kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix` attachment (a `matrix_float3x3` as Data)
    /// by the matrix of the reoriented buffer.
    func reorient(_ attachments: inout [String: Any], width: Int, height: Int) {
        let key = kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix as String
        guard !isIdentity, let data = attachments[key] as? Data,
            data.count == MemoryLayout<simd_float3x3>.size
        else { return }
        var k = data.withUnsafeBytes { $0.loadUnaligned(as: simd_float3x3.self) }
        k = apply(intrinsics: k, width: width, height: height)
        attachments[key] = withUnsafeBytes(of: &k) { Data($0) }
    }
}
