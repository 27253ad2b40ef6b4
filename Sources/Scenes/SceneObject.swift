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
    /// The part of a person the object is, for mattes; nil for anything that is not a person. A card
    /// that shows more than one part (a head painted with its face and hair) names its first part here
    /// and each material's in `materialParts`.
    public var person: PersonPart?
    /// The part of a person each of the surface's materials shows (in `surface.materials` order; nil
    /// where it shows none), for a card that shows more than one part; nil when `person` covers the
    /// whole object.
    public var materialParts: [PersonPart?]?
    /// The movie the object's screen plays (planes only); its surface then shows the frame of the
    /// moment (`Scene.showing(at:)`), the first frame until a time is given.
    public var movie: ScreenMovie?

    /// An object; static unless a motion is given.
    public init(
        name: String, shape: Shape, transform: Transform, surface: Surface, motion: Motion = .none,
        code: CodeAnnotation? = nil, person: PersonPart? = nil, materialParts: [PersonPart?]? = nil,
        movie: ScreenMovie? = nil
    ) {
        self.name = name
        self.shape = shape
        self.transform = transform
        self.surface = surface
        self.motion = motion
        self.code = code
        self.person = person
        self.materialParts = materialParts
        self.movie = movie
    }

    /// The part of a person that the surface's material `material` shows; nil where it shows none.
    public func personPart(material: Int) -> PersonPart? {
        guard let materialParts else { return person }
        return materialParts.indices.contains(material) ? materialParts[material] : nil
    }
}
