import Imaging
import Scenes

/// What each pixel of a rendered frame sees, in world terms, for depth models that must look at
/// the same points from elsewhere (a second camera, a projector).
///
/// Built from the renderer's cached depth: the hit point is the camera centre plus the pixel's
/// ray scaled by depth / (ray's axial component), so it is the very point the image shows.
struct DepthGeometry {
    let width: Int
    let height: Int
    let origin: Vector3
    let rotation: Rotation
    /// Z along the optical axis, metres; NaN where nothing is hit.
    let depth: [Float]
    /// World hit points and unit normals turned towards the camera (zero where nothing is hit).
    let points: [Vector3]
    let normals: [Vector3]
    /// Index into `Renderer.materials`, or −1.
    let materials: [Int]
    private let primitives: [Primitive]

    init(renderer: Renderer) {
        let camera = renderer.camera
        let (width, height) = (camera.width, camera.height)
        self.width = width
        self.height = height
        rotation = renderer.rotation
        let rays = GeometryPass(
            camera: camera, origin: renderer.origin, rotation: renderer.rotation, primitives: [], emitters: [],
            shininess: [], diffuseSlot: [], specularSlot: [], slotCount: 0, softSamples: 1)
        let cache = renderer.geometry
        var points = [Vector3](repeating: .zero, count: width * height)
        var normals = points
        var materials = [Int](repeating: -1, count: width * height)
        let origin = renderer.origin
        let primitives = renderer.primitives
        renderer.texels.withUnsafeBufferPointer { texels in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * width + x
                    let z = Double(cache.depth[i])
                    let object = cache.objectIDs[i]
                    guard z.isFinite, object != RawFrame.none else { continue }
                    let (d, axial) = rays.ray(x: x, y: y)
                    let p = origin + d * (z / axial)
                    var n = primitives[Int(object)].surface(at: p, texels: texels).normal
                    if n.dot(d) > 0 { n = -n }
                    points[i] = p
                    normals[i] = n
                    materials[i] = Int(cache.materialIDs[i])
                }
            }
        }
        depth = cache.depth
        self.origin = origin
        self.primitives = primitives
        self.points = points
        self.normals = normals
        self.materials = materials
    }

    /// A point given in the camera frame (metres; x right, y down, z forward) in world terms.
    func world(cameraOffset: Vector3) -> Vector3 { origin + rotation.rotate(cameraOffset) }

    /// Whether the pixel's point is hidden from `viewpoint`: something lies between them, or the
    /// surface faces away from it.
    func isHidden(pixel i: Int, from viewpoint: Vector3) -> Bool {
        let p = points[i]
        let toView = viewpoint - p
        guard normals[i].dot(toView) > 0 else { return true }
        let dist = toView.length
        let dir = -toView / dist
        // Stop short of the point itself so its own surface does not count as a blocker.
        let tMax = dist * (1 - 1e-7) - 1e-7
        for prim in primitives where prim.distance(origin: viewpoint, direction: dir, tMin: 1e-9, tMax: tMax) < tMax {
            return true
        }
        return false
    }
}
