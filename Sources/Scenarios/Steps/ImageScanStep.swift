import Imaging
import ObscuraSupport

/// `image_scan: {clip: 1, save: scans/print.png}`: finds the print in the newest photo, flattens it onto an upright
/// rectangle of the print's true aspect ratio and stretches each channel (Imaging's `QuadrilateralDetector`,
/// `RectangleAspectRatio` with the photo's recorded intrinsics, `PerspectiveCorrection`, `ContrastStretch`). The
/// `scan` expectation checks the corners found and the aspect ratio.
struct ImageScanStep: ScenarioStep {
    static let key = "image_scan"
    static let summary = "detects the print in the newest photo, corrects its perspective and stretches its contrast"

    /// Percentage of pixels clipped at each end of every channel.
    let clipPercent: Double
    let savePath: String?

    init(value: YAMLNode?, step: YAMLNode) throws {
        guard let value else {
            clipPercent = 1
            savePath = nil
            return
        }
        let map = try value.mapping(allowedKeys: ["clip", "save"])
        clipPercent = try map.optional("clip")?.double(in: 0...49.9) ?? 1
        savePath = try ImageStepSupport.savePath(map)
    }

    var apiCalls: [String] {
        [
            "let quad = QuadrilateralDetector().detect(in: photoPixels)",
            "let corners = quad.pixelCorners(width: photoPixels.width, height: photoPixels.height)",
            "let aspect = RectangleAspectRatio(corners: corners, intrinsics: PinholeIntrinsics(pngText: photo.text))",
            "let size = PerspectiveCorrection.outputSize(for: corners, aspectRatio: aspect.value)",
            "let flat = PerspectiveCorrection.rectify(photoPixels, corners: corners, size: size)",
            "let scan = ContrastStretch(clip: \(clipPercent / 100)).apply(to: flat)",
        ]
    }

    var specSections: [String] { [] }

    func perform(_ context: RunContext) throws {
        let (_, image) = try ImageStepSupport.lastPhoto(context, step: Self.key)
        let pixels = ImageStepSupport.floats(image)
        guard let quad = QuadrilateralDetector().detect(in: pixels) else {
            throw StepFailure("'image_scan': no quadrilateral found in the photo")
        }
        let corners = quad.pixelCorners(width: pixels.width, height: pixels.height)
        let aspect = RectangleAspectRatio(corners: corners, intrinsics: PinholeIntrinsics(pngText: image.text))
        context.imageResult = ImageStepResult(quadrilateral: quad, aspectRatio: aspect)
        let size = PerspectiveCorrection.outputSize(for: corners, aspectRatio: aspect.value)
        guard let flat = PerspectiveCorrection.rectify(pixels, corners: corners, size: size) else {
            throw StepFailure("'image_scan': the quadrilateral found is degenerate")
        }
        let scan = ContrastStretch(clip: clipPercent / 100).apply(to: flat)
        try ImageStepSupport.save(PNGImage(pixels: UInt16Image(converting: scan), colorSpace: image.colorSpace),
                                  to: savePath, context, kind: "scan")
    }
}
