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
