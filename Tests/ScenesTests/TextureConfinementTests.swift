import Foundation
import ObscuraSupport
import Scenes
import Testing

/// A scene's image card reads its PNG from the scene's folder or an allowed one, never elsewhere.
@Suite struct TextureConfinementTests {
    static func scene(png: String) -> String {
        """
        device: {position_m: [0, 0.3, 0.5], look_at_m: [0, 0, 0]}
        ambient: {cct: 5000, lux: 200}
        objects:
          - name: card
            shape: plane
            size_m: [0.1, 0.1]
            card:
              type: image
              png: \(png)
              palette: [{name: grey, srgb: [0.5, 0.5, 0.5]}]

        """
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-texture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func absoluteTextureOutsideTheSceneFolderIsRefused() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("s.yaml")
        try Self.scene(png: "/etc/passwd").write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try SceneLoader.load(path: file.path)
            Issue.record("a texture outside the scene's folder was read")
        } catch {
            let message = "\(error)"
            // Line 9, column 12: the value of `png:`.
            #expect(message.contains("s.yaml:9:12: "), "\(message)")
            #expect(message.contains("/etc/passwd"))
            #expect(message.contains("outside"))
            #expect(!message.contains("root:"))
        }
    }

    @Test func linkedTextureLeavingTheFolderIsRefusedUnlessAllowed() throws {
        let folder = try Self.temporaryFolder()
        let other = try Self.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: other)
        }
        // A 1×1 greyscale PNG of index 0, written by the codec under test's sibling module would be
        // circular; the repository's texture is a real file to point at instead.
        let texture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenes/textures/instant-photo.png")
        try FileManager.default.copyItem(at: texture, to: other.appendingPathComponent("t.png"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("t.png").path,
            withDestinationPath: other.appendingPathComponent("t.png").path)
        let file = folder.appendingPathComponent("s.yaml")
        try Self.scene(png: "t.png").write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: LocatedErrors.self) { try SceneLoader.load(path: file.path) }
        // Allowed, the link's target is read; its indices may exceed this one-entry palette, which is
        // a different, later error than confinement.
        do {
            _ = try SceneLoader.load(path: file.path, allowedDirectories: [other.path])
        } catch {
            #expect(!"\(error)".contains("outside"), "\(error)")
        }
    }
}
