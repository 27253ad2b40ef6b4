import Obscura
import Foundation
import ObscuraAV
import Testing

/// Counts notifications of a name from one session.
final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    private var infos: [[AnyHashable: Any]] = []
    private var tokens: [NSObjectProtocol] = []

    init(_ session: AVCaptureSession) {
        for name in [
            AVCaptureSession.didStartRunningNotification, AVCaptureSession.didStopRunningNotification,
            AVCaptureSession.runtimeErrorNotification, AVCaptureSession.wasInterruptedNotification,
            AVCaptureSession.interruptionEndedNotification,
        ] {
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: session, queue: nil) { [weak self] n in
                    self?.lock.withLock {
                        self?.names.append(n.name.rawValue)
                        self?.infos.append(n.userInfo ?? [:])
                    }
                })
        }
    }

    var events: [String] { lock.withLock { names } }
    var userInfos: [[AnyHashable: Any]] { lock.withLock { infos } }
    deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
}

@Suite struct AVCaptureSessionTests {
    // spec §1.1 defaults
    @Test func defaults() {
        let session = AVCaptureSession()
        #expect(session.sessionPreset == .high)
        #expect(!session.isRunning && !session.isInterrupted)
        #expect(session.inputs.isEmpty && session.outputs.isEmpty && session.connections.isEmpty)
        #expect(session.automaticallyConfiguresCaptureDeviceForWideColor)
        #expect(session.automaticallyConfiguresApplicationAudioSession)
    }

    // spec §1.2: inputs and outputs in insertion order; connections form implicitly.
    @Test func addingInputAndOutputFormsAConnection() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            #expect(rig.session.inputs.count == 1 && rig.session.outputs.count == 1)
            let connection = try #require(rig.output.connection(with: .video))
            #expect(connection.isEnabled && connection.isActive)
            #expect(connection.output === rig.output)
            #expect(!connection.isCameraIntrinsicMatrixDeliverySupported)
            #expect(!connection.isCameraIntrinsicMatrixDeliveryEnabled)
            rig.session.removeOutput(rig.output)
            #expect(rig.session.connections.isEmpty)
        }
    }

    // spec §1.3 [O]: inside nested blocks the device's format and the outputs' capabilities follow
    // the preset at once (Apple's samples read `activeFormat.supportedMaxPhotoDimensions` right after
    // setting `.photo` inside the block), and they still hold after the outermost commit.
    @Test func capabilitiesFollowThePresetInsideNestedBlocks() throws {
        try onDevice {
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            rig.session.beginConfiguration()
            rig.session.beginConfiguration()
            rig.session.sessionPreset = .photo
            rig.session.commitConfiguration()
            #expect(CMVideoFormatDescriptionGetDimensions(rig.device.activeFormat.formatDescription).width == 1440)
            let largest = try #require(rig.device.activeFormat.supportedMaxPhotoDimensions.last)
            #expect(largest.width == 4032 || largest.width == 8064)
            rig.output.maxPhotoDimensions = largest
            rig.session.commitConfiguration()
            #expect(CMVideoFormatDescriptionGetDimensions(rig.device.activeFormat.formatDescription).width == 1440)
            #expect(rig.output.maxPhotoDimensions.width == largest.width)
        }
    }

    // spec §1.3, §13 N11
    @Test func startRunningInsideConfigurationRaisesGenericException() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            rig.session.beginConfiguration()
            expectException(
                .genericException,
                "startRunning may not be called between calls to beginConfiguration and commitConfiguration"
            ) { rig.session.startRunning() }
            #expect(!rig.session.isRunning)
            rig.session.commitConfiguration()
            rig.session.startRunning()
            #expect(rig.session.isRunning)
        }
    }

    // spec §1.2, §13 N12
    @Test func duplicateOutputTypeIsRefused() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            let second = AVCapturePhotoOutput()
            #expect(!rig.session.canAddOutput(second))
            expectException(.invalidArgumentException, "more than one output of the same type is unsupported") {
                rig.session.addOutput(second)
            }
            #expect(rig.session.outputs.count == 1)
        }
    }

    // spec §1.2, §13 N12
    @Test func outputInTwoSessionsIsRefused() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            let other = AVCaptureSession()
            #expect(!other.canAddOutput(rig.output))
            expectException(.invalidArgumentException, "may not be added to more than one session") {
                other.addOutput(rig.output)
            }
            #expect(!other.canAddInput(rig.input))
        }
    }

    // spec §1.2 [D]: one session at a time. A removed input or output may be added back, to its session
    // or to another, as Apple's camera sample re-adds the input it removed when a switch fails.
    @Test func removedInputsAndOutputsMayBeAddedAgain() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            let session = rig.session
            session.beginConfiguration()
            session.removeInput(rig.input)
            session.removeOutput(rig.output)
            #expect(session.canAddInput(rig.input) && session.canAddOutput(rig.output))
            expectNoException {
                session.addInput(rig.input)
                session.addOutput(rig.output)
            }
            session.commitConfiguration()
            #expect(rig.output.connection(with: .video) != nil)
            // Added twice to one session is still refused, and with its own reason.
            expectException(.invalidArgumentException, "may not be added more than once to a session") {
                session.addOutput(rig.output)
            }
            session.removeInput(rig.input)
            session.removeOutput(rig.output)
            let other = AVCaptureSession()
            #expect(other.canAddInput(rig.input) && other.canAddOutput(rig.output))
        }
    }

    // spec §1.2, §13 N12
    @Test func secondCameraInputIsRefused() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            let front = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            let input = try AVCaptureDeviceInput(device: front)
            #expect(!rig.session.canAddInput(input))
            expectException(
                .invalidArgumentException, "Multiple audio/video AVCaptureInputs are not currently supported"
            ) {
                rig.session.addInput(input)
            }
            #expect(!rig.session.canAddInput(rig.input))
        }
    }

    // spec §1.2, §13 N12
    @Test func photoAndStillImageOutputsAreExclusive() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            let still = AVCaptureStillImageOutput()
            #expect(!rig.session.canAddOutput(still))
            expectException(.invalidArgumentException, "AVCapturePhotoOutput and AVCaptureStillImageOutput") {
                rig.session.addOutput(still)
            }
        }
    }

    // spec §1.1: presets a device lacks cannot be set.
    // iPhone X's front camera records no 4K video.
    @Test func unsupportedPresetIsRefused() throws {
        try onDevice("iphone-x") {
            let rig = try PhotoRig(.builtInTrueDepthCamera, position: .front, start: false)
            #expect(rig.session.canSetSessionPreset(.photo))
            #expect(!rig.session.canSetSessionPreset(.hd4K3840x2160))
            expectException(.invalidArgumentException, "canSetSessionPreset") {
                rig.session.sessionPreset = .hd4K3840x2160
            }
            #expect(rig.session.sessionPreset == .vga640x480)
        }
    }

    // spec §1.1, §2.3: setting activeFormat switches the preset to .inputPriority.
    @Test func settingActiveFormatSwitchesToInputPriority() throws {
        try onDevice {
            let rig = try PhotoRig(preset: .photo, start: false)
            let format = try #require(rig.device.formats.last)
            try rig.device.lockForConfiguration()
            rig.device.activeFormat = format
            rig.device.unlockForConfiguration()
            #expect(rig.session.sessionPreset == .inputPriority)
            #expect(rig.device.activeFormat === format)
            rig.session.sessionPreset = .photo
            #expect(rig.device.activeFormat !== format)
        }
    }

    // spec §1.3 notifications
    @Test func startAndStopPostNotifications() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            let log = NotificationLog(rig.session)
            rig.session.startRunning()
            rig.session.startRunning()
            rig.session.stopRunning()
            #expect(
                log.events == [
                    "AVCaptureSessionDidStartRunningNotification", "AVCaptureSessionDidStopRunningNotification",
                ])
        }
    }

    // spec §1.3: interruption stops the session and it resumes when the interruption ends.
    @Test func interruptionNotifiesAndResumes() throws {
        try onDevice {
            let rig = try PhotoRig()
            let log = NotificationLog(rig.session)
            Emulator.shared.interrupt(rig.session, reason: .videoDeviceInUseByAnotherClient)
            #expect(rig.session.isInterrupted && !rig.session.isRunning)
            #expect(log.userInfos.first?[AVCaptureSessionInterruptionReasonKey] as? Int == 3)
            Emulator.shared.endInterruption(of: rig.session)
            #expect(rig.session.isRunning && !rig.session.isInterrupted)
            #expect(log.events.contains("AVCaptureSessionInterruptionEndedNotification"))
        }
    }

    // spec §1.3, §13 N18: an unsupported combination fails at start with AVError -11819.
    @Test func unsupportedCombinationReportsRuntimeError() throws {
        try onDevice("iphone-7-plus") {
            let rig = try PhotoRig(.builtInDualCamera, preset: .photo, start: false)
            rig.session.addOutput(AVCaptureDepthDataOutput())
            let log = NotificationLog(rig.session)
            rig.session.startRunning()
            #expect(!rig.session.isRunning)
            #expect(log.events == ["AVCaptureSessionRuntimeErrorNotification"])
            let error = log.userInfos.first?[AVCaptureSessionErrorKey] as? AVError
            #expect(error?.code == .mediaServicesWereReset)
            #expect(error?.code.rawValue == -11819)
        }
    }

    // KVO on isRunning.
    @Test func isRunningIsObservable() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            let changes = LockedArray<Bool>()
            let token = rig.session.observe(\.isRunning, options: [.new]) { _, change in
                if let v = change.newValue { changes.append(v) }
            }
            rig.session.startRunning()
            rig.session.stopRunning()
            #expect(changes.values == [true, false])
            token.invalidate()
            rig.session.startRunning()
            #expect(changes.values == [true, false])
        }
    }
}

final class LockedArray<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []
    func append(_ v: T) { lock.withLock { storage.append(v) } }
    var values: [T] { lock.withLock { storage } }
}
