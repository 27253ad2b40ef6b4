import AVFoundation
import CoreMedia
import CoreVideo
import ExternalTools
import Foundation
import Testing

/// A photo session on the default back camera, configured as apps configure it. VGA keeps the
/// debug-build photos small (640 × 480).
final class PhotoSessionRig: @unchecked Sendable {
    let session = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()

    init() throws {
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let input = try AVCaptureDeviceInput(device: device)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(photoOutput) { session.addOutput(photoOutput) }
        session.commitConfiguration()
    }

    /// Runs the session for one capture and returns its photo once `didFinishCapture` has come.
    func captureOne(_ settings: AVCapturePhotoSettings = AVCapturePhotoSettings()) throws -> AVCapturePhoto {
        session.startRunning()
        defer { session.stopRunning() }
        let log = EventLog()
        photoOutput.capturePhoto(with: settings, delegate: log)
        #expect(log.waitForFinishes())
        return try #require(log.photos.first)
    }
}

/// A capture delegate that records callbacks as "<uniqueID>:<event>" and lets a test wait.
final class EventLog: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private var delivered: [AVCapturePhoto] = []
    private let finished = DispatchSemaphore(value: 0)
    /// Runs once, inside the first didCapturePhoto callback.
    var onFirstDidCapture: (() -> Void)?

    var events: [String] { lock.withLock { recorded } }
    var photos: [AVCapturePhoto] { lock.withLock { delivered } }

    private func note(_ id: Int64, _ event: String) { lock.withLock { recorded.append("\(id):\(event)") } }

    func photoOutput(
        _ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        note(resolvedSettings.uniqueID, "willBegin")
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        note(resolvedSettings.uniqueID, "didCapture")
        let hook = lock.withLock { () -> (() -> Void)? in
            defer { onFirstDidCapture = nil }
            return onFirstDidCapture
        }
        hook?()
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        lock.withLock { delivered.append(photo) }
        note(photo.resolvedSettings.uniqueID, "photo")
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        note(resolvedSettings.uniqueID, "didFinish")
        finished.signal()
    }

    /// Waits for `count` didFinishCapture calls; false after a minute.
    func waitForFinishes(_ count: Int = 1) -> Bool {
        (0..<count).allSatisfy { _ in finished.wait(timeout: .now() + 60) == .success }
    }
}

// MARK: Notification names

/// Notification names in the order they were heard.
final class NameLog: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [Notification.Name] = []
    var names: [Notification.Name] { lock.withLock { heard } }
    func append(_ name: Notification.Name) { lock.withLock { heard.append(name) } }
}

// MARK: Zero shutter lag and responsive capture

/// Marks the main queue, so a callback can tell it runs there. (On Linux the main queue may be
/// drained by a thread other than the process's first one, so `Thread.isMainThread` cannot tell.)
let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// A shutter button's view model, told of readiness on the main queue.
final class ShutterButtonModel: NSObject, AVCapturePhotoOutputReadinessCoordinatorDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [AVCapturePhotoOutput.CaptureReadiness] = []
    private var onMain: [Bool] = []
    var states: [AVCapturePhotoOutput.CaptureReadiness] { lock.withLock { seen } }
    var allOnMainQueue: Bool { lock.withLock { onMain.allSatisfy { $0 } } }

    func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator,
        captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
    ) {
        let main = DispatchQueue.getSpecific(key: mainQueueKey) == true
        lock.withLock {
            seen.append(captureReadiness)
            onMain.append(main)
        }
    }

    /// Waits until the main queue has delivered everything queued so far.
    func drainMainQueue() -> Bool {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async { done.signal() }
        return done.wait(timeout: .now() + 10) == .success
    }
}

// MARK: Formats per file type

// MARK: Previews, thumbnails and CGImage

/// Readiness values in the order a KVO handler saw them.
final class ReadinessLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [AVCapturePhotoOutput.CaptureReadiness] = []
    var values: [AVCapturePhotoOutput.CaptureReadiness] { lock.withLock { seen } }
    func append(_ value: AVCapturePhotoOutput.CaptureReadiness) { lock.withLock { seen.append(value) } }
}

extension DropIn {
    @Suite struct PhotoOutputIdiomTests {
        // spec §1.3 [D]: the pre-iOS 17 names are the same notifications.
        @Test func preIOS17NotificationNamesAreTheCurrentOnes() {
            #expect(NSNotification.Name.AVCaptureSessionRuntimeError == AVCaptureSession.runtimeErrorNotification)
            #expect(NSNotification.Name.AVCaptureSessionWasInterrupted == AVCaptureSession.wasInterruptedNotification)
            #expect(NSNotification.Name.AVCaptureSessionInterruptionEnded == AVCaptureSession.interruptionEndedNotification)
            #expect(NSNotification.Name.AVCaptureSessionDidStartRunning == AVCaptureSession.didStartRunningNotification)
            #expect(NSNotification.Name.AVCaptureSessionDidStopRunning == AVCaptureSession.didStopRunningNotification)
        }

        // spec §1.3 [D]: an observer registered under the old name hears startRunning and stopRunning.
        @Test func observerOfOldDidStartRunningNameHearsStartRunning() throws {
            let rig = try PhotoSessionRig()
            let heard = NameLog()
            let tokens = [NSNotification.Name.AVCaptureSessionDidStartRunning, .AVCaptureSessionDidStopRunning].map { name in
                NotificationCenter.default.addObserver(forName: name, object: rig.session, queue: nil) { note in
                    heard.append(note.name)
                }
            }
            defer { tokens.forEach(NotificationCenter.default.removeObserver) }
            rig.session.startRunning()
            rig.session.stopRunning()
            #expect(heard.names == [.AVCaptureSessionDidStartRunning, .AVCaptureSessionDidStopRunning])
        }

        // spec §1.3 [D]: the system-pressure interruption key is Apple's string.
        @Test func systemPressureInterruptionKeyIsApplesString() {
            #expect(AVCaptureSessionInterruptionSystemPressureStateKey == "AVCaptureSessionInterruptionSystemPressureStateKey")
        }

        // spec §3.3 [D][I]: with a camera, zero shutter lag is supported and on by default.
        @Test func zeroShutterLagIsOnByDefaultWithACamera() throws {
            let rig = try PhotoSessionRig()
            #expect(rig.photoOutput.isZeroShutterLagSupported)
            #expect(rig.photoOutput.isZeroShutterLagEnabled)
        }

        // spec §3.3 [D]: an output without a video source supports none of the iOS 17 features.
        @Test func outputWithoutCameraSupportsNoResponsiveFeatures() {
            let output = AVCapturePhotoOutput()
            #expect(!output.isZeroShutterLagSupported)
            #expect(!output.isResponsiveCaptureSupported)
            #expect(!output.isFastCapturePrioritizationSupported)
        }

        // spec §3.3 [D]: responsive capture needs zero shutter lag; fast prioritization needs responsive capture.
        @Test func responsiveCaptureIdiomEnablesFastCapturePrioritization() throws {
            let rig = try PhotoSessionRig()
            let output = rig.photoOutput
            #expect(!output.isFastCapturePrioritizationSupported)
            if output.isResponsiveCaptureSupported { output.isResponsiveCaptureEnabled = true }
            #expect(output.isResponsiveCaptureEnabled)
            #expect(output.isFastCapturePrioritizationSupported)
            if output.isFastCapturePrioritizationSupported { output.isFastCapturePrioritizationEnabled = true }
            #expect(output.isFastCapturePrioritizationEnabled)
            output.isZeroShutterLagEnabled = false
            #expect(!output.isResponsiveCaptureSupported)
            #expect(!output.isResponsiveCaptureEnabled)
            #expect(!output.isFastCapturePrioritizationEnabled)
        }

        // spec §3.3 [D]: readiness is .sessionNotRunning until the session runs, then .ready.
        @Test func captureReadinessFollowsTheSession() throws {
            let rig = try PhotoSessionRig()
            #expect(rig.photoOutput.captureReadiness == .sessionNotRunning)
            rig.session.startRunning()
            #expect(rig.photoOutput.captureReadiness == .ready)
            rig.session.stopRunning()
            #expect(rig.photoOutput.captureReadiness == .sessionNotRunning)
        }

        // spec §3.2 [D], §3.3 [D]: with responsive capture, a capture issued as soon as the previous one
        // was captured begins before the previous one's photo arrives; photos keep request order.
        @Test func responsiveCaptureOverlapsTheNextCaptureWithProcessing() throws {
            let rig = try PhotoSessionRig()
            rig.photoOutput.isResponsiveCaptureEnabled = true
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let log = EventLog()
            let first = AVCapturePhotoSettings()
            let second = AVCapturePhotoSettings()
            var readinessAfterFirstCapture: AVCapturePhotoOutput.CaptureReadiness?
            log.onFirstDidCapture = {
                readinessAfterFirstCapture = rig.photoOutput.captureReadiness
                rig.photoOutput.capturePhoto(with: second, delegate: log)
            }
            rig.photoOutput.capturePhoto(with: first, delegate: log)
            #expect(log.waitForFinishes(2))
            let (a, b) = (first.uniqueID, second.uniqueID)
            #expect(
                log.events == [
                    "\(a):willBegin", "\(a):didCapture", "\(b):willBegin", "\(b):didCapture", "\(a):photo", "\(a):didFinish",
                    "\(b):photo", "\(b):didFinish",
                ])
            #expect(readinessAfterFirstCapture == .ready)
            #expect(rig.photoOutput.captureReadiness == .ready)
        }

        // spec §3.2 [D], §3.3 [D]: without responsive capture, the next request waits for processing.
        @Test func withoutResponsiveCaptureTheNextCaptureWaitsForProcessing() throws {
            let rig = try PhotoSessionRig()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let log = EventLog()
            let first = AVCapturePhotoSettings()
            let second = AVCapturePhotoSettings()
            var readinessAfterFirstCapture: AVCapturePhotoOutput.CaptureReadiness?
            log.onFirstDidCapture = {
                readinessAfterFirstCapture = rig.photoOutput.captureReadiness
                rig.photoOutput.capturePhoto(with: second, delegate: log)
            }
            rig.photoOutput.capturePhoto(with: first, delegate: log)
            #expect(log.waitForFinishes(2))
            let (a, b) = (first.uniqueID, second.uniqueID)
            #expect(
                log.events == [
                    "\(a):willBegin", "\(a):didCapture", "\(a):photo", "\(a):didFinish", "\(b):willBegin", "\(b):didCapture",
                    "\(b):photo", "\(b):didFinish",
                ])
            #expect(readinessAfterFirstCapture == .notReadyWaitingForProcessing)
        }

        // spec §3.3 [D]: the delegate gets the current value when set, then each change, on the main queue.
        @Test func readinessCoordinatorTellsItsDelegateOnTheMainQueue() throws {
            let rig = try PhotoSessionRig()
            _ = mainQueueKey
            let coordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: rig.photoOutput)
            let model = ShutterButtonModel()
            coordinator.delegate = model
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let log = EventLog()
            rig.photoOutput.capturePhoto(with: AVCapturePhotoSettings(), delegate: log)
            #expect(log.waitForFinishes())
            #expect(model.drainMainQueue())
            #expect(
                model.states == [
                    .sessionNotRunning, .ready, .notReadyWaitingForCapture, .notReadyWaitingForProcessing, .ready,
                ])
            #expect(model.allOnMainQueue)
            #expect(coordinator.captureReadiness == .ready)
        }

        // spec §5 [D]: a photo connection's rotation and mirroring reach the photo as its Exif
        // orientation, not as turned pixels. The expected tags are TIFF 6.0's Orientation values for
        // a picture shown after turning it clockwise and then mirroring it left to right: a quarter
        // turn puts the stored top row on the right (6), and the mirror then puts it on the left
        // while the stored left column stays on top (5, the transpose).
        @Test(arguments: [
            (0, false, 1), (90, false, 6), (180, false, 3), (270, false, 8),
            (0, true, 2), (90, true, 5), (180, true, 4), (270, true, 7),
        ])
        func connectionOrientationBecomesTheExifOrientation(angle: Int, mirrored: Bool, expected: Int) throws {
            let rig = try PhotoSessionRig()
            let connection = try #require(rig.photoOutput.connection(with: .video))
            connection.videoRotationAngle = CGFloat(angle)
            if connection.isVideoMirroringSupported {
                connection.automaticallyAdjustsVideoMirroring = false
                connection.isVideoMirrored = mirrored
            }
            #expect(connection.isVideoMirrored == mirrored)
            let photo = try rig.captureOne()
            #expect(photo.metadata["Orientation"] as? Int == expected)
            let width = try #require(photo.metadata["PixelWidth"] as? Int)
            let height = try #require(photo.metadata["PixelHeight"] as? Int)
            #expect(width > height, "the stored picture stays in the sensor's landscape orientation")
        }

        // spec §3.3 [D]: the output's own readiness is key-value observable, as apps observe it to enable
        // the shutter button without a coordinator.
        @Test func outputReadinessIsKeyValueObservable() throws {
            let rig = try PhotoSessionRig()
            let seen = ReadinessLog()
            let observation = rig.photoOutput.observe(\.captureReadiness, options: [.initial, .new]) { _, change in
                if let value = change.newValue { seen.append(value) }
            }
            defer { observation.invalidate() }
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let log = EventLog()
            rig.photoOutput.capturePhoto(with: AVCapturePhotoSettings(), delegate: log)
            #expect(log.waitForFinishes())
            // Leaving the running session counts as well, and so does joining it: a new photo output
            // takes the removed one's place.
            rig.session.beginConfiguration()
            rig.session.removeOutput(rig.photoOutput)
            rig.session.commitConfiguration()
            let second = AVCapturePhotoOutput()
            let joined = ReadinessLog()
            let secondObservation = second.observe(\.captureReadiness, options: [.new]) { _, change in
                if let value = change.newValue { joined.append(value) }
            }
            defer { secondObservation.invalidate() }
            rig.session.beginConfiguration()
            if rig.session.canAddOutput(second) { rig.session.addOutput(second) }
            rig.session.commitConfiguration()
            #expect(joined.values == [.ready])
            rig.session.stopRunning()
            #expect(joined.values == [.ready, .sessionNotRunning])
            #expect(
                seen.values == [
                    .sessionNotRunning, .ready, .notReadyWaitingForCapture, .notReadyWaitingForProcessing, .ready,
                    .sessionNotRunning,
                ])
        }

        // spec §3.3 [D][I]: a tracked request makes the coordinator not ready until it is stopped.
        @Test func trackingACaptureRequestDisablesTheShutterMomentarily() throws {
            let rig = try PhotoSessionRig()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let coordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: rig.photoOutput)
            let settings = AVCapturePhotoSettings()
            #expect(coordinator.captureReadiness == .ready)
            coordinator.startTrackingCaptureRequest(using: settings)
            #expect(coordinator.captureReadiness == .notReadyMomentarily)
            coordinator.stopTrackingCaptureRequest(using: settings.uniqueID)
            #expect(coordinator.captureReadiness == .ready)
        }

        // spec §3.1 [D]: HEIF holds HEVC, JPEG holds JPEG, TIFF holds uncompressed pixels.
        @Test(.needs(.libheif)) func supportedCodecTypesFollowTheFileType() throws {
            let rig = try PhotoSessionRig()
            let output = rig.photoOutput
            #expect(output.supportedPhotoCodecTypes(for: .heic) == [.hevc])
            #expect(output.supportedPhotoCodecTypes(for: .jpg) == [.jpeg])
            #expect(output.supportedPhotoCodecTypes(for: .tif).isEmpty)
            #expect(output.supportedPhotoPixelFormatTypes(for: .tif).contains(kCVPixelFormatType_32BGRA))
            #expect(output.supportedPhotoPixelFormatTypes(for: .jpg).isEmpty)
        }

        // spec §3.1 [D]: DNG holds the RAW formats of a back camera.
        @Test func supportedRawFormatsForDNG() throws {
            let rig = try PhotoSessionRig()
            let output = rig.photoOutput
            #expect(output.supportedRawPhotoPixelFormatTypes(for: .dng) == output.availableRawPhotoPixelFormatTypes)
            #expect(!output.supportedRawPhotoPixelFormatTypes(for: .dng).isEmpty)
        }

        // The class methods RAW capture code filters the offered formats with: the four 14-bit Bayer mosaics
        // ('rgg4', 'grb4', 'bgg4', 'gbr4') are Bayer RAW, and 'l64r' is Apple ProRAW's format, which is not offered.
        @Test func rawFormatsAreToldApart() throws {
            func code(_ s: String) -> OSType { s.utf8.reduce(0) { $0 << 8 | OSType($1) } }
            for bayer in ["rgg4", "grb4", "bgg4", "gbr4"] {
                #expect(AVCapturePhotoOutput.isBayerRAWPixelFormat(code(bayer)), "\(bayer)")
                #expect(!AVCapturePhotoOutput.isAppleProRAWPixelFormat(code(bayer)), "\(bayer)")
            }
            #expect(AVCapturePhotoOutput.isAppleProRAWPixelFormat(code("l64r")))
            #expect(!AVCapturePhotoOutput.isBayerRAWPixelFormat(code("l64r")))
            #expect(!AVCapturePhotoOutput.isBayerRAWPixelFormat(kCVPixelFormatType_32BGRA))
            let rig = try PhotoSessionRig()
            let offered = rig.photoOutput.availableRawPhotoPixelFormatTypes
            #expect(!offered.isEmpty && offered.allSatisfy(AVCapturePhotoOutput.isBayerRAWPixelFormat))
            #expect(offered.first(where: AVCapturePhotoOutput.isAppleProRAWPixelFormat) == nil)
        }

        // spec §3.1 [D]: before the output has a video source, every list is empty.
        @Test func formatsPerFileTypeAreEmptyWithoutACamera() {
            let output = AVCapturePhotoOutput()
            #expect(output.supportedPhotoCodecTypes(for: .heic).isEmpty)
            #expect(output.supportedPhotoPixelFormatTypes(for: .tif).isEmpty)
        }

        // spec §4 [D]: a compressed photo's settings offer BGRA previews and JPEG thumbnails.
        @Test func settingsOfferPreviewFormatsAndThumbnailCodecs() {
            let settings = AVCapturePhotoSettings()
            #expect(settings.availablePreviewPhotoPixelFormatTypes.first == kCVPixelFormatType_32BGRA)
            #expect(settings.availableEmbeddedThumbnailPhotoCodecTypes == [.jpeg])
            let uncompressed = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            #expect(uncompressed.availableEmbeddedThumbnailPhotoCodecTypes.isEmpty)
        }

        // spec §4, §5, §6 [D]: the preview comes in the asked format, fitted inside the asked box with
        // the photo's aspect ratio: 640 × 480 into 160 × 160 is 160 × 120.
        @Test func previewPhotoFormatDeliversAScaledPreviewBuffer() throws {
            let rig = try PhotoSessionRig()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let settings = AVCapturePhotoSettings()
            let previewPixelType = try #require(settings.availablePreviewPhotoPixelFormatTypes.first)
            settings.previewPhotoFormat = [
                kCVPixelBufferPixelFormatTypeKey as String: previewPixelType, kCVPixelBufferWidthKey as String: 160,
                kCVPixelBufferHeightKey as String: 160,
            ]
            let log = EventLog()
            rig.photoOutput.capturePhoto(with: settings, delegate: log)
            #expect(log.waitForFinishes())
            let photo = try #require(log.photos.first)
            #expect(photo.resolvedSettings.photoDimensions.width == 640)
            #expect(photo.resolvedSettings.previewDimensions.width == 160)
            #expect(photo.resolvedSettings.previewDimensions.height == 120)
            let preview = try #require(photo.previewPixelBuffer)
            #expect(CVPixelBufferGetWidth(preview) == 160)
            #expect(CVPixelBufferGetHeight(preview) == 120)
            #expect(CVPixelBufferGetPixelFormatType(preview) == kCVPixelFormatType_32BGRA)
            let image = try #require(photo.previewCGImageRepresentation())
            #expect(image.width == 160 && image.height == 120)
        }

        // spec §5 [D]: without a preview format there is no preview.
        @Test func noPreviewWithoutPreviewPhotoFormat() throws {
            let photo = try PhotoSessionRig().captureOne()
            #expect(photo.previewPixelBuffer == nil)
            #expect(photo.previewCGImageRepresentation() == nil)
            #expect(photo.resolvedSettings.previewDimensions.width == 0)
            #expect(photo.resolvedSettings.embeddedThumbnailDimensions.width == 0)
        }

        // spec §6 [D]: an embedded thumbnail's size is in the resolved settings, fitted with aspect kept:
        // 640 × 480 into 320 × 320 is 320 × 240. The photo is HEVC, which needs libheif.
        @Test(.needs(.libheif)) func embeddedThumbnailSizeIsResolved() throws {
            let rig = try PhotoSessionRig()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
            if let codec = settings.availableEmbeddedThumbnailPhotoCodecTypes.first {
                settings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: codec, AVVideoWidthKey: 320, AVVideoHeightKey: 320]
            }
            let log = EventLog()
            rig.photoOutput.capturePhoto(with: settings, delegate: log)
            #expect(log.waitForFinishes())
            let resolved = try #require(log.photos.first).resolvedSettings
            #expect(resolved.embeddedThumbnailDimensions.width == 320)
            #expect(resolved.embeddedThumbnailDimensions.height == 240)
        }

        // spec §5 [D]: the CGImage has the photo's size, 8-bit components, and the photo's colour space.
        @Test func cgImageRepresentationHasThePhotosSize() throws {
            let rig = try PhotoSessionRig()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let log = EventLog()
            rig.photoOutput.capturePhoto(with: AVCapturePhotoSettings(), delegate: log)
            #expect(log.waitForFinishes())
            let photo = try #require(log.photos.first)
            let image = try #require(photo.cgImageRepresentation())
            #expect(image.width == Int(photo.resolvedSettings.photoDimensions.width))
            #expect(image.height == Int(photo.resolvedSettings.photoDimensions.height))
            #expect(image.bitsPerComponent == 8)
            #expect(image.bytesPerRow >= image.width * image.bitsPerPixel / 8)
            let name = try #require(image.colorSpace?.name)
            #expect(name == CGColorSpace.sRGB || name == CGColorSpace.displayP3)
        }

        // spec §3.3 [D]: the coordinator's captureReadiness is key-value observable.
        @Test func coordinatorReadinessIsKeyValueObservable() throws {
            let rig = try PhotoSessionRig()
            let coordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: rig.photoOutput)
            let log = ReadinessLog()
            let observation = coordinator.observe(\.captureReadiness, options: [.new]) { _, change in
                if let value = change.newValue { log.append(value) }
            }
            defer { observation.invalidate() }
            rig.session.startRunning()
            rig.session.stopRunning()
            #expect(log.values == [.ready, .sessionNotRunning])
        }
    }
}

// MARK: Codecs and file bytes

/// Captures one photo with `settings` and returns its file bytes.
private func fileData(_ rig: PhotoSessionRig, _ settings: AVCapturePhotoSettings) throws -> Data {
    let log = EventLog()
    rig.photoOutput.capturePhoto(with: settings, delegate: log)
    #expect(log.waitForFinishes())
    return try #require(log.photos.first?.fileDataRepresentation())
}

extension DropIn {
    @Suite struct PhotoCodecIdiomTests {
        // spec §5 [D]: the JPEG codec gives JPEG bytes (SOI marker first).
        @Test func jpegFormatGivesJPEGBytes() throws {
            let rig = try PhotoSessionRig()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let data = try fileData(rig, AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg]))
            #expect(data.starts(with: [0xFF, 0xD8, 0xFF]))
        }

        // spec §5 [D]: the HEVC codec gives an HEIF file whose brand is heic.
        @Test(.needs(.libheif)) func hevcFormatGivesHEIC() throws {
            let rig = try PhotoSessionRig()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let data = try fileData(rig, AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc]))
            #expect(data.count > 12 && data[4..<12] == Data("ftypheic".utf8))
        }

        // spec §3.1 [D]: every codec the output offers is delivered in its own file type, and the
        // codec lists per file type agree with the offered codecs.
        @Test func everyAvailableCodecIsDelivered() throws {
            let rig = try PhotoSessionRig()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let codecs = rig.photoOutput.availablePhotoCodecTypes
            #expect(codecs.contains(.jpeg))
            #expect(rig.photoOutput.supportedPhotoCodecTypes(for: .jpg) == [.jpeg])
            #expect(rig.photoOutput.supportedPhotoCodecTypes(for: .heic) == (codecs.contains(.hevc) ? [.hevc] : []))
            #expect(rig.photoOutput.availablePhotoFileTypes.contains(.heic) == codecs.contains(.hevc))
            for codec in codecs {
                let data = try fileData(rig, AVCapturePhotoSettings(format: [AVVideoCodecKey: codec]))
                if codec == .jpeg { #expect(data.starts(with: [0xFF, 0xD8, 0xFF])) }
                if codec == .hevc { #expect(data.count > 12 && data[4..<12] == Data("ftypheic".utf8)) }
            }
        }
    }
}


extension DropIn {
    /// `setPreparedPhotoSettingsArray` as apps call it before and after starting the session.
    @Suite struct PreparedPhotoSettingsTests {
        final class Outcomes: @unchecked Sendable {
            private let lock = NSLock()
            private var values: [String: Bool] = [:]
            let arrived = DispatchSemaphore(value: 0)
            func record(_ name: String, _ value: Bool) {
                lock.withLock { values[name] = value }
                arrived.signal()
            }
            subscript(name: String) -> Bool? { lock.withLock { values[name] } }
        }

        // spec §3.1 [D]: before the session runs the handler waits; a second call completes the first
        // with false; the session's start completes the second with true.
        @Test func preparationWaitsForTheSessionAndASecondCallSupersedesTheFirst() throws {
            let session = AVCaptureSession()
            session.beginConfiguration()
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            if session.canAddInput(input) { session.addInput(input) }
            let output = AVCapturePhotoOutput()
            if session.canAddOutput(output) { session.addOutput(output) }
            session.commitConfiguration()
            let outcomes = Outcomes()
            output.setPreparedPhotoSettingsArray([AVCapturePhotoSettings()]) { ok, _ in outcomes.record("first", ok) }
            #expect(outcomes.arrived.wait(timeout: .now() + 0.3) == .timedOut)
            let settings = AVCapturePhotoSettings()
            output.setPreparedPhotoSettingsArray([settings]) { ok, _ in outcomes.record("second", ok) }
            #expect(outcomes.arrived.wait(timeout: .now() + 10) == .success)
            #expect(outcomes["first"] == false && outcomes["second"] == nil)
            session.startRunning()
            defer { session.stopRunning() }
            #expect(outcomes.arrived.wait(timeout: .now() + 10) == .success)
            #expect(outcomes["second"] == true)
            #expect(output.preparedPhotoSettingsArray.map(\.uniqueID) == [settings.uniqueID])
            output.setPreparedPhotoSettingsArray([]) { ok, _ in outcomes.record("release", ok) }
            #expect(outcomes.arrived.wait(timeout: .now() + 10) == .success)
            #expect(outcomes["release"] == true && output.preparedPhotoSettingsArray.isEmpty)
        }
    }
}
