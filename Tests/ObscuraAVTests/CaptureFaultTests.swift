import AVFoundation
import ExternalTools
import Obscura
import Testing

/// What an app sees of each fault of spec §21, written as the app writes it (`import AVFoundation`,
/// notification observers, delegates, key-value observation); only the faults come from the `Obscura`
/// module. Every world runs on the manual clock, so frame counts are exact.
@Suite struct CaptureFaultTests {
    // MARK: The app's side

    /// The app's notification observers on one session: names in order, with their user info.
    final class SessionNotes: @unchecked Sendable {
        private let lock = NSLock()
        private var posted: [(name: String, info: [AnyHashable: Any])] = []
        private var tokens: [NSObjectProtocol] = []

        init(_ session: AVCaptureSession) {
            let names: [NSNotification.Name] = [
                .AVCaptureSessionRuntimeError, .AVCaptureSessionWasInterrupted, .AVCaptureSessionInterruptionEnded,
                .AVCaptureSessionDidStartRunning, .AVCaptureSessionDidStopRunning,
            ]
            for name in names {
                tokens.append(NotificationCenter.default.addObserver(forName: name, object: session, queue: nil) {
                    [weak self] note in
                    self?.lock.withLock { self?.posted.append((note.name.rawValue, note.userInfo ?? [:])) }
                })
            }
        }

        var names: [String] { lock.withLock { posted.map(\.name) } }
        func info(of name: NSNotification.Name) -> [AnyHashable: Any]? {
            lock.withLock { posted.last { $0.name == name.rawValue }?.info }
        }
        func clear() { lock.withLock { posted.removeAll() } }
        deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
    }

    /// The app's video delegate: the times of the frames it got, and of the drops with their reasons.
    final class Frames: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var outputTimes: [Double] = []
        private var dropRecords: [(time: Double, reason: String?, hasPixels: Bool)] = []
        let queue = DispatchQueue(label: "app.video")

        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            let t = CMSampleBufferGetPresentationTimeStamp(sampleBuffer).seconds
            lock.withLock { outputTimes.append(t) }
        }

        func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            let reason = (CMGetAttachment(
                sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) as? NSString)
                .map { String(describing: $0) }
            let record = (
                CMSampleBufferGetPresentationTimeStamp(sampleBuffer).seconds, reason,
                CMSampleBufferGetImageBuffer(sampleBuffer) != nil
            )
            lock.withLock { dropRecords.append(record) }
        }

        var times: [Double] { lock.withLock { outputTimes } }
        var drops: [(time: Double, reason: String?, hasPixels: Bool)] { lock.withLock { dropRecords } }
    }

    /// A running 640x480 session with a video data output, as an app sets it up.
    struct App {
        let session = AVCaptureSession()
        let camera: AVCaptureDevice
        let frames = Frames()
        let notes: SessionNotes

        init(movie: AVCaptureMovieFileOutput? = nil) throws {
            camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            let input = try AVCaptureDeviceInput(device: camera)
            if session.canAddInput(input) { session.addInput(input) }
            if let movie {
                if session.canAddOutput(movie) { session.addOutput(movie) }
            } else {
                let video = AVCaptureVideoDataOutput()
                video.setSampleBufferDelegate(frames, queue: frames.queue)
                if session.canAddOutput(video) { session.addOutput(video) }
            }
            session.commitConfiguration()
            notes = SessionNotes(session)
            session.startRunning()
        }
    }

    private func inWorld(_ body: () throws -> Void) throws {
        try Emulator.shared.withWorld(device: "iphone-15-pro", clock: .manual) { try body() }
    }

    // MARK: Runtime errors (spec §21 rule 1)

    // The error arrives under AVCaptureSessionErrorKey, the session stops, and startRunning() — what
    // Apple's AVCam does for .mediaServicesWereReset — brings the frames back.
    @Test func mediaServicesWereResetStopsTheSessionAndARestartResumesFrames() throws {
        try inWorld {
            let app = try App()
            let running = LockedArray<Bool>()
            let token = app.session.observe(\.isRunning, options: [.new]) { _, change in
                if let value = change.newValue { running.append(value) }
            }
            defer { token.invalidate() }
            app.notes.clear()
            Emulator.shared.runFrames(5)
            #expect(app.frames.times.count == 5)

            Emulator.shared.inject(.runtimeError(.mediaServicesWereReset), into: app.session)
            #expect(app.notes.names == ["AVCaptureSessionRuntimeErrorNotification", "AVCaptureSessionDidStopRunningNotification"])
            let info = try #require(app.notes.info(of: .AVCaptureSessionRuntimeError))
            let error = try #require(info[AVCaptureSessionErrorKey] as? AVError)
            #expect(error.code == .mediaServicesWereReset)
            let bridged = try #require(info[AVCaptureSessionErrorKey] as? NSError)
            #expect(bridged.domain == AVFoundationErrorDomain && bridged.code == -11819)
            #expect(!app.session.isRunning && !app.session.isInterrupted)
            #expect(running.values == [false])

            Emulator.shared.runFrames(5)
            #expect(app.frames.times.count == 5, "a stopped session delivers nothing")

            app.session.startRunning()
            #expect(app.session.isRunning)
            #expect(app.notes.names.last == "AVCaptureSessionDidStartRunningNotification")
            Emulator.shared.runFrames(5)
            #expect(app.frames.times.count == 10)
            let times = app.frames.times
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "timestamps keep rising")
            app.session.stopRunning()
        }
    }

    // Other documented runtime errors arrive the same way, each with its code.
    @Test func otherRuntimeErrorsCarryTheirCodes() throws {
        try inWorld {
            let app = try App()
            for (code, raw) in [
                (AVError.Code.sessionHardwareCostOverage, -11872), (.deviceIsNotAvailableInBackground, -11837),
                (.deviceWasDisconnected, -11808),
            ] {
                app.session.startRunning()
                app.notes.clear()
                Emulator.shared.inject(.runtimeError(code), into: app.session)
                let error = app.notes.info(of: .AVCaptureSessionRuntimeError)?[AVCaptureSessionErrorKey] as? NSError
                #expect(error?.code == raw)
                #expect(!app.session.isRunning)
                #expect(app.notes.names.last == "AVCaptureSessionDidStopRunningNotification")
            }
        }
    }

    // A fault scheduled at a time happens before the first frame presented at that time.
    @Test func aRuntimeErrorScheduledAtHalfASecondEndsTheStreamThere() throws {
        try inWorld {
            Emulator.shared.schedule(.runtimeError(.mediaServicesWereReset), at: .seconds(0.5))
            let app = try App()
            Emulator.shared.runFrames(30)
            let times = app.frames.times
            #expect(times.count == 15, "30 fps: frames at 0 … 14/30 s, then the error")
            #expect((times.last ?? 1) < 0.5)
            #expect(!app.session.isRunning)
            #expect(Emulator.shared.trace.contains { $0.section == "§21" && $0.rule == 1 })
        }
    }

    // Under the free-running clock the scheduled faults fire on the stream's own thread: the error
    // stops the session there, the app's restart on its queue starts a new stream, and an interruption
    // scheduled with its end runs its course while no frame is delivered.
    @Test func scheduledFaultsFireUnderTheFreeRunningClock() throws {
        try Emulator.shared.withWorld(device: "iphone-15-pro", clock: .virtual) {
            Emulator.shared.schedule(.runtimeError(.mediaServicesWereReset), at: .frame(5))
            Emulator.shared.schedule(.interruption(.videoDeviceNotAvailableInBackground), at: .frame(8))
            Emulator.shared.schedule(.interruptionEnded, at: .frame(12))
            let failed = DispatchSemaphore(value: 0)
            let ended = DispatchSemaphore(value: 0)
            let session = AVCaptureSession()
            let restart = DispatchQueue(label: "app.session")
            let tokens = [
                NotificationCenter.default.addObserver(forName: .AVCaptureSessionRuntimeError, object: session, queue: nil) { _ in
                    failed.signal()
                },
                NotificationCenter.default.addObserver(forName: .AVCaptureSessionInterruptionEnded, object: session, queue: nil) {
                    _ in ended.signal()
                },
            ]
            defer { tokens.forEach(NotificationCenter.default.removeObserver) }
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let frames = Frames()
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            session.addInput(try AVCaptureDeviceInput(device: camera))
            let video = AVCaptureVideoDataOutput()
            video.setSampleBufferDelegate(frames, queue: frames.queue)
            session.addOutput(video)
            session.commitConfiguration()
            session.startRunning()
            #expect(failed.wait(timeout: .now() + 30) == .success)
            // As AVCam does: restart on the app's session queue.
            restart.sync { session.startRunning() }
            #expect(ended.wait(timeout: .now() + 30) == .success)
            let deadline = Date(timeIntervalSinceNow: 30)
            while frames.times.count < 9, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            session.stopRunning()
            // Frames 0-4; the error takes frame 5's turn; after the restart 6 and 7; the interruption
            // keeps 8-11 from the app; then 12 on.
            let expected = [0, 1, 2, 3, 4, 6, 7, 12, 13].map { Double($0) / 30 }
            let times = Array(frames.times.prefix(9))
            #expect(times.count == 9)
            #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(times)")
        }
    }

    // MARK: Interruptions (spec §21 rule 2)

    // Each reason Apple defines arrives under AVCaptureSessionInterruptionReasonKey; nothing is
    // delivered while interrupted, and the end of the interruption restarts the frames.
    @Test func everyInterruptionReasonStopsFramesUntilItEnds() throws {
        try inWorld {
            let app = try App()
            let reasons: [AVCaptureSession.InterruptionReason] = [
                .videoDeviceNotAvailableInBackground, .audioDeviceInUseByAnotherClient,
                .videoDeviceInUseByAnotherClient, .videoDeviceNotAvailableWithMultipleForegroundApps,
                .videoDeviceNotAvailableDueToSystemPressure, .sensitiveContentMitigationActivated,
            ]
            var delivered = 0
            for reason in reasons {
                app.notes.clear()
                Emulator.shared.inject(.interruption(reason), into: app.session)
                #expect(app.notes.names == ["AVCaptureSessionWasInterruptedNotification", "AVCaptureSessionDidStopRunningNotification"])
                let raw = app.notes.info(of: .AVCaptureSessionWasInterrupted)?[AVCaptureSessionInterruptionReasonKey] as? Int
                #expect(raw.flatMap(AVCaptureSession.InterruptionReason.init(rawValue:)) == reason)
                #expect(app.session.isInterrupted && !app.session.isRunning)
                Emulator.shared.runFrames(3)
                #expect(app.frames.times.count == delivered, "no frames while interrupted (\(reason))")
                Emulator.shared.inject(.interruptionEnded, into: app.session)
                #expect(app.notes.names.suffix(2) == ["AVCaptureSessionInterruptionEndedNotification", "AVCaptureSessionDidStartRunningNotification"])
                #expect(app.session.isRunning && !app.session.isInterrupted)
                Emulator.shared.runFrames(2)
                delivered += 2
                #expect(app.frames.times.count == delivered)
            }
        }
    }

    // Another app takes the camera at frame 3 and gives it back at frame 8: frames 0-2 and 8-11 arrive.
    @Test func aCameraInUseByAnotherClientInterruptsBetweenScheduledFrames() throws {
        try inWorld {
            Emulator.shared.schedule(.interruption(.videoDeviceInUseByAnotherClient), at: .frame(3))
            Emulator.shared.schedule(.interruptionEnded, at: .frame(8))
            let app = try App()
            Emulator.shared.runFrames(12)
            let frame = 1.0 / 30
            let expected = [0, 1, 2, 8, 9, 10, 11].map { Double($0) * frame }
            #expect(app.frames.times.count == expected.count)
            #expect(zip(app.frames.times, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(app.frames.times)")
            let raw = app.notes.info(of: .AVCaptureSessionWasInterrupted)?[AVCaptureSessionInterruptionReasonKey] as? Int
            #expect(raw == AVCaptureSession.InterruptionReason.videoDeviceInUseByAnotherClient.rawValue)
            #expect(app.session.isRunning)
        }
    }

    // MARK: System pressure (spec §21 rule 3)

    // The device's state is key-value observable; serious and critical hold the flash back and cap
    // the frame rate (30, 15 fps); shutdown interrupts with the state in the notification, and the
    // session runs again once the pressure abates.
    @Test func systemPressureThrottlesHoldsTheFlashAndShutsDown() throws {
        try inWorld {
            let app = try App()
            #expect(app.camera.systemPressureState.level == .nominal && app.camera.isFlashAvailable)
            let levels = LockedArray<String>()
            let token = app.camera.observe(\.systemPressureState, options: [.new]) { device, _ in
                levels.append(device.systemPressureState.level.rawValue)
            }
            defer { token.invalidate() }

            Emulator.shared.inject(.systemPressure(.critical, factors: [.systemTemperature, .peakPower]), into: app.session)
            #expect(app.camera.systemPressureState.level == .critical)
            #expect(app.camera.systemPressureState.factors == [.systemTemperature, .peakPower])
            #expect(!app.camera.isFlashAvailable && !app.camera.isTorchAvailable)
            Emulator.shared.run(for: CMTime(value: 1, timescale: 1))
            let times = app.frames.times
            #expect(times.count == 15, "critical: 15 fps")
            #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 15) < 1e-6 })

            app.notes.clear()
            Emulator.shared.inject(.systemPressure(.shutdown, factors: .systemTemperature), into: app.session)
            let info = try #require(app.notes.info(of: .AVCaptureSessionWasInterrupted))
            #expect(info[AVCaptureSessionInterruptionReasonKey] as? Int == 5)
            let state = info[AVCaptureSessionInterruptionSystemPressureStateKey] as? AVCaptureDevice.SystemPressureState
            #expect(state?.level == .shutdown && state?.factors == .systemTemperature)
            #expect(app.session.isInterrupted)

            Emulator.shared.inject(.systemPressure(.nominal, factors: []), into: app.session)
            #expect(app.notes.names.contains("AVCaptureSessionInterruptionEndedNotification"))
            #expect(app.session.isRunning && app.camera.isFlashAvailable)
            let before = app.frames.times.count
            Emulator.shared.run(for: CMTime(value: 1, timescale: 1))
            #expect(app.frames.times.count - before == 30, "nominal: the format's 30 fps again")
            #expect(levels.values == ["critical", "shutdown", "nominal"])
        }
    }

    // The process's thermal state follows a pressure of the system's temperature, and its notification is posted on
    // each change; a pressure of another cause leaves it nominal.
    @Test func thermalStateFollowsTheSystemTemperature() throws {
        try inWorld {
            let app = try App()
            let changes = LockedArray<Int>()
            // The notification is posted on the thread that changed the state; tests running beside this one heat
            // phones of their own, on other threads, and are not counted.
            let thread = ObjectIdentifier(Thread.current)
            let token = NotificationCenter.default.addObserver(
                forName: ProcessInfo.thermalStateDidChangeNotification, object: ProcessInfo.processInfo, queue: nil
            ) { note in
                guard ObjectIdentifier(Thread.current) == thread else { return }
                changes.append((note.object as? ProcessInfo)?.thermalState.rawValue ?? -1)
            }
            defer { NotificationCenter.default.removeObserver(token) }
            #expect(ProcessInfo.processInfo.thermalState == .nominal)
            Emulator.shared.inject(.systemPressure(.serious, factors: .systemTemperature), into: app.session)
            #expect(ProcessInfo.processInfo.thermalState == .serious)
            let hot: AVCaptureDevice.SystemPressureState.Factors = [.peakPower, .systemTemperature]
            Emulator.shared.inject(.systemPressure(.shutdown, factors: hot), into: app.session)
            #expect(ProcessInfo.processInfo.thermalState == .critical)
            Emulator.shared.inject(.systemPressure(.serious, factors: .peakPower), into: app.session)
            #expect(ProcessInfo.processInfo.thermalState == .nominal)
            Emulator.shared.inject(.systemPressure(.nominal, factors: []), into: app.session)
            #expect(changes.values == [2, 3, 0])
        }
    }

    // Each world is a phone of its own: one started while another runs hot reads nominal, and its heat does not
    // reach the other.
    @Test func aFreshWorldStartsCool() throws {
        try inWorld {
            let app = try App()
            Emulator.shared.inject(.systemPressure(.critical, factors: .systemTemperature), into: app.session)
            #expect(ProcessInfo.processInfo.thermalState == .critical)
            try inWorld {
                #expect(ProcessInfo.processInfo.thermalState == .nominal)
                let other = try App()
                Emulator.shared.inject(.systemPressure(.fair, factors: .systemTemperature), into: other.session)
                #expect(ProcessInfo.processInfo.thermalState == .fair)
            }
            #expect(ProcessInfo.processInfo.thermalState == .critical)
        }
    }

    // MARK: Dropped frames (spec §21 rule 4)

    // Each reason reaches didDrop under kCMSampleBufferAttachmentKey_DroppedFrameReason, with the
    // frame's time and no pixels; the frames after the drops arrive as usual.
    @Test func droppedFramesReachDidDropWithTheirReason() throws {
        try inWorld {
            let app = try App()
            let reasons: [(CaptureFault.DroppedFrameReason, CFString)] = [
                (.frameWasLate, kCMSampleBufferDroppedFrameReason_FrameWasLate),
                (.outOfBuffers, kCMSampleBufferDroppedFrameReason_OutOfBuffers),
                (.discontinuity, kCMSampleBufferDroppedFrameReason_Discontinuity),
            ]
            for (n, (reason, constant)) in reasons.enumerated() {
                Emulator.shared.inject(.droppedFrames(2, reason: reason), into: app.session)
                Emulator.shared.runFrames(3)
                let drops = app.frames.drops.suffix(2)
                #expect(drops.count == 2 && drops.allSatisfy { $0.reason == constant as String && !$0.hasPixels })
                #expect(app.frames.times.count == n + 1, "the third frame arrives")
            }
            let drops = app.frames.drops.map(\.time)
            let frame = 1.0 / 30
            #expect(zip(drops, [0, 1, 3, 4, 6, 7].map { Double($0) * frame }).allSatisfy { abs($0 - $1) < 1e-6 })
        }
    }

    // MARK: Thermal flash (spec §21 rule 6)

    @Test func aHotFlashIsUnavailableUntilItCools() throws {
        try inWorld {
            let app = try App()
            let available = LockedArray<Bool>()
            let token = app.camera.observe(\.isFlashAvailable, options: [.new]) { _, change in
                if let value = change.newValue { available.append(value) }
            }
            defer { token.invalidate() }
            Emulator.shared.inject(.flashThermallyUnavailable(true), into: app.session)
            #expect(!app.camera.isFlashAvailable && !app.camera.isTorchAvailable && app.camera.hasFlash)
            Emulator.shared.inject(.flashThermallyUnavailable(false), into: app.session)
            #expect(app.camera.isFlashAvailable)
            #expect(available.values == [false, true])
        }
    }
}

// MARK: A full disk (spec §21 rule 5)

@Suite(.needs(.ffmpeg, .ffprobe))
struct CaptureFaultDiskTests {
    final class Recording: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
        let finished = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var finishError: Error?
        var error: Error? { lock.withLock { finishError } }

        func fileOutput(
            _ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection],
            error: Error?
        ) {
            lock.withLock { finishError = error }
            finished.signal()
        }
    }

    // The recording finishes with AVError.diskFull and AVErrorRecordingSuccessfullyFinishedKey true: the
    // file is finalised, and an independent reader plays every frame written before the disk filled.
    @Test func aFullDiskFinishesAPlayableMovie() throws {
        try Emulator.shared.withWorld(device: "iphone-15-pro", clock: .manual) {
            let movie = AVCaptureMovieFileOutput()
            let app = try CaptureFaultTests.App(movie: movie)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-disk-full-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("clip.mov")
            let delegate = Recording()
            movie.startRecording(to: url, recordingDelegate: delegate)
            Emulator.shared.runFrames(12)
            Emulator.shared.inject(.diskFull, into: app.session)
            #expect(delegate.finished.wait(timeout: .now() + 60) == .success)
            let error = try #require(delegate.error as? AVError)
            #expect(error.code == .diskFull && (error as NSError).code == -11807)
            #expect(error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true)
            #expect(app.session.isRunning, "a full disk ends the recording, not the session")
            #expect(try probedFrames(url) == 12)
            app.session.stopRunning()
        }
    }

    /// The frames ffprobe decodes from the video stream.
    private func probedFrames(_ url: URL) throws -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ExternalTool.ffprobe.require())
        process.arguments = [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
            "-of", "csv=p=0", url.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        return Int(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
