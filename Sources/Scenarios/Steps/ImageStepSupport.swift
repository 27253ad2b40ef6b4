import Foundation
import Imaging
import ObscuraAV
import ObscuraSupport

/// What an image step measured, for the expectations that follow it (`scan`, `outside_srgb`).
struct ImageStepResult: Sendable {
    /// The quadrilateral `image_scan` found.
    var quadrilateral: DetectedQuadrilateral?
    /// The flattened print's aspect ratio, and whether it came from the photo's intrinsics.
    var aspectRatio: RectangleAspectRatio?
    /// The fraction of pixels outside sRGB that `image_wide_gamut` counted.
    var outsideSRGBFraction: Double?
}

/// Shared work of the steps that apply image operations to captured photos.
enum ImageStepSupport {
    /// The newest processed photo (not a Constant Color fallback, unless that is all there is).
    static func newestPhoto(_ context: RunContext, step: String) throws -> AVCapturePhoto {
        guard let photo = context.lastPhotos.last(where: { !$0.isConstantColorFallbackPhoto })
            ?? context.lastPhotos.last
        else { throw StepFailure("'\(step)' needs a photo: put a 'capture' step before it") }
        return photo
    }

    /// The newest processed photo (see `newestPhoto`), decoded.
    static func lastPhoto(_ context: RunContext, step: String) throws -> (AVCapturePhoto, PNGImage) {
        let photo = try newestPhoto(context, step: step)
        guard let data = photo.pngFileDataRepresentation() else {
            throw StepFailure("'\(step)': the photo has no file data to work on")
        }
        do {
            return (photo, try PNG.decode([UInt8](data)))
        } catch {
            throw StepFailure("'\(step)': the photo cannot be decoded: \(error)")
        }
    }

    /// Writes `image` at `path` inside the run's output directory; nothing when the run saves nothing.
    static func save(_ image: PNGImage, to path: String?, _ context: RunContext, kind: String) throws {
        guard let path, let directory = context.outputDirectory else { return }
        let bytes: [UInt8]
        do {
            bytes = try PNG.encode(image)
        } catch {
            throw StepFailure("cannot encode \(path): \(error)")
        }
        let written = try directory.write(bytes, to: path)
        context.savedImages.append(.init(kind: kind, file: written, image: true))
    }

    /// The optional `save: PATH` of a step's value, checked to stay inside the output directory.
    static func savePath(_ map: YAMLMapping) throws -> String? {
        guard let node = map.optional("save") else { return nil }
        let path = try node.string()
        try SaveRequest.validateRelative(path, node: node)
        return path
    }

    /// The photo's pixels as floats 0…1 (3 or 4 channels).
    static func floats(_ image: PNGImage) -> FloatPlane {
        switch image.pixels {
        case .eightBit(let p): FloatPlane(converting: p)
        case .sixteenBit(let p): FloatPlane(converting: p)
        }
    }
}
