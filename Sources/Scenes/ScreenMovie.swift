import Foundation
import Imaging

/// A movie a screen plays (`screen: {movie: clip.mp4}`): its decoded frames, the screen's white and
/// whether it loops.
///
/// The movie keeps its own timing against the stream clock: at stream time t the screen shows the frame
/// whose presentation time is the last at or before t (`DecodedMovie.frameIndex(at:loops:)`); a movie that
/// does not loop holds its last frame. Scenes hold it by reference: its frames are large, and two scenes
/// showing the same movie are equal when they show the same one.
public final class ScreenMovie: Sendable, Hashable {
    /// The decoded frames and their times.
    public let movie: DecodedMovie
    /// The luminance of the screen's white, cd/m².
    public let nits: Double
    /// Whether the movie starts again after its last frame.
    public let loops: Bool
    private let surfaces = SurfaceCache()

    /// A screen's movie.
    public init(movie: DecodedMovie, nits: Double, loops: Bool) {
        self.movie = movie
        self.nits = nits
        self.loops = loops
    }

    /// The frame shown `seconds` after the stream started.
    public func frameIndex(at seconds: Double) -> Int { movie.frameIndex(at: seconds, loops: loops) }

    /// The screen's surface showing frame `index`; the last few are kept, as a stream asks for each several times.
    public func surface(frame index: Int) -> Surface {
        if let known = surfaces.surface(index) { return known }
        let made = Screen.surface(of: PNGImage(pixels: movie.frames[index], colorSpace: .sRGB), nits: nits)
        surfaces.store(made, index)
        return made
    }

    public static func == (a: ScreenMovie, b: ScreenMovie) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The surfaces of the last frames asked for.
private final class SurfaceCache: @unchecked Sendable {
    private let lock = NSLock()
    private var recent: [(Int, Surface)] = []

    func surface(_ index: Int) -> Surface? { lock.withLock { recent.first { $0.0 == index }?.1 } }

    func store(_ surface: Surface, _ index: Int) {
        lock.withLock {
            recent.append((index, surface))
            if recent.count > 4 { recent.removeFirst() }
        }
    }
}
