import Foundation
import Imaging

/// A track's pictures asked for at rising times: the picture shown at each (the last at or before it; the first
/// where the time comes before it), none once the last picture's frame period has passed.
final class TrackPictures {
    private let source: any PictureSource
    private var times: PictureTimes
    private var shown: (PixelPlane<UInt8>, Double)?
    private var ahead: (PixelPlane<UInt8>, Double)?
    private var finished = false

    init(track: AVAssetTrack) throws(MediaFileError) {
        source = try track.openPictures()
        let rate = track.contents.rate
        times = PictureTimes(step: rate > 0 ? 1 / rate : 1.0 / 30)
    }

    func picture(at seconds: Double) throws(MediaFileError) -> PixelPlane<UInt8>? {
        while true {
            if ahead == nil, !finished {
                if let (picture, stamp) = try source.next() {
                    ahead = (picture, times.time(of: stamp))
                } else {
                    finished = true
                }
            }
            guard let next = ahead, next.1 <= seconds + 1e-6 else { break }
            shown = next
            ahead = nil
        }
        guard let shown else { return ahead?.0 }
        if ahead == nil, finished, seconds >= shown.1 + times.step - 1e-6 { return nil }
        return shown.0
    }
}

/// The frames of a video composition (Capture rules §25 rule 16), one every frame duration from the frame that
/// holds `start` to the asset's end, each with its composition time: drawn from the instruction that covers its
/// time, or filtered by the composition's Core Image handler. Every consumer (export, reader, image generator,
/// player) reads its pictures from here.
final class ComposedFrames: PictureSource {
    private let plan: VideoCompositionPlan
    private let asset: AVAsset
    private var index: Int64
    private let end: Double
    private var tracks: [CMPersistentTrackID: TrackPictures] = [:]

    init(plan: VideoCompositionPlan, asset: AVAsset, from start: Double = 0) {
        self.plan = plan
        self.asset = asset
        end = asset.duration.seconds
        let step = plan.frameDuration.seconds
        index = step > 0 ? Int64(max(0, (start / step + 1e-9).rounded(.down))) : 0
    }

    func next() throws(MediaFileError) -> (PixelPlane<UInt8>, Double)? {
        let step = plan.frameDuration
        guard step.seconds > 0 else { return nil }
        let time = CMTime(value: step.value * index, timescale: step.timescale)
        let seconds = time.seconds
        guard seconds < end - 1e-9 else { return nil }
        index += 1
        let frame = plan.filter != nil ? try filtered(at: time) : try composed(at: seconds)
        return (frame, seconds)
    }

    private func pictures(of trackID: CMPersistentTrackID) throws(MediaFileError) -> TrackPictures? {
        if let open = tracks[trackID] { return open }
        guard let track = asset.track(withTrackID: trackID), track.mediaType == .video else { return nil }
        let open = try TrackPictures(track: track)
        tracks[trackID] = open
        return open
    }

    /// The instruction's layers drawn bottom first over its background; black where no instruction covers the time.
    private func composed(at seconds: Double) throws(MediaFileError) -> PixelPlane<UInt8> {
        let width = plan.width, height = plan.height
        guard let instruction = plan.instruction(at: seconds) else {
            return PixelPlane(width: width, height: height, channels: 3)
        }
        var canvas = LayerCanvas(width: width, height: height, background: instruction.background)
        for layer in instruction.layers.reversed() {
            let opacity = min(max(layer.opacities.value(at: seconds), 0), 1)
            guard opacity > 0, let picture = try pictures(of: layer.trackID)?.picture(at: seconds) else { continue }
            canvas.draw(
                picture, transform: layer.transforms.value(at: seconds), crop: layer.crops.value(at: seconds),
                opacity: opacity)
        }
        return canvas.plane
    }

    /// The first enabled video track's picture turned by its preferred transform, handed to the Core Image handler.
    private func filtered(at time: CMTime) throws(MediaFileError) -> PixelPlane<UInt8> {
        let width = plan.width, height = plan.height
        guard let filter = plan.filter,
            let track = asset.tracks(withMediaType: .video).first(where: \.isEnabled),
            let picture = try pictures(of: track.trackID)?.picture(at: time.seconds)
        else { return PixelPlane(width: width, height: height, channels: 3) }
        var canvas = LayerCanvas(width: width, height: height, background: .zero)
        canvas.draw(picture, transform: track.preferredTransform, crop: .infinite, opacity: 1)
        guard let source = PixelBufferFilling.make(from: canvas.plane, format: kCVPixelFormatType_32BGRA) else {
            throw MediaFileError(code: .undecodable, message: "no pixel buffer for the composition's source frame")
        }
        let result: CVPixelBuffer
        do { result = try filter(source, time) } catch {
            throw MediaFileError(
                code: .undecodable, message: "the video composition's Core Image handler failed: \(error)")
        }
        return LayerCanvas.rgb(of: result)
    }
}

/// A frame being composed: RGB codes, layers drawn over it with the source-over rule at their opacity
/// (`PixelPlane.drawLayer`, in the optimised image layer, as a dependent's debug build composes every frame too).
struct LayerCanvas {
    private(set) var plane: PixelPlane<UInt8>

    init(width: Int, height: Int, background: SIMD3<UInt8>) {
        plane = .filled(width: width, height: height, rgb: background)
    }

    /// Draws `picture` (RGB codes) through `transform` (its pixels to the frame's, y down), within `crop` (its
    /// pixels), at `opacity`. A picture that covers the frame exactly, untouched, replaces it.
    mutating func draw(_ picture: PixelPlane<UInt8>, transform: CGAffineTransform, crop: CGRect, opacity: Float) {
        let whole = CGRect(x: 0, y: 0, width: picture.width, height: picture.height)
        if transform.isIdentity, opacity >= 1, crop.contains(whole), picture.width == plane.width,
            picture.height == plane.height, picture.channels == 3
        {
            plane = picture
            return
        }
        let determinant = transform.a * transform.d - transform.b * transform.c
        let inside = crop.intersection(whole)
        guard abs(determinant) > 1e-12, !inside.isNull else { return }
        let inverse = transform.inverted()
        let toPicture = Homography(entries: [
            Double(inverse.a), Double(inverse.c), Double(inverse.tx), Double(inverse.b), Double(inverse.d),
            Double(inverse.ty), 0, 0, 1,
        ])
        // A pixel is inside the crop where its centre is.
        let columns = Int(inside.minX.rounded())..<max(Int(inside.minX.rounded()), Int(inside.maxX.rounded()))
        let rows = Int(inside.minY.rounded())..<max(Int(inside.minY.rounded()), Int(inside.maxY.rounded()))
        plane.drawLayer(picture, targetToLayer: toPicture, crop: (columns, rows), opacity: opacity)
    }

    /// A BGRA buffer's colour as RGB codes; black for a buffer of another format.
    static func rgb(of buffer: CVPixelBuffer) -> PixelPlane<UInt8> {
        guard buffer.pixelFormat == kCVPixelFormatType_32BGRA, let p = buffer.planes.first else {
            return PixelPlane(width: buffer.width, height: buffer.height, channels: 3)
        }
        return PixelPlane(bgra: p.base, width: buffer.width, height: buffer.height, bytesPerRow: p.bytesPerRow)
    }
}
