import Devices
import Foundation
import Obscura
import ObscuraAV
import Testing

/// A format answers what the real device reports where its profile states it, and derives the
/// answer from the camera where it does not (spec §2.3, §10).
@Suite struct AVCaptureDeviceFormatFactsTests {
    /// The LiDAR sample's format search (Apple, "Capturing depth using the LiDAR camera").
    func sampleFormats(_ device: AVCaptureDevice) -> (AVCaptureDevice.Format, AVCaptureDevice.Format)? {
        guard
            let format = device.formats.last(where: {
                $0.formatDescription.dimensions.width == 1920
                    && $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
                    && !$0.isVideoBinned && !$0.supportedDepthDataFormats.isEmpty
            }),
            let depth = format.supportedDepthDataFormats.last(where: {
                $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_DepthFloat16
            })
        else { return nil }
        return (format, depth)
    }

    /// The sample finds its formats on every profile with a LiDAR camera.
    @Test(arguments: ["iphone-15-pro", "ipad-pro-m4"])
    func lidarSampleFindsItsFormats(id: String) throws {
        try onDevice(id) {
            let lidar = try #require(AVCaptureDevice.default(.builtInLiDARDepthCamera, for: .video, position: .back))
            let (format, depth) = try #require(sampleFormats(lidar), "\(id)")
            #expect(format.formatDescription.dimensions.height == 1440)
            #expect(depth.formatDescription.dimensions.width == 320 && depth.formatDescription.dimensions.height == 240)
            try lidar.lockForConfiguration()
            lidar.activeFormat = format
            lidar.activeDepthDataFormat = depth
            lidar.unlockForConfiguration()
            #expect(lidar.activeDepthDataFormat === depth)
        }
    }

    /// Formats without stated facts keep the derived answers: the iPhone 15 Pro's 48 MP wide camera
    /// still reads its 12 MP formats binned, and reports no video HDR.
    @Test func silentFormatsKeepTheDerivedAnswers() throws {
        try onDevice {
            let wide = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            #expect(wide.formats.allSatisfy { $0.isVideoBinned && !$0.isVideoHDRSupported })
        }
    }

    /// The catalogue's iPhone 15 Pro with the LiDAR camera's 1920 × 1080 format stating a field of
    /// view, stabilisation modes and an intrinsic reference of its own.
    func statedProfile() throws -> String {
        let catalog = try DeviceCatalog()
        var lines = try String(contentsOfFile: catalog.directory + "/iphone-15-pro.yaml", encoding: .utf8)
            .components(separatedBy: "\n")
        let lidar = try #require(lines.firstIndex(of: "  - id: back-lidar"))
        let format = try #require(lines[lidar...].firstIndex(of: "      - id: 1920x1080-420f"))
        let photo = try #require(lines[format...].firstIndex { $0.hasPrefix("        photo_px:") })
        lines.insert(
            contentsOf: [
                "        field_of_view_deg: 70.5", "        stabilization_modes: [off, standard, auto]",
                "        intrinsic_reference_px: [4032, 2268]",
            ], at: photo + 1)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-facts-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("iphone-15-pro.yaml").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func statedFactsOverrideTheDerivedOnes() throws {
        let path = try statedProfile()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try onDevice(path) {
            let lidar = try #require(AVCaptureDevice.default(.builtInLiDARDepthCamera, for: .video, position: .back))
            let format = try #require(lidar.formats.first {
                $0.formatDescription.dimensions.width == 1920 && $0.formatDescription.dimensions.height == 1080
            })
            #expect(format.videoFieldOfView == 70.5)
            #expect(format.geometricDistortionCorrectedVideoFieldOfView <= 70.5)
            #expect(format.geometricDistortionCorrectedVideoFieldOfView > 70.5 * 0.9)
            #expect(format.isVideoStabilizationModeSupported(.off))
            #expect(format.isVideoStabilizationModeSupported(.standard))
            #expect(format.isVideoStabilizationModeSupported(.auto))
            #expect(!format.isVideoStabilizationModeSupported(.cinematic))

            // Depth taken with the format refers its intrinsics to the stated dimensions: half the
            // sensor's 8064-pixel width, so fx is half the sensor's.
            let depthFormat = try #require(format.supportedDepthDataFormats.last {
                $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_DepthFloat16
            })
            Emulator.shared.clockMode = .manual
            let session = AVCaptureSession()
            let output = AVCaptureDepthDataOutput()
            let recorder = StreamRecorder()
            try lidar.lockForConfiguration()
            lidar.activeFormat = format
            lidar.activeDepthDataFormat = depthFormat
            lidar.unlockForConfiguration()
            session.beginConfiguration()
            session.sessionPreset = .inputPriority
            session.addInput(try AVCaptureDeviceInput(device: lidar))
            session.addOutput(output)
            session.commitConfiguration()
            output.isFilteringEnabled = false
            output.setDelegate(recorder, callbackQueue: DispatchQueue(label: "facts"))
            session.startRunning()
            defer { session.stopRunning() }
            Emulator.shared.runFrames(1)
            let calibration = try #require(recorder.depth.first?.0.cameraCalibrationData)
            #expect(calibration.intrinsicMatrixReferenceDimensions == CGSize(width: 4032, height: 2268))
            let profile = try DeviceCatalog().profile("iphone-15-pro")
            let sensor = try #require(profile.camera("back-wide")?.intrinsics)
            #expect(abs(Double(calibration.intrinsicMatrix.columns.0.x) - sensor.fx / 2) < 0.01 * sensor.fx)
            #expect(abs(Double(calibration.intrinsicMatrix.columns.1.y) - sensor.fy / 2) < 0.01 * sensor.fy)
        }
    }
}
