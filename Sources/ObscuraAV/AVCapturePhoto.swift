import Devices
import Foundation
import Imaging

/// One delivered photo (spec §5): created for each `didFinishProcessingPhoto` call.
///
/// Pixels are rendered on first use, so that requests that never look at them stay cheap.
open class AVCapturePhoto: NSObject, @unchecked Sendable {
    /// Capture time on the session clock.
    public let timestamp: CMTime
    /// Whether this is the RAW half of a RAW + processed request.
    public let isRawPhoto: Bool
    /// The request's resolved settings; never nil.
    public let resolvedSettings: AVCaptureResolvedPhotoSettings
    /// 1-based index among `resolvedSettings.expectedPhotoCount`.
    public let photoCount: Int
    /// The source device's type.
    public let sourceDeviceType: AVCaptureDevice.DeviceType?
    /// The bracket element, for bracketed captures.
    public let bracketSettings: AVCaptureBracketedStillImageSettings?
    /// 1-based sequence number among the bracket's photos.
    public let sequenceCount: Int
    /// Whether this is the ambient photo of a Constant Color capture with fallback (spec §11).
    public let isConstantColorFallbackPhoto: Bool
    /// Centre-weighted mean confidence of a Constant Color photo; 0 otherwise (spec §11).
    public let constantColorCenterWeightedMeanConfidenceLevel: Float = 0

    let request: PhotoRenderRequest
    let uncompressedFormat: OSType?
    private let lock = NSLock()
    private var rendered: RenderedPhoto?
    private var buffer: CVPixelBuffer?

    init(
        timestamp: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, photoCount: Int,
        sourceDeviceType: AVCaptureDevice.DeviceType?, bracketSettings: AVCaptureBracketedStillImageSettings?,
        sequenceCount: Int, request: PhotoRenderRequest, uncompressedFormat: OSType?
    ) {
        self.timestamp = timestamp
        isRawPhoto = false
        self.resolvedSettings = resolvedSettings
        self.photoCount = photoCount
        self.sourceDeviceType = sourceDeviceType
        self.bracketSettings = bracketSettings
        self.sequenceCount = sequenceCount
        isConstantColorFallbackPhoto = false
        self.request = request
        self.uncompressedFormat = uncompressedFormat
    }

    private var renderedPhoto: RenderedPhoto {
        lock.withLock {
            if let rendered { return rendered }
            let r = PhotoRenderers.current.render(request)
            rendered = r
            return r
        }
    }

    /// The pixels, for uncompressed formats (`kCVPixelBufferPixelFormatTypeKey`); nil for compressed ones (spec §5).
    public var pixelBuffer: CVPixelBuffer? {
        guard let format = uncompressedFormat else { return nil }
        if let existing = lock.withLock({ buffer }) { return existing }
        let made = PixelBufferFilling.make(from: renderedPhoto.encodedRGB, format: format)
        lock.withLock { buffer = buffer ?? made }
        return lock.withLock { buffer }
    }

    /// Nil: preview images are not produced yet.
    public var previewPixelBuffer: CVPixelBuffer? { nil }
    /// Nil: depth arrives with the depth work.
    public var depthData: AnyObject? { nil }

    /// The ImageIO-style metadata: pixel size, orientation and Exif exposure.
    public var metadata: [String: Any] {
        let r = renderedPhoto
        return [
            "PixelWidth": request.dimensions.width, "PixelHeight": request.dimensions.height, "Orientation": 6,
            "{Exif}": [
                "ExposureTime": r.exposureDurationSeconds, "ISOSpeedRatings": [Int(r.iso)],
                "Flash": request.flashFired ? 1 : 0,
            ] as [String: Any],
        ]
    }

    /// The photo as PNG file bytes, tagged sRGB or Display P3 after `activeColorSpace`, with
    /// text metadata (dimensions, colour space, device, camera, exposure, flash).
    /// Obscura writes PNG whatever codec was asked for; the file type is noted in the text.
    open func fileDataRepresentation() -> Data? {
        let r = renderedPhoto
        let plane = r.encodedRGB
        let bytes = PixelPlane<UInt8>(width: plane.width, height: plane.height, channels: 3) { x, y, c in
            UInt8((min(max(plane[x, y, c], 0), 1) * 255).rounded())
        }
        let space: PNGColorSpace = request.colorSpace == .P3_D65 ? .displayP3 : .sRGB
        let text = [
            PNGText(key: "Software", value: "Obscura"),
            PNGText(key: "Dimensions", value: "\(request.dimensions.width)x\(request.dimensions.height)"),
            PNGText(key: "ColorSpace", value: request.colorSpace == .P3_D65 ? "Display P3" : "sRGB"),
            PNGText(key: "Device", value: "\(request.profile.name) (\(request.profile.id))"),
            PNGText(key: "Camera", value: request.camera.id),
            PNGText(key: "ExposureTime", value: String(r.exposureDurationSeconds)),
            PNGText(key: "ISO", value: String(r.iso)),
            PNGText(key: "Flash", value: request.flashFired ? "fired" : "did not fire"),
            PNGText(key: "Renderer", value: r.renderer),
        ]
        guard let encoded = try? PNG.encode(PNGImage(pixels: bytes, colorSpace: space, text: text)) else { return nil }
        return Data(encoded)
    }
}
