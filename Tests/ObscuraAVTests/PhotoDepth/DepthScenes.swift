import Foundation
import Imaging
import Testing

/// Scene files for photo-depth tests, written to a temporary directory.
enum DepthScenes {
    /// The folder the scene files go to, one per test process.
    static func directory() throws -> URL {
        try TestScratch.folder("depth")
    }

    /// A 1024 × 1024 grey PNG of random 0s and 1s (a fixed linear congruential sequence), written once into the
    /// scene folder: an image card's indices into a two-material palette. A stereo matcher needs texture
    /// (`holes: occlusion-and-textureless`), so the surfaces depth is measured on carry this speckle, fine enough
    /// that a texel is about a map pixel or less at the distances used.
    static func speckle() throws -> String {
        let dir = try directory()
        let file = dir.appendingPathComponent("speckle.png")
        if !FileManager.default.fileExists(atPath: file.path) {
            var state: UInt64 = 0x5EC
            let plane = UInt8Image(width: 1024, height: 1024, channels: 1) { _, _, _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(state >> 63)
            }
            try PNG.write(PNGImage(pixels: plane, colorSpace: .sRGB), to: file.path)
        }
        return file.lastPathComponent
    }

    /// A card `cardSize` metres square at `near` metres in front of a wall at `far` metres, both
    /// facing the camera, which sits on the +Z axis looking at the origin: the card plain light grey
    /// (0.8) on a plain mid-grey wall (0.5), or, `textured`, both speckled (`speckle()`, the card
    /// 0.8 and 0.6, the wall 0.5 and 0.35) for a stereo matcher.
    static func occluder(near: Double, far: Double, cardSize: Double, textured: Bool = false) throws -> String {
        let texture = try speckle()
        let wall = textured ? "card: {type: image, png: \(texture), palette: [grey, dark grey]}" : "material: grey"
        let card = textured ? "card: {type: image, png: \(texture), palette: [light, pale]}" : "material: light"
        let text = """
            description: A \(cardSize) m card at \(near) m in front of a wall at \(far) m.
            device:
              position_m: [0.0, 0.0, \(far)]
              look_at_m: [0.0, 0.0, 0.0]
            ambient:
              spectrum: {illuminant: LED-B3}
              lux: 500
              direction: [0.0, 0.0, 1.0]
              diffuse_fraction: 0.5
            materials:
              - {name: grey, reflectance: 0.5}
              - {name: dark grey, reflectance: 0.35}
              - {name: light, reflectance: 0.8}
              - {name: pale, reflectance: 0.6}
            objects:
              - {name: wall, shape: plane, size_m: [\(textured ? 4.0 : 20.0), \(textured ? 4.0 : 20.0)], \(wall)}
              - {name: card, shape: plane, size_m: [\(cardSize), \(cardSize)], position_m: [0.0, 0.0, \(far - near)],
                 \(card)}
            """
        let name = "occluder-\(near)-\(far)-\(cardSize)\(textured ? "-speckled" : "").yaml"
        let file = try directory().appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// A speckled plaster wall (`speckle()`, reflectances 0.5 and 0.35) filling the view at `distance` metres,
    /// under 500 lux of daylight.
    static func texturedWall(distance: Double) throws -> String {
        let texture = try speckle()
        let text = """
            description: A speckled wall \(distance) m in front of the camera.
            device:
              position_m: [0.0, 0.0, \(distance)]
              look_at_m: [0.0, 0.0, 0.0]
            ambient:
              spectrum: {illuminant: D65}
              lux: 500
              direction: [0.0, 0.0, 1.0]
              diffuse_fraction: 0.5
            materials:
              - {name: grey, reflectance: 0.5}
              - {name: dark grey, reflectance: 0.35}
            objects:
              - {name: wall, shape: plane, size_m: [\(2 * distance), \(2 * distance)],
                 card: {type: image, png: \(texture), palette: [grey, dark grey]}}
            """
        let file = try directory().appendingPathComponent("textured-wall-\(distance).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
