import ExternalTools
import Foundation
import Imaging
import Obscura
import ObscuraAV
import Testing

/// Pictures in the scene seen through the public API: an iPhone 15 Pro pointed at a screen playing a
/// clip shows the clip's frames in order in its video frames, and a photographed print keeps its colours.
@Suite(.serialized)
struct ScreenAndPrintTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-screen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A 0.6 m × 0.4 m surface 1 m in front of the camera, centred, before a grey wall in 300 lux of
    /// 5,000 K light from above: the centre of the picture is the surface, the wall around it a neutral
    /// reference. The key light comes from overhead, so a glossy surface does not mirror it into the lens.
    static func scene(_ surface: String) -> String {
        """
        device: {position_m: [0, 0, 1.0], look_at_m: [0, 0, 0]}
        ambient: {spectrum: {cct_k: 5000}, lux: 300, direction: [0, 1, 0.2], diffuse_fraction: 0.5}
        materials:
          - {name: grey wall, reflectance: 0.4}
        objects:
          - {name: wall, shape: plane, size_m: [6, 4], position_m: [0, 0, -0.02], material: grey wall}
          - name: surface
            shape: plane
            size_m: [0.6, 0.4]
            \(surface)

        """
    }

    /// Mean 8-bit RGB of a centred block of a BGRA buffer, and how many distinct values each channel takes.
    static func centre(
        _ buffer: CVPixelBuffer, size: Int = 24, dx: Int = 0, dy: Int = 0
    ) throws -> (mean: SIMD3<Double>, distinct: [Int]) {
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
        _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let (w, h) = (CVPixelBufferGetWidth(buffer), CVPixelBufferGetHeight(buffer))
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
        var sum = SIMD3<Double>(0, 0, 0)
        var values = [Set<UInt8>](repeating: [], count: 3)
        let (x0, y0) = (w / 2 + dx - size / 2, h / 2 + dy - size / 2)
        for y in y0..<(y0 + size) {
            for x in x0..<(x0 + size) {
                let p = base + y * stride + 4 * x
                sum += SIMD3(Double(p[2]), Double(p[1]), Double(p[0]))
                for c in 0..<3 { values[c].insert(p[2 - c]) }
            }
        }
        return (sum / Double(size * size), values.map(\.count))
    }

    /// The channel that dominates a colour by at least 1.5 times each other channel, or nil.
    static func dominant(_ c: SIMD3<Double>) -> Int? {
        (0..<3).first { k in (0..<3).allSatisfy { $0 == k || c[k] > 1.5 * c[$0] } }
    }

    @Test func videoFramesShowAPlayingClipsFramesInOrderWithNoise() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Red, green, blue at 5 frames per second: each clip frame lasts six 30-fps stream frames. The screen's
        // white, 40 cd/m², is the wall's luminance (0.4 × 300 lux / π): auto-exposure meters a room with a
        // screen in it, and the screen's colours stay inside the sensor's range.
        try Y4MClip.write([[230, 20, 20], [20, 210, 30], [30, 40, 230]], rate: 5, to: dir.appendingPathComponent("clip.y4m"))
        let file = dir.appendingPathComponent("screen.yaml")
        try Self.scene("screen: {movie: clip.y4m, nits: 40}").write(to: file, atomically: true, encoding: .utf8)
        let frames = try onDevice("iphone-15-pro") { () throws -> [CMSampleBuffer] in
            try Emulator.shared.use(scene: file.path)
            Emulator.shared.clockMode = .manual
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            let video = AVCaptureVideoDataOutput()
            video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
            let recorder = StreamRecorder()
            video.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "screen-clip"))
            rig.session.beginConfiguration()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(18)
            return recorder.video
        }
        #expect(frames.count == 18)
        for (k, buffer) in frames.enumerated() {
            let time = buffer.presentationTimeStamp.seconds
            // The clip frame shown is the last whose time (n / 5 s) is at or before the stream time.
            let expected = min(Int((time * 5 + 1e-9).rounded(.down)), 2)
            let (mean, distinct) = try Self.centre(try #require(buffer.imageBuffer))
            #expect(Self.dominant(mean) == expected, "frame \(k) at \(time) s: mean \(mean)")
            // The sensor's noise reaches the frame: the uniform screen is not one value (a channel the tone
            // curve pins at 0 or 255 may be, so some channel varies).
            #expect(distinct.max() ?? 0 > 2, "frame \(k): \(distinct) distinct values per channel")
        }
    }

    @Test func aPhotographedPrintKeepsItsGreyOrderAndItsHues() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Two rows of four blocks: a grey ramp, then red, green, blue and white.
        let rows: [[SIMD3<UInt8>]] = [
            [[40, 40, 40], [90, 90, 90], [150, 150, 150], [220, 220, 220]],
            [[200, 30, 30], [30, 170, 50], [40, 60, 200], [240, 240, 240]],
        ]
        let plane = UInt8Image(width: 64, height: 32, channels: 3) { x, y, c in rows[y / 16][x / 16][c] }
        try PNG.write(PNGImage(pixels: plane, colorSpace: .sRGB), to: dir.appendingPathComponent("print.png").path)
        let file = dir.appendingPathComponent("print.yaml")
        try Self.scene("card: {type: photo, file: print.png}").write(to: file, atomically: true, encoding: .utf8)
        let photo = try onDevice("iphone-15-pro") { () throws -> CVPixelBuffer in
            try Emulator.shared.use(scene: file.path)
            let rig = try PhotoRig(preset: .vga640x480)
            defer { rig.session.stopRunning() }
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            return try #require(capture(rig, settings).photos.first?.pixelBuffer)
        }
        // The print spans the picture's centre; find where its blocks land from the camera's field of view:
        // the print's 0.6 m at 1 m, over the width's share the wide camera sees.
        let width = Double(CVPixelBufferGetWidth(photo))
        let horizontalView = 2 * 1.0 * tan(Double(try onDevice("iphone-15-pro") {
            try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)).activeFormat.videoFieldOfView
        }) / 2 * .pi / 180)
        let pixelsPerMetre = width / horizontalView
        func block(_ column: Int, _ row: Int) throws -> SIMD3<Double> {
            let dx = Int(((Double(column) + 0.5) * 0.15 - 0.3) * pixelsPerMetre)
            let dy = Int(((Double(row) + 0.5) * 0.2 - 0.2) * pixelsPerMetre)
            return try Self.centre(photo, size: 8, dx: dx, dy: dy).mean
        }
        let greys = try (0..<4).map { try block($0, 0) }
        for (darker, lighter) in zip(greys, greys.dropFirst()) {
            #expect(darker.sum() < lighter.sum(), "\(greys)")
        }
        for g in greys { #expect(Self.dominant(g) == nil, "a grey print is photographed grey: \(g)") }
        for k in 0..<3 {
            let colour = try block(k, 1)
            #expect(Self.dominant(colour) == k, "block \(k): \(colour)")
        }
    }
}
