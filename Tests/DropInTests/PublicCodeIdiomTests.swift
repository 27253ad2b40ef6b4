import AVFoundation
import ImageIO
import Testing
import Vision

// Calls that Apple's sample programs and widely used camera libraries make, each written as they write it, with the
// answer Apple's documentation gives. Each of these calls once failed to compile here.
extension DropIn {
    @Suite struct PublicCodeIdiomTests {
        // Apple's samples handle a runtime error by making an AVError of the notification's NSError.
        @Test func anAVErrorMadeFromTheNotificationsNSError() throws {
            let posted: [AnyHashable: Any] = [
                AVCaptureSessionErrorKey: NSError(
                    domain: AVFoundationErrorDomain, code: -11819,
                    userInfo: [AVErrorRecordingSuccessfullyFinishedKey: true])
            ]
            let notification = Notification(name: .AVCaptureSessionRuntimeError, object: nil, userInfo: posted)
            let errorValue = try #require(notification.userInfo?[AVCaptureSessionErrorKey] as? NSError)
            let error = AVError(_nsError: errorValue)
            #expect(error.code == .mediaServicesWereReset)
            #expect(error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true)
            #expect((error as NSError).code == -11819)
            // A code of the domain that the emulator never reports still makes an error of the domain.
            let other = AVError(_nsError: NSError(domain: AVFoundationErrorDomain, code: -11999))
            #expect(other.code == .unknown)
        }

        // Apple's 2025 camera sample sets the app's audio session up for recording movies before it starts the
        // capture session; the route then has the microphone in and, by `.defaultToSpeaker`, the speaker out.
        @Test func theAudioSessionOfAMovieCameraApp() throws {
            let audioSession = AVAudioSession.sharedInstance()
            try audioSession.setCategory(
                .playAndRecord, mode: .videoRecording, options: [.defaultToSpeaker, .allowBluetoothHFP])
            try audioSession.setActive(true)
            #expect(audioSession.category == .playAndRecord && audioSession.mode == .videoRecording)
            #expect(audioSession.categoryOptions == [.defaultToSpeaker, .allowBluetooth])
            #expect(audioSession.currentRoute.inputs.map(\.portType) == [.builtInMic])
            #expect(audioSession.currentRoute.outputs.map(\.portType) == [.builtInSpeaker])
            try audioSession.setCategory(.playAndRecord, mode: .default, options: [])
            #expect(audioSession.currentRoute.outputs.map(\.portType) == [.builtInReceiver])
            #expect(audioSession.availableInputs?.map(\.portType) == [.builtInMic])
            // The microphone records as the capture API delivers its sound.
            #expect(audioSession.sampleRate == 44_100 && audioSession.inputNumberOfChannels == 1)
            try audioSession.setActive(false, options: .notifyOthersOnDeactivation)
        }

        // A capture session that starts with a microphone input switches an audio session that only plays to one
        // that records, as `automaticallyConfiguresApplicationAudioSession` says; one that records already stays.
        @Test func aCaptureSessionWithAMicrophoneSetsTheAudioSessionUpToRecord() throws {
            let audioSession = AVAudioSession.sharedInstance()
            try audioSession.setCategory(.playback, mode: .moviePlayback, options: [])
            let session = AVCaptureSession()
            session.beginConfiguration()
            let camera = try #require(AVCaptureDevice.default(for: .video))
            let microphone = try #require(AVCaptureDevice.default(for: .audio))
            session.addInput(try AVCaptureDeviceInput(device: camera))
            session.addInput(try AVCaptureDeviceInput(device: microphone))
            session.commitConfiguration()
            session.startRunning()
            session.stopRunning()
            #expect(audioSession.category == .playAndRecord)
            #expect(!audioSession.categoryOptions.contains(.mixWithOthers))
            try audioSession.setCategory(.record)
            session.configuresApplicationAudioSessionToMixWithOthers = true
            session.startRunning()
            session.stopRunning()
            #expect(audioSession.category == .record)
            // Asked to, the session lets other apps' sound play on while it records.
            #expect(audioSession.categoryOptions.contains(.mixWithOthers))
            // Recording permission is the microphone's capture authorisation, under both of its APIs.
            let granted = AVCaptureDevice.authorizationStatus(for: .audio) == .authorized
            #expect((audioSession.recordPermission == .granted) == granted)
            #expect((AVAudioApplication.shared.recordPermission == .granted) == granted)
            #expect(AVAudioSession.RecordPermission.granted.rawValue == 0x6772_6E74)
        }

        // A recorder that pauses moves later samples back by the pause: it reads each sample's timing, shifts it and
        // writes a copy with the new timing, whose pixels are the original's.
        /// A video sample of a new BGRA pixel buffer, with the timing given, made as a recorder or a test makes one.
        static func videoSample(width: Int, height: Int, duration: CMTime, presentation: CMTime) throws
            -> (sample: CMSampleBuffer, image: CVPixelBuffer)
        {
            var pixels: CVPixelBuffer?
            #expect(CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &pixels) == kCVReturnSuccess)
            let image = try #require(pixels)
            var format: CMFormatDescription?
            _ = CMVideoFormatDescriptionCreateForImageBuffer(
                allocator: nil, imageBuffer: image, formatDescriptionOut: &format)
            var timing = CMSampleTimingInfo(duration: duration, presentationTimeStamp: presentation, decodeTimeStamp: .invalid)
            var created: CMSampleBuffer?
            _ = CMSampleBufferCreateReadyWithImageBuffer(
                allocator: nil, imageBuffer: image, formatDescription: try #require(format), sampleTiming: &timing,
                sampleBufferOut: &created)
            return (try #require(created), image)
        }

        @Test func aSampleCopiedWithNewTimingForAPausedRecording() throws {
            let (sample, image) = try Self.videoSample(
                width: 64, height: 48, duration: CMTime(value: 1, timescale: 30),
                presentation: CMTime(value: 300, timescale: 30))

            var count: CMItemCount = 0
            #expect(
                CMSampleBufferGetSampleTimingInfoArray(
                    sample, entryCount: 0, arrayToFill: nil, entriesNeededOut: &count) == noErr)
            #expect(count == 1)
            var info = [CMSampleTimingInfo](repeating: CMSampleTimingInfo(), count: count)
            #expect(
                CMSampleBufferGetSampleTimingInfoArray(
                    sample, entryCount: count, arrayToFill: &info, entriesNeededOut: &count) == noErr)
            #expect(info[0].presentationTimeStamp == CMTime(value: 300, timescale: 30))
            let pause = CMTime(value: 2, timescale: 1)
            for i in 0..<count { info[i].presentationTimeStamp = CMTimeSubtract(info[i].presentationTimeStamp, pause) }
            var moved: CMSampleBuffer?
            #expect(
                CMSampleBufferCreateCopyWithNewTiming(
                    allocator: nil, sampleBuffer: sample, sampleTimingEntryCount: count, sampleTimingArray: &info,
                    sampleBufferOut: &moved) == noErr)
            let copy = try #require(moved)
            #expect(CMSampleBufferGetPresentationTimeStamp(copy).seconds == 8)
            #expect(CMSampleBufferGetDuration(copy) == CMTime(value: 1, timescale: 30))
            #expect(CMSampleBufferGetImageBuffer(copy) === image)
            #expect(CMSampleBufferGetPresentationTimeStamp(sample).seconds == 10)
            // An array too small for the entries is refused.
            var none = [CMSampleTimingInfo]()
            #expect(
                CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: 0, arrayToFill: &none, entriesNeededOut: nil)
                    == kCMSampleBufferError_ArrayTooSmall)
        }

        // Swift code reads the same timing through the overlay's throwing calls; an index outside the samples is
        // Core Media's documented kCMSampleBufferError_SampleIndexOutOfRange (-12734), in the C call and as the
        // overlay's error.
        @Test func aSamplesTimingThroughTheOverlay() throws {
            let sample = try Self.videoSample(
                width: 32, height: 24, duration: CMTime(value: 1, timescale: 60),
                presentation: CMTime(value: 90, timescale: 60)
            ).sample

            let first = try sample.sampleTimingInfo(at: 0)
            #expect(first.presentationTimeStamp == CMTime(value: 90, timescale: 60))
            #expect(first.duration == CMTime(value: 1, timescale: 60))
            let all = try sample.sampleTimingInfos()
            #expect(all.count == 1 && all[0].presentationTimeStamp.seconds == 1.5)

            #expect(kCMSampleBufferError_SampleIndexOutOfRange == -12734)
            var out = CMSampleTimingInfo()
            #expect(CMSampleBufferGetSampleTimingInfo(sample, at: 1, timingInfoOut: &out) == -12734)
            #expect(CMSampleBufferGetSampleTimingInfo(sample, at: -1, timingInfoOut: &out) == -12734)
            do {
                _ = try sample.sampleTimingInfo(at: 1)
                Issue.record("an index past the samples was answered")
            } catch let error as NSError {
                #expect(error.domain == NSOSStatusErrorDomain && error.code == -12734)
            }
        }

        // Multi-camera code finds a camera's video port by its source; the ports are the input's own.
        @Test func anInputsPortsFoundByTheirSource() throws {
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            let video = input.ports(
                for: .video, sourceDeviceType: camera.deviceType, sourceDevicePosition: camera.position)
            #expect(video.count == 1 && video.first === input.ports.first { $0.mediaType == .video })
            #expect(
                input.ports(for: nil, sourceDeviceType: nil, sourceDevicePosition: .unspecified).count
                    == input.ports.count)
            #expect(input.ports(for: .video, sourceDeviceType: nil, sourceDevicePosition: .front).isEmpty)
            #expect(input.ports(for: .audio, sourceDeviceType: nil, sourceDevicePosition: .unspecified).isEmpty)
            // A virtual camera's constituents have ports only in a running multi-camera session.
            if let triple = AVCaptureDevice.default(.builtInTripleCamera, for: .video, position: .back) {
                let virtual = try AVCaptureDeviceInput(device: triple)
                #expect(
                    virtual.ports(for: .video, sourceDeviceType: .builtInWideAngleCamera, sourceDevicePosition: .back)
                        .isEmpty)
            }
        }

        // Recording apps meter the microphone through its connection's audio channels. The emulated microphone hears
        // the capture API's test tone, a sine at a quarter of full scale: its mean power is 20 log10(0.25 / √2)
        // = −15.05 dB and its peak 20 log10(0.25) = −12.04 dB.
        @Test func theMicrophoneConnectionsLevels() throws {
            let session = AVCaptureSession()
            let output = AVCaptureAudioDataOutput()
            session.beginConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
            session.addOutput(output)
            session.commitConfiguration()
            let connection = try #require(output.connection(with: .audio))
            #expect(connection.audioChannels.count == 1)
            session.startRunning()
            let channel = try #require(connection.audioChannels.first)
            #expect(abs(Double(channel.averagePowerLevel) - 20 * log10(0.25 / 2.0.squareRoot())) < 0.05)
            #expect(abs(Double(channel.peakHoldLevel) - 20 * log10(0.25)) < 0.05)
            session.stopRunning()
            #expect(channel.averagePowerLevel <= -100 && channel.peakHoldLevel <= -100)
            let video = AVCaptureVideoDataOutput()
            let pictures = AVCaptureSession()
            pictures.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
            pictures.addOutput(video)
            #expect(try #require(video.connection(with: .video)).audioChannels.isEmpty)
        }

        // Libraries list the compressed formats of recent iPhones and use them where the output offers them; here it
        // never does, and a buffer of one cannot be made, so such code takes its uncompressed path.
        @Test func compressedPixelFormatsAreNamedButNotOffered() throws {
            #expect(kCVPixelFormatType_Lossy_32BGRA == 0x2D42_4741)  // '-BGA'
            let output = AVCaptureVideoDataOutput()
            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
            session.addOutput(output)
            let compressed = [
                kCVPixelFormatType_Lossless_32BGRA, kCVPixelFormatType_Lossy_32BGRA,
                kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarVideoRange,
                kCVPixelFormatType_Lossy_420YpCbCr10PackedBiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8Planar,
            ]
            #expect(Set(output.availableVideoPixelFormatTypes).isDisjoint(with: compressed))
            var buffer: CVPixelBuffer?
            #expect(CVPixelBufferCreate(nil, 16, 16, kCVPixelFormatType_Lossy_32BGRA, nil, &buffer) != kCVReturnSuccess)
            #expect(buffer == nil)
        }

        // Libraries keep a camera's uniqueID and find the camera again by it.
        @Test func aDeviceFoundAgainByItsUniqueID() throws {
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let again = try #require(AVCaptureDevice(uniqueID: camera.uniqueID))
            #expect(again === camera)
            let microphone = try #require(AVCaptureDevice.default(for: .audio))
            #expect(AVCaptureDevice(uniqueID: microphone.uniqueID) === microphone)
            let discovered = AVCaptureDevice.DiscoverySession(
                deviceTypes: [.builtInTripleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera],
                mediaType: .video, position: .unspecified
            ).devices
            for device in discovered { #expect(AVCaptureDevice(uniqueID: device.uniqueID) === device) }
            #expect(AVCaptureDevice(uniqueID: "no-such-camera") == nil)
            // The found device is the one a session configures: a lock taken through one is held by the other.
            try again.lockForConfiguration()
            #expect(throws: Never.self) { camera.focusMode = .locked }
            again.unlockForConfiguration()
        }

        // Apple's 2025 camera sample opts in to AirPods as the microphone; recorders of before iOS 15.4 time their
        // writers by the session's clock under its old name.
        @Test func sessionPropertiesOfRecentAndOlderCode() throws {
            let session = AVCaptureSession()
            #expect(!session.configuresApplicationAudioSessionForBluetoothHighQualityRecording)
            session.configuresApplicationAudioSessionForBluetoothHighQualityRecording = true
            #expect(session.configuresApplicationAudioSessionForBluetoothHighQualityRecording)
            let clock = try #require(session.masterClock)
            #expect(clock === session.synchronizationClock)
            #expect(CMClockGetTime(clock).isValid)
        }

        // The old notification name reaches observers of a port's format change.
        @Test func thePortFormatChangeUnderItsOldName() throws {
            #expect(
                NSNotification.Name.AVCaptureInputPortFormatDescriptionDidChange
                    == AVCaptureInput.Port.formatDescriptionDidChangeNotification)
            #expect(
                NSNotification.Name.AVCaptureInputPortFormatDescriptionDidChange.rawValue
                    == "AVCaptureInputPortFormatDescriptionDidChangeNotification")
        }

        // Players and previews fit a picture into a layer with AVMakeRect: the largest rectangle of the picture's
        // shape inside the bounds, centred (worked by hand).
        @Test func aRectangleOfTheAspectRatioFitsTheBounds() {
            let wide = AVMakeRect(
                aspectRatio: CGSize(width: 1920, height: 1080),
                insideRect: CGRect(x: 10, y: 20, width: 320, height: 480))
            #expect(wide == CGRect(x: 10, y: 170, width: 320, height: 180))
            let tall = AVMakeRect(
                aspectRatio: CGSize(width: 3, height: 4), insideRect: CGRect(x: 0, y: 0, width: 400, height: 200))
            #expect(tall == CGRect(x: 125, y: 0, width: 150, height: 200))
            let same = AVMakeRect(
                aspectRatio: CGSize(width: 2, height: 1), insideRect: CGRect(x: 0, y: 0, width: 8, height: 4))
            #expect(same == CGRect(x: 0, y: 0, width: 8, height: 4))
        }

        // Recorders size their writers by the format's presentation dimensions and clean aperture; an emulated
        // format has square pixels and shows the whole picture.
        @Test func aFormatsPresentationSizeIsItsSize() throws {
            let camera = try #require(AVCaptureDevice.default(for: .video))
            let description = camera.activeFormat.formatDescription
            let d = CMVideoFormatDescriptionGetDimensions(description)
            let shown = CMVideoFormatDescriptionGetPresentationDimensions(
                description, usePixelAspectRatio: true, useCleanAperture: true)
            #expect(shown == CGSize(width: CGFloat(d.width), height: CGFloat(d.height)))
            let aperture = CMVideoFormatDescriptionGetCleanAperture(description, originIsAtTopLeft: true)
            #expect(aperture == CGRect(x: 0, y: 0, width: CGFloat(d.width), height: CGFloat(d.height)))
        }

        // Writers' settings of before iOS 11 name the codec by its string; scanners of before iOS 15 name the
        // symbologies with capitals. Both are the same values as the current names.
        @Test func olderNamesOfCodecsLevelsAndSymbologies() {
            #expect(AVVideoCodecH264 == AVVideoCodecType.h264.rawValue)
            #expect(AVVideoCodecJPEG == AVVideoCodecType.jpeg.rawValue)
            #expect(AVVideoProfileLevelH264High40 == "H264_High_4_0")
            #expect(VNBarcodeSymbology.EAN13 == .ean13 && VNBarcodeSymbology.QR == .qr)
            #expect(VNBarcodeSymbology.Code128 == .code128 && VNBarcodeSymbology.UPCE == .upce)
        }
    }
}
