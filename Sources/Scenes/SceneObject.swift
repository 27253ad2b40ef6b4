/// One named thing in a scene: a shape, where it is, what covers it and how it moves.
public struct SceneObject: Sendable, Hashable {
    /// The annotation name, unique in a scene ("pot"), used for region queries.
    public var name: String
    /// The primitive.
    public var shape: Shape
    /// Local-to-world placement.
    public var transform: Transform
    /// The material or texture.
    public var surface: Surface
    /// Movement per second.
    public var motion: Motion
    /// A machine-readable code printed over the object (planes only), for barcode readers.
    public var code: CodeAnnotation?
    /// The part of a person the object is, for mattes; nil for anything that is not a person.
    public var person: PersonPart?
    /// The movie the object's screen plays (planes only); its surface then shows the frame of the
    /// moment (`Scene.showing(at:)`), the first frame until a time is given.
    public var movie: ScreenMovie?

    /// An object; static unless a motion is given.
    public init(
        name: String, shape: Shape, transform: Transform, surface: Surface, motion: Motion = .none,
        code: CodeAnnotation? = nil, person: PersonPart? = nil, movie: ScreenMovie? = nil
    ) {
        self.name = name
        self.shape = shape
        self.transform = transform
        self.surface = surface
        self.motion = motion
        self.code = code
        self.person = person
        self.movie = movie
    }
}
