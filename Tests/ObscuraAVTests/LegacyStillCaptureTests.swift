import Foundation
import Obscura
import ObscuraAV
import Testing

/// The iOS 9 and iOS 10 still-image paths: `AVCaptureStillImageOutput`, the device's own flash mode,
/// the sample-buffer photo callback, and the photo output's scene monitoring.
@Suite(.serialized) struct LegacyStillCaptureTests {
    /// A running session with a still-image output on the back camera, as iOS 9 apps built it.
    private struct StillRig {
        let session = AVCaptureSession()
        let device: AVCaptureDevice
        let output = AVCaptureStillImageOutput()

        init() throws {
            device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(output)
            session.commitConfiguration()
            session.startRunning()
        }

        func capture() throws -> CMSampleBuffer { try LegacyStillCaptureTests.capture(with: output) }
    }

    /// Takes one still from `output`'s video connection and waits for it, as an iOS 9 app's handler would.
    private static func capture(with output: AVCaptureStillImageOutput) throws -> CMSampleBuffer {
        let connection = try #require(output.connection(with: .video))
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        output.captureStillImageAsynchronously(from: connection) { buffer, error in
            result.set(buffer, error)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(result.error == nil)
        return try #require(result.buffer)
    }

    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (CMSampleBuffer?, Error?) = (nil, nil)
        func set(_ buffer: CMSampleBuffer?, _ error: Error?) { lock.withLock { stored = (buffer, error) } }
        var buffer: CMSampleBuffer? { lock.withLock { stored.0 } }
        var error: Error? { lock.withLock { stored.1 } }
    }

    // spec §1.5 [D]: a scale-and-crop factor outside [1, videoMaxScaleAndCropFactor] is an invalid argument; only
    // the still-image output's connection scales, up to the active format's zoom.
    @Test func aScaleAndCropFactorOutsideItsRangeRaises() throws {
        try onDevice {
            let rig = try StillRig()
            let still = try #require(rig.output.connection(with: .video))
            #expect(still.videoMaxScaleAndCropFactor == rig.device.activeFormat.videoMaxZoomFactor)
            let gist = "-[AVCaptureConnection setVideoScaleAndCropFactor:] videoScaleAndCropFactor"
            expectException(.invalidArgumentException, gist) { still.videoScaleAndCropFactor = 0.5 }
            expectException(.invalidArgumentException, gist) {
                still.videoScaleAndCropFactor = still.videoMaxScaleAndCropFactor + 1
            }
            expectNoException { still.videoScaleAndCropFactor = still.videoMaxScaleAndCropFactor }
            #expect(still.videoScaleAndCropFactor == rig.device.activeFormat.videoMaxZoomFactor)
            rig.session.beginConfiguration()
            let video = AVCaptureVideoDataOutput()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            let connection = try #require(video.connection(with: .video))
            #expect(connection.videoMaxScaleAndCropFactor == 1)
            expectNoException { connection.videoScaleAndCropFactor = 1 }
            expectException(.invalidArgumentException, gist) { connection.videoScaleAndCropFactor = 1.5 }
            rig.session.stopRunning()
        }
    }

    // Apple documents JPEG as the default: the handler's buffer holds a JPEG file (SOI marker, Exif),
    // which jpegStillImageNSDataRepresentation hands back; its decode time is invalid. The Exif is also the
    // buffer's attachment, where iOS 9 apps read the exposure.
    @Test func stillImageOutputDeliversAJPEG() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try StillRig()
            #expect(rig.output.availableImageDataCodecTypes.contains(.jpeg))
            #expect(!rig.output.isCapturingStillImage)
            let buffer = try rig.capture()
            #expect(!rig.output.isCapturingStillImage)
            #expect(CMSampleBufferGetImageBuffer(buffer) == nil)
            #expect(buffer.formatDescription?.mediaSubType == .jpeg)
            #expect(!buffer.decodeTimeStamp.isValid && !CMSampleBufferGetDecodeTimeStamp(buffer).isValid)
            let data = try #require(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(buffer))
            #expect(Array(data.prefix(2)) == [0xFF, 0xD8])
            #expect(data.range(of: Data("Exif".utf8)) != nil)
            let exif = try #require(
                CMGetAttachment(buffer, key: kCGImagePropertyExifDictionary as CFString, attachmentModeOut: nil)
                    as? [String: Any])
            let iso = try #require(exif[kCGImagePropertyExifISOSpeedRatings as String] as? [NSNumber])
            // Exif writes the ISO as a whole number.
            let written = try #require(iso.first?.floatValue)
            #expect(abs(written - rig.device.iso) <= 0.5 + 0.05 * rig.device.iso, "the exposure the device reports")
        }
    }

    // iOS 8's high-resolution switch: stills at the format's highResolutionStillImageDimensions instead of its
    // smallest photo size; the stabilisation switches say no multi-frame stabilisation is done. Shown on a format
    // whose two sizes are close (the LiDAR camera's 1920 × 1440 one), to keep the pictures small.
    @Test func highResolutionStillsTakeTheFormatsLargestSize() throws {
        try onDevice {
            let camera = try #require(AVCaptureDevice.default(.builtInLiDARDepthCamera, for: .video, position: .back))
            let format = try #require(camera.formats.first { $0.supportedMaxPhotoDimensions.count > 1 })
            let session = AVCaptureSession()
            let output = AVCaptureStillImageOutput()
            session.beginConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: camera))
            session.addOutput(output)
            try camera.lockForConfiguration()
            camera.activeFormat = format
            camera.unlockForConfiguration()
            session.commitConfiguration()
            session.startRunning()
            defer { session.stopRunning() }
            #expect(!output.isHighResolutionStillImageOutputEnabled)
            #expect(!output.isStillImageStabilizationSupported && !output.isStillImageStabilizationActive)
            #expect(output.automaticallyEnablesStillImageStabilizationWhenAvailable)
            func still() throws -> CMVideoDimensions? { try Self.capture(with: output).formatDescription?.dimensions }
            let largest = format.highResolutionStillImageDimensions
            let smallest = try #require(format.supportedMaxPhotoDimensions.first)
            let normal = try #require(try still())
            #expect(normal.width == smallest.width && normal.height == smallest.height)
            output.isHighResolutionStillImageOutputEnabled = true
            let high = try #require(try still())
            #expect(high.width == largest.width && high.height == largest.height)
            #expect(largest.width > smallest.width)
        }
    }

    // The iOS 10 photo output's high-resolution switch on a phone whose sensor also reads out 48 MP: the photo is the
    // 12 MP one, and only maxPhotoDimensions reaches 48 MP.
    @Test func theOlderHighResolutionSwitchStaysAt12Megapixels() throws {
        try onDevice {
            let rig = try PhotoRig(preset: .photo)
            let format = rig.device.activeFormat
            let sizes = format.supportedMaxPhotoDimensions.map { [Int($0.width), Int($0.height)] }
            try #require(sizes == [[4032, 3024], [8064, 6048]], "the 12 and 48 MP sizes")
            #expect(format.highResolutionStillImageDimensions.width == 4032)
            rig.output.isHighResolutionCaptureEnabled = true
            func resolved(_ settings: AVCapturePhotoSettings) throws -> [Int] {
                let delegate = RecordingPhotoDelegate()
                rig.output.capturePhoto(with: settings, delegate: delegate)
                #expect(delegate.waitUntilFinished())
                let d = try #require(delegate.resolvedSettings.first?.photoDimensions)
                return [Int(d.width), Int(d.height)]
            }
            let settings = AVCapturePhotoSettings()
            settings.isHighResolutionPhotoEnabled = true
            #expect(try resolved(settings) == [4032, 3024])
            rig.output.maxPhotoDimensions = CMVideoDimensions(width: 8064, height: 6048)
            let large = AVCapturePhotoSettings()
            large.maxPhotoDimensions = CMVideoDimensions(width: 8064, height: 6048)
            #expect(try resolved(large) == [8064, 6048])
        }
    }

    // Uncompressed output settings give the pixels as the image buffer, at the session's size.
    @Test func stillImageOutputDeliversPixels() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try StillRig()
            rig.output.outputSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            let buffer = try rig.capture()
            let pixels = try #require(CMSampleBufferGetImageBuffer(buffer))
            #expect(CVPixelBufferGetPixelFormatType(pixels) == kCVPixelFormatType_32BGRA)
            #expect(CVPixelBufferGetWidth(pixels) == 640 && CVPixelBufferGetHeight(pixels) == 480)
            #expect(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(buffer) == nil)
        }
    }

    // Apple documents that unsupported output settings raise.
    @Test func unsupportedOutputSettingsRaise() throws {
        try onDevice {
            let rig = try StillRig()
            expectException(.invalidArgumentException, "availableImageDataCodecTypes") {
                rig.output.outputSettings = [AVVideoCodecKey: AVVideoCodecType.h264]
            }
        }
    }

    // The device's flash mode governs the still-image output: .auto fires in a 3-lux room and not
    // in 3,000 lux (the photo output's .auto rule), and isFlashActive says so beforehand.
    @Test func deviceFlashModeAutoFiresInTheDarkOnly() throws {
        try onDevice {
            func fires(_ lux: Double) throws -> (active: Bool, fired: Bool) {
                try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: lux, distance: 1, reflectance: 0.18))
                let rig = try StillRig()
                try rig.device.lockForConfiguration()
                #expect(rig.device.isFlashModeSupported(.auto))
                rig.device.flashMode = .auto
                rig.device.unlockForConfiguration()
                let active = rig.device.isFlashActive
                let data = try #require(
                    AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(try rig.capture()))
                // Exif's Flash tag (0x9209, SHORT) is 1 when the flash fired: bit 0.
                let tag: [UInt8] = [0x92, 0x09, 0x00, 0x03]
                let littleTag: [UInt8] = [0x09, 0x92, 0x03, 0x00]
                let bytes = [UInt8](data.prefix(4096))
                func value(after pattern: [UInt8], bigEndian: Bool) -> Int? {
                    guard let at = (0..<(bytes.count - 12)).first(where: { Array(bytes[$0..<$0 + 4]) == pattern })
                    else { return nil }
                    let v = bytes[at + 8..<at + 10]
                    return bigEndian ? Int(v.first!) << 8 | Int(v.last!) : Int(v.last!) << 8 | Int(v.first!)
                }
                let flash = value(after: tag, bigEndian: true) ?? value(after: littleTag, bigEndian: false)
                return (active, (try #require(flash)) & 1 == 1)
            }
            let dim = try fires(3), bright = try fires(3000)
            #expect(dim.active && dim.fired)
            #expect(!bright.active && !bright.fired)
        }
    }

    // Apple documents that the device's flash mode needs the configuration lock, and that a
    // device without a flash supports only .off.
    @Test func deviceFlashModeRules() throws {
        try onDevice {
            let back = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            expectException(.genericException, "lockForConfiguration") { back.flashMode = .on }
            let front = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            #expect(front.isFlashModeSupported(.off) && !front.isFlashModeSupported(.on))
            #expect(!front.isFlashActive)
        }
    }

    // isFlashScene follows the scene under .auto monitoring; false without monitoring settings.
    @Test func flashSceneFollowsTheLight() throws {
        try onDevice {
            func flashScene(_ lux: Double, monitoring: AVCaptureDevice.FlashMode?) throws -> Bool {
                try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: lux, distance: 1, reflectance: 0.18))
                let rig = try PhotoRig()
                if let monitoring {
                    let settings = AVCapturePhotoSettings()
                    settings.flashMode = monitoring
                    rig.output.photoSettingsForSceneMonitoring = settings
                }
                return rig.output.isFlashScene
            }
            let dim = try flashScene(3, monitoring: .auto), bright = try flashScene(3000, monitoring: .auto)
            let off = try flashScene(3, monitoring: .off), unmonitored = try flashScene(3, monitoring: nil)
            #expect(dim && !bright)
            #expect(!off && !unmonitored)
        }
    }

    /// What a still-image bracket's handler heard, call by call.
    private final class BracketLog: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [(CMSampleBuffer?, AVCaptureBracketedStillImageSettings?, Error?)] = []
        let arrived = DispatchSemaphore(value: 0)
        func add(_ buffer: CMSampleBuffer?, _ settings: AVCaptureBracketedStillImageSettings?, _ error: Error?) {
            lock.withLock { calls.append((buffer, settings, error)) }
            arrived.signal()
        }
        var all: [(buffer: CMSampleBuffer?, settings: AVCaptureBracketedStillImageSettings?, error: Error?)] {
            lock.withLock { calls }
        }
        /// Waits for `count` calls; false after a minute.
        func wait(for count: Int) -> Bool {
            (0..<count).allSatisfy { _ in arrived.wait(timeout: .now() + 60) == .success }
        }
    }

    /// The mean of a BGRA picture's colour bytes.
    private static func meanLevel(_ buffer: CMSampleBuffer?) throws -> Double {
        let pixels = try #require(buffer.flatMap(CMSampleBufferGetImageBuffer))
        CVPixelBufferLockBaseAddress(pixels, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(pixels, .readOnly) }
        let base = try #require(CVPixelBufferGetBaseAddress(pixels)).assumingMemoryBound(to: UInt8.self)
        let (width, height, stride) =
            (CVPixelBufferGetWidth(pixels), CVPixelBufferGetHeight(pixels), CVPixelBufferGetBytesPerRow(pixels))
        var sum = 0
        for y in 0..<height { for x in 0..<width { for c in 0..<3 { sum += Int(base[y * stride + 4 * x + c]) } } }
        return Double(sum) / Double(3 * width * height)
    }

    // BracketStripes' bracket (iOS 8): prepared, then one picture per bias, in order, each handed over with the
    // app's own settings object; a lower bias gives a darker picture, and the output captures until the last. A bias
    // beyond the device's ±8 is taken at the end of the range, not refused.
    @Test func stillImageBracketTakesEachBiasInTurn() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try StillRig()
            rig.output.outputSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            #expect(rig.output.maxBracketedCaptureStillImageCount >= 3)
            #expect(!rig.output.isLensStabilizationDuringBracketedCaptureSupported)
            let connection = try #require(rig.output.connection(with: .video))
            let bracket = [-2, 0, 12].map {
                AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: Float($0))
            }
            let prepared = DispatchSemaphore(value: 0)
            let ready = LockedArray<Bool>()
            rig.output.prepareToCaptureStillImageBracket(from: connection, withSettingsArray: bracket) { ok, error in
                ready.append(ok && error == nil)
                prepared.signal()
            }
            #expect(prepared.wait(timeout: .now() + 10) == .success)
            #expect(ready.values == [true])
            let log = BracketLog()
            rig.output.captureStillImageBracketAsynchronously(from: connection, withSettingsArray: bracket) {
                log.add($0, $1, $2)
            }
            try #require(log.wait(for: 3))
            let calls = log.all
            #expect(calls.count == 3 && calls.allSatisfy { $0.error == nil })
            #expect(zip(calls, bracket).allSatisfy { $0.settings === $1 }, "the app's settings, in its order")
            let levels = try calls.map { try Self.meanLevel($0.buffer) }
            #expect(levels[0] < levels[1] && levels[1] < levels[2], "levels \(levels)")
            #expect(!rig.output.isCapturingStillImage)
        }
    }

    // A manual bracket takes each picture at the duration and ISO it names, as the Exif attached to its buffer says.
    @Test func manualStillImageBracketUsesItsExposures() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try StillRig()
            let connection = try #require(rig.output.connection(with: .video))
            let bracket = [(1, 200), (1, 50)].map { (value, timescale) in
                AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
                    exposureDuration: CMTime(value: CMTimeValue(value), timescale: CMTimeScale(timescale)), iso: 100)
            }
            let log = BracketLog()
            rig.output.captureStillImageBracketAsynchronously(from: connection, withSettingsArray: bracket) {
                log.add($0, $1, $2)
            }
            try #require(log.wait(for: 2))
            let durations = try log.all.map { call in
                let buffer = try #require(call.buffer)
                let exif = try #require(
                    CMGetAttachment(buffer, key: kCGImagePropertyExifDictionary as CFString, attachmentModeOut: nil)
                        as? [String: Any])
                return try #require((exif[kCGImagePropertyExifExposureTime as String] as? NSNumber)?.doubleValue)
            }
            #expect(durations.count == 2)
            #expect(abs(durations[0] - 0.005) < 1e-6 && abs(durations[1] - 0.02) < 1e-6, "\(durations)")
        }
    }

    // Apple documents the two bracket errors: more settings than the maximum give
    // AVErrorMaximumStillImageCaptureRequestsExceeded (-11830) through the handler, and settings of two kinds raise.
    @Test func aBracketTooLongOrMixedIsRefused() throws {
        try onDevice {
            let rig = try StillRig()
            let connection = try #require(rig.output.connection(with: .video))
            let tooMany = (0...rig.output.maxBracketedCaptureStillImageCount).map { _ in
                AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: 0)
            }
            let log = BracketLog()
            rig.output.captureStillImageBracketAsynchronously(from: connection, withSettingsArray: tooMany) {
                log.add($0, $1, $2)
            }
            try #require(log.wait(for: 1))
            let call = try #require(log.all.first)
            #expect(call.buffer == nil)
            #expect((call.error as? AVError)?.code == .maximumStillImageCaptureRequestsExceeded)
            #expect((call.error as? NSError)?.code == -11830)
            let answer = DispatchSemaphore(value: 0)
            let prepared = LockedArray<Bool>()
            rig.output.prepareToCaptureStillImageBracket(from: connection, withSettingsArray: tooMany) { ok, _ in
                prepared.append(ok)
                answer.signal()
            }
            #expect(answer.wait(timeout: .now() + 10) == .success)
            #expect(prepared.values == [false])
            Thread.sleep(forTimeInterval: 0.2)
            #expect(log.all.count == 1, "one answer, no pictures")

            let mixed: [AVCaptureBracketedStillImageSettings] = [
                AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: 0),
                AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
                    exposureDuration: CMTime(value: 1, timescale: 100), iso: 100),
            ]
            expectException(.invalidArgumentException, "same AVCaptureBracketedStillImageSettings subclass") {
                rig.output.captureStillImageBracketAsynchronously(from: connection, withSettingsArray: mixed) { _, _, _ in }
            }
        }
    }

    /// A delegate written for iOS 10: only the sample-buffer callback.
    private final class IOS10Delegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var buffers: [(CMSampleBuffer?, CMSampleBuffer?)] = []
        var received: [(photo: CMSampleBuffer?, preview: CMSampleBuffer?)] { lock.withLock { buffers } }

        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
            previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
            bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?
        ) {
            lock.withLock { buffers.append((photoSampleBuffer, previewPhotoSampleBuffer)) }
        }
        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
            error: Error?
        ) { done.signal() }
    }

    /// A delegate that implements both callbacks: Apple calls only the newer one.
    private final class BothDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var calls: [String] = []
        var events: [String] { lock.withLock { calls } }

        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
            lock.withLock { calls.append("photo") }
        }
        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
            previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
            bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?
        ) {
            lock.withLock { calls.append("sampleBuffer") }
        }
        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
            error: Error?
        ) { done.signal() }
    }

    // The iOS 10 callback gets the JPEG as a sample buffer and the asked preview; the JPEG data
    // representation of that buffer is the JPEG file.
    @Test func iOS10DelegateGetsSampleBuffers() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
            let previewFormat = try #require(settings.__availablePreviewPhotoPixelFormatTypes.first)
            #expect(previewFormat.uint32Value == settings.availablePreviewPhotoPixelFormatTypes.first)
            settings.previewPhotoFormat = [
                kCVPixelBufferPixelFormatTypeKey as String: previewFormat, kCVPixelBufferWidthKey as String: 160,
                kCVPixelBufferHeightKey as String: 120,
            ]
            let delegate = IOS10Delegate()
            rig.output.capturePhoto(with: settings, delegate: delegate)
            #expect(delegate.done.wait(timeout: .now() + 60) == .success)
            let got = try #require(delegate.received.first)
            #expect(delegate.received.count == 1)
            let photo = try #require(got.photo)
            let data = try #require(
                AVCapturePhotoOutput.jpegPhotoDataRepresentation(
                    forJPEGSampleBuffer: photo, previewPhotoSampleBuffer: got.preview))
            #expect(Array(data.prefix(2)) == [0xFF, 0xD8])
            let preview = try #require(got.preview.flatMap(CMSampleBufferGetImageBuffer))
            #expect(CVPixelBufferGetWidth(preview) == 160)
        }
    }

    // iOS 10–12 code asks the photo output whether it stabilises before asking for it: no emulated camera does, and a
    // capture with the flag left on (its default) resolves unstabilised.
    @Test func stillImageStabilizationIsAskedAndNotDone() throws {
        try onDevice {
            let rig = try PhotoRig()
            #expect(!rig.output.isStillImageStabilizationSupported && !rig.output.isStillImageStabilizationScene)
            let settings = AVCapturePhotoSettings()
            settings.isAutoStillImageStabilizationEnabled = rig.output.isStillImageStabilizationSupported
            #expect(!settings.isAutoStillImageStabilizationEnabled)
            let stabilised = AVCapturePhotoSettings()
            #expect(stabilised.isAutoStillImageStabilizationEnabled)
            let delegate = RecordingPhotoDelegate()
            rig.output.capturePhoto(with: stabilised, delegate: delegate)
            #expect(delegate.waitUntilFinished())
            #expect(delegate.resolvedSettings.first?.isStillImageStabilizationEnabled == false)
        }
    }

    @Test func bothCallbacksImplementedHearsOnlyTheNewer() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try PhotoRig()
            let delegate = BothDelegate()
            rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: delegate)
            #expect(delegate.done.wait(timeout: .now() + 60) == .success)
            #expect(delegate.events == ["photo"])
        }
    }
}
