import Imaging
import Scenes
import Sensor
import Spectra

/// Photos of footage in direct mode (`FootageMode.direct`): the footage's frame at the capture's moment,
/// resized to the photo's dimensions (`CoverResize`), with no exposure, noise, colour or lens.
///
/// What each kind of request gets, our choice:
/// - a processed photo: the frame's bytes, tagged sRGB whatever the device's colour space, as footage is;
/// - a RAW photo: an RGGB mosaic of the frame, each photosite the frame's value under its colour filter
///   decoded to linear light with the IEC 61966-2-1 curve and placed between the camera's black and white
///   levels, without noise: the frame as a sensor would record light of those values, not a capture;
/// - a Constant Color photo and its fallback: the frame both times, with a confidence map of zeros, since
///   no colour was measured;
/// - the exposure reported: the device's custom exposure when it is in that mode, else the frame's duration
///   at the sensor's base ISO; flash and torch change no pixel.
enum DirectFootagePhoto {
    static func render(_ request: PhotoRenderRequest, footage: Footage, frame: Int) throws -> [RenderedPhoto] {
        let d = request.dimensions
        guard let pixels = footage.frame(frame, width: d.width, height: d.height) else {
            throw PhotoRenderingError(description: "the footage \(footage.path) has no frames to deliver")
        }
        let model = try? CameraModel(device: request.profile, camera: request.camera, width: d.width, height: d.height)
        let exposure = request.fixedExposure ?? .init(duration: 1 / 30, iso: model?.noise.baseISO ?? 100)
        let mosaic = request.keepsMosaic ? model.map { mosaicOf(pixels, noise: $0.noise) } : nil
        let photo = RenderedPhoto(
            pixels: pixels.channels == 3 ? pixels : PixelPlane(width: d.width, height: d.height, channels: 3) {
                x, y, c in pixels[x, y, min(c, pixels.channels - 1)]
            }, encoding: .sRGB, exposureDurationSeconds: exposure.duration, iso: exposure.iso,
            flashFired: request.flashFired,
            confidenceMap: request.constantColor
                ? PixelPlane(width: (d.width + 7) / 8, height: (d.height + 7) / 8) : nil,
            confidenceLevel: 0, mosaic: mosaic, intrinsics: model?.pinholeIntrinsics)
        guard request.constantColor, request.fallback else { return [photo] }
        let fallback = RenderedPhoto(
            pixels: photo.pixels, encoding: .sRGB, exposureDurationSeconds: exposure.duration, iso: exposure.iso,
            flashFired: false, confidenceMap: nil, confidenceLevel: 0, intrinsics: photo.intrinsics)
        return [photo, fallback]
    }

    /// The frame as an RGGB mosaic of linear light between the black and white levels.
    static func mosaicOf(_ pixels: PixelPlane<UInt8>, noise: NoiseParameters) -> BayerMosaic {
        let black = noise.blackLevel.rounded(), white = noise.whiteLevel.rounded()
        let levels = (0..<256).map { code in
            UInt16((black + (white - black) * TransferFunction.sRGB.decode(Double(code) / 255)).rounded())
        }
        let plane = PixelPlane<UInt16>(width: pixels.width, height: pixels.height) { x, y, _ in
            levels[Int(pixels[x, y, min(BayerMosaic.channel(x: x, y: y), pixels.channels - 1)])]
        }
        let colour = RawColour(space: .sRGB)
        return BayerMosaic(plane: plane, blackLevel: Int(black), whiteLevel: Int(white), colour: colour)
    }
}
