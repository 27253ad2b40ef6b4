import ExternalTools
import Foundation
import Imaging
import ObscuraSupport
import Scenes
import Spectra
import Testing

/// Pictures in a scene: a photo printed on a card, a screen showing a still or playing a movie, and the
/// errors a bad picture or movie gives, with the scene file's line and column.
@Suite struct PictureSceneTests {
    /// A fresh folder for one test's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// An sRGB PNG of `columns` × 1 blocks of `block` pixels, one colour each.
    static func writeBlocks(_ colours: [SIMD3<UInt8>], block: Int = 4, to url: URL) throws {
        let width = colours.count * block
        let plane = UInt8Image(width: width, height: block, channels: 3) { x, _, c in colours[x / block][c] }
        try PNG.write(PNGImage(pixels: plane, colorSpace: .sRGB), to: url.path)
    }

    /// A scene with one plane covered by `surface` (YAML flow mapping text), the surface key on line 7.
    static func scene(_ surface: String) -> String {
        """
        device: {position_m: [0, 0, 0.5], look_at_m: [0, 0, 0]}
        ambient: {spectrum: {cct_k: 6500, model: daylight}, lux: 300}
        objects:
          - name: card
            shape: plane
            size_m: [0.2, 0.1]
            \(surface)

        """
    }

    static func load(_ text: String, in folder: URL) throws -> Scene {
        let file = folder.appendingPathComponent("s.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return try SceneLoader.load(path: file.path)
    }

    /// The CIELAB under D65 that an sRGB colour names (IEC 61966-2-1 decoding, D65 white).
    static func lab(srgb: SIMD3<UInt8>) -> Lab {
        let space = RGBColorSpace.sRGB
        let linear = SIMD3(
            space.transfer.decode(Double(srgb.x) / 255), space.transfer.decode(Double(srgb.y) / 255),
            space.transfer.decode(Double(srgb.z) / 255))
        return Lab(XYZ(space.toXYZ * linear), white: XYZ(space.toXYZ * SIMD3(1, 1, 1)))
    }

    @Test func aPhotoCardPrintsEachColourAsAReflectanceOfThatColour() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let colours: [SIMD3<UInt8>] = [[200, 40, 40], [40, 160, 60], [50, 70, 190], [128, 128, 128], [230, 210, 120]]
        try Self.writeBlocks(colours, to: dir.appendingPathComponent("p.png"))
        let scene = try Self.load(Self.scene("card: {type: photo, file: p.png}"), in: dir)
        guard case let .image(width, height, indices, palette) = scene.objects[0].surface else {
            Issue.record("a photo card is an image texture")
            return
        }
        #expect(width == 20 && height == 4)
        for (i, colour) in colours.enumerated() {
            let material = palette[Int(indices[i * 4 + 1])]
            let printed = Colorimetry.lab(reflectance: material.reflectance, illuminant: Illuminants.d65)
            // Quantization moves each channel by at most half a step of 1/31 (about 4 codes): a few ΔE00.
            #expect(DeltaE.ciede2000(printed, Self.lab(srgb: colour)) < 3, "\(colour)")
            #expect(material.emission == nil)
        }
    }

    @Test func aStillScreenEmitsItsWhiteAtTheGivenNitsAndItsPrimariesAtTheirChromaticities() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.writeBlocks([[255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255], [0, 0, 0]], to: dir.appendingPathComponent("s.png"))
        let scene = try Self.load(Self.scene("screen: {still: s.png, nits: 250}"), in: dir)
        guard case let .image(_, _, indices, palette) = scene.objects[0].surface else {
            Issue.record("a screen is an image texture")
            return
        }
        func emitted(_ block: Int) throws -> XYZ {
            let radiance = try #require(palette[Int(indices[block * 4 + 1])].emission)
            return XYZ(CIE1931.tristimulus(radiance).vector * 683)
        }
        // Luminance Y = 683 lm/W ∫ L(λ) V(λ) dλ, cd/m².
        let white = try emitted(0)
        #expect(abs(white.Y - 250) < 2.5, "white \(white.Y) cd/m²")
        // The white is D65's (0.3127, 0.3290) and each primary is sRGB's (IEC 61966-2-1 Table 1).
        let expected = [(0.3127, 0.3290), (0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
        for (block, (x, y)) in expected.enumerated() {
            let c = try emitted(block).chromaticity
            #expect(abs(c.x - x) < 0.005 && abs(c.y - y) < 0.005, "block \(block): \(c)")
        }
        #expect(try emitted(4).Y < 1e-9)
    }

    @Test func aMissingPictureIsAnErrorAtItsLineAndKey() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (surface, what) in [
            ("card: {type: photo, file: none.jpg}", "photo"), ("screen: {still: none.png}", "still"),
            ("screen: {movie: none.mp4}", "movie"),
        ] {
            do {
                _ = try Self.load(Self.scene(surface), in: dir)
                Issue.record("\(what): a missing file loaded")
            } catch {
                let message = "\(error)"
                #expect(message.contains("s.yaml:7:"), "\(message)")
                #expect(message.contains("cannot read the \(what) 'none."), "\(message)")
            }
        }
    }

    @Test func anUndecodablePictureSaysWhy() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not a picture".utf8).write(to: dir.appendingPathComponent("bad.jpg"))
        #expect {
            _ = try Self.load(Self.scene("card: {type: photo, file: bad.jpg}"), in: dir)
        } throws: { error in
            "\(error)".contains("s.yaml:7:") && "\(error)".contains("cannot read the photo 'bad.jpg'")
        }
    }

    @Test func picturesAndMoviesOutsideTheSceneFolderAreRefused() throws {
        let dir = try Self.folder()
        let other = try Self.folder()
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: other)
        }
        try Self.writeBlocks([[1, 2, 3]], to: other.appendingPathComponent("p.png"))
        try Y4MClip.write([[255, 0, 0]], rate: 10, to: other.appendingPathComponent("m.y4m"))
        for surface in [
            "card: {type: photo, file: \(other.path)/p.png}", "screen: {still: \(other.path)/p.png}",
            "screen: {movie: \(other.path)/m.y4m}",
        ] {
            #expect {
                _ = try Self.load(Self.scene(surface), in: dir)
            } throws: { error in
                "\(error)".contains("s.yaml:7:") && "\(error)".contains("outside the scene's folder")
            }
            // Allowed, the same file loads.
            let file = dir.appendingPathComponent("s.yaml")
            _ = try SceneLoader.load(path: file.path, allowedDirectories: [other.path])
        }
    }

    @Test func aMovieScreenShowsTheFrameWhoseTimeIsTheLastAtOrBeforeTheStreamTime() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let colours: [SIMD3<UInt8>] = [[255, 0, 0], [0, 255, 0], [0, 0, 255]]
        try Y4MClip.write(colours, rate: 10, to: dir.appendingPathComponent("m.y4m"))
        for loops in [false, true] {
            let scene = try Self.load(Self.scene("screen: {movie: m.y4m, nits: 200, loop: \(loops)}"), in: dir)
            #expect(scene.playsMovies)
            // 10 frames per second: frame k from k/10 s.
            #expect(scene.movieFrames(at: 0) == [0])
            #expect(scene.movieFrames(at: 0.099) == [0])
            #expect(scene.movieFrames(at: 0.1) == [1])
            #expect(scene.movieFrames(at: 0.25) == [2])
            #expect(scene.movieFrames(at: 0.35) == [loops ? 0 : 2])
            #expect(scene.movieFrames(at: 0.45) == [loops ? 1 : 2])
            // Each moment's surface is that frame's screen: green dominates frame 1's emission.
            guard case let .image(_, _, indices, palette) = scene.showing(at: 0.15).objects[0].surface,
                let radiance = palette[Int(indices[0])].emission
            else {
                Issue.record("a playing screen is an emitting image texture")
                continue
            }
            let c = CIE1931.tristimulus(radiance).chromaticity
            #expect(abs(c.x - 0.30) < 0.02 && abs(c.y - 0.60) < 0.02, "\(c)")
        }
    }

    @Test func aMovieOverTheBoundIsRefusedBeforeDecodingWithTheBoundNamed() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 4096×4096 4:2:0 stream with room for 70 frames, more than 2³⁰ pixels; the file is sparse
        // (its frames are never written, so decoding them would fail on their missing FRAME lines).
        let url = dir.appendingPathComponent("big.y4m")
        try Data("YUV4MPEG2 W4096 H4096 F30:1 C420jpeg\n".utf8).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        let frameBytes: Int = 6 + 4096 * 4096 * 3 / 2
        try handle.truncate(atOffset: UInt64(70 * frameBytes + 40))
        try handle.close()
        let started = Date()
        #expect {
            _ = try Self.load(Self.scene("screen: {movie: big.y4m}"), in: dir)
        } throws: { error in
            let message = "\(error)"
            return message.contains("s.yaml:7:") && message.contains("over the limit of 1073741824 pixels")
                && message.contains("duration × frame rate × width × height") && message.contains("before decoding")
        }
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test func aMovieFFmpegCannotReadSaysWhyAndWithoutFFmpegNamesThePackages() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not a movie".utf8).write(to: dir.appendingPathComponent("m.mp4"))
        #expect {
            _ = try Self.load(Self.scene("screen: {movie: m.mp4}"), in: dir)
        } throws: { error in
            let message = "\(error)"
            guard message.contains("s.yaml:7:") && message.contains("cannot read the movie 'm.mp4'") else { return false }
            // CI runs this suite once more with FFmpeg's libraries hidden (.ci/run).
            return MovieFile.readsOtherContainers || message.contains("libavformat59 libavcodec59 libswscale6")
        }
    }

    @Test func movieFilesInOtherContainersDecodeThroughFFmpeg() throws {
        let ffmpeg = ExternalTool.program("ffmpeg", packages: "ffmpeg", versionArgument: "-version")
        guard ffmpeg.isPresent, MovieFile.readsOtherContainers else {
            try #require(!ExternalTool.mustBePresent, "\(ffmpeg.absence)")
            return
        }
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let colours: [SIMD3<UInt8>] = [[220, 30, 30], [30, 200, 40], [40, 50, 210]]
        let source = dir.appendingPathComponent("m.y4m")
        try Y4MClip.write(colours, rate: 10, width: 64, height: 48, to: source)
        for container in ["mkv", "mp4", "mov"] {
            let out = dir.appendingPathComponent("m.\(container)")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(ffmpeg.location))
            // FFV1 (lossless) in Matroska; MPEG-4 Part 2 at its finest quantizer in MP4 and QuickTime, an
            // encoder every FFmpeg build has.
            let codec = container == "mkv" ? ["-c:v", "ffv1"] : ["-c:v", "mpeg4", "-q:v", "1"]
            process.arguments = ["-loglevel", "error", "-y", "-i", source.path] + codec + [out.path]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
            let movie = try MovieFile.read(out.path)
            #expect(movie.frames.count == 3, "\(container)")
            #expect(movie.presentationTimes.map { ($0 * 1000).rounded() } == [0, 100, 200], "\(container)")
            for (frame, colour) in zip(movie.frames, colours) {
                let centre = SIMD3(frame[32, 24, 0], frame[32, 24, 1], frame[32, 24, 2])
                for c in 0..<3 { #expect(abs(Int(centre[c]) - Int(colour[c])) <= 6, "\(container): \(centre) vs \(colour)") }
            }
        }
    }
}
