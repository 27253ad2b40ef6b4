import AVFoundation
import Foundation
import Testing

/// A LiDAR depth streamer that chooses its formats the way Apple's sample "Capturing depth using the
/// LiDAR camera" does: the last 1920-wide, full-range, unbinned video format that offers depth, then
/// that format's last 16-bit float depth format, both set under the configuration lock before the
/// input joins an `.inputPriority` session; video and depth arrive through a synchronizer. Written
/// with Apple's names only, so it would build for iOS unchanged.
final class LiDARDepthProgram: NSObject, AVCaptureDataOutputSynchronizerDelegate, @unchecked Sendable {
    enum ConfigurationError: Error {
        case lidarDeviceUnavailable
        case requiredFormatUnavailable
    }

    let session = AVCaptureSession()
    let videoOutput = AVCaptureVideoDataOutput()
    let depthOutput = AVCaptureDepthDataOutput()
    private var synchronizer: AVCaptureDataOutputSynchronizer?
    private let dataQueue = DispatchQueue(label: "lidar depth data")
    private let lock = NSLock()
    private var _depths: [AVDepthData] = []
    private let delivered = DispatchSemaphore(value: 0)

    /// The LiDAR camera of the phone.
    static func lidarCamera() throws -> AVCaptureDevice {
        guard let device = AVCaptureDevice.default(.builtInLiDARDepthCamera, for: .video, position: .back) else {
            throw ConfigurationError.lidarDeviceUnavailable
        }
        return device
    }

    /// The sample's choice: the last format `width` pixels wide in `420f`, unbinned, with depth, and
    /// its last `hdep` depth format.
    static func sampleFormats(
        of device: AVCaptureDevice, width: Int = 1920
    ) throws -> (video: AVCaptureDevice.Format, depth: AVCaptureDevice.Format) {
        let candidate = device.formats.last { format in
            format.formatDescription.dimensions.width == width
                && format.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
                && !format.isVideoBinned
                && !format.supportedDepthDataFormats.isEmpty
        }
        guard let format = candidate else { throw ConfigurationError.requiredFormatUnavailable }
        let depthCandidate = format.supportedDepthDataFormats.last { depthFormat in
            depthFormat.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_DepthFloat16
        }
        guard let depthFormat = depthCandidate else { throw ConfigurationError.requiredFormatUnavailable }
        return (format, depthFormat)
    }

    /// Sets the formats on the device, then builds the session around it.
    func configure(
        device: AVCaptureDevice, format: AVCaptureDevice.Format, depthFormat: AVCaptureDevice.Format
    ) throws {
        try device.lockForConfiguration()
        device.activeFormat = format
        device.activeDepthDataFormat = depthFormat
        device.unlockForConfiguration()

        session.beginConfiguration()
        session.sessionPreset = .inputPriority
        let input = try AVCaptureDeviceInput(device: device)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
        if session.canAddOutput(depthOutput) { session.addOutput(depthOutput) }
        depthOutput.isFilteringEnabled = false
        session.commitConfiguration()
        synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [videoOutput, depthOutput])
        synchronizer?.setDelegate(self, queue: dataQueue)
    }

    func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer, didOutput collection: AVCaptureSynchronizedDataCollection
    ) {
        guard let depth = collection.synchronizedData(for: depthOutput) as? AVCaptureSynchronizedDepthData,
            !depth.depthDataWasDropped
        else { return }
        lock.withLock { _depths.append(depth.depthData) }
        delivered.signal()
    }

    /// Puts a device's formats back as a test found them.
    static func restore(_ device: AVCaptureDevice, _ formats: (AVCaptureDevice.Format, AVCaptureDevice.Format?)) {
        guard (try? device.lockForConfiguration()) != nil else { return }
        device.activeFormat = formats.0
        device.activeDepthDataFormat = formats.1
        device.unlockForConfiguration()
    }

    /// The first depth the running session delivers.
    func firstDepth() throws -> AVDepthData {
        session.startRunning()
        defer { session.stopRunning() }
        guard delivered.wait(timeout: .now() + 120) == .success, let first = lock.withLock({ _depths.first }) else {
            throw CocoaError(.fileReadUnknown)
        }
        return first
    }
}

extension DropIn {
    @Suite struct LiDARDepthProgramTests {
        // spec §2.3 [D]: the sample's format search finds an unbinned 1920 × 1440 full-range format
        // with 16-bit depth, the session keeps it under `.inputPriority`, and depth arrives at the
        // depth format's size.
        @Test func sampleFindsItsFormatsAndStreamsDepth() throws {
            let device = try LiDARDepthProgram.lidarCamera()
            let found = (device.activeFormat, device.activeDepthDataFormat)
            defer { LiDARDepthProgram.restore(device, found) }
            let (format, depthFormat) = try LiDARDepthProgram.sampleFormats(of: device)
            let video = format.formatDescription.dimensions
            #expect(video.width == 1920 && video.height == 1440)
            #expect(!format.isVideoBinned)
            #expect(depthFormat.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_DepthFloat16)
            #expect(format.supportedDepthDataFormats.contains {
                $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_DepthFloat32
            })

            let program = LiDARDepthProgram()
            try program.configure(device: device, format: format, depthFormat: depthFormat)
            #expect(device.activeFormat === format)
            #expect(device.activeDepthDataFormat === depthFormat)
            let depth = try program.firstDepth()
            let expected = depthFormat.formatDescription.dimensions
            #expect(CVPixelBufferGetWidth(depth.depthDataMap) == Int(expected.width))
            #expect(CVPixelBufferGetHeight(depth.depthDataMap) == Int(expected.height))
            #expect(expected.width == 320 && expected.height == 240)
            #expect(depth.depthDataType == kCVPixelFormatType_DepthFloat16)
            #expect(device.activeFormat === format)
        }

        // spec §2.3 [D]: binning is what the phone reports. An iPhone 15 Pro lists 1920 × 1440 twice
        // (react-native-vision-camera issue 2642): binned, with photos up to 2016 × 1512, and unbinned,
        // with photos up to 4032 × 3024 and video HDR.
        @Test func binnedAndUnbinnedTwinsFromTheFormatList() throws {
            let device = try LiDARDepthProgram.lidarCamera()
            let twins = device.formats.filter {
                let d = $0.formatDescription.dimensions
                return d.width == 1920 && d.height == 1440
                    && $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
            }
            #expect(twins.count == 2)
            let binned = try #require(twins.first { $0.isVideoBinned })
            let unbinned = try #require(twins.first { !$0.isVideoBinned })
            let binnedPhoto = try #require(binned.supportedMaxPhotoDimensions.last)
            #expect(binnedPhoto.width == 2016 && binnedPhoto.height == 1512)
            let unbinnedPhoto = try #require(unbinned.supportedMaxPhotoDimensions.last)
            #expect(unbinnedPhoto.width == 4032 && unbinnedPhoto.height == 3024)
            // The real device offers video HDR here; the emulator delivers one exposure per frame, so it
            // reports none (supported means delivered).
            #expect(!unbinned.isVideoHDRSupported && !binned.isVideoHDRSupported)
            // The sample skips the binned twin even though it offers depth.
            #expect(!binned.supportedDepthDataFormats.isEmpty)
            #expect(try LiDARDepthProgram.sampleFormats(of: device).video === unbinned)
            // Depth formats are not binned video.
            #expect(unbinned.supportedDepthDataFormats.allSatisfy { !$0.isVideoBinned })
        }

        // spec §10: a 16:9 depth map's intrinsics refer to the 16:9 band of the 4:3 sensor, so
        // scaling fx by width and fy by height to the map gives one focal length in pixels.
        @Test func sixteenByNineIntrinsicsRescaleAlikeOnBothAxes() throws {
            let device = try LiDARDepthProgram.lidarCamera()
            let found = (device.activeFormat, device.activeDepthDataFormat)
            defer { LiDARDepthProgram.restore(device, found) }
            let format = try #require(device.formats.last { format in
                let d = format.formatDescription.dimensions
                return d.width == 1920 && d.height == 1080 && !format.supportedDepthDataFormats.isEmpty
            })
            let depthFormat = try #require(format.supportedDepthDataFormats.last {
                $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_DepthFloat16
            })
            let program = LiDARDepthProgram()
            try program.configure(device: device, format: format, depthFormat: depthFormat)
            let depth = try program.firstDepth()
            let calibration = try #require(depth.cameraCalibrationData)
            let reference = calibration.intrinsicMatrixReferenceDimensions
            #expect(abs(reference.width / reference.height - 16.0 / 9.0) < 0.005)

            let (w, h) = (CVPixelBufferGetWidth(depth.depthDataMap), CVPixelBufferGetHeight(depth.depthDataMap))
            #expect(w == 320 && h == 180)
            let k = calibration.intrinsicMatrix
            let fx = Double(k.columns.0.x) * Double(w) / Double(reference.width)
            let fy = Double(k.columns.1.y) * Double(h) / Double(reference.height)
            #expect(abs(fx / fy - 1) < 0.005, "fx \(fx) against fy \(fy) at \(w)x\(h)")
            // The principal point lands near the middle of the map on both axes.
            let cx = Double(k.columns.2.x) * Double(w) / Double(reference.width)
            let cy = Double(k.columns.2.y) * Double(h) / Double(reference.height)
            #expect(abs(cx - Double(w) / 2) < 0.02 * Double(w) && abs(cy - Double(h) / 2) < 0.02 * Double(h))
        }
    }
}
