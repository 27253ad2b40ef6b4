import Foundation
import Imaging
import ObscuraAV
import Sensor

/// `CIFeatureTypeFace`.
public let CIFeatureTypeFace = "Face"

/// A face a detector found (`CIFaceFeature`): its bounds in the image's coordinates, and where its eyes are where
/// OpenCV's eye cascade finds them inside the face (`EyeFinder`). The left eye is the one on the left of the upright
/// picture (our reading of Apple's "the image coordinate of the left eye"); the face's angle is the slope of the
/// line from it to the right eye, in degrees counterclockwise, when both are found. The mouth is the middle of the
/// outer lips among the face's landmarks (`FaceLandmarker`), where dlib's model is installed. Smiles, blinks and
/// tracking are not detected: those `has…` properties are false and their values zero.
open class CIFaceFeature: CIFeature, @unchecked Sendable {
    open override var type: String { CIFeatureTypeFace }
    public let hasLeftEyePosition: Bool
    public let leftEyePosition: CGPoint
    public let hasRightEyePosition: Bool
    public let rightEyePosition: CGPoint
    public let hasMouthPosition: Bool
    public let mouthPosition: CGPoint
    public let hasTrackingID = false
    public let trackingID: Int32 = 0
    public let hasTrackingFrameCount = false
    public let trackingFrameCount: Int32 = 0
    public let hasFaceAngle: Bool
    public let faceAngle: Float
    public let hasSmile = false
    public let leftEyeClosed = false
    public let rightEyeClosed = false

    /// A face with its eyes and mouth in the image's coordinates, and the angle of the line between the eyes in the
    /// upright picture (nil unless both are found).
    init(bounds: CGRect, leftEye: CGPoint?, rightEye: CGPoint?, mouth: CGPoint?, angle: Float?) {
        hasMouthPosition = mouth != nil
        mouthPosition = mouth ?? .zero
        hasLeftEyePosition = leftEye != nil
        leftEyePosition = leftEye ?? .zero
        hasRightEyePosition = rightEye != nil
        rightEyePosition = rightEye ?? .zero
        hasFaceAngle = angle != nil
        faceAngle = angle ?? 0
        super.init(bounds: bounds)
    }
}

extension CIDetector {
    /// The faces in a rendered image (`width × height` pixels, RGBA, top row first) whose stored pixels the EXIF
    /// `orientation` turns upright, as rectangles in those stored pixels (x right, y down). The detector looks at
    /// the upright picture, box-averaged to its working size, since it finds upright faces only.
    static func faces(rgba: [UInt8], width: Int, height: Int, orientation: ExifOrientation, detector: FaceDetector)
        -> [FoundFace]
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
        let found = detector.faces(in: working)
        guard !found.isEmpty else { return [] }
        let full = PixelPlane<Float>(width: uw, height: uh) { i, j, _ in upright[j * uw + i] }
        func stored(_ p: SIMD2<Double>) -> SIMD2<Double> { back.transform(p, width: Double(uw), height: Double(uh)) }
        return found.map { face in
            let corners = [(0.0, 0.0), (1, 0), (1, 1), (0, 1)].map { a, b in
                stored(SIMD2((face.x + a * face.width) * s, (face.y + b * face.height) * s))
            }
            // Eyes looked for at the picture's own resolution, in the upright frame.
            let scaled = FaceDetector.Face(
                x: face.x * s, y: face.y * s, width: face.width * s, height: face.height * s, windows: face.windows)
            let eyes = EyeFinder.eyes(in: full, face: scaled)
            var angle: Float?
            if let l = eyes.left, let r = eyes.right {
                angle = Float(EyeFinder.roll(left: l, right: r) * 180 / .pi)
            }
            // The middle of the outer lips, the landmarks' points 48–59.
            let mouth = FaceLandmarker.shared.map { landmarker in
                landmarker.landmarks(in: full, face: scaled)[48..<60].reduce(.zero, +) / 12
            }
            return FoundFace(
                corners: corners, confidence: face.confidence, leftEye: eyes.left.map(stored),
                rightEye: eyes.right.map(stored), mouth: mouth.map(stored), angle: angle)
        }
    }

    /// A face found, in stored pixels (x right, y down): its rectangle's corners, how sure the detector is, its eyes
    /// and mouth where found, and the angle of the line between them in the upright picture.
    struct FoundFace {
        let corners: [SIMD2<Double>]
        let confidence: Float
        let leftEye: SIMD2<Double>?
        let rightEye: SIMD2<Double>?
        let mouth: SIMD2<Double>?
        let angle: Float?
    }
}
