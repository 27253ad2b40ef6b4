import AVFoundation
import CoreMedia
import CoreVideo
import ExternalTools
import Foundation
import Testing

/// A session with a video data output and a metadata output on the default back camera.
final class ScannerRig: @unchecked Sendable {
    let session = AVCaptureSession()
    let videoOutput = AVCaptureVideoDataOutput()
    let metadataOutput = AVCaptureMetadataOutput()

    init() throws {
        session.beginConfiguration()
        session.sessionPreset = .hd1920x1080
        let device = try #require(AVCaptureDevice.default(for: .video))
        let input = try AVCaptureDeviceInput(device: device)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
        if session.canAddOutput(metadataOutput) { session.addOutput(metadataOutput) }
        session.commitConfiguration()
    }
}

// MARK: Video data output

// MARK: Metadata output

// MARK: Multi-camera session

extension DropIn {
    @Suite struct OutputIdiomTests {
        // spec §15 [D]: on iOS a video data output delivers uncompressed frames only.
        @Test func videoDataOutputOffersNoCompressedCodecs() throws {
            let rig = try ScannerRig()
            #expect(rig.videoOutput.availableVideoCodecTypes.isEmpty)
            #expect(rig.videoOutput.availableVideoPixelFormatTypes.contains(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange))
        }

        // spec §15 [I]: the writer recommendation describes the frames: codec, size, compression.
        @Test func recommendedVideoSettingsForAssetWriterDescribeTheFrames() throws {
            let rig = try ScannerRig()
            let settings = try #require(rig.videoOutput.recommendedVideoSettingsForAssetWriter(writingTo: .mov))
            #expect(settings[AVVideoCodecKey] as? AVVideoCodecType == .h264)
            #expect(settings[AVVideoWidthKey] as? Int == 1920)
            #expect(settings[AVVideoHeightKey] as? Int == 1080)
            let compression = try #require(settings[AVVideoCompressionPropertiesKey] as? [String: Any])
            #expect((compression[AVVideoAverageBitRateKey] as? Int ?? 0) > 0)
        }

        // spec §15 [I]: HEVC is recommended for movies when asked for, at half H.264's bit rate.
        @Test func recommendedVideoSettingsForHEVC() throws {
            let rig = try ScannerRig()
            let output = rig.videoOutput
            #expect(output.availableVideoCodecTypesForAssetWriter(writingTo: .mov).contains(.hevc))
            let hevc = try #require(output.recommendedVideoSettings(forVideoCodecType: .hevc, assetWriterOutputFileType: .mov))
            let h264 = try #require(output.recommendedVideoSettings(forVideoCodecType: .h264, assetWriterOutputFileType: .mov))
            #expect(hevc[AVVideoCodecKey] as? AVVideoCodecType == .hevc)
            func bitRate(_ settings: [String: Any]) -> Int? {
                (settings[AVVideoCompressionPropertiesKey] as? [String: Any])?[AVVideoAverageBitRateKey] as? Int
            }
            let hevcRate = try #require(bitRate(hevc))
            let h264Rate = try #require(bitRate(h264))
            #expect(abs(Double(hevcRate) / Double(h264Rate) - 0.5) < 0.01)
        }

        // spec §15 [I]: without a camera there is nothing to recommend.
        @Test func recommendedVideoSettingsNeedACamera() {
            let output = AVCaptureVideoDataOutput()
            #expect(output.recommendedVideoSettingsForAssetWriter(writingTo: .mov) == nil)
            #expect(output.availableVideoCodecTypesForAssetWriter(writingTo: .mp4).isEmpty)
        }

        // spec §16 [D]: the scanner idiom: check availability, then ask for QR and EAN-13.
        @Test(.needs(.zxing)) func scannerAsksForQRAndEAN13() throws {
            let rig = try ScannerRig()
            let output = rig.metadataOutput
            #expect(output.availableMetadataObjectTypes.contains(.qr))
            output.metadataObjectTypes = [.qr, .ean13, .ean8, .code128].filter(output.availableMetadataObjectTypes.contains)
            #expect(output.metadataObjectTypes == [.qr, .ean13, .ean8, .code128])
        }

        // spec §16 [D]: the barcode types carry Apple's identifiers.
        @Test func barcodeTypeIdentifiersAreApples() {
            #expect(AVMetadataObject.ObjectType.qr.rawValue == "org.iso.QRCode")
            #expect(AVMetadataObject.ObjectType.ean13.rawValue == "org.gs1.EAN-13")
            #expect(AVMetadataObject.ObjectType.dataMatrix.rawValue == "org.iso.DataMatrix")
            #expect(AVMetadataObject.ObjectType.interleaved2of5.rawValue == "org.ansi.Interleaved2of5")
        }

        // spec §1.1 [D]: a multi-camera session's preset is always input priority.
        @Test func multiCamSessionPresetIsInputPriority() {
            let session = AVCaptureMultiCamSession()
            #expect(session.sessionPreset == .inputPriority)
            #expect(!session.canSetSessionPreset(.high))
            #expect(session.hardwareCost == 0)
        }

        // spec §17 [D][I]: one 1920 × 1080 camera at 30 fps costs less than the hardware budget and runs.
        @Test func multiCamSessionWithOneHDCameraRuns() throws {
            let session = AVCaptureMultiCamSession()
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let format = try #require(
                device.formats.first {
                    let d = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
                    return d.width == 1920 && d.height == 1080
                        && $0.videoSupportedFrameRateRanges.contains { $0.maxFrameRate >= 30 }
                })
            session.beginConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: device))
            try device.lockForConfiguration()
            device.activeFormat = format
            device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
            device.unlockForConfiguration()
            session.commitConfiguration()
            // Closed form: 1920 × 1080 × 30 over two 1920 × 1440 × 30 streams is 1080 / 2880 = 0.375.
            #expect(abs(session.hardwareCost - 0.375) < 1e-4)
            #expect(session.systemPressureCost < 1)
            session.startRunning()
            #expect(session.isRunning)
            session.stopRunning()
        }

        // spec §17 [D]: a configuration costing more than 1.0 does not start; a runtime error is posted.
        @Test func multiCamSessionOverBudgetFailsWithRuntimeError() throws {
            let session = AVCaptureMultiCamSession()
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            func pixelRate(_ f: AVCaptureDevice.Format) -> Double {
                let d = CMVideoFormatDescriptionGetDimensions(f.formatDescription)
                let fps = f.videoSupportedFrameRateRanges.map(\.maxFrameRate).max() ?? 0
                return Double(d.width) * Double(d.height) * fps
            }
            let largest = try #require(device.formats.max { pixelRate($0) < pixelRate($1) })
            session.beginConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: device))
            try device.lockForConfiguration()
            device.activeFormat = largest
            let fps = largest.videoSupportedFrameRateRanges.map(\.maxFrameRate).max() ?? 30
            device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: CMTimeScale(fps))
            device.unlockForConfiguration()
            session.commitConfiguration()
            try #require(session.hardwareCost > 1)
            let errors = NameLog()
            let token = NotificationCenter.default.addObserver(
                forName: .AVCaptureSessionRuntimeError, object: session, queue: nil
            ) { note in
                if let error = note.userInfo?[AVCaptureSessionErrorKey] as? AVError, error.code == .sessionHardwareCostOverage {
                    errors.append(note.name)
                }
            }
            defer { NotificationCenter.default.removeObserver(token) }
            session.startRunning()
            #expect(!session.isRunning)
            #expect(errors.names == [.AVCaptureSessionRuntimeError])
        }
    }
}
