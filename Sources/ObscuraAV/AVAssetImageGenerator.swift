import Foundation
import Imaging

/// What `generateCGImagesAsynchronously(forTimes:completionHandler:)` hands back for each time: the time asked, the
/// picture, the time of the frame it is, how the request ended, and the error where it failed.
public typealias AVAssetImageGeneratorCompletionHandler =
    @Sendable (CMTime, CGImage?, CMTime, AVAssetImageGenerator.Result, Error?) -> Void

/// Pictures of a movie at given times (AVFoundation's `AVAssetImageGenerator`), as apps make thumbnails of what
/// they recorded. The picture at a time is the frame shown then: the last whose presentation time is at or before
/// it, counted from the movie's first frame, and its actual time is that frame's (Capture rules §25). Movies are
/// decoded through FFmpeg's libraries, one request at a time: a request at or after the last one goes on decoding
/// from where that one stopped, as a scrubber's thumbnails ask; an earlier one starts again from the beginning.
open class AVAssetImageGenerator: NSObject, @unchecked Sendable {
    /// How a request of `generateCGImagesAsynchronously(forTimes:completionHandler:)` ended.
    public enum Result: Int, Sendable {
        case succeeded = 0, failed = 1, cancelled = 2
    }

    /// The movie.
    public let asset: AVAsset
    private let lock = NSLock()
    private var turns = false, largest = CGSize.zero
    private var before = CMTime.positiveInfinity, after = CMTime.positiveInfinity
    private var cancelled = 0
    /// Held while a request decodes: the decoder is one, and requests take their turns.
    private let decoding = NSLock()
    private var cursor: Cursor?
    private var composition: AVVideoComposition?
    /// Where asynchronous requests run, one after another, so that waiting requests hold no threads.
    private let requests = DispatchQueue(label: "AVAssetImageGenerator.requests")

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

    /// How the video tracks become the pictures (Capture rules §25 rule 16); nil shows the first video track. With
    /// one, `appliesPreferredTrackTransform` is ignored: the composition places the tracks. The generator keeps a
    /// copy; a render scale other than 1, a negative render size, a frame duration that is not positive or a negative
    /// `sourceTrackIDForFrameTiming` raises `NSInvalidArgumentException`, as Apple documents.
    open var videoComposition: AVVideoComposition? {
        get { lock.withLock { composition } }
        set {
            if let newValue { raiseIfNeeded(Violation.generatorComposition(newValue)) }
            let copy = newValue?.copy(as: AVVideoComposition.self)
            decoding.withLock {
                lock.withLock { composition = copy }
                cursor = nil
            }
        }
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
        try await withCheckedThrowingContinuation { continuation in
            requests.async { continuation.resume(with: Swift.Result { try self.picture(at: time) }) }
        }
    }

    /// The picture at `requestedTime`, handed to `handler` on another thread with the frame's time, or the error.
    open func generateCGImageAsynchronously(
        for requestedTime: CMTime, completionHandler handler: @escaping @Sendable (CGImage?, CMTime, Error?) -> Void
    ) {
        let generation = lock.withLock { cancelled }
        requests.async {
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

    /// The pictures at each of `requestedTimes` (`NSValue(time:)`), in order, each handed to `handler` on another
    /// thread with the time asked, the picture, the frame's time and how the request ended. Requests not yet
    /// started when `cancelAllCGImageGeneration()` is called end as cancelled.
    open func generateCGImagesAsynchronously(
        forTimes requestedTimes: [NSValue], completionHandler handler: @escaping AVAssetImageGeneratorCompletionHandler
    ) {
        let generation = lock.withLock { cancelled }
        let times = requestedTimes.map(\.timeValue)
        requests.async {
            for requested in times {
                guard self.lock.withLock({ self.cancelled }) == generation else {
                    handler(requested, nil, .zero, .cancelled, CocoaError(.userCancelled))
                    continue
                }
                do {
                    let (image, time) = try self.picture(at: requested)
                    handler(requested, image, time, .succeeded, nil)
                } catch {
                    handler(requested, nil, .zero, .failed, error)
                }
            }
        }
    }

    /// Cancels the requests not yet started; their handlers get a cancellation error.
    open func cancelAllCGImageGeneration() {
        lock.withLock { cancelled += 1 }
    }

    /// Where decoding stands between requests: the frame last shown and the one read after it.
    private final class Cursor {
        let reader: any PictureSource
        /// The first frame's presentation time, which counts as zero (a composition's times are its own already).
        var origin: Double?
        /// The last frame's time from the first frame.
        var previous = -Double.infinity
        /// The last frame at or before the last request's time.
        var shown: (PixelPlane<UInt8>, Double)?
        /// The frame read after it, not yet shown; nil before it is read or after the last frame.
        var ahead: (PixelPlane<UInt8>, Double)?
        /// Whether the last frame was read.
        var finished = false

        init(reader: any PictureSource, origin: Double?) {
            self.reader = reader
            self.origin = origin
        }
    }

    /// Decodes up to the frame shown at `requested` and makes its picture.
    private func picture(at requested: CMTime) throws -> (CGImage, CMTime) {
        let contents = try asset.contents.get()
        guard requested.isValid, requested.seconds.isFinite else {
            throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: "the requested time is not a time"])
        }
        let (turns, largest, before, after, composition) = lock.withLock {
            (self.turns, self.largest, self.before, self.after, self.composition.map(VideoCompositionPlan.init))
        }
        try composition?.check(asset: asset, range: .invalid)
        let target = max(requested.seconds, 0)
        let step = composition?.frameDuration.seconds ?? (contents.rate > 0 ? 1 / contents.rate : 1.0 / 30)
        let ((frame, time), end) = try decoding.withLock { () throws -> ((PixelPlane<UInt8>, Double), Double) in
            try self.frame(at: target, step: step, composition: composition)
        }
        // The frame shown at the requested time answers any tolerance while the time lies within its display; past
        // the movie's end it is `before` that decides, and a first frame later than the time, `after`.
        let beyond = target - end, early = time - target
        if (before.isNumeric && beyond >= before.seconds - 1e-9) || (after.isNumeric && early > after.seconds + 1e-9) {
            throw AVError(.decodeFailed, userInfo: [
                NSLocalizedFailureReasonErrorKey: "no frame within the requested tolerance of \(requested.seconds) s"
            ])
        }
        var picture = turns && composition == nil ? Self.transformed(frame, contents.transform) : frame
        picture = Self.fitted(picture, within: largest)
        return (CGImage(rgb: picture, colorSpaceName: CGColorSpace.sRGB), CMTime(seconds: time, preferredTimescale: 600))
    }

    /// The frame shown at `target` seconds from the first frame, and when its display ends (the next frame's time;
    /// the last frame's time and one frame period after the last); the caller holds `decoding`.
    private func frame(at target: Double, step: Double, composition: VideoCompositionPlan?) throws
        -> ((PixelPlane<UInt8>, Double), Double)
    {
        func failure(_ reason: String) -> AVError {
            AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: reason])
        }
        // An earlier time than the frame last shown starts from the beginning again.
        if let c = cursor, let shown = c.shown, shown.1 > target { cursor = nil }
        let c: Cursor
        if let cursor {
            c = cursor
        } else {
            if let composition {
                c = Cursor(reader: ComposedFrames(plan: composition, asset: asset), origin: 0)
            } else {
                guard let track = asset.tracks(withMediaType: .video).first else {
                    throw failure("the asset has no video")
                }
                do { c = Cursor(reader: try track.openPictures(), origin: asset is AVComposition ? 0 : nil) } catch {
                    throw failure(error.message)
                }
            }
            cursor = c
        }
        while true {
            if c.ahead == nil, !c.finished {
                let next: (PixelPlane<UInt8>, Double)?
                do { next = try c.reader.next() } catch {
                    cursor = nil
                    throw failure(error.message)
                }
                if let (frame, stamp) = next {
                    // Times from the first frame; a frame without one follows the previous at the frame rate.
                    let start = c.origin ?? max(stamp, 0)
                    c.origin = start
                    let time = stamp >= 0 ? max(stamp - start, c.previous + 1e-6) : (c.shown == nil ? 0 : c.previous + step)
                    c.previous = time
                    c.ahead = (frame, time)
                } else {
                    c.finished = true
                }
            }
            guard let ahead = c.ahead else {
                // After the last frame: it is shown for one frame period.
                guard let shown = c.shown else { throw failure("the movie has no frames") }
                return (shown, shown.1 + step)
            }
            // A first frame later than the time is the one shown.
            if ahead.1 > target, let shown = c.shown { return (shown, ahead.1) }
            c.shown = ahead
            c.ahead = nil
        }
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

extension AVAssetImageGenerator {
    /// The pictures at a list of times as an asynchronous sequence (`for await result in generator.images(for:)`),
    /// one element per time in order, each a success with the picture or a failure with the error (Capture rules
    /// §25 rule 4).
    public struct Images: AsyncSequence, Sendable {
        /// One time's outcome.
        public enum Element: Sendable {
            case success(requestedTime: CMTime, image: CGImage, actualTime: CMTime)
            case failure(requestedTime: CMTime, error: any Error)

            /// The time asked for.
            public var requestedTime: CMTime {
                switch self {
                case let .success(time, _, _), let .failure(time, _): time
                }
            }

            /// The picture; throws the request's error where it failed.
            public var image: CGImage {
                get throws {
                    switch self {
                    case let .success(_, image, _): return image
                    case let .failure(_, error): throw error
                    }
                }
            }

            /// The time of the frame the picture is; throws the request's error where it failed.
            public var actualTime: CMTime {
                get throws {
                    switch self {
                    case let .success(_, _, time): return time
                    case let .failure(_, error): throw error
                    }
                }
            }
        }

        let generator: AVAssetImageGenerator
        let times: [CMTime]

        /// Takes the times one after another.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let generator: AVAssetImageGenerator
            let times: [CMTime]
            var index = 0

            public mutating func next() async -> Element? {
                guard index < times.count else { return nil }
                let requested = times[index]
                index += 1
                do {
                    let (image, actual) = try await generator.image(at: requested)
                    return .success(requestedTime: requested, image: image, actualTime: actual)
                } catch {
                    return .failure(requestedTime: requested, error: error)
                }
            }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(generator: generator, times: times) }
    }

    /// The pictures at `times`, in order, as an asynchronous sequence.
    public func images(for times: [CMTime]) -> Images { Images(generator: self, times: times) }
}
