import Imaging
import ObscuraAV
import ObscuraSupport

/// `image_blend: {color: [0, 0, 1], threshold: 0.5, save: blended.png}`: blends a colour into the newest photo's
/// background, using the photo's own depth data (`AVCapturePhoto.depthData`, converted to disparity and resampled
/// to the photo's size) as the mask (Imaging's `BackgroundBlend`).
struct ImageBlendStep: ScenarioStep {
    static let key = "image_blend"
    static let summary = "blends a colour into the newest photo's background using its depth data as the mask"

    let color: SIMD3<Float>
    let threshold: Float?
    let savePath: String?

    init(value: YAMLNode?, step: YAMLNode) throws {
        guard let value else {
            color = SIMD3(0, 0, 1)
            threshold = nil
            savePath = nil
            return
        }
        let map = try value.mapping(allowedKeys: ["color", "threshold", "save"])
        if let node = map.optional("color") {
            let rgb = try node.doubles()
            guard rgb.count == 3, rgb.allSatisfy({ (0...1).contains($0) }) else {
                throw node.error("expected [r, g, b], each 0…1 in the photo's encoding")
            }
            color = SIMD3(Float(rgb[0]), Float(rgb[1]), Float(rgb[2]))
        } else {
            color = SIMD3(0, 0, 1)
        }
        threshold = try map.optional("threshold").map { Float(try $0.double(in: 0...1)) }
        savePath = try ImageStepSupport.savePath(map)
    }

    var apiCalls: [String] {
        [
            "let disparity = photo.depthData?.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32)",
            "let blended = BackgroundBlend(color: \(color), threshold: \(threshold.map { "\($0)" } ?? "nil"))"
                + ".apply(to: photoPixels, disparity: disparity.depthDataMap)",
        ]
    }

    var specSections: [String] { ["§9"] }

    func perform(_ context: RunContext) throws {
        let (photo, image) = try ImageStepSupport.lastPhoto(context, step: Self.key)
        guard let depth = photo.depthData else {
            throw StepFailure(
                "'image_blend': the photo carries no depth data (capture with isDepthDataDeliveryEnabled: true)")
        }
        let map = depth.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32).depthDataMap
        let disparity = Self.plane(map)
        let blend = BackgroundBlend(color: color, threshold: threshold)
        let pixels: PNGImage = switch image.pixels {
        case .eightBit(let p): PNGImage(pixels: blend.apply(to: p, disparity: disparity), colorSpace: image.colorSpace)
        case .sixteenBit(let p):
            PNGImage(pixels: UInt16Image(converting: blend.apply(to: FloatPlane(converting: p), disparity: disparity)),
                     colorSpace: image.colorSpace)
        }
        try ImageStepSupport.save(pixels, to: savePath, context, kind: "depth blend")
    }

    /// A `DisparityFloat32` buffer as a one-channel plane, read through the public CoreVideo calls.
    static func plane(_ buffer: CVPixelBuffer) -> FloatPlane {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return FloatPlane(width: width, height: height) }
        return FloatPlane(width: width, height: height, channels: 1) { x, y, _ in
            base.advanced(by: y * stride).assumingMemoryBound(to: Float32.self)[x]
        }
    }
}
