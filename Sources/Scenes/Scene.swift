/// A world to photograph: named objects, ambient light, extra lights and the device's place.
///
/// Scenes are plain validated values; the renderer never changes them. Object names are the
/// annotations later stages use to ask for "the region of object pot".
public struct Scene: Sendable, Hashable {
    /// Every object, in a fixed order; `objectIndex(named:)` finds one by name.
    public var objects: [SceneObject]
    /// The room light.
    public var ambient: AmbientLight?
    /// Directional, point and spot lights.
    public var lights: [Light]
    /// Where the device stands.
    public var device: DevicePlacement
    /// The footage the scene shows whole (`FootageScene`), and how; nil for a scene of objects.
    public var footage: Footage?
    /// The frame of the footage shown now (an index into its screen's movie; `showing(frames:)` sets it).
    public var footageFrame = 0

    /// Whether the scene is footage shown whole: depth cameras report no depth for it unless depth pictures
    /// came with it.
    public var isFootage: Bool { footage != nil }

    /// A scene.
    public init(objects: [SceneObject], ambient: AmbientLight?, lights: [Light] = [], device: DevicePlacement) {
        self.objects = objects
        self.ambient = ambient
        self.lights = lights
        self.device = device
    }

    /// The index of the object with this name, or nil.
    public func objectIndex(named name: String) -> Int? {
        objects.firstIndex { $0.name == name }
    }

    /// Whether a screen in the scene plays a movie, so the scene looks different from moment to moment.
    public var playsMovies: Bool { objects.contains { $0.movie != nil } }

    /// The frame each playing screen shows `seconds` after the stream started, in object order; empty when
    /// no screen plays a movie. Two moments with the same frames look the same.
    public func movieFrames(at seconds: Double) -> [Int] {
        objects.compactMap { $0.movie?.frameIndex(at: seconds) }
    }

    /// The scene with each playing screen showing the given frames (`movieFrames(at:)`).
    public func showing(frames: [Int]) -> Scene {
        var out = self
        var next = frames.makeIterator()
        for i in out.objects.indices {
            guard let movie = out.objects[i].movie, let frame = next.next() else { continue }
            // Direct mode delivers the footage's own frames: the screen's surface is made only for what still
            // meters the scene, which reads the first frame shown (`Footage`).
            if out.footage?.mode != .direct { out.objects[i].surface = movie.surface(frame: frame) }
            if out.footage != nil { out.footageFrame = frame }
        }
        return out
    }

    /// The scene as it looks `seconds` after the stream started: each playing screen shows its frame of
    /// that moment.
    public func showing(at seconds: Double) -> Scene { showing(frames: movieFrames(at: seconds)) }

    /// The scene `seconds` later: every object and the device moved by its motion.
    public func advanced(by seconds: Double) -> Scene {
        var out = self
        for i in out.objects.indices {
            out.objects[i].transform = objects[i].motion.advance(objects[i].transform, by: seconds)
        }
        out.device = device.advanced(by: seconds)
        return out
    }
}
