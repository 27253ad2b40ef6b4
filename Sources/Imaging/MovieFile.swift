import Foundation

/// A movie's frames, decoded to 8-bit RGB, with the time each is shown.
public struct DecodedMovie: Sendable {
    /// The movie's own width, before any reduction for storage.
    public var width: Int
    /// The movie's own height.
    public var height: Int
    /// The frames, in presentation order; possibly reduced in size (`MovieFile.read`).
    public var frames: [PixelPlane<UInt8>]
    /// Each frame's presentation time, seconds from the movie's start, increasing; the first is 0.
    public var presentationTimes: [Double]
    /// The movie's length: the last frame's time plus its duration.
    public var duration: Double

    /// A decoded movie; one presentation time per frame.
    public init(width: Int, height: Int, frames: [PixelPlane<UInt8>], presentationTimes: [Double], duration: Double) {
        precondition(!frames.isEmpty && frames.count == presentationTimes.count, "one time per frame")
        self.width = width
        self.height = height
        self.frames = frames
        self.presentationTimes = presentationTimes
        self.duration = duration
    }

    /// The frame shown at `seconds` after the movie started: the last whose presentation time is at or
    /// before it. A looping movie starts again after `duration`; one that does not loop holds its last frame.
    public func frameIndex(at seconds: Double, loops: Bool) -> Int {
        var t = max(seconds, 0)
        if loops, duration > 0 { t = t.truncatingRemainder(dividingBy: duration) }
        // Times increase: binary search for the last ≤ t (a tolerance of a nanosecond absorbs the rounding of
        // a stream clock's rational times against the movie's).
        var (low, high) = (0, presentationTimes.count - 1)
        while low < high {
            let mid = (low + high + 1) / 2
            if presentationTimes[mid] <= t + 1e-9 { low = mid } else { high = mid - 1 }
        }
        return low
    }
}

/// Reads movie files: YUV4MPEG2 directly, MP4, MOV, MKV and the other containers FFmpeg reads through its
/// libraries, loaded at run time.
public enum MovieFile {
    /// The most pixels a movie may decode to, frames × width × height (duration × frame rate × size): 2³⁰,
    /// about 17 s of 1920×1080 at 30 frames per second, or 38 s of 1280×720. A larger movie is refused
    /// before any frame is decoded. Our choice: the decoded frames are held in memory.
    public static let maximumPixels = 1 << 30

    /// The widest a stored frame is kept: larger frames are reduced by an integer box filter. A screen in a
    /// scene is seen through a camera whose stream renders at most a few hundred pixels across it.
    public static let maximumStoredWidth = 640

    /// Whether movies other than YUV4MPEG2 can be read: FFmpeg's libraries are installed.
    public static var readsOtherContainers: Bool { FFmpegMovieReader.unavailableReason == nil }

    /// Reads and decodes a movie file.
    public static func read(
        _ path: String, maximumPixels: Int = MovieFile.maximumPixels, storedWidth: Int = MovieFile.maximumStoredWidth
    ) throws(MediaFileError) -> DecodedMovie {
        // The header and the file's size say how many frames a YUV4MPEG2 file holds, so the bound is checked
        // before the file is read whole.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MediaFileError(code: .unreadable, message: "cannot open the file")
        }
        let start = [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
        let size = (try? handle.seekToEnd()).map(Int.init) ?? 0
        try? handle.close()
        guard Y4M.isY4M(start) else {
            return try FFmpegMovieReader.read(path, maximumPixels: maximumPixels, storedWidth: storedWidth)
        }
        let header = try Y4M.header(start)
        let count = (size - header.length) / (6 + header.frameBytes)
        try checkBound(frames: count, width: header.width, height: header.height, maximumPixels: maximumPixels)
        let bytes: [UInt8]
        do {
            bytes = try PNG.readFile(path)
        } catch {
            throw MediaFileError(code: .unreadable, message: error.message)
        }
        let frames = try Y4M.decode(bytes, header: header)
        let rate = Double(header.rateNumerator) / Double(header.rateDenominator)
        return DecodedMovie(
            width: header.width, height: header.height, frames: frames.map { reduced($0, toWidth: storedWidth) },
            presentationTimes: frames.indices.map { Double($0) / rate }, duration: Double(frames.count) / rate)
    }

    /// Refuses a movie whose frames would decode to more than `maximumPixels`.
    public static func checkBound(frames: Int, width: Int, height: Int, maximumPixels: Int) throws(MediaFileError) {
        let (product, overflow) = frames.multipliedReportingOverflow(by: width * height)
        if overflow || product > maximumPixels {
            throw MediaFileError(
                code: .tooLarge,
                message: "\(frames) frames of \(width)x\(height) would decode to \(overflow ? "more than 2^63" : "\(product)")"
                    + " pixels, over the limit of \(maximumPixels) pixels (duration × frame rate × width × height); "
                    + "refused before decoding")
        }
    }

    /// A frame reduced by the smallest integer factor that brings it to `width` or less, each output pixel the
    /// mean of its block (edge blocks of the pixels they hold).
    public static func reduced(_ frame: PixelPlane<UInt8>, toWidth width: Int) -> PixelPlane<UInt8> {
        let factor = (frame.width + width - 1) / max(width, 1)
        guard factor > 1 else { return frame }
        let (w, h) = ((frame.width + factor - 1) / factor, (frame.height + factor - 1) / factor)
        return PixelPlane<UInt8>(width: w, height: h, channels: frame.channels) { x, y, c in
            var sum = 0, n = 0
            for yy in (y * factor)..<min((y + 1) * factor, frame.height) {
                for xx in (x * factor)..<min((x + 1) * factor, frame.width) {
                    sum += Int(frame[xx, yy, c])
                    n += 1
                }
            }
            return UInt8((sum + n / 2) / n)
        }
    }
}

