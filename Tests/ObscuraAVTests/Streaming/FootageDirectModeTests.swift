import Foundation
import Imaging
import Obscura
import ObscuraAV
import Scenes
import Testing

/// Footage in direct mode, chosen with `use(footage:mode:depth:)`: the outputs deliver the clip's own frames,
/// resized to the active format, at the stream's times; depth given with the footage comes out of the depth
/// outputs. The expected pixels are the test's own: the clip's values decoded with ITU-R BT.601 (full range, as
/// the clip's header says) and reduced by the test's 2×2 means.
@Suite(.serialized)
struct FootageDirectModeTests {
    /// A full-range 4:4:4 YUV4MPEG2 clip whose frame k, pixel (x, y), has luma `luma(k, x, y)` and one of three
    /// chroma pairs by 8×8 block, so frames differ everywhere and colour channels cannot be swapped unseen.
    struct Clip {
        let width: Int, height: Int, frames: Int, rate: Int

        static let chroma: [(cb: Int, cr: Int)] = [(128, 128), (90, 170), (170, 90)]

        func luma(_ k: Int, _ x: Int, _ y: Int) -> Int { 40 + (x * 7 + y * 13 + k * 50) % 170 }
        func chromaPair(_ x: Int, _ y: Int) -> (cb: Int, cr: Int) { Self.chroma[(x / 8 + y / 8) % 3] }

        /// Rec. 601 full range: E'R = Y' + 1.402·(Cr − 128), E'G = Y' − 0.344136·(Cb − 128)
        /// − 0.714136·(Cr − 128), E'B = Y' + 1.772·(Cb − 128), on the 0–255 scale, rounded and clipped.
        func rgb(_ k: Int, _ x: Int, _ y: Int) -> SIMD3<Int> {
            let l = Double(luma(k, x, y))
            let (cb, cr) = chromaPair(x, y)
            let (db, dr) = (Double(cb - 128), Double(cr - 128))
            func code(_ v: Double) -> Int { Int(min(max(v, 0), 255).rounded()) }
            return SIMD3(code(l + 1.402 * dr), code(l - 0.344_136 * db - 0.714_136 * dr), code(l + 1.772 * db))
        }

        /// Frame k halved: each pixel the mean of its 2×2 block, halves rounded up.
        func halved(_ k: Int, _ x: Int, _ y: Int) -> SIMD3<Int> {
            let sum = rgb(k, 2 * x, 2 * y) &+ rgb(k, 2 * x + 1, 2 * y) &+ rgb(k, 2 * x, 2 * y + 1)
                &+ rgb(k, 2 * x + 1, 2 * y + 1)
            return (sum &+ 2) / 4
        }

        func write(to url: URL) throws {
            var bytes = Array("YUV4MPEG2 W\(width) H\(height) F\(rate):1 Ip A1:1 C444 XCOLORRANGE=FULL\n".utf8)
            for k in 0..<frames {
                bytes += Array("FRAME\n".utf8)
                for y in 0..<height { for x in 0..<width { bytes.append(UInt8(luma(k, x, y))) } }
                for y in 0..<height { for x in 0..<width { bytes.append(UInt8(chromaPair(x, y).cb)) } }
                for y in 0..<height { for x in 0..<width { bytes.append(UInt8(chromaPair(x, y).cr)) } }
            }
            try Data(bytes).write(to: url)
        }
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-direct-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The pixels of a BGRA buffer that differ from `expected(x, y)` (RGB), at most `limit` of them.
    static func mismatches(
        _ buffer: CVPixelBuffer, limit: Int = 5, _ expected: (Int, Int) -> SIMD3<Int>
    ) throws -> [String] {
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
        _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
        var out: [String] = []
        for y in 0..<CVPixelBufferGetHeight(buffer) {
            for x in 0..<CVPixelBufferGetWidth(buffer) {
                let p = base + y * stride + 4 * x
                let got = SIMD3(Int(p[2]), Int(p[1]), Int(p[0]))
                let want = expected(x, y)
                if got != want || p[3] != 255 {
                    out.append("(\(x), \(y)): \(got), expected \(want)")
                    if out.count >= limit { return out }
                }
            }
        }
        return out
    }

    @Test func videoDataOutputDeliversTheClipsFramesResizedWithTheFormatsTiming() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 1280×960 onto the 640×480 format: exactly half, so each delivered pixel is a 2×2 mean. Ten frames a
        // second against the stream's thirty: each clip frame lasts three stream frames, and the clip loops.
        let clip = Clip(width: 1280, height: 960, frames: 3, rate: 10)
        let url = dir.appendingPathComponent("clip.y4m")
        try clip.write(to: url)
        let frames = try onDevice("iphone-15-pro") { () throws -> [CMSampleBuffer] in
            try Emulator.shared.use(footage: url.path, mode: .direct)
            Emulator.shared.clockMode = .manual
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            let video = AVCaptureVideoDataOutput()
            video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
            let recorder = StreamRecorder()
            video.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "direct"))
            rig.session.beginConfiguration()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(10)
            return recorder.video
        }
        #expect(frames.count == 10)
        for (n, buffer) in frames.enumerated() {
            // The format's timing: frame n at n/30 s, each lasting 1/30 s.
            #expect(buffer.presentationTimeStamp == CMTime(value: CMTimeValue(n), timescale: 30), "frame \(n)")
            #expect(buffer.duration == CMTime(value: 1, timescale: 30), "frame \(n)")
            let image = try #require(buffer.imageBuffer)
            #expect(CVPixelBufferGetWidth(image) == 640 && CVPixelBufferGetHeight(image) == 480)
            let k = (n / 3) % 3
            let wrong = try Self.mismatches(image) { x, y in clip.halved(k, x, y) }
            #expect(wrong.isEmpty, "frame \(n) (clip frame \(k)): \(wrong)")
        }
    }

    @Test func fullRangeYCbCrFramesCarryTheClipsLuma() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Grey frames (Cb = Cr = 128 everywhere): full-range luma is then the grey value itself (BT.601:
        // 0.299 + 0.587 + 0.114 = 1), so the luma plane holds the 2×2 means of the clip's luma.
        let width = 1280, height = 960
        var bytes = Array("YUV4MPEG2 W\(width) H\(height) F30:1 Ip A1:1 Cmono XCOLORRANGE=FULL\n".utf8)
        bytes += Array("FRAME\n".utf8)
        func grey(_ x: Int, _ y: Int) -> Int { (x / 16 * 37 + y / 16 * 11) % 256 }
        for y in 0..<height { for x in 0..<width { bytes.append(UInt8(grey(x, y))) } }
        let url = dir.appendingPathComponent("grey.y4m")
        try Data(bytes).write(to: url)
        let buffer = try onDevice("iphone-15-pro") { () throws -> CMSampleBuffer? in
            try Emulator.shared.use(footage: url.path, mode: .direct)
            Emulator.shared.clockMode = .manual
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            let video = AVCaptureVideoDataOutput()
            video.videoSettings = [
                kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
            ]
            let recorder = StreamRecorder()
            video.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "direct"))
            rig.session.beginConfiguration()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(1)
            return recorder.video.first
        }
        let image = try #require(buffer?.imageBuffer)
        #expect(CVPixelBufferGetPixelFormatType(image) == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
        _ = CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let stride = CVPixelBufferGetBytesPerRowOfPlane(image, 0)
        let luma = try #require(CVPixelBufferGetBaseAddressOfPlane(image, 0)).assumingMemoryBound(to: UInt8.self)
        var wrong: [String] = []
        for y in 0..<480 {
            for x in 0..<640 where Int(luma[y * stride + x]) != grey(2 * x, 2 * y) && wrong.count < 5 {
                wrong.append("(\(x), \(y)): \(luma[y * stride + x]), expected \(grey(2 * x, 2 * y))")
            }
        }
        // Blocks of 16 clip pixels are 8 delivered pixels: flat, so the 2×2 means are the block's value.
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func aPhotoInDirectModeIsTheClipsFrameAtCaptureTime() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // One clip frame a second, so the moment of the capture picks its frame without doubt.
        let clip = Clip(width: 1280, height: 960, frames: 3, rate: 1)
        let url = dir.appendingPathComponent("clip.y4m")
        try clip.write(to: url)
        let (photo, dimensions) = try onDevice("iphone-15-pro") { () throws -> (AVCapturePhoto?, CMVideoDimensions) in
            try Emulator.shared.use(footage: url.path, mode: .direct)
            Emulator.shared.clockMode = .manual
            // A preview's frames run beside the photo output, as in a camera app.
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            let video = AVCaptureVideoDataOutput()
            let recorder = StreamRecorder()
            video.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "direct"))
            rig.session.beginConfiguration()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.run(for: CMTime(value: 3, timescale: 2))  // 1.5 s: the clip's second frame
            let delegate = RecordingPhotoDelegate()
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            rig.output.capturePhoto(with: settings, delegate: delegate)
            #expect(delegate.waitUntilFinished())
            return (delegate.photos.first, delegate.resolvedSettings.first?.photoDimensions ?? CMVideoDimensions())
        }
        let buffer = try #require(photo?.pixelBuffer)
        #expect(dimensions.width == 640 && dimensions.height == 480)
        let wrong = try Self.mismatches(buffer) { x, y in clip.halved(1, x, y) }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func depthGivenWithTheFootageComesOutOfTheDepthOutput() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = Clip(width: 64, height: 48, frames: 2, rate: 10)
        let url = dir.appendingPathComponent("clip.y4m")
        try clip.write(to: url)
        // One depth picture per clip frame, at the clip's aspect: the left half at `near` mm, the right half
        // at `far`, and a hole (0) in the top-left quarter of the left half.
        let depthFolder = dir.appendingPathComponent("depth")
        try FileManager.default.createDirectory(at: depthFolder, withIntermediateDirectories: true)
        let distances: [(near: UInt16, far: UInt16)] = [(500, 2000), (800, 3000)]
        for (k, d) in distances.enumerated() {
            let plane = PixelPlane<UInt16>(width: 64, height: 48) { x, y, _ in
                x < 16 && y < 24 ? 0 : x < 32 ? d.near : d.far
            }
            try PNG.write(PNGImage(pixels: plane), to: depthFolder.appendingPathComponent("depth-\(k + 1).png").path)
        }
        let depths = try onDevice("iphone-7-plus") { () throws -> [(AVDepthData, CMTime)] in
            try Emulator.shared.use(footage: url.path, mode: .direct, depth: depthFolder.path)
            Emulator.shared.clockMode = .manual
            let rig = try StreamRig(outputs: ["depth"])
            rig.depth.isFilteringEnabled = false
            let recorder = StreamRecorder()
            rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(6)
            return recorder.depth
        }
        #expect(!depths.isEmpty)
        for (data, time) in depths {
            let k = Int((time.seconds * 10 + 1e-9).rounded(.down)) % 2
            let metres = data.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32).depthDataMap
            _ = CVPixelBufferLockBaseAddress(metres, .readOnly)
            defer { _ = CVPixelBufferUnlockBaseAddress(metres, .readOnly) }
            let (w, h) = (CVPixelBufferGetWidth(metres), CVPixelBufferGetHeight(metres))
            let stride = CVPixelBufferGetBytesPerRow(metres)
            let base = try #require(CVPixelBufferGetBaseAddress(metres))
            func at(_ fx: Double, _ fy: Double) -> Float {
                let (x, y) = (Int(fx * Double(w)), Int(fy * Double(h)))
                return base.advanced(by: y * stride).assumingMemoryBound(to: Float.self)[x]
            }
            // The depth format's aspect is the clip's (4:3 on the 7 Plus), so the halves and the hole keep their
            // places; values in metres within Float16's rounding of the map's disparity.
            #expect(abs(at(0.375, 0.5) - Float(distances[k].near) / 1000) < 0.01, "at \(time.seconds)")
            #expect(abs(at(0.75, 0.5) - Float(distances[k].far) / 1000) < 0.03, "at \(time.seconds)")
            #expect(at(0.1, 0.2).isNaN, "the hole at \(time.seconds)")
            #expect(data.depthDataAccuracy == .absolute)
        }
    }

    /// A 7 Plus stream's first video frame and depth on a picture of four colour quadrants (red, green; blue,
    /// grey) with one depth picture of four quadrants (top left 500 mm, top right 2000; bottom left 1000,
    /// bottom right 3000), in `mode`.
    static func quadrants(mode: Emulator.FootageMode) throws -> (CVPixelBuffer, AVDepthData) {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let colours: [[SIMD3<UInt8>]] = [[[220, 30, 30], [30, 200, 40]], [[30, 40, 220], [128, 128, 128]]]
        let picture = PixelPlane<UInt8>(width: 64, height: 48, channels: 3) { x, y, c in colours[y / 24][x / 32][c] }
        let url = dir.appendingPathComponent("quadrants.png")
        try PNG.write(PNGImage(pixels: picture, colorSpace: .sRGB), to: url.path)
        let depth = dir.appendingPathComponent("depth.png")
        let plane = PixelPlane<UInt16>(width: 64, height: 48) { x, y, _ in
            [[500, 2000], [1000, 3000]][y / 24][x / 32]
        }
        try PNG.write(PNGImage(pixels: plane), to: depth.path)
        return try onDevice("iphone-7-plus") { () throws -> (CVPixelBuffer, AVDepthData) in
            try Emulator.shared.use(footage: url.path, mode: mode, depth: depth.path)
            Emulator.shared.clockMode = .manual
            let rig = try StreamRig(outputs: ["video", "depth"])
            rig.video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
            rig.depth.isFilteringEnabled = false
            let recorder = StreamRecorder()
            rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
            rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(2)
            return (try #require(recorder.video.first?.imageBuffer), try #require(recorder.depth.first?.0))
        }
    }

    /// Metres at a normalised place of a depth map.
    static func metres(_ data: AVDepthData, _ fx: Double, _ fy: Double) throws -> Float {
        let map = data.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32).depthDataMap
        _ = CVPixelBufferLockBaseAddress(map, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(map, .readOnly) }
        let (x, y) = (Int(fx * Double(CVPixelBufferGetWidth(map))), Int(fy * Double(CVPixelBufferGetHeight(map))))
        let base = try #require(CVPixelBufferGetBaseAddress(map))
        return base.advanced(by: y * CVPixelBufferGetBytesPerRow(map)).assumingMemoryBound(to: Float.self)[x]
    }

    @Test func depthGivenWithFootageInPhysicsModeLiesWhereTheScreenShowsIt() throws {
        // The screen fills the view (a little more), so each quadrant of the view sees its quadrant of the
        // footage, and its depth, the right way round.
        for mode in [Emulator.FootageMode.physics, .direct] {
            let (video, data) = try Self.quadrants(mode: mode)
            let (w, h) = (CVPixelBufferGetWidth(video), CVPixelBufferGetHeight(video))
            for (fx, fy, mm, colour) in [
                (0.3, 0.3, 500, 0 as Int?), (0.7, 0.3, 2000, 1), (0.3, 0.7, 1000, 2), (0.7, 0.7, 3000, nil),
            ] {
                let got = try Self.metres(data, fx, fy)
                #expect(abs(got - Float(mm) / 1000) < Float(mm) / 1000 * 0.01, "\(mode) at (\(fx), \(fy)): \(got)")
                // The video frame shows the quadrant whose depth the map gives there.
                let (mean, _) = try ScreenAndPrintTests.centre(
                    video, size: 8, dx: Int(fx * Double(w)) - w / 2, dy: Int(fy * Double(h)) - h / 2)
                #expect(ScreenAndPrintTests.dominant(mean) == colour, "\(mode) at (\(fx), \(fy)): \(mean)")
            }
        }
    }

    @Test func aPhotosDepthIsTheDepthGivenWithTheFootage() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 16:9 footage for the 7 Plus's 1920×1080 format: the left half at 700 mm, the right at 2500 mm.
        let url = dir.appendingPathComponent("clip.y4m")
        try Clip(width: 64, height: 36, frames: 1, rate: 30).write(to: url)
        let depth = dir.appendingPathComponent("depth.png")
        try PNG.write(
            PNGImage(pixels: PixelPlane<UInt16>(width: 64, height: 36) { x, _, _ in x < 32 ? 700 : 2500 }),
            to: depth.path)
        let photo = try onDevice("iphone-7-plus") { () throws -> AVCapturePhoto? in
            try Emulator.shared.use(footage: url.path, mode: .direct, depth: depth.path)
            let rig = try AVCapturePhotoDepthTests.dualRig()
            defer { rig.session.stopRunning() }
            let delegate = RecordingPhotoDelegate()
            rig.output.capturePhoto(with: AVCapturePhotoDepthTests.depthSettings(filtered: false), delegate: delegate)
            #expect(delegate.waitUntilFinished())
            return delegate.photos.first
        }
        let data = try #require(photo?.depthData)
        #expect(abs(try Self.metres(data, 0.25, 0.5) - 0.7) < 0.007)
        #expect(abs(try Self.metres(data, 0.75, 0.5) - 2.5) < 0.025)
    }

    @Test func withoutDepthPicturesDirectFootageHasNoDepth() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("clip.y4m")
        try Clip(width: 64, height: 48, frames: 1, rate: 30).write(to: url)
        let count = try onDevice("iphone-7-plus") { () throws -> Int in
            try Emulator.shared.use(footage: url.path, mode: .direct)
            Emulator.shared.clockMode = .manual
            let rig = try StreamRig(outputs: ["depth"])
            let recorder = StreamRecorder()
            rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(3)
            return recorder.depth.count
        }
        #expect(count == 0)
    }

    /// What `body` threw, in words; empty when it threw nothing.
    static func failure(_ body: () throws -> Void) -> String {
        do {
            try body()
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func badFootageAndDepthAreRefusedNamingTheFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("clip.y4m")
        try Clip(width: 64, height: 48, frames: 2, rate: 30).write(to: url)
        let missing = dir.appendingPathComponent("missing.y4m").path
        let garbage = dir.appendingPathComponent("garbage.y4m")
        try Data("YUV4MPEG2 W0 H0\n".utf8).write(to: garbage)
        // Depth pictures of two sizes, another aspect than the footage's, 8-bit samples, and a good one.
        let depth = dir.appendingPathComponent("depth")
        try FileManager.default.createDirectory(at: depth, withIntermediateDirectories: true)
        func write16(_ name: String, _ width: Int, _ height: Int) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try PNG.write(PNGImage(pixels: PixelPlane<UInt16>(width: width, height: height, repeating: 900)), to: path)
            return path
        }
        _ = try write16("depth/1.png", 64, 48)
        _ = try write16("depth/2.png", 32, 24)
        let wide = try write16("wide.png", 64, 36)
        let good = try write16("good.png", 64, 48)
        let eight = dir.appendingPathComponent("eight.png").path
        try PNG.write(PNGImage(pixels: PixelPlane<UInt8>(width: 64, height: 48, repeating: 9)), to: eight)
        let messages = try onDevice("iphone-7-plus") { () -> [String] in
            [
                Self.failure { try Emulator.shared.use(footage: missing, mode: .direct) },
                Self.failure { try Emulator.shared.use(footage: garbage.path, mode: .direct) },
                Self.failure { try Emulator.shared.use(footage: url.path, mode: .direct, depth: depth.path) },
                Self.failure { try Emulator.shared.use(footage: url.path, mode: .direct, depth: wide) },
                Self.failure { try Emulator.shared.use(footage: url.path, mode: .direct, depth: eight) },
                Self.failure { try Emulator.shared.use(footage: url.path, mode: .direct, depth: good) },
            ]
        }
        #expect(messages[0].contains(missing), "\(messages[0])")
        #expect(messages[1].contains(garbage.path), "\(messages[1])")
        #expect(messages[2].contains("2.png") && messages[2].contains("differs"), "\(messages[2])")
        #expect(messages[3].contains("wide.png") && messages[3].contains("aspect"), "\(messages[3])")
        #expect(messages[4].contains("eight.png") && messages[4].contains("16-bit"), "\(messages[4])")
        #expect(messages[5].isEmpty, "\(messages[5])")
    }
}

/// Codes in footage shown in direct mode are read from the delivered frames, where the footage puts them.
@Suite(.needs(.zxing))
struct FootageDirectModeCodeTests {
    @Test func aQRCodeInTheFootageIsReadWhereItStands() throws {
        let dir = try FootageDirectModeTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A QR symbol of 6-pixel modules, its centre at (200, 180) of a 640×480 white picture: the format's own
        // size, so the delivered frame is the picture itself.
        let symbol = try CodeSymbol.draw(CodeAnnotation(symbology: .qr, value: "direct footage"))
        let module = 6
        let (left, top) = (200 - symbol.width * module / 2, 180 - symbol.height * module / 2)
        let picture = PixelPlane<UInt8>(width: 640, height: 480, channels: 3) { x, y, _ in
            let (mx, my) = ((x - left) / module, (y - top) / module)
            guard x >= left, y >= top, mx < symbol.width, my < symbol.height else { return 255 }
            return symbol.dark[my * symbol.width + mx] ? 0 : 255
        }
        let file = dir.appendingPathComponent("code.png")
        try PNG.write(PNGImage(pixels: picture, colorSpace: .sRGB), to: file.path)
        let codes = try onDevice("iphone-15-pro") { () throws -> [AVMetadataMachineReadableCodeObject] in
            try Emulator.shared.use(footage: file.path, mode: .direct)
            Emulator.shared.clockMode = .manual
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            let metadata = AVCaptureMetadataOutput()
            let recorder = StreamRecorder()
            rig.session.beginConfiguration()
            rig.session.addOutput(metadata)
            rig.session.commitConfiguration()
            metadata.setMetadataObjectsDelegate(recorder, queue: DispatchQueue(label: "codes"))
            metadata.metadataObjectTypes = [.qr]
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            return recorder.metadata.flatMap { $0 }.compactMap { $0 as? AVMetadataMachineReadableCodeObject }
        }
        let qr = try #require(codes.first)
        #expect(qr.stringValue == "direct footage")
        // Normalised to the frame: the centre at (200/640, 180/480), within a module.
        #expect(abs(qr.bounds.midX - 200.0 / 640) < 6.0 / 640, "\(qr.bounds)")
        #expect(abs(qr.bounds.midY - 180.0 / 480) < 6.0 / 480, "\(qr.bounds)")
    }
}
