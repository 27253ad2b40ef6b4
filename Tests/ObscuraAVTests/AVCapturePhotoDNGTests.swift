import ExternalTools
import Foundation
import Obscura
import ObscuraAV
import Scenes
import Spectra
import Testing

/// A RAW photo's file is a DNG, as a phone's is (spec §3.1: `availableRawPhotoFileTypes` is `[.dng]`): apps write
/// `fileDataRepresentation()` to a `.dng` file. Read back by independent readers: exiftool for the tags, and
/// LibRaw, the library behind many raw developers, for the sensor values and their colour.
struct AVCapturePhotoDNGTests {
    /// A RAW photo of `scene` through the back wide camera, written to a `.dng` file.
    static func rawPhoto(
        scene: String, preview: [String: Any]? = nil
    ) throws -> (raw: AVCapturePhoto, file: URL, device: AVCaptureDevice) {
        try Emulator.shared.use(scene: scene)
        let rig = try PhotoRig()
        defer { rig.session.stopRunning() }
        let settings = AVCapturePhotoRawTests.rawSettings()
        settings.rawEmbeddedThumbnailPhotoFormat = preview
        let photos = capture(rig, settings).photos
        let raw = try #require(photos.first { $0.isRawPhoto })
        let data = try #require(raw.fileDataRepresentation())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString).dng")
        try data.write(to: url)
        return (raw, url, rig.device)
    }

    /// The 16-bit samples of a binary PGM or PPM (`P5`, `P6`, maximum 65535), big-endian as Netpbm stores them.
    static func netpbm(_ url: URL) throws -> (width: Int, height: Int, channels: Int, samples: [UInt16]) {
        let data = [UInt8](try Data(contentsOf: url))
        var fields: [String] = [], at = 0
        while fields.count < 4 {
            while at < data.count, data[at] == 0x20 || data[at] == 0x0A { at += 1 }
            let start = at
            while at < data.count, data[at] != 0x20, data[at] != 0x0A { at += 1 }
            fields.append(String(decoding: data[start..<at], as: UTF8.self))
        }
        at += 1
        let channels = fields[0] == "P6" ? 3 : 1
        let width = try #require(Int(fields[1])), height = try #require(Int(fields[2]))
        #expect(fields[3] == "65535")
        let count = width * height * channels
        try #require(data.count - at >= 2 * count)
        let samples = (0..<count).map { UInt16(data[at + 2 * $0]) << 8 | UInt16(data[at + 2 * $0 + 1]) }
        return (width, height, channels, samples)
    }

    // The tags a raw developer needs, as exiftool reads them: DNG 1.4, a 16-bit RGGB colour filter array of the
    // sensor's size, the profile's black and white levels (64 and 1023 DN in iphone-15-pro.yaml), a colour
    // matrix under D65, the white the photo was balanced for, and the Exif of the capture.
    @Test(.needs(.exiftool)) func exiftoolReadsARawDeveloperTags() throws {
        try onDevice {
            let (raw, url, _) = try Self.rawPhoto(scene: PhotoScenes.greyCard(lux: 500, distance: 1))
            defer { try? FileManager.default.removeItem(at: url) }
            let tags = try PhotoFileFormatTests.exiftool(url)
            #expect(tags["FileType"] as? String == "DNG")
            #expect(tags["DNGVersion"] as? String == "1 4 0 0")
            #expect(tags["Make"] as? String == "Apple" && tags["Model"] as? String == "iPhone 15 Pro")
            #expect(tags["ImageWidth"] as? Int == 640 && tags["ImageHeight"] as? Int == 480)
            #expect(tags["BitsPerSample"] as? Int == 16 && tags["PhotometricInterpretation"] as? Int == 32803)
            #expect(tags["CFAPattern2"] as? String == "0 1 1 2")
            #expect(tags["BlackLevel"] as? Int == 64 && tags["WhiteLevel"] as? Int == 1023)
            #expect(tags["CalibrationIlluminant1"] as? Int == 21)
            let matrix = try #require(tags["ColorMatrix1"] as? String).split(separator: " ").compactMap { Double($0) }
            #expect(matrix.count == 9)
            let exif = try #require(raw.metadata["{Exif}"] as? [String: Any])
            let time = try #require((exif["ExposureTime"] as? NSNumber)?.doubleValue)
            #expect(abs(try #require(tags["ExposureTime"] as? Double) - time) < 0.02 * time)
            #expect(tags["ISO"] as? Int == (exif["ISOSpeedRatings"] as? [NSNumber])?.first?.intValue)
        }
    }

    // LibRaw reads back exactly the sensor values the photo's pixel buffer holds. The card is grey, so its mean
    // camera RGB above black is the light's own colour: the as-shot neutral says the same within 3 %, as the
    // automatic white balance under one LED finds it.
    @Test(.needs(.exiftool), .needs(.unprocessedRaw)) func libRawReadsTheSensorValues() throws {
        try onDevice {
            let (raw, url, _) = try Self.rawPhoto(scene: PhotoScenes.greyCard(lux: 500, distance: 1))
            let pgm = URL(fileURLWithPath: url.path + ".pgm")
            defer { for u in [url, pgm] { try? FileManager.default.removeItem(at: u) } }
            let (_, status) = try PhotoFileFormatTests.run(.unprocessedRaw, [url.path])
            #expect(status == 0)
            let read = try Self.netpbm(pgm)
            #expect(read.width == 640 && read.height == 480 && read.channels == 1)
            let buffer = try #require(raw.pixelBuffer)
            _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            let base = try #require(CVPixelBufferGetBaseAddress(buffer))
            let stride = CVPixelBufferGetBytesPerRow(buffer)
            var mismatches = 0
            var sums = SIMD3<Double>(0, 0, 0), counts = SIMD3<Double>(0, 0, 0)
            for y in 0..<480 {
                let row = (base + y * stride).assumingMemoryBound(to: UInt16.self)
                for x in 0..<640 {
                    if row[x] != read.samples[y * 640 + x] { mismatches += 1 }
                    let site = y % 2 == 0 ? (x % 2 == 0 ? 0 : 1) : (x % 2 == 0 ? 1 : 2)
                    sums[site] += Double(row[x]) - 64
                    counts[site] += 1
                }
            }
            #expect(mismatches == 0)
            let means = sums / counts
            let tags = try PhotoFileFormatTests.exiftool(url)
            let neutral = try #require(tags["AsShotNeutral"] as? String).split(separator: " ").compactMap { Double($0) }
            try #require(neutral.count == 3)
            #expect(neutral[1] == 1)
            #expect(abs(means.x / means.y / neutral[0] - 1) < 0.03, "\(means), \(neutral)")
            #expect(abs(means.z / means.y / neutral[2] - 1) < 0.03, "\(means), \(neutral)")
        }
    }

    // spec §4: a RAW photo's DNG embeds the preview `rawEmbeddedThumbnailPhotoFormat` asks for, a JPEG (the one
    // codec `availableRawEmbeddedThumbnailPhotoCodecTypes` offers) fitted to its box; the raw image moves to a
    // sub-IFD, where LibRaw still finds every value. Without the format there is no preview.
    @Test(.needs(.exiftool), .needs(.unprocessedRaw)) func theDNGEmbedsThePreviewAsked() throws {
        try onDevice {
            let settings = AVCapturePhotoRawTests.rawSettings()
            #expect(settings.availableRawEmbeddedThumbnailPhotoCodecTypes == [.jpeg])
            #expect(AVCapturePhotoSettings().availableRawEmbeddedThumbnailPhotoCodecTypes.isEmpty)
            let format: [String: Any] = [
                AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 320, AVVideoHeightKey: 320,
            ]
            let scene = try PhotoScenes.greyCard(lux: 500, distance: 1)
            let (raw, url, _) = try Self.rawPhoto(scene: scene, preview: format)
            let pgm = URL(fileURLWithPath: url.path + ".pgm")
            defer { for u in [url, pgm] { try? FileManager.default.removeItem(at: u) } }
            let size = raw.resolvedSettings.rawEmbeddedThumbnailDimensions
            #expect(size.width == 320 && size.height == 240)
            #expect(raw.embeddedThumbnailPhotoFormat?[AVVideoWidthKey] as? Int == 320)
            let tags = try PhotoFileFormatTests.exiftool(url)
            #expect(tags["FileType"] as? String == "DNG")
            let (jpeg, _) = try PhotoFileFormatTests.run(.exiftool, ["-b", "-PreviewImage", url.path])
            #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
            let previewTags = try PhotoFileFormatTests.exiftool(try PhotoFileFormatTests.temporary(jpeg, "jpg"))
            #expect(previewTags["ImageWidth"] as? Int == 320 && previewTags["ImageHeight"] as? Int == 240)
            let (_, status) = try PhotoFileFormatTests.run(.unprocessedRaw, [url.path])
            #expect(status == 0)
            let read = try Self.netpbm(pgm)
            #expect(read.width == 640 && read.height == 480)
            let buffer = try #require(raw.pixelBuffer)
            _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            let base = try #require(CVPixelBufferGetBaseAddress(buffer))
            let stride = CVPixelBufferGetBytesPerRow(buffer)
            let same = (0..<480).allSatisfy { y in
                let row = (base + y * stride).assumingMemoryBound(to: UInt16.self)
                return (0..<640).allSatisfy { row[$0] == read.samples[y * 640 + $0] }
            }
            #expect(same)
            let (plain, plainURL, _) = try Self.rawPhoto(scene: scene)
            defer { try? FileManager.default.removeItem(at: plainURL) }
            #expect(plain.resolvedSettings.rawEmbeddedThumbnailDimensions.width == 0)
            #expect(plain.embeddedThumbnailPhotoFormat == nil)
            let (none, _) = try PhotoFileFormatTests.run(.exiftool, ["-b", "-PreviewImage", plainURL.path])
            #expect(none.isEmpty)
        }
    }

    /// A ColorChecker under D65 filling most of the frame, on a grey wall.
    static func chartScene(distance: Double) throws -> String {
        let text = """
            description: A ColorChecker on a grey wall, \(distance) m away, under even D65 light.
            device:
              position_m: [0.0, 0.0, \(distance)]
              look_at_m: [0.0, 0.0, 0.0]
            ambient:
              spectrum: {illuminant: D65}
              lux: 800
              direction: [0.0, 0.0, 1.0]
              diffuse_fraction: 1.0
            materials:
              - {name: wall, reflectance: 0.3}
            objects:
              - {name: wall, shape: plane, size_m: [4.0, 4.0], position_m: [0.0, 0.0, -0.01], material: wall}
              - {name: chart, shape: plane, size_m: [0.2794, 0.1905], card: {type: colorchecker}}
            """
        let file = try TestScratch.folder("photo").appendingPathComponent("dng-chart-\(distance).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    // A raw developer that knows nothing of Obscura turns the DNG into colour: LibRaw's dcraw_emu with the white as
    // shot and the file's colour matrix, into linear sRGB. Each ColorChecker patch, lightness matched (vignetting
    // and exposure are not the matrix's), lands near its colour under D65 from the chart's spectral reflectances:
    // a mean ΔE00 within 3 and none beyond 8, what one 3 × 3 matrix leaves of a camera's metamerism.
    @Test(.needs(.dcrawEmu)) func aRawDeveloperGivesTheChartsColours() throws {
        try onDevice {
            let distance = 0.25
            let (_, url, device) = try Self.rawPhoto(scene: Self.chartScene(distance: distance))
            let ppm = URL(fileURLWithPath: url.path + ".ppm")
            defer { for u in [url, ppm] { try? FileManager.default.removeItem(at: u) } }
            let (_, status) = try PhotoFileFormatTests.run(.dcrawEmu, ["-w", "-4", "-o", "1", url.path])
            #expect(status == 0)
            let image = try Self.netpbm(ppm)
            #expect(image.width == 640 && image.height == 480 && image.channels == 3)
            // The chart's width in pixels from the format's field of view.
            let fieldOfView = Double(device.activeFormat.videoFieldOfView) * .pi / 180
            let chartWidth = 0.2794 / (2 * distance * tan(fieldOfView / 2)) * 640
            let pitch = chartWidth / 6, half = max(2, Int(pitch / 8))
            let white = Colorimetry.whitePoint(of: Illuminants.d65)
            var errors: [Double] = []
            for (index, patch) in ColorChecker.patches.enumerated() {
                let column = index % 6, row = index / 6
                let cx = Int(320 + (Double(column) - 2.5) * pitch), cy = Int(240 + (Double(row) - 1.5) * pitch)
                var rgb = SIMD3<Double>(0, 0, 0)
                for y in (cy - half)...(cy + half) {
                    for x in (cx - half)...(cx + half) {
                        let p = 3 * (y * 640 + x)
                        rgb += SIMD3((0..<3).map { Double(image.samples[p + $0]) })
                    }
                }
                let xyz = RGBColorSpace.sRGB.toXYZ * rgb
                let truth = Colorimetry.xyz(reflectance: patch.reflectance, illuminant: Illuminants.d65)
                let matched = xyz * (truth.Y / max(xyz.y, 1e-9))
                let lab = Colorimetry.lab(reflectance: patch.reflectance, illuminant: Illuminants.d65)
                errors.append(DeltaE.ciede2000(Lab(XYZ(matched), white: white), lab))
            }
            let mean = errors.reduce(0, +) / Double(errors.count)
            #expect(mean <= 3 && errors.max()! <= 8, "ΔE00 per patch: \(errors.map { ($0 * 10).rounded() / 10 })")
        }
    }
}
