import ExternalTools
import Foundation
import Imaging
import Obscura
import ObscuraAV
import Testing

/// Photo files as a phone writes them (spec §5): JPEG and HEIC with Exif, an ICC profile and
/// embedded depth, read back by independent tools (exiftool, libheif's heif-info) and by
/// `AVDepthData(fromFileData:)`.
struct PhotoFileFormatTests {
    /// Runs one of the independent readers, which the test names in its `.needs` trait.
    static func run(_ tool: ExternalTool, _ arguments: [String]) throws -> (output: Data, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try tool.require())
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (output, process.terminationStatus)
    }

    /// exiftool's tags for a file, as one JSON object (`-n`: numbers unformatted).
    static func exiftool(_ file: URL, _ extra: [String] = []) throws -> [String: Any] {
        let (out, _) = try run(.exiftool, ["-j", "-n"] + extra + [file.path])
        let list = try #require(try JSONSerialization.jsonObject(with: out) as? [[String: Any]])
        return try #require(list.first)
    }

    static func temporary(_ data: Data, _ suffix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID().uuidString).\(suffix)")
        try data.write(to: url)
        return url
    }

    static func settings(_ codec: AVVideoCodecType, quality: Double? = nil, depth: Bool) -> AVCapturePhotoSettings {
        var format: [String: Any] = [AVVideoCodecKey: codec]
        if let quality { format[AVVideoCompressionPropertiesKey] = [AVVideoQualityKey: quality] }
        let settings = AVCapturePhotoSettings(format: format)
        settings.isDepthDataDeliveryEnabled = depth
        settings.isDepthDataFiltered = false
        return settings
    }

    /// Checks what exiftool reads against the photo's own metadata and the device's published optics.
    static func expectExif(_ tags: [String: Any], _ photo: AVCapturePhoto, _ rig: PhotoRig, fileType: String) throws {
        #expect(tags["FileType"] as? String == fileType)
        #expect(tags["Make"] as? String == "Apple")
        #expect(tags["Model"] as? String == "iPhone 7 Plus")
        // spec §5 [D]: the orientation is the photo connection's, as the photo's own metadata says.
        #expect(tags["Orientation"] as? Int == photo.metadata["Orientation"] as? Int)
        let width = try #require(photo.metadata["PixelWidth"] as? Int)
        let height = try #require(photo.metadata["PixelHeight"] as? Int)
        #expect(tags["ImageWidth"] as? Int == width)
        #expect(tags["ImageHeight"] as? Int == height)
        let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
        let exposure = try #require(exif["ExposureTime"] as? Double)
        let written = try #require((tags["ExposureTime"] as? NSNumber)?.doubleValue)
        #expect(abs(written / exposure - 1) < 1e-3, "exposure \(written) s, photo says \(exposure) s")
        #expect(tags["ISO"] as? Int == (exif["ISOSpeedRatings"] as? [Int])?.first)
        let fNumber = try #require((tags["FNumber"] as? NSNumber)?.doubleValue)
        #expect(abs(fNumber - Double(rig.device.lensAperture)) < 0.01)
        // iPhone 7 Plus: 3.99 mm wide and 6.6 mm tele lenses (Apple's published focal lengths).
        let focal = try #require((tags["FocalLength"] as? NSNumber)?.doubleValue)
        #expect([3.99, 6.6].contains { abs($0 - focal) < 0.02 }, "focal length \(focal) mm")
        // The ICC profile names the photo's colour space.
        let description = try #require(tags["ProfileDescription"] as? String)
        #expect(["sRGB", "Display P3"].contains(description))
        #expect(description == (photo.metadata["ProfileName"] as? String))
    }

    /// Largest difference between two maps where both hold values, the first map's range and
    /// largest magnitude, and whether their holes agree.
    static func compare(_ a: AVDepthData, _ b: AVDepthData) throws
        -> (maxError: Float, range: Float, magnitude: Float, holesAgree: Bool)
    {
        let x = try AVCapturePhotoDepthTests.values(a), y = try AVCapturePhotoDepthTests.values(b)
        #expect(x.width == y.width && x.height == y.height)
        let finite = x.values.filter(\.isFinite)
        let range = (finite.max() ?? 0) - (finite.min() ?? 0)
        var worst: Float = 0
        var holesAgree = true
        for (p, q) in zip(x.values, y.values) {
            if p.isNaN != q.isNaN { holesAgree = false } else if !p.isNaN { worst = max(worst, abs(p - q)) }
        }
        return (worst, range, finite.map(abs).max() ?? 0, holesAgree)
    }

    // spec §5 [D]: a JPEG request gives a JPEG with Exif and ICC; with embedded depth the file is
    // an MPF pair whose second image is the depth map.
    @Test(.needs(.exiftool)) func jpegCarriesExifProfileAndMPFDepth() throws {
        try onDevice("iphone-7-plus") {
            try Emulator.shared.use(scene: DepthScenes.occluder(near: 0.5, far: 2.0, cardSize: 0.4, textured: true))
            let rig = try AVCapturePhotoDepthTests.dualRig()
            // A portrait capture: the photo connection turned a quarter clockwise, as a rotation coordinator
            // asks of a phone held upright; the pixels stay landscape and Exif says "turn 90° clockwise".
            try #require(rig.output.connection(with: .video)).videoRotationAngle = 90
            let photo = try #require(capture(rig, Self.settings(.jpeg, depth: true)).photos.first)
            #expect(photo.metadata["Orientation"] as? Int == 6)
            let data = try #require(photo.fileDataRepresentation())
            #expect(data.starts(with: [0xFF, 0xD8, 0xFF]))
            let url = try Self.temporary(data, "jpg")
            defer { try? FileManager.default.removeItem(at: url) }
            let tags = try Self.exiftool(url)
            try Self.expectExif(tags, photo, rig, fileType: "JPEG")
            #expect(tags["NumberOfImages"] as? Int == 2)
            // The second image, cut out by exiftool from the MPF index, is the depth map's size.
            let second = try Self.run(.exiftool, ["-b", "-MPImage2", url.path])
            let secondURL = try Self.temporary(second.output, "jpg")
            defer { try? FileManager.default.removeItem(at: secondURL) }
            let depthTags = try Self.exiftool(secondURL)
            let depth = try #require(photo.depthData)
            #expect(depthTags["ImageWidth"] as? Int == CVPixelBufferGetWidth(depth.depthDataMap))
            #expect(depthTags["ImageHeight"] as? Int == CVPixelBufferGetHeight(depth.depthDataMap))
            #expect(depthTags["ColorComponents"] as? Int == 1)
            // Read back: 8-bit codes over the map's range, lossy; within 4 code steps.
            let read = try AVDepthData(fromFileData: data)
            #expect(read.depthDataType == depth.depthDataType)
            #expect(read.depthDataAccuracy == depth.depthDataAccuracy)
            #expect(read.cameraCalibrationData?.intrinsicMatrix == depth.cameraCalibrationData?.intrinsicMatrix)
            let (error, range, _, holesAgree) = try Self.compare(depth, read)
            #expect(range > 0)
            #expect(error <= 4 * range / 239, "largest error \(error) over a range of \(range)")
            #expect(holesAgree)
        }
    }

    // spec §5 [D]: an HEVC request gives HEIC with Exif and ICC; the depth is the primary image's
    // auxiliary depth image, stored losslessly, so values come back within half a code step, plus
    // half a Float16 ulp (2^-11 relative) when the map's format is half precision.
    @Test(.needs(.libheif, .exiftool, .heifInfo)) func heicCarriesExifProfileAndAuxiliaryDepth() throws {
        try onDevice("iphone-7-plus") {
            try Emulator.shared.use(scene: DepthScenes.occluder(near: 0.5, far: 2.0, cardSize: 0.4, textured: true))
            let rig = try AVCapturePhotoDepthTests.dualRig()
            // The trait found libheif able to encode HEVC, so the output must offer it.
            try #require(rig.output.availablePhotoCodecTypes.contains(.hevc))
            // Upside down: Exif orientation 3, "turn 180°".
            try #require(rig.output.connection(with: .video)).videoRotationAngle = 180
            let photo = try #require(capture(rig, Self.settings(.hevc, depth: true)).photos.first)
            #expect(photo.metadata["Orientation"] as? Int == 3)
            let data = try #require(photo.fileDataRepresentation())
            #expect(data.count > 12 && data[4..<12] == Data("ftypheic".utf8))
            let url = try Self.temporary(data, "heic")
            defer { try? FileManager.default.removeItem(at: url) }
            try Self.expectExif(Self.exiftool(url), photo, rig, fileType: "HEIC")
            let heifInfo = try Self.run(.heifInfo, [url.path])
            let info = String(decoding: heifInfo.output, as: UTF8.self)
            let width = try #require(photo.metadata["PixelWidth"] as? Int)
            let height = try #require(photo.metadata["PixelHeight"] as? Int)
            #expect(info.contains("image: \(width)x\(height)"), "\(info)")
            #expect(info.contains("depth channel: yes"), "\(info)")
            let depth = try #require(photo.depthData)
            let read = try AVDepthData(fromFileData: data)
            #expect(read.depthDataType == depth.depthDataType)
            let (error, range, magnitude, holesAgree) = try Self.compare(depth, read)
            #expect(range > 0)
            let bound = 0.5 * range / 239 + magnitude * 0x1p-11
            #expect(error <= bound * 1.001, "largest error \(error) over a range of \(range)")
            #expect(holesAgree)
        }
    }

    // spec §5 [O]: an iPhone's HEIC carries its orientation twice, in the Exif and as the image's `irot`/`imir`
    // properties, which HEIF readers apply instead of the Exif. Turned a quarter (Exif 6: the stored rows run down
    // the shown picture's right side), libheif's heif-convert shows the stored pixels turned a quarter clockwise,
    // while Obscura's own reader (as ImageIO) gives the stored pixels and leaves the turn to the orientation.
    @Test(.needs(.libheif, .heifConvert, .exiftool)) func heicCarriesItsOrientationAsTransformProperties() throws {
        try onDevice("iphone-7-plus") {
            let rig = try AVCapturePhotoDepthTests.dualRig(depth: false)
            try #require(rig.output.availablePhotoCodecTypes.contains(.hevc))
            try #require(rig.output.connection(with: .video)).videoRotationAngle = 90
            let photo = try #require(capture(rig, Self.settings(.hevc, depth: false)).photos.first)
            #expect(photo.metadata["Orientation"] as? Int == 6)
            let data = try #require(photo.fileDataRepresentation())
            let url = try Self.temporary(data, "heic")
            let png = url.deletingPathExtension().appendingPathExtension("png")
            defer {
                try? FileManager.default.removeItem(at: url)
                try? FileManager.default.removeItem(at: png)
            }
            #expect(try Self.exiftool(url)["Orientation"] as? Int == 6)
            _ = try Self.run(.heifConvert, [url.path, png.path])
            guard case .eightBit(let shown) = try PNG.decode(Array(Data(contentsOf: png))).pixels else {
                Issue.record("heif-convert wrote no 8-bit PNG")
                return
            }
            let stored = try HEIF.decode(Array(data), maximumPixels: 1 << 26).pixels
            #expect(stored.width == photo.metadata["PixelWidth"] as? Int)
            #expect(shown.width == stored.height && shown.height == stored.width)
            guard shown.width == stored.height, shown.height == stored.width else { return }
            // Shown pixel (x, y) is stored pixel (y, H − 1 − x); the mean difference over the picture is decoding
            // noise only. Read unturned (x, y) → (x, y) where both fit, it is the scene's own structure.
            var turned = 0.0, unturned = 0.0, count = 0.0
            for y in Swift.stride(from: 0, to: shown.height, by: 3) {
                for x in Swift.stride(from: 0, to: shown.width, by: 3) {
                    for c in 0..<3 {
                        turned += abs(Double(shown[x, y, c]) - Double(stored[y, stored.height - 1 - x, c]))
                        unturned += abs(Double(shown[x, y, c]) - Double(stored[x % stored.width, y % stored.height, c]))
                    }
                    count += 3
                }
            }
            #expect(turned / count < 1.5, "mean difference \(turned / count) codes")
            #expect(unturned / count > 5 * turned / count, "the scene is too uniform to tell a turn")
        }
    }

    /// The mean of each channel of RGB pixels.
    static func means(_ p: PixelPlane<UInt8>) -> [Double] {
        (0..<3).map { c in
            var sum = 0.0
            for y in 0..<p.height { for x in 0..<p.width { sum += Double(p[x, y, c]) } }
            return sum / Double(p.width * p.height)
        }
    }

    // spec §4 [D]: an embedded thumbnail keeps the photo's aspect ratio inside the asked box, and is written into
    // the file for other software. A JPEG carries it in its Exif (IFD1, a JPEG of its own), which exiftool
    // extracts; it shows the photo: each channel's mean within 2 codes of the photo's. Unasked, there is none.
    @Test(.needs(.exiftool)) func jpegEmbedsTheThumbnailAsked() throws {
        try onDevice("iphone-7-plus") {
            let rig = try AVCapturePhotoDepthTests.dualRig(depth: false)
            let settings = Self.settings(.jpeg, depth: false)
            #expect(settings.availableEmbeddedThumbnailPhotoCodecTypes == [.jpeg])
            settings.embeddedThumbnailPhotoFormat = [
                AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 160, AVVideoHeightKey: 160,
            ]
            let photo = try #require(capture(rig, settings).photos.first)
            let size = photo.resolvedSettings.embeddedThumbnailDimensions
            let (width, height) = (photo.metadata["PixelWidth"] as? Int ?? 0, photo.metadata["PixelHeight"] as? Int ?? 0)
            #expect(max(size.width, size.height) == 160)
            #expect(abs(Double(size.width) / Double(size.height) - Double(width) / Double(height)) < 0.02)
            let format = try #require(photo.embeddedThumbnailPhotoFormat)
            #expect(format[AVVideoWidthKey] as? Int == Int(size.width))
            #expect(format[AVVideoHeightKey] as? Int == Int(size.height))
            let data = try #require(photo.fileDataRepresentation())
            let url = try Self.temporary(data, "jpg")
            defer { try? FileManager.default.removeItem(at: url) }
            let (bytes, _) = try Self.run(.exiftool, ["-b", "-ThumbnailImage", url.path])
            let thumbnail = try JPEG.decodeRGB(Array(bytes))
            #expect(thumbnail.width == Int(size.width) && thumbnail.height == Int(size.height))
            let photoMeans = Self.means(try JPEG.decodeRGB(Array(data))), thumbnailMeans = Self.means(thumbnail)
            for c in 0..<3 { #expect(abs(photoMeans[c] - thumbnailMeans[c]) < 2, "\(photoMeans) \(thumbnailMeans)") }
            // The Exif around it is intact.
            try Self.expectExif(Self.exiftool(url), photo, rig, fileType: "JPEG")

            let plain = try #require(capture(rig, Self.settings(.jpeg, depth: false)).photos.first)
            #expect(plain.embeddedThumbnailPhotoFormat == nil)
            let plainURL = try Self.temporary(try #require(plain.fileDataRepresentation()), "jpg")
            defer { try? FileManager.default.removeItem(at: plainURL) }
            #expect(try Self.run(.exiftool, ["-b", "-ThumbnailImage", plainURL.path]).output.isEmpty)
        }
    }

    // spec §4: without a size, a JPEG's thumbnail is the photo fitted inside 320 × 320, as its Exif segment
    // limits it; a HEIC's is a thumbnail item of the asked size, which heif-info lists under the one image.
    @Test(.needs(.libheif, .heifInfo)) func thumbnailSizesFollowTheFileFormat() throws {
        try onDevice("iphone-7-plus") {
            let rig = try AVCapturePhotoDepthTests.dualRig(depth: false)
            let jpegSettings = Self.settings(.jpeg, depth: false)
            jpegSettings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg]
            let jpeg = try #require(capture(rig, jpegSettings).photos.first)
            let jpegSize = jpeg.resolvedSettings.embeddedThumbnailDimensions
            #expect(max(jpegSize.width, jpegSize.height) == 320)

            // With depth beside it, which is linked to the colour image after the thumbnail is written.
            let depthRig = try AVCapturePhotoDepthTests.dualRig()
            let heicSettings = Self.settings(.hevc, depth: true)
            heicSettings.embeddedThumbnailPhotoFormat = [
                AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 400, AVVideoHeightKey: 300,
            ]
            let heic = try #require(capture(depthRig, heicSettings).photos.first)
            let size = heic.resolvedSettings.embeddedThumbnailDimensions
            #expect(max(size.width, size.height) == 400)
            #expect(heic.embeddedThumbnailPhotoFormat?[AVVideoCodecKey] as? AVVideoCodecType == .hevc)
            let url = try Self.temporary(try #require(heic.fileDataRepresentation()), "heic")
            defer { try? FileManager.default.removeItem(at: url) }
            let info = String(decoding: try Self.run(.heifInfo, [url.path]).output, as: UTF8.self)
            #expect(info.contains("thumbnail: \(size.width)x\(size.height)"), "\(info)")
            #expect(info.contains("depth channel: yes"), "\(info)")
            #expect(info.components(separatedBy: "image: ").count == 2, "one top-level image: \(info)")
        }
    }

    // spec §5 [I]: at the same (default) quality an HEIC photo takes at most about half the bytes of
    // the JPEG, as Apple presents HEIF. This small photo averages many photosites a pixel, so it is clean
    // and HEVC's prediction takes it far below half; only the upper bound is Apple's.
    @Test(.needs(.libheif)) func heicIsAboutHalfTheJPEG() throws {
        try onDevice("iphone-7-plus") {
            let rig = try AVCapturePhotoDepthTests.dualRig(depth: false)
            // The trait found libheif able to encode HEVC, so the output must offer it.
            try #require(rig.output.availablePhotoCodecTypes.contains(.hevc))
            let jpeg = try #require(capture(rig, Self.settings(.jpeg, depth: false)).photos.first)
            let heic = try #require(capture(rig, Self.settings(.hevc, depth: false)).photos.first)
            let a = try #require(jpeg.fileDataRepresentation()), b = try #require(heic.fileDataRepresentation())
            let ratio = Double(b.count) / Double(a.count)
            #expect(ratio > 0 && ratio < 0.7, "HEIC \(b.count) bytes, JPEG \(a.count) bytes")
        }
    }

    // AVVideoQualityKey is honoured: a lower quality gives a smaller file.
    @Test func qualityKeyChangesTheJPEG() throws {
        try onDevice("iphone-7-plus") {
            let rig = try AVCapturePhotoDepthTests.dualRig(depth: false)
            let low = try #require(capture(rig, Self.settings(.jpeg, quality: 0.2, depth: false)).photos.first)
            let high = try #require(capture(rig, Self.settings(.jpeg, quality: 0.95, depth: false)).photos.first)
            let a = try #require(low.fileDataRepresentation()), b = try #require(high.fileDataRepresentation())
            #expect(a.count * 2 < b.count, "quality 0.2: \(a.count) bytes, 0.95: \(b.count) bytes")
            // Without embedding the JPEG is a single image.
            #expect(throws: (any Error).self) { try AVDepthData(fromFileData: a) }
        }
    }
}
