import Foundation
import Imaging
import ObscuraAV
import Sensor

/// `CIDetectorTypeQRCode`: a detector of QR codes, which reads their messages.
public let CIDetectorTypeQRCode = "CIDetectorTypeQRCode"
/// `CIDetectorTypeRectangle`: a detector of the most prominent rectangle, such as a document or a card.
public let CIDetectorTypeRectangle = "CIDetectorTypeRectangle"
/// `CIDetectorTypeFace`: upright, frontal faces, found by Vision's face detector (where OpenCV's face cascade is
/// installed; elsewhere `CIDetector(ofType:context:options:)` returns nil).
public let CIDetectorTypeFace = "CIDetectorTypeFace"
/// `CIDetectorTypeText`: text regions (not offered here).
public let CIDetectorTypeText = "CIDetectorTypeText"
/// The options key for how hard the detector tries; either accuracy finds the same features here.
public let CIDetectorAccuracy = "CIDetectorAccuracy"
public let CIDetectorAccuracyLow = "CIDetectorAccuracyLow"
public let CIDetectorAccuracyHigh = "CIDetectorAccuracyHigh"
/// The options key for whether the detector follows features across frames; nothing is carried here.
public let CIDetectorTracking = "CIDetectorTracking"
/// The options key for the smallest feature, as a fraction of the image's shorter side (the rectangle detector's
/// minimum side; 0.2 unless given).
public let CIDetectorMinFeatureSize = "CIDetectorMinFeatureSize"
/// The options key for the most features to return; the rectangle detector returns at most one.
public let CIDetectorMaxFeatureCount = "CIDetectorMaxFeatureCount"
/// The `features(in:options:)` key for the image's orientation (1–8): which way is up, for the face detector, which
/// finds upright faces; codes and rectangles are found at any angle.
public let CIDetectorImageOrientation = "CIDetectorImageOrientation"
/// The `features(in:options:)` key for the rectangle's expected aspect ratio.
public let CIDetectorAspectRatio = "CIDetectorAspectRatio"

/// A feature a detector found (`CIFeature`): its type and its bounds in the image's coordinates (origin at the
/// bottom left of the extent's space, y up, as every Core Image coordinate).
open class CIFeature: NSObject, @unchecked Sendable {
    /// `CIFeatureTypeQRCode`, `CIFeatureTypeRectangle` or `CIFeatureTypeFace`.
    open var type: String { "" }
    /// The smallest rectangle holding the feature's corners.
    public let bounds: CGRect

    init(bounds: CGRect) {
        self.bounds = bounds
        super.init()
    }
}

/// `CIFeatureTypeQRCode`.
public let CIFeatureTypeQRCode = "QRCode"
/// `CIFeatureTypeRectangle`.
public let CIFeatureTypeRectangle = "Rectangle"

/// A quadrilateral feature's corners, as they appear in the upright image, in the image's coordinates.
struct FeatureCorners {
    let topLeft: CGPoint, topRight: CGPoint, bottomRight: CGPoint, bottomLeft: CGPoint

    /// From the corners in the order top left, top right, bottom right, bottom left.
    init(_ c: [CGPoint]) { (topLeft, topRight, bottomRight, bottomLeft) = (c[0], c[1], c[2], c[3]) }

    var bounds: CGRect {
        let xs = [topLeft.x, topRight.x, bottomRight.x, bottomLeft.x]
        let ys = [topLeft.y, topRight.y, bottomRight.y, bottomLeft.y]
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

/// A QR code a detector read (`CIQRCodeFeature`).
open class CIQRCodeFeature: CIFeature, @unchecked Sendable {
    open override var type: String { CIFeatureTypeQRCode }
    /// The message, as text; nil when it is not text.
    public let messageString: String?
    public let topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint

    init(message: String?, corners: FeatureCorners) {
        messageString = message
        (topLeft, topRight, bottomLeft, bottomRight) =
            (corners.topLeft, corners.topRight, corners.bottomLeft, corners.bottomRight)
        super.init(bounds: corners.bounds)
    }
}

/// A rectangle a detector found (`CIRectangleFeature`), in perspective a quadrilateral.
open class CIRectangleFeature: CIFeature, @unchecked Sendable {
    open override var type: String { CIFeatureTypeRectangle }
    public let topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint

    init(corners: FeatureCorners) {
        (topLeft, topRight, bottomLeft, bottomRight) =
            (corners.topLeft, corners.topRight, corners.bottomLeft, corners.bottomRight)
        super.init(bounds: corners.bounds)
    }
}

/// Finds features in an image (`CIDetector`): QR codes, read by the capture API's own code reader (zxing-cpp) from
/// the rendered pixels; the most prominent rectangle, found by the detector Vision's rectangle request uses; and
/// faces, found by Vision's face detector (`FaceDetector`, spec §22.5). The image is rendered over its extent by a
/// Core Image context in its default working space, so what a code, a print or a face looks like in the pixels
/// decides whether it is found. Text detectors are not offered: for that type, as for an unknown one, and for a
/// type whose library or data is not installed, the initialiser returns nil, which Apple's signature allows.
open class CIDetector: NSObject, @unchecked Sendable {
    private let kind: String
    private let minimumSize: Double

    /// A detector of `type`; the context is not needed (the detector renders with its own).
    public init?(ofType type: String, context: CIContext?, options: [String: Any]? = nil) {
        guard type == CIDetectorTypeQRCode || type == CIDetectorTypeRectangle || type == CIDetectorTypeFace else {
            return nil
        }
        if type == CIDetectorTypeQRCode && !CodeReader.isAvailable { return nil }
        if type == CIDetectorTypeFace && FaceDetector.frontal == nil { return nil }
        kind = type
        minimumSize = (options?[CIDetectorMinFeatureSize] as? Double).map { min(max($0, 0), 1) } ?? 0.2
        super.init()
    }

    /// The features in `image`.
    open func features(in image: CIImage) -> [CIFeature] { features(in: image, options: nil) }

    /// The features in `image`: every QR code read, every face found (most certain first), or at most one
    /// rectangle, the most confident.
    open func features(in image: CIImage, options: [String: Any]? = nil) -> [CIFeature] {
        let extent = image.extent
        guard !extent.isInfinite, !extent.isEmpty, let rendered = CIContext().createCGImage(image, from: extent),
            let rgba = rendered.rgba8(premultiplied: false)
        else { return [] }
        let (width, height) = (rendered.width, rendered.height)
        // A pixel position (x right, y down from the rendered image's top) in the image's coordinates.
        func place(_ p: SIMD2<Double>) -> CGPoint {
            CGPoint(x: extent.minX + CGFloat(p.x), y: extent.maxY - CGFloat(p.y))
        }
        if kind == CIDetectorTypeQRCode {
            var luma = [UInt8](repeating: 0, count: width * height)
            for i in 0..<(width * height) {
                let (r, g, b) = (Double(rgba[4 * i]), Double(rgba[4 * i + 1]), Double(rgba[4 * i + 2]))
                luma[i] = UInt8(min(max(0.299 * r + 0.587 * g + 0.114 * b, 0), 255).rounded())
            }
            return CodeReader.read(luma: luma, width: width, height: height, types: [.qr]).map { code in
                // The reader's corners: top left, top right, bottom right, bottom left of the code as it appears.
                let c = code.corners.map { place(SIMD2(Double($0.x), Double($0.y))) }
                return CIQRCodeFeature(message: code.text, corners: FeatureCorners(c))
            }
        }
        if kind == CIDetectorTypeFace, let detector = FaceDetector.frontal {
            let given = options?[CIDetectorImageOrientation]
            let number = (given as? Int) ?? (given as? NSNumber)?.intValue
            let orientation = number.flatMap(ExifOrientation.init(rawValue:)) ?? .up
            return Self.faces(rgba: rgba, width: width, height: height, orientation: orientation, detector: detector)
                .map { face in
                    CIFaceFeature(
                        bounds: FeatureCorners(face.corners.map(place)).bounds, leftEye: face.leftEye.map(place),
                        rightEye: face.rightEye.map(place), mouth: face.mouth.map(place), angle: face.angle)
                }
        }
        let plane = PixelPlane<UInt8>(width: width, height: height, channels: 4, elements: rgba)
        guard let found = QuadrilateralDetector(minimumSize: minimumSize).detect(in: plane) else { return [] }
        let c = found.pixelCorners(width: width, height: height).map(place)
        return [CIRectangleFeature(corners: FeatureCorners(c))]
    }
}
