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
        "near-and-far", "pencils", "qr-on-desk", "instant-photo", "saturated",
    ] + ColourScenes.all.keys.sorted()

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

        /// A pixel with one channel at 0 and another at 255: a colour clipped onto the gamut's edge.
        func isPurePrimary(x: Int, y: Int) -> Bool {
            let p = self[x, y]
            return p.max() == 255 && p.min() == 0
        }

        /// The CIELAB of an sRGB pixel (IEC 61966-2-1 decoding, D65 white).
        func lab(x: Int, y: Int) -> Lab {
            let p = self[x, y]
            let transfer = RGBColorSpace.sRGB.transfer
            let linear = SIMD3(
                transfer.decode(Double(p.x) / 255), transfer.decode(Double(p.y) / 255),
                transfer.decode(Double(p.z) / 255))
            return Lab(
                XYZ(RGBColorSpace.sRGB.toXYZ * linear), white: XYZ(RGBColorSpace.sRGB.toXYZ * SIMD3(1, 1, 1)))
        }
    }

    /// A photo and the last of half a second of video frames of the scene.
    static func photoAndFrame(_ scene: String) throws -> (photo: Picture, frame: Picture) {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: ColourScenes.all[scene] != nil ? try ColourScenes.path(scene) : scene)
            Emulator.shared.clockMode = .manual
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            let video = AVCaptureVideoDataOutput()
            video.videoSettings = [kCVPixelBufferPixelFormatTypeKey: Int(kCVPixelFormatType_32BGRA)]
            let recorder = StreamRecorder()
            video.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "photo-video-colour"))
            rig.session.beginConfiguration()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(15)
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA])
            let photo = try #require(capture(rig, settings).photos.first?.pixelBuffer)
            let frame = try #require(recorder.video.last?.imageBuffer)
            return (try Picture(photo), try Picture(frame))
        }
    }

    /// The mean CIELAB of a block of a picture.
    static func meanLab(_ picture: Picture, x0: Int, y0: Int, size: Int) -> Lab {
        var sum = SIMD3<Double>(0, 0, 0)
        for y in y0..<(y0 + size) {
            for x in x0..<(x0 + size) {
                let lab = picture.lab(x: x, y: y)
                sum += SIMD3(lab.L, lab.a, lab.b)
            }
        }
        sum /= Double(size * size)
        return Lab(L: sum.x, a: sum.y, b: sum.z)
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
        // Every scene has large surfaces: at least a fifth of the picture is uniform cells.
        #expect(differences.count * 5 >= cells, "\(scene): \(differences.count) of \(cells) cells uniform")
        let mean = differences.reduce(0, +) / Double(max(differences.count, 1))
        #expect(mean <= 2, "\(scene): mean ΔE00 \(mean) over \(differences.count) cells")
        print("COLOUR \(scene): mean ΔE00 \(mean) over \(differences.count)/\(cells) cells, max \(differences.max() ?? 0)")
    }

    /// Every pure-primary pixel of the frame has one within two pixels in the photo.
    func noPurePrimariesThePhotoLacks(_ photo: Picture, _ frame: Picture, _ scene: String) {
        var unexplained = 0, inFrame = 0, inPhoto = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                if photo.isPurePrimary(x: x, y: y) { inPhoto += 1 }
                guard frame.isPurePrimary(x: x, y: y) else { continue }
                inFrame += 1
                // The frame is rendered smaller and scaled up, so an edge may sit a pixel or two away.
                var near = false
                for dy in -2...2 {
                    for dx in -2...2 {
                        let (px, py) = (x + dx, y + dy)
                        if px >= 0, py >= 0, px < photo.width, py < photo.height, photo.isPurePrimary(x: px, y: py) {
                            near = true
                        }
                    }
                }
                if !near { unexplained += 1 }
            }
        }
        print("PRIMARY \(scene): frame \(inFrame) photo \(inPhoto) unexplained \(unexplained)")
        #expect(unexplained == 0, "\(scene): \(unexplained) pure-primary pixels in video, none near them in the photo")
    }
}
