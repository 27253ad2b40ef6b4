import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

/// A capture program written the way Apple's samples write it, with no Obscura call: configure
/// inside begin/commit, start, wait on semaphores for deliveries, capture, stop. It runs on the
/// process's default world (the environment may choose another with `OBSCURA_DEVICE` and friends).
final class DepthCameraProgram: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate,
    AVCaptureDepthDataOutputDelegate, AVCaptureAudioDataOutputSampleBufferDelegate,
    AVCaptureDataOutputSynchronizerDelegate, AVCapturePhotoCaptureDelegate, @unchecked Sendable
{
    let session = AVCaptureSession()
    let videoOutput = AVCaptureVideoDataOutput()
    let depthOutput = AVCaptureDepthDataOutput()
    let audioOutput = AVCaptureAudioDataOutput()
    let photoOutput = AVCapturePhotoOutput()
    var synchronizer: AVCaptureDataOutputSynchronizer?
    let dataQueue = DispatchQueue(label: "camera.data")
    let audioQueue = DispatchQueue(label: "camera.audio")

    let collections = DispatchSemaphore(value: 0)
    let audioBuffers = DispatchSemaphore(value: 0)
    let photoFinished = DispatchSemaphore(value: 0)

    private let lock = NSLock()
    private var _timestamps: [CMTime] = []
    private var _depthSeen = 0
    private var _photos: [AVCapturePhoto] = []
    /// What the capability queries answered inside the open configuration block.
    var insideBlock: [String: Bool] = [:]

    var timestamps: [CMTime] { lock.withLock { _timestamps } }
    var depthSeen: Int { lock.withLock { _depthSeen } }
    var photos: [AVCapturePhoto] { lock.withLock { _photos } }

    func configure() throws {
        session.beginConfiguration()
        session.sessionPreset = .photo
        guard
            let camera = AVCaptureDevice.default(.builtInDualWideCamera, for: .video, position: .back)
                ?? AVCaptureDevice.default(.builtInDualCamera, for: .video, position: .back)
        else { throw CocoaError(.featureUnsupported) }
        let cameraInput = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(cameraInput) { session.addInput(cameraInput) }
        if let microphone = AVCaptureDevice.default(for: .audio) {
            let audioInput = try AVCaptureDeviceInput(device: microphone)
            if session.canAddInput(audioInput) { session.addInput(audioInput) }
        }
        if session.canAddOutput(photoOutput) {
            session.addOutput(photoOutput)
            // As Apple's samples do, inside the block, right after addOutput.
            insideBlock["depthSupported"] = photoOutput.isDepthDataDeliverySupported
            photoOutput.isDepthDataDeliveryEnabled = photoOutput.isDepthDataDeliverySupported
            insideBlock["constantColorSupported"] = photoOutput.isConstantColorSupported
            photoOutput.isConstantColorEnabled = photoOutput.isConstantColorSupported
            if let largest = camera.activeFormat.supportedMaxPhotoDimensions.last {
                photoOutput.maxPhotoDimensions = largest
                insideBlock["maxPhotoDimensionsSet"] =
                    photoOutput.maxPhotoDimensions.width == largest.width
                    && photoOutput.maxPhotoDimensions.height == largest.height
            }
            insideBlock["livePhotoSupported"] = photoOutput.isLivePhotoCaptureSupported
        }
        videoOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
        if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
        if session.canAddOutput(depthOutput) {
            session.addOutput(depthOutput)
            depthOutput.isFilteringEnabled = true
            insideBlock["depthConnection"] = depthOutput.connection(with: .depthData) != nil
        }
        if session.canAddOutput(audioOutput) {
            session.addOutput(audioOutput)
            audioOutput.setSampleBufferDelegate(self, queue: audioQueue)
        }
        session.commitConfiguration()
        synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [videoOutput, depthOutput])
        synchronizer?.setDelegate(self, queue: dataQueue)
    }

    func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer, didOutput collection: AVCaptureSynchronizedDataCollection
    ) {
        guard let video = collection.synchronizedData(for: videoOutput) as? AVCaptureSynchronizedSampleBufferData
        else { return }
        let depth = collection.synchronizedData(for: depthOutput) as? AVCaptureSynchronizedDepthData
        lock.withLock {
            _timestamps.append(video.timestamp)
            if let depth, !depth.depthDataWasDropped { _depthSeen += 1 }
        }
        collections.signal()
    }

    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        if output === audioOutput { audioBuffers.signal() }
    }

    func takePhoto() {
        let settings = AVCapturePhotoSettings()
        settings.flashMode = .auto
        settings.isDepthDataDeliveryEnabled = photoOutput.isDepthDataDeliveryEnabled
        settings.isConstantColorEnabled = photoOutput.isConstantColorEnabled
        settings.isConstantColorFallbackPhotoDeliveryEnabled = photoOutput.isConstantColorEnabled
        // The smallest size the format offers keeps the test quick; `maxPhotoDimensions` was set to
        // the largest inside the configuration block, so any supported size is allowed.
        if let smallest = (session.inputs.first as? AVCaptureDeviceInput)?.device.activeFormat
            .supportedMaxPhotoDimensions.first
        {
            settings.maxPhotoDimensions = smallest
        }
        photoOutput.capturePhoto(with: settings, delegate: self)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        lock.withLock { _photos.append(photo) }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        photoFinished.signal()
    }
}

extension DropIn {
    @Suite struct UnmodifiedCaptureProgramTests {
        // spec §1.3: streams run by themselves after startRunning; capabilities answer inside the block;
        // §1.5 every output has its connection; §2.5 depth at the rate the video rate allows; §8 the
        // synchronizer's collections; the microphone feeds audio.
        @Test func sampleStyleProgramGetsFramesDepthAudioAndAPhoto() throws {
            let program = DepthCameraProgram()
            try program.configure()
            #expect(program.insideBlock["depthSupported"] == true)
            #expect(program.insideBlock["constantColorSupported"] == true)
            #expect(program.insideBlock["maxPhotoDimensionsSet"] == true)
            #expect(program.insideBlock["depthConnection"] == true)
            // spec §20 rule 12: Live Photo is offered under .photo wherever movies can be written.
            let moviesWritable = !AVCaptureMovieFileOutput().availableVideoCodecTypes.isEmpty
            #expect(program.insideBlock["livePhotoSupported"] == moviesWritable)
            #expect(program.photoOutput.isDepthDataDeliveryEnabled && program.photoOutput.isConstantColorEnabled)

            program.session.startRunning()
            #expect(program.session.isRunning)
            for _ in 0..<10 {
                #expect(program.collections.wait(timeout: .now() + 30) == .success)
            }
            for _ in 0..<5 {
                #expect(program.audioBuffers.wait(timeout: .now() + 30) == .success)
            }
            program.takePhoto()
            #expect(program.photoFinished.wait(timeout: .now() + 60) == .success)
            program.session.stopRunning()
            #expect(!program.session.isRunning)

            // Collections come frame after frame on the session clock: 1/30 s apart at 30 fps.
            let t = program.timestamps
            #expect(t.count >= 10)
            let duration = program.videoOutput.connection(with: .video).map { _ in
                AVCaptureDevice.default(.builtInDualWideCamera, for: .video, position: .back)?.activeVideoMinFrameDuration
            }
            if let frame = duration ?? nil {
                for (a, b) in zip(t, t.dropFirst()) { #expect(CMTimeSubtract(b, a) == frame) }
            }
            #expect(program.depthSeen > 0)
            // Constant Color with fallback: the Constant Color photo and the fallback photo.
            let photos = program.photos
            #expect(photos.count == 2)
            #expect(photos.contains { $0.isConstantColorFallbackPhoto })
            #expect(photos.contains { $0.depthData != nil })
        }

        // spec §1.3 [D]: after stopRunning, nothing more arrives.
        @Test func nothingArrivesAfterStopRunning() throws {
            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            let counter = FrameCounter()
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            let camera = try #require(AVCaptureDevice.default(for: .video))
            session.addInput(try AVCaptureDeviceInput(device: camera))
            session.addOutput(output)
            output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "frames"))
            session.commitConfiguration()
            session.startRunning()
            #expect(counter.frames.wait(timeout: .now() + 30) == .success)
            session.stopRunning()
            let stopped = counter.count
            Thread.sleep(forTimeInterval: 0.2)
            #expect(counter.count <= stopped + 1)  // at most a frame already queued when stop came
            #expect(output.connection(with: .video)?.isActive == true)
        }

        // Every iPhone has a microphone, found as apps look for it (spec §2.1).
        @Test func microphoneIsFoundByDefaultAndByDiscovery() throws {
            let microphone = try #require(AVCaptureDevice.default(for: .audio))
            #expect(microphone.hasMediaType(.audio))
            let discovered = AVCaptureDevice.DiscoverySession(
                deviceTypes: [.microphone], mediaType: .audio, position: .unspecified
            ).devices
            #expect(discovered.first === microphone)
            let input = try AVCaptureDeviceInput(device: microphone)
            #expect(input.ports.map(\.mediaType) == [.audio])
        }

        // An audio-only session delivers audio by itself once running.
        @Test func audioOnlySessionDeliversBuffers() throws {
            let session = AVCaptureSession()
            let output = AVCaptureAudioDataOutput()
            let counter = FrameCounter()
            session.beginConfiguration()
            let microphone = try #require(AVCaptureDevice.default(for: .audio))
            session.addInput(try AVCaptureDeviceInput(device: microphone))
            session.addOutput(output)
            #expect(output.connection(with: .audio) != nil)
            output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "audio"))
            session.commitConfiguration()
            session.startRunning()
            defer { session.stopRunning() }
            for _ in 0..<3 { #expect(counter.frames.wait(timeout: .now() + 30) == .success) }
            let buffer = try #require(counter.last)
            #expect(CMSampleBufferGetNumSamples(buffer) == 1024)
        }

        // spec §1.5: a camera input has video, depth (when the camera makes depth) and metadata ports,
        // and each output connects to its own.
        @Test func outputsConnectToTheirPorts() throws {
            let session = AVCaptureSession()
            let camera = try #require(AVCaptureDevice.default(.builtInDualWideCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            #expect(input.ports.map(\.mediaType).contains(.depthData))
            let depth = AVCaptureDepthDataOutput()
            let video = AVCaptureVideoDataOutput()
            let metadata = AVCaptureMetadataOutput()
            session.beginConfiguration()
            session.addInput(input)
            session.addOutput(video)
            session.addOutput(depth)
            session.addOutput(metadata)
            session.commitConfiguration()
            #expect(depth.connection(with: .depthData) != nil)
            #expect(depth.connection(with: .video) == nil)
            #expect(video.connection(with: .video) != nil)
            #expect(metadata.connection(with: .metadataObject) != nil)
        }
    }
}

/// Counts deliveries from any data output.
final class FrameCounter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate,
    AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable
{
    let frames = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _count = 0
    private var _last: CMSampleBuffer?
    var count: Int { lock.withLock { _count } }
    var last: CMSampleBuffer? { lock.withLock { _last } }

    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        lock.withLock {
            _count += 1
            _last = sampleBuffer
        }
        frames.signal()
    }
}
