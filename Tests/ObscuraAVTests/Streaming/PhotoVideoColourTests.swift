import Obscura
import Foundation
import ObscuraAV
import Spectra
import Testing

/// A photo and the video frames streamed beside it show one scene in one colour: a phone develops
/// both through one image pipeline, so a large surface has the same colour in each (mean CIEDE2000
/// at most 2), and video has no pure-primary pixels (a channel at 0 and another at 255) where the
/// photo has none. Through the public API: a 640×480 session with a photo output and a BGRA video
/// data output, half a second of frames, then a BGRA photo.
@Suite(.serialized)
struct PhotoVideoColourTests {
    /// The seed scenes, by name, and the colour tests' own (`ColourScenes`).
    static let scenes = [
        "violets-warm-room", "violets-red-light", "violets-green-light", "violets-blue-light", "hand-on-desk", "spoon",
        "near-and-far", "pencils", "phone-number-card", "qr-on-desk", "instant-photo", "saturated",
    ] + ColourScenes.all.keys.sorted() + ownScenes.keys.sorted()

    /// The scenes of our own in `Tests/OwnScenes/`, by name: fruit under a tri-phosphor tube, dyed cloth under
    /// tungsten, books in window light, toys under a blue LED, glazed vases under a magenta LED mix and a colour
    /// chart in daylight.
    static let ownScenes: [String: String] = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("OwnScenes")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Dictionary(uniqueKeysWithValues: files.filter { $0.hasSuffix(".yaml") }.map {
            (String($0.dropLast(5)), directory.appendingPathComponent($0).path)
        })
    }()

    /// An 8-bit BGRA picture read into RGB rows.
    struct Picture {
        let width: Int, height: Int
        let rgb: [SIMD3<UInt8>]

        init(_ buffer: CVPixelBuffer) throws {
            #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
            _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            width = CVPixelBufferGetWidth(buffer)
            height = CVPixelBufferGetHeight(buffer)
            let stride = CVPixelBufferGetBytesPerRow(buffer)
            let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
            var rgb: [SIMD3<UInt8>] = []
            rgb.reserveCapacity(width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let p = base + y * stride + 4 * x
                    rgb.append(SIMD3(p[2], p[1], p[0]))
                }
            }
            self.rgb = rgb
        }

        subscript(x: Int, y: Int) -> SIMD3<UInt8> { rgb[y * width + x] }

        /// The pure-primary kind of a pixel: which channels sit at 255 and which at 0 (bits 0–2 and
        /// 3–5), or nil unless one channel is at 0 and another at 255, a colour clipped onto the gamut's edge.
        func purePrimaryKind(x: Int, y: Int) -> Int? {
            let p = self[x, y]
            guard p.max() == 255, p.min() == 0 else { return nil }
            var kind = 0
            for c in 0..<3 {
                if p[c] == 255 { kind |= 1 << c }
                if p[c] == 0 { kind |= 8 << c }
            }
            return kind
        }

        /// Linear sRGB of a pixel (IEC 61966-2-1 decoding).
        func linear(x: Int, y: Int) -> SIMD3<Double> {
            let p = self[x, y]
            let transfer = RGBColorSpace.sRGB.transfer
            return SIMD3(
                transfer.decode(Double(p.x) / 255), transfer.decode(Double(p.y) / 255),
                transfer.decode(Double(p.z) / 255))
        }
    }

    /// A photo and the last of half a second of video frames of the scene.
    static func photoAndFrame(_ scene: String) throws -> (photo: Picture, frame: Picture) {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(
                scene: ColourScenes.all[scene] != nil ? try ColourScenes.path(scene) : ownScenes[scene] ?? scene)
            Emulator.shared.clockMode = .manual
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            let video = AVCaptureVideoDataOutput()
            video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
            let recorder = StreamRecorder()
            video.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "photo-video-colour"))
            rig.session.beginConfiguration()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(15)
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            let photo = try #require(capture(rig, settings).photos.first?.pixelBuffer)
            let frame = try #require(recorder.video.last?.imageBuffer)
            return (try Picture(photo), try Picture(frame))
        }
    }

    /// The CIELAB (D65 white) of the mean linear colour of a block of a picture: noise averages out in
    /// linear light before the non-linear conversion.
    static func meanLab(_ picture: Picture, x0: Int, y0: Int, size: Int) -> Lab {
        var sum = SIMD3<Double>(0, 0, 0)
        for y in y0..<(y0 + size) {
            for x in x0..<(x0 + size) { sum += picture.linear(x: x, y: y) }
        }
        sum /= Double(size * size)
        return Lab(XYZ(RGBColorSpace.sRGB.toXYZ * sum), white: XYZ(RGBColorSpace.sRGB.toXYZ * SIMD3(1, 1, 1)))
    }

    /// Whether a 16-pixel cell lies inside one surface in both pictures: each of its four 8-pixel
    /// quarters is within ΔE00 2 of the cell's mean. Edges and texture fail; noise averages out.
    static func isUniform(_ picture: Picture, x0: Int, y0: Int) -> Bool {
        let whole = meanLab(picture, x0: x0, y0: y0, size: 16)
        for (dx, dy) in [(0, 0), (8, 0), (0, 8), (8, 8)] {
            let quarter = meanLab(picture, x0: x0 + dx, y0: y0 + dy, size: 8)
            if DeltaE.ciede2000(whole, quarter) > 2 { return false }
        }
        return true
    }

    @Test(arguments: scenes)
    func videoFramesShowThePhotosColours(_ scene: String) throws {
        let (photo, frame) = try Self.photoAndFrame(scene)
        largeSurfacesAgree(photo, frame, scene)
        noPurePrimariesThePhotoLacks(photo, frame, scene)
    }

    /// Mean ΔE00 over the cells uniform in both pictures is at most 2.
    func largeSurfacesAgree(_ photo: Picture, _ frame: Picture, _ scene: String) {
        #expect(photo.width == frame.width && photo.height == frame.height)
        var differences: [Double] = []
        var cells = 0
        for y0 in stride(from: 0, through: photo.height - 16, by: 16) {
            for x0 in stride(from: 0, through: photo.width - 16, by: 16) {
                cells += 1
                guard Self.isUniform(photo, x0: x0, y0: y0), Self.isUniform(frame, x0: x0, y0: y0) else { continue }
                differences.append(
                    DeltaE.ciede2000(
                        Self.meanLab(photo, x0: x0, y0: y0, size: 16), Self.meanLab(frame, x0: x0, y0: y0, size: 16)))
            }
        }
        // Every scene has large surfaces: some cells are uniform in both pictures, so the mean is over
        // something (dim scenes' noise and textured tables leave fewer).
        #expect(differences.count * 100 >= cells, "\(scene): \(differences.count) of \(cells) cells uniform")
        let mean = differences.reduce(0, +) / Double(max(differences.count, 1))
        #expect(mean <= 2, "\(scene): mean ΔE00 \(mean) over \(differences.count) cells")
        print("COLOUR \(scene): mean ΔE00 \(mean) over \(differences.count)/\(cells) cells, max \(differences.max() ?? 0)")
    }

    /// The frame has no kind of pure primary the photo lacks (beyond 0.1 % of the picture, for edges that
    /// the smaller stream render places a pixel or two away), nor more than twice as many of a kind the
    /// photo has: where a colour sits on the gamut's edge, how many pixels clip follows each readout's
    /// noise, which differs between a photo and a video format.
    func noPurePrimariesThePhotoLacks(_ photo: Picture, _ frame: Picture, _ scene: String) {
        var inPhoto: [Int: Int] = [:], inFrame: [Int: Int] = [:]
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                if let kind = photo.purePrimaryKind(x: x, y: y) { inPhoto[kind, default: 0] += 1 }
                if let kind = frame.purePrimaryKind(x: x, y: y) { inFrame[kind, default: 0] += 1 }
            }
        }
        print("PRIMARY \(scene): frame \(inFrame.sorted { $0.key < $1.key }) photo \(inPhoto.sorted { $0.key < $1.key })")
        let margin = frame.width * frame.height / 1000
        for (kind, count) in inFrame {
            let photoCount = inPhoto[kind] ?? 0
            #expect(
                Double(count) <= 2 * Double(photoCount) + Double(margin),
                "\(scene): \(count) pure-primary pixels of kind \(kind) in video, \(photoCount) in the photo")
        }
    }
}
