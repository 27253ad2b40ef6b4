import Imaging
import Scenes

/// Soft mattes of the parts of people in a scene, seen through a photo's camera.
///
/// A matte pixel holds the share of its area in which the nearest surface belongs to the matte's
/// class, 0…255: the ground truth a segmentation network tries to estimate, antialiased at the
/// class's edges. It comes from the scene's own labels (`SceneObject.person`, or for a card showing
/// several parts the part of the texel hit, `SceneObject.materialParts`), found the way the renderer
/// finds depth: the nearest primitive along each ray, whose object index names the object.
///
/// Rays leave through the photo camera's geometry (intrinsics, zoom, lens distortion and pose)
/// scaled to the matte's size, so a matte pixel covers the same patch of the scene as the photo
/// pixels it stands for. Each pixel is first sampled at 2 × 2 points; a pixel whose samples hit
/// different objects, or whose first sample differs from a neighbour's, is sampled again at
/// 8 × 8 points (65 levels of coverage at edges), so flat regions cost four rays a pixel.
/// Features narrower than half a matte pixel that fall between the coarse samples of every
/// pixel around them can be missed; people in scenes are far larger.
///
/// This is a pass of its own, run only when a matte is asked for: ordinary renders never pay for it.
public enum CoverageMatte {
    /// The mattes of `classes`, each a set of person parts (all parts for a portrait effects
    /// matte, one part for a semantic segmentation matte), as `width × height` single-channel planes.
    public static func render(
        scene: Scene, camera photoCamera: CameraModel, width: Int, height: Int, classes: [Set<PersonPart>],
        threads: Int? = nil
    ) -> [PixelPlane<UInt8>] {
        precondition(width > 0 && height > 0, "a matte needs at least one pixel")
        var camera = photoCamera.scaled(toWidth: width, height: height)
        camera.shading = nil
        let (origin, rotation) = Renderer.pose(of: camera, in: scene)
        let (primitives, _, texels) = Primitive.build(scene: scene)
        let rays = GeometryPass(
            camera: camera, origin: origin, rotation: rotation, primitives: [], emitters: [], shininess: [],
            diffuseSlot: [], specularSlot: [], slotCount: 0, softSamples: 1)
        // A sample's label is the object it hits and the part of a person shown there (`label(object:part:)`),
        // so that the edge between two parts one card shows is refined as an edge between objects is.
        let parts = PersonPart.allCases
        @Sendable func label(object: Int, part: PersonPart?) -> Int32 {
            Int32(object * (parts.count + 1) + (part.flatMap { parts.firstIndex(of: $0) }.map { $0 + 1 } ?? 0))
        }
        // members[c][label]: whether the part a label names belongs to class c.
        let labels = scene.objects.count * (parts.count + 1)
        let members = classes.map { wanted in
            (0..<labels).map { l in l % (parts.count + 1) > 0 && wanted.contains(parts[l % (parts.count + 1) - 1]) }
        }
        let objects = scene.objects

        /// The label of the nearest hit along the ray through image point (px, py); −1 for none.
        @Sendable func nearest(_ px: Double, _ py: Double) -> Int32 {
            let (direction, _) = rays.ray(at: px, py)
            var best = Double.infinity
            var hit: Primitive?
            for p in primitives {
                let t = p.distance(origin: origin, direction: direction, tMin: 1e-9, tMax: best)
                if t < best {
                    best = t
                    hit = p
                }
            }
            guard let hit else { return -1 }
            let object = objects[Int(hit.object)]
            guard object.materialParts != nil, hit.texture == .image else {
                return label(object: Int(hit.object), part: object.person)
            }
            // A card showing several parts: the part of the texel hit (`Primitive.surface`'s lookup).
            let local = hit.toLocal.rotate(origin + direction * best - hit.position)
            let (_, _, column, row) = GridCard(hit).cell(at: local)
            let material = Int(texels[hit.texelOffset + row * hit.columns + column])
            return label(object: Int(hit.object), part: object.personPart(material: material))
        }

        // The coarse pass: 2 × 2 samples a pixel, at the centres of its quarters.
        let coarse = BandParallel.fill(count: width * height * 4, rows: height, of: Int32.self, threads: threads) {
            rows, out in
            for y in rows {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    for s in 0..<4 {
                        out[i + s] = nearest(Double(x) + 0.25 + 0.5 * Double(s & 1), Double(y) + 0.25 + 0.5 * Double(s >> 1))
                    }
                }
            }
        }

        let classCount = classes.count
        // Every element is written by the pass below; the buffers are copied into planes after it.
        let outputs = (0..<classCount).map { _ in
            SharedPointer(base: UnsafeMutablePointer<UInt8>.allocate(capacity: width * height))
        }
        defer { for o in outputs { o.base.deallocate() } }
        coarse.withUnsafeBufferPointer { ids in
            let ids = SharedSamples(ids: ids)
            BandParallel.forEachBand(height: height, threads: threads) { rows in
                var counts = [Int](repeating: 0, count: classCount)
                for y in rows {
                    for x in 0..<width {
                        let pixel = y * width + x
                        let first = ids.ids[pixel * 4]
                        var uniform = (1..<4).allSatisfy { ids.ids[pixel * 4 + $0] == first }
                        if uniform {
                            for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                                let nx = x + dx, ny = y + dy
                                guard nx >= 0, nx < width, ny >= 0, ny < height else { continue }
                                if ids.ids[(ny * width + nx) * 4] != first { uniform = false }
                            }
                        }
                        if uniform {
                            for c in 0..<classCount {
                                outputs[c].base[pixel] = first >= 0 && members[c][Int(first)] ? 255 : 0
                            }
                            continue
                        }
                        // An edge: 8 × 8 samples at the centres of the pixel's sixty-fourths.
                        for c in 0..<classCount { counts[c] = 0 }
                        for sy in 0..<8 {
                            for sx in 0..<8 {
                                let object = nearest(
                                    Double(x) + (Double(sx) + 0.5) / 8, Double(y) + (Double(sy) + 0.5) / 8)
                                guard object >= 0 else { continue }
                                for c in 0..<classCount where members[c][Int(object)] { counts[c] += 1 }
                            }
                        }
                        for c in 0..<classCount {
                            outputs[c].base[pixel] = UInt8((counts[c] * 255 + 32) / 64)
                        }
                    }
                }
            }
        }
        return outputs.map {
            PixelPlane(
                width: width, height: height, channels: 1,
                elements: UnsafeBufferPointer(start: $0.base, count: width * height))
        }
    }
}

/// The coarse samples, shared read-only with the workers.
private struct SharedSamples: @unchecked Sendable {
    let ids: UnsafeBufferPointer<Int32>
}
