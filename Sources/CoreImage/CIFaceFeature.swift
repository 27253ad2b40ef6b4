import Foundation
import Imaging
import ObscuraAV
import Sensor

/// `CIFeatureTypeFace`.
public let CIFeatureTypeFace = "Face"

/// A face a detector found (`CIFaceFeature`): its bounds in the image's coordinates. The detector finds where a face
/// is, not its parts or expression, so every `has…` property is false and the positions and angle are zero.
open class CIFaceFeature: CIFeature, @unchecked Sendable {
    open override var type: String { CIFeatureTypeFace }
    public let hasLeftEyePosition = false
    public let leftEyePosition = CGPoint.zero
    public let hasRightEyePosition = false
    public let rightEyePosition = CGPoint.zero
    public let hasMouthPosition = false
    public let mouthPosition = CGPoint.zero
    public let hasTrackingID = false
    public let trackingID: Int32 = 0
    public let hasTrackingFrameCount = false
    public let trackingFrameCount: Int32 = 0
    public let hasFaceAngle = false
    public let faceAngle: Float = 0
    public let hasSmile = false
    public let leftEyeClosed = false
    public let rightEyeClosed = false

    override init(bounds: CGRect) { super.init(bounds: bounds) }
}

extension CIDetector {
    /// The faces in a rendered image (`width × height` pixels, RGBA, top row first) whose stored pixels the EXIF
    /// `orientation` turns upright, as rectangles in those stored pixels (x right, y down). The detector looks at
    /// the upright picture, box-averaged to its working size, since it finds upright faces only.
    static func faces(rgba: [UInt8], width: Int, height: Int, orientation: ExifOrientation, detector: FaceDetector)
        -> [(corners: [SIMD2<Double>], confidence: Float)]
    {
        let factor = max(1, (max(width, height) + FaceDetector.workingSize - 1) / FaceDetector.workingSize)
        let (w, h) = (Double(width), Double(height))
        let (uw, uh) = orientation.swapsAxes ? (height, width) : (width, height)
        // Every stored pixel lands on one upright pixel (the orientations permute pixel centres).
        var upright = [Float](repeating: 0, count: uw * uh)
        for y in 0..<height {
            for x in 0..<width {
                let i = 4 * (y * width + x)
                let p = orientation.transform(SIMD2(Double(x) + 0.5, Double(y) + 0.5), width: w, height: h)
                upright[Int(p.y) * uw + Int(p.x)] =
                    (0.299 * Float(rgba[i]) + 0.587 * Float(rgba[i + 1]) + 0.114 * Float(rgba[i + 2])) / 255
            }
        }
        let working = PixelPlane<Float>(width: uw / factor, height: uh / factor) { i, j, _ in
            var sum: Float = 0
            for v in (j * factor)..<((j + 1) * factor) {
                for u in (i * factor)..<((i + 1) * factor) { sum += upright[v * uw + u] }
            }
            return sum / Float(factor * factor)
        }
        let back = orientation.inverse
        let s = Double(factor)
        return detector.faces(in: working).map { face in
            let corners = [(0.0, 0.0), (1, 0), (1, 1), (0, 1)].map { a, b in
                back.transform(
                    SIMD2((face.x + a * face.width) * s, (face.y + b * face.height) * s), width: Double(uw),
                    height: Double(uh))
            }
            return (corners, face.confidence)
        }
    }
}
