import Foundation
import Testing

/// The `obscura` binary copied alone into an empty folder works there: it carries its device catalogue
/// and seed scenes inside it, as the README's install path promises.
@Suite struct StandaloneBinaryTests {
    /// An empty folder holding only a copy of the built binary, and an empty cache folder for it.
    struct Install {
        let folder: URL
        let cache: URL
        var program: URL { folder.appendingPathComponent("obscura") }

        init() throws {
            let base = FileManager.default.temporaryDirectory
                .appendingPathComponent("obscura-standalone-\(UUID().uuidString)")
            folder = base.appendingPathComponent("bin")
            cache = base.appendingPathComponent("cache")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.copyExecutable(CLIRunner.executable, to: program)
        }

        /// Copies the binary through a descriptor opened close-on-exec. A plain copy's descriptor is
        /// inherited by any program another test starts meanwhile, which then keeps the file open for
        /// writing for its whole run, and running the copy fails with "Text file busy" until it ends.
        static func copyExecutable(_ source: URL, to destination: URL) throws {
            let bytes = try Data(contentsOf: source)
            let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
            defer { close(descriptor) }
            let written = bytes.withUnsafeBytes { buffer -> Int in
                var offset = 0
                while offset < buffer.count {
                    let n = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 { if errno == EINTR { continue } else { return -1 } }
                    offset += n
                }
                return offset
            }
            guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        }

        /// Runs the copy from its folder. The cache is this test's own, so the built-in data is written
        /// out afresh; the catalogue variables are empty, which counts as unset.
        func run(_ arguments: [String]) throws -> CLIRunner.Result {
            try CLIRunner.run(
                arguments,
                environment: ["XDG_CACHE_HOME": cache.path, "OBSCURA_PROFILES": "", "OBSCURA_SCENES": ""],
                in: folder, program: program)
        }

        func remove() { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    }

    @Test func theBinaryAloneListsRendersAndRunsASeedScenario() throws {
        let install = try Install()
        defer { install.remove() }
        // Nothing but the binary: no resource folder beside it, no catalogue above it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: install.folder.path) == ["obscura"])

        let list = try install.run(["devices", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("iphone-15-pro (default)  iPhone 15 Pro"))
        #expect(list.stdout.contains("ipad-10th-gen  iPad (10th generation)"))

        // The catalogue it read is the copy it wrote into its cache, not a build folder's resources.
        let unknown = try install.run(["devices", "show", "iphone-15-pr"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'iphone-15-pro'?"))
        #expect(unknown.stderr.contains(install.cache.path + "/obscura/data-"), "\(unknown.stderr)")

        let render = try install.run(["render", "violets-warm-room", "--size", "80x60", "--out", "violets.png"])
        #expect(render.status == 0, "\(render.stderr)")
        let png = try Data(contentsOf: install.folder.appendingPathComponent("violets.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        // A scene with a texture: the embedded PNG is found beside its scene.
        let textured = try install.run(["render", "instant-photo", "--size", "80x60", "--out", "instant.png"])
        #expect(textured.status == 0, "\(textured.stderr)")

        // A seed scenario given by its path, a copy in the folder; the scene and device it names come
        // from the built-in catalogue.
        let scenario = "dual-photo-calibration.scenario.yaml"
        try FileManager.default.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("Scenes/" + scenario),
            to: install.folder.appendingPathComponent(scenario))
        let run = try install.run(["run", scenario, "--out", "out"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: install.folder.path + "/out/report.json"))
    }

    @Test func aDamagedCopyInTheCacheIsWrittenAfresh() throws {
        let install = try Install()
        defer { install.remove() }
        #expect(try install.run(["devices", "list"]).status == 0)
        let written = try #require(
            try FileManager.default.contentsOfDirectory(atPath: install.cache.path + "/obscura")
                .first { $0.hasPrefix("data-") })
        let profile = install.cache.path + "/obscura/" + written + "/DeviceProfiles/iphone-15-pro.yaml"
        let original = try Data(contentsOf: URL(fileURLWithPath: profile))
        try Data("name: [broken".utf8).write(to: URL(fileURLWithPath: profile))

        let list = try install.run(["devices", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("iphone-15-pro (default)  iPhone 15 Pro"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: profile)) == original)
    }
}
