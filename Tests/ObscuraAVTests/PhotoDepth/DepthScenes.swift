import Foundation
import Testing

/// Scene files for photo-depth tests, written to a temporary directory.
enum DepthScenes {
    /// A card `cardSize` metres square at `near` metres in front of a wall at `far` metres, both
    /// facing the camera, which sits on the +Z axis looking at the origin.
    static func occluder(near: Double, far: Double, cardSize: Double) throws -> String {
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
              - {name: light, reflectance: 0.8}
            objects:
              - {name: wall, shape: plane, size_m: [20.0, 20.0], material: grey}
              - {name: card, shape: plane, size_m: [\(cardSize), \(cardSize)], position_m: [0.0, 0.0, \(far - near)], material: light}
            """
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-av-depth-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("occluder-\(near)-\(far)-\(cardSize).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
