import Foundation
import Imaging

/// Pictures of a movie at given times (AVFoundation's `AVAssetImageGenerator`), as apps make thumbnails of what
/// they recorded. The picture at a time is the frame shown then: the last whose presentation time is at or before
/// it, counted from the movie's first frame, and its actual time is that frame's (Capture rules §25). Movies are
/// decoded from their start for each request, through FFmpeg's libraries.
open class AVAssetImageGenerator: NSObject, @unchecked Sendable {
    /// The movie.
    public let asset: AVAsset
    private let lock = NSLock()
    private var turns = false, largest = CGSize.zero
    private var before = CMTime.positiveInfinity, after = CMTime.positiveInfinity
    private var cancelled = 0

    /// A generator for `asset`'s video track.
    public init(asset: AVAsset) {
        self.asset = asset
        super.init()
    }

    /// Whether pictures are turned as the track's `preferredTransform` says (a portrait recording comes out
    /// upright); false by default, as on Apple's platforms.
    open var appliesPreferredTrackTransform: Bool {
        get { lock.withLock { turns } }
        set { lock.withLock { turns = newValue } }
    }

    /// The largest size a picture may have, its aspect ratio kept (after the turn); zero for the stored size.
    open var maximumSize: CGSize {
        get { lock.withLock { largest } }
        set { lock.withLock { largest = newValue } }
    }

    /// How much earlier than asked a picture may be; positive infinity by default.
    open var requestedTimeToleranceBefore: CMTime {
        get { lock.withLock { before } }
        set { lock.withLock { before = newValue } }
    }

    /// How much later than asked a picture may be; positive infinity by default.
    open var requestedTimeToleranceAfter: CMTime {
        get { lock.withLock { after } }
        set { lock.withLock { after = newValue } }
    }

    /// The picture at `requestedTime`, and in `actualTime` the time of the frame it is.
    open func copyCGImage(at requestedTime: CMTime, actualTime: UnsafeMutablePointer<CMTime>?) throws -> CGImage {
        let (image, time) = try picture(at: requestedTime)
        actualTime?.pointee = time
        return image
    }

    /// The picture at `time` and the time of the frame it is.
    open func image(at time: CMTime) async throws -> (image: CGImage, actualTime: CMTime) {
        try picture(at: time)
    }

    /// The picture at `requestedTime`, handed to `handler` on another thread with the frame's time, or the error.
    open func generateCGImageAsynchronously(
        for requestedTime: CMTime, completionHandler handler: @escaping @Sendable (CGImage?, CMTime, Error?) -> Void
    ) {
        let generation = lock.withLock { cancelled }
        DispatchQueue.global().async {
            guard self.lock.withLock({ self.cancelled }) == generation else {
                handler(nil, .zero, CocoaError(.userCancelled))
                return
            }
            do {
                let (image, time) = try self.picture(at: requestedTime)
                handler(image, time, nil)
            } catch {
                handler(nil, .zero, error)
            }
        }
    }

    /// Cancels the requests not yet started; their handlers get a cancellation error.
    open func cancelAllCGImageGeneration() {
        lock.withLock { cancelled += 1 }
    }

    /// Decodes up to the frame shown at `requested` and makes its picture.
    private func picture(at requested: CMTime) throws -> (CGImage, CMTime) {
        let contents = try asset.contents.get()
        guard requested.isValid, requested.seconds.isFinite else {
            throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: "the requested time is not a time"])
        }
        let (turns, largest, before, after) = lock.withLock { (self.turns, self.largest, self.before, self.after) }
        let target = max(requested.seconds, 0)
        let reader: MovieFrameReader
        do { reader = try MovieFrameReader(path: contents.url.path) } catch {
            throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: error.message])
        }
        var shown: (PixelPlane<UInt8>, Double)?
        var origin: Double?
        var previous = -Double.infinity
        let step = contents.rate > 0 ? 1 / contents.rate : 1.0 / 30
        // The shown frame lasts until the next one; the last for one frame period.
        var end = Double.infinity
        while true {
            let next: (PixelPlane<UInt8>, Double)?
            do { next = try reader.next() } catch {
                throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: error.message])
            }
            guard let (frame, stamp) = next else {
                end = (shown?.1 ?? 0) + step
                break
            }
            // Times from the first frame; a frame without one follows the previous at the frame rate.
            let start = origin ?? max(stamp, 0)
            origin = start
            let time = stamp >= 0 ? max(stamp - start, previous + 1e-6) : (shown == nil ? 0 : previous + step)
            previous = time
            if time > target, shown != nil {
                end = time
                break
            }
            shown = (frame, time)
        }
        guard let (frame, time) = shown else {
            throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: "the movie has no frames"])
        }
        // The frame shown at the requested time answers any tolerance while the time lies within its display; past
        // the movie's end it is `before` that decides, and a first frame later than the time, `after`.
        let beyond = target - end, early = time - target
        if (before.isNumeric && beyond >= before.seconds - 1e-9) || (after.isNumeric && early > after.seconds + 1e-9) {
            throw AVError(.decodeFailed, userInfo: [
                NSLocalizedFailureReasonErrorKey: "no frame within the requested tolerance of \(requested.seconds) s"
            ])
        }
        var picture = turns ? Self.transformed(frame, contents.transform) : frame
        picture = Self.fitted(picture, within: largest)
        return (CGImage(rgb: picture, colorSpaceName: CGColorSpace.sRGB), CMTime(seconds: time, preferredTimescale: 600))
    }

    /// The frame as the transform places it: each pixel centre mapped, the result moved so that its bounding box
    /// starts at the origin. A transform other than quarter turns and mirrors leaves the frame as stored.
    static func transformed(
        _ frame: PixelPlane<UInt8>, _ t: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)
    ) -> PixelPlane<UInt8> {
        let axisAligned = [t.a, t.b, t.c, t.d].allSatisfy { abs($0) < 1e-6 || abs(abs($0) - 1) < 1e-6 }
            && (abs(t.a) < 1e-6) == (abs(t.d) < 1e-6) && (abs(t.b) < 1e-6) == (abs(t.c) < 1e-6)
            && (abs(t.a) < 1e-6) != (abs(t.b) < 1e-6)
        guard axisAligned else { return frame }
        let swaps = abs(t.a) < 1e-6
        let width = swaps ? frame.height : frame.width, height = swaps ? frame.width : frame.height
        // Where the stored picture's corners go: the smallest corner is the new origin.
        let w = Double(frame.width), h = Double(frame.height)
        let xs = [0.0, w].flatMap { x in [0.0, h].map { y in t.a * x + t.c * y } }
        let ys = [0.0, w].flatMap { x in [0.0, h].map { y in t.b * x + t.d * y } }
        let (ox, oy) = (xs.min() ?? 0, ys.min() ?? 0)
        var out = PixelPlane<UInt8>(width: width, height: height, channels: frame.channels)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                let u = Int(t.a * px + t.c * py - ox), v = Int(t.b * px + t.d * py - oy)
                guard u >= 0, u < width, v >= 0, v < height else { continue }
                for c in 0..<frame.channels { out[u, v, c] = frame[x, y, c] }
            }
        }
        return out
    }

    /// The picture scaled down, its aspect ratio kept, to fit `size` (a zero side does not bound).
    static func fitted(_ picture: PixelPlane<UInt8>, within size: CGSize) -> PixelPlane<UInt8> {
        var scale = 1.0
        if size.width > 0 { scale = min(scale, Double(size.width) / Double(picture.width)) }
        if size.height > 0 { scale = min(scale, Double(size.height) / Double(picture.height)) }
        guard scale < 1 else { return picture }
        let width = max(1, Int((Double(picture.width) * scale).rounded()))
        let height = max(1, Int((Double(picture.height) * scale).rounded()))
        return picture.areaScaled(width: width, height: height)
    }
}
