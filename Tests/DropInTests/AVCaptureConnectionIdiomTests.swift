import AVFoundation
import Testing

// Connection orientation, mirroring and stabilization as capture code sets them (spec §1.5).

/// A session with the back camera and a video data output, configured as sample code does.
private func videoSession() throws -> (AVCaptureSession, AVCaptureVideoDataOutput, AVCaptureDevice) {
    let session = AVCaptureSession()
    session.beginConfiguration()
    session.sessionPreset = .vga640x480
    let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
    let input = try AVCaptureDeviceInput(device: device)
    if session.canAddInput(input) { session.addInput(input) }
    let output = AVCaptureVideoDataOutput()
    if session.canAddOutput(output) { session.addOutput(output) }
    session.commitConfiguration()
    return (session, output, device)
}

extension DropIn {
    @Suite struct AVCaptureConnectionIdiomTests {
        @Test func orientationRawValuesAreApples() {
            #expect(AVCaptureVideoOrientation.portrait.rawValue == 1)
            #expect(AVCaptureVideoOrientation.portraitUpsideDown.rawValue == 2)
            #expect(AVCaptureVideoOrientation.landscapeRight.rawValue == 3)
            #expect(AVCaptureVideoOrientation.landscapeLeft.rawValue == 4)
        }

        @Test func stabilizationModeRawValuesAreApples() {
            let modes: [AVCaptureVideoStabilizationMode] = [
                .off, .standard, .cinematic, .cinematicExtended, .previewOptimized, .cinematicExtendedEnhanced, .auto,
            ]
            #expect(modes.map(\.rawValue) == [0, 1, 2, 3, 4, 5, -1])
        }

        @Test func videoOutputConnectionStartsInLandscape() throws {
            let (session, output, _) = try videoSession()
            // Outputs lose their connections when the session goes away, so it lives to the end of the test.
            defer { withExtendedLifetime(session) {} }
            let connection = try #require(output.connection(with: .video))
            // spec §1.5 [O]: an output's buffers come in the sensor's landscape orientation.
            #expect(connection.isVideoOrientationSupported)
            #expect(connection.videoRotationAngle == 0)
            #expect(connection.videoOrientation == .landscapeRight)
        }

        @Test func settingVideoOrientationSetsTheRotationAngle() throws {
            let (session, output, _) = try videoSession()
            // Outputs lose their connections when the session goes away, so it lives to the end of the test.
            defer { withExtendedLifetime(session) {} }
            let connection = try #require(output.connection(with: .video))
            if connection.isVideoOrientationSupported { connection.videoOrientation = .portrait }
            #expect(connection.videoRotationAngle == 90)
            connection.videoOrientation = .landscapeLeft
            #expect(connection.videoRotationAngle == 180)
            connection.videoRotationAngle = 270
            #expect(connection.videoOrientation == .portraitUpsideDown)
        }

        @Test func rotationAnglesAreQuarterTurns() throws {
            let (session, output, _) = try videoSession()
            // Outputs lose their connections when the session goes away, so it lives to the end of the test.
            defer { withExtendedLifetime(session) {} }
            let connection = try #require(output.connection(with: .video))
            // spec §1.5 [D]: 0, 90, 180 and 270 degrees.
            for angle: CGFloat in [0, 90, 180, 270] { #expect(connection.isVideoRotationAngleSupported(angle)) }
            for angle: CGFloat in [45, 360, -90, 89.5] { #expect(!connection.isVideoRotationAngleSupported(angle)) }
        }

        @Test func mirroringIsAutomaticByDefault() throws {
            let (session, output, _) = try videoSession()
            // Outputs lose their connections when the session goes away, so it lives to the end of the test.
            defer { withExtendedLifetime(session) {} }
            let connection = try #require(output.connection(with: .video))
            #expect(connection.isVideoMirroringSupported)
            #expect(connection.automaticallyAdjustsVideoMirroring)
            #expect(!connection.isVideoMirrored)
            connection.automaticallyAdjustsVideoMirroring = false
            connection.isVideoMirrored = true
            #expect(connection.isVideoMirrored)
        }

        @Test func stabilizationIsOffUntilAskedAndNeverActiveAuto() throws {
            let (session, output, _) = try videoSession()
            // Outputs lose their connections when the session goes away, so it lives to the end of the test.
            defer { withExtendedLifetime(session) {} }
            let connection = try #require(output.connection(with: .video))
            #expect(connection.preferredVideoStabilizationMode == .off)
            #expect(connection.activeVideoStabilizationMode == .off)
            if connection.isVideoStabilizationSupported {
                connection.preferredVideoStabilizationMode = .auto
                // spec §1.5 [D]: the active mode is never .auto.
                #expect(connection.activeVideoStabilizationMode != .auto)
                #expect(connection.activeVideoStabilizationMode != .off)
                // spec §1.5 [D]: intrinsic matrix delivery is unsupported while stabilization runs.
                #expect(!connection.isCameraIntrinsicMatrixDeliverySupported)
            }
        }

        @Test func movieOutputStabilizesAsTheAVCamSampleAsks() throws {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = .hd1920x1080
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: device)
            if session.canAddInput(input) { session.addInput(input) }
            let movie = AVCaptureMovieFileOutput()
            if session.canAddOutput(movie) { session.addOutput(movie) }
            session.commitConfiguration()
            defer { withExtendedLifetime(session) {} }
            let connection = try #require(movie.connection(with: .video))
            // spec §1.5 [I]: a 1080p format keeps the margin the standard mode needs.
            #expect(device.activeFormat.isVideoStabilizationModeSupported(.standard))
            #expect(connection.isVideoStabilizationSupported)
            connection.preferredVideoStabilizationMode = .auto
            #expect(connection.activeVideoStabilizationMode == .standard)
            // spec §1.5 [I]: the emulated preview draws no picture, so its connection offers none.
            let preview = AVCaptureVideoPreviewLayer(session: session)
            #expect(preview.connection?.isVideoStabilizationSupported == false)
        }

        @Test func rotationCoordinatorForAPhoneHeldInPortrait() throws {
            let (session, _, device) = try videoSession()
            let preview = AVCaptureVideoPreviewLayer(session: session)
            let coordinator = AVCaptureDevice.RotationCoordinator(device: device, previewLayer: preview)
            // spec §16.3 [D]: 90° keeps a portrait capture level with the horizon.
            #expect(coordinator.videoRotationAngleForHorizonLevelCapture == 90)
            #expect(coordinator.videoRotationAngleForHorizonLevelPreview == 90)
            #expect(coordinator.device === device && coordinator.previewLayer === preview)
            let connection = try #require(preview.connection)
            if connection.isVideoRotationAngleSupported(coordinator.videoRotationAngleForHorizonLevelPreview) {
                connection.videoRotationAngle = coordinator.videoRotationAngleForHorizonLevelPreview
            }
            #expect(connection.videoRotationAngle == 90)
        }
    }
}
