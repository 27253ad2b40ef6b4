import AVFoundation
import Foundation
import Testing

/// A Constant Color camera written the way Apple's Constant Color sample and its ports write it: the
/// back camera, a video data output for the viewfinder whose connection is mirrored at every launch
/// (leaving `automaticallyAdjustsVideoMirroring` at its default), and a photo output with Constant
/// Color and its fallback photo. Apple's names only, so it would build for iOS unchanged.
final class ConstantColorCameraProgram: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate,
    AVCapturePhotoCaptureDelegate, @unchecked Sendable
{
    let session = AVCaptureSession()
    let videoOutput = AVCaptureVideoDataOutput()
    let photoOutput = AVCapturePhotoOutput()
    private let videoQueue = DispatchQueue(label: "viewfinder frames")
    private let lock = NSLock()
    private var _lumaColumns: [[Double]] = []
    private var _photos: [AVCapturePhoto] = []
    private let framesArrived = DispatchSemaphore(value: 0)
    private let captureFinished = DispatchSemaphore(value: 0)

    /// Builds the session; `mirrors` is what the sample sets on the viewfinder's connection.
    func configure(mirrors: Bool) throws {
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
            throw CocoaError(.featureUnsupported)
        }
        session.beginConfiguration()
        session.sessionPreset = .photo
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(photoOutput) { session.addOutput(photoOutput) }
        if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
        videoOutput.setSampleBufferDelegate(self, queue: videoQueue)
        if let connection = videoOutput.connection(with: .video), connection.isVideoMirroringSupported {
            connection.isVideoMirrored = mirrors
        }
        photoOutput.maxPhotoDimensions = camera.activeFormat.supportedMaxPhotoDimensions.first ?? photoOutput.maxPhotoDimensions
        photoOutput.isConstantColorEnabled = photoOutput.isConstantColorSupported
        session.commitConfiguration()
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let columns = Self.lumaColumnMeans(pixels)
        lock.withLock { _lumaColumns.append(columns) }
        framesArrived.signal()
    }

    /// The mean of each column of the frame's luma plane, as a viewfinder's exposure meter might read it.
    static func lumaColumnMeans(_ buffer: CVPixelBuffer) -> [Double] {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let planar = CVPixelBufferIsPlanar(buffer)
        let width = planar ? CVPixelBufferGetWidthOfPlane(buffer, 0) : CVPixelBufferGetWidth(buffer)
        let height = planar ? CVPixelBufferGetHeightOfPlane(buffer, 0) : CVPixelBufferGetHeight(buffer)
        let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) : CVPixelBufferGetBytesPerRow(buffer)
        let step = planar ? 1 : 4
        guard let base = planar ? CVPixelBufferGetBaseAddressOfPlane(buffer, 0) : CVPixelBufferGetBaseAddress(buffer)
        else { return [] }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var sums = [Double](repeating: 0, count: width)
        for y in 0..<height {
            for x in 0..<width { sums[x] += Double(bytes[y * stride + x * step + (planar ? 0 : 1)]) }
        }
        return sums.map { $0 / Double(height) }
    }

    /// Runs until `frames` viewfinder frames have arrived, then takes one Constant Color photo and
    /// waits for the capture to finish; returns the frames' column profiles and the photos in order.
    func run(frames: Int) -> (columns: [[Double]], photos: [AVCapturePhoto])? {
        session.startRunning()
        defer { session.stopRunning() }
        for _ in 0..<frames where framesArrived.wait(timeout: .now() + 60) != .success { return nil }
        let settings = AVCapturePhotoSettings()
        settings.flashMode = .auto
        settings.isConstantColorEnabled = photoOutput.isConstantColorEnabled
        settings.isConstantColorFallbackPhotoDeliveryEnabled = photoOutput.isConstantColorEnabled
        photoOutput.capturePhoto(with: settings, delegate: self)
        guard captureFinished.wait(timeout: .now() + 120) == .success else { return nil }
        return lock.withLock { (_lumaColumns, _photos) }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        guard error == nil else { return }
        lock.withLock { _photos.append(photo) }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        captureFinished.signal()
    }
}

extension DropIn {
    @Suite struct ConstantColorCameraProgramTests {
        // Capture rules, Rule M: the sample mirrors its viewfinder's connection with automatic mirroring
        // on, and runs; the frames arrive mirrored; the photo output delivers the fallback photo and then
        // the Constant Color photo with its confidence, as the sample's completion logic expects.
        @Test func mirroredViewfinderAndAConstantColorPhotoWithItsFallback() throws {
            let mirrored = ConstantColorCameraProgram()
            try mirrored.configure(mirrors: true)
            let connection = try #require(mirrored.videoOutput.connection(with: .video))
            #expect(connection.automaticallyAdjustsVideoMirroring)
            #expect(connection.isVideoMirrored)
            #expect(mirrored.photoOutput.isConstantColorEnabled)
            let run = try #require(mirrored.run(frames: 3))

            #expect(run.photos.count == 2)
            let fallback = try #require(run.photos.first)
            let constant = try #require(run.photos.last)
            #expect(fallback.isConstantColorFallbackPhoto)
            #expect(!constant.isConstantColorFallbackPhoto)
            #expect(fallback.constantColorConfidenceMap == nil)
            let map = try #require(constant.constantColorConfidenceMap)
            #expect(CVPixelBufferGetWidth(map) > 0)
            let level = constant.constantColorCenterWeightedMeanConfidenceLevel
            #expect(level >= 0 && level <= 1)
            #expect(try #require(constant.fileDataRepresentation()).count > 10_000)

            // The same camera unmirrored: its frames' column profile is the mirrored one reversed.
            let plain = ConstantColorCameraProgram()
            try plain.configure(mirrors: false)
            let plainRun = try #require(plain.run(frames: 3))
            let a = try #require(run.columns.last), b = try #require(plainRun.columns.last)
            #expect(a.count == b.count && a.count > 100)
            func distance(_ x: [Double], _ y: [Double]) -> Double {
                zip(x, y).map { abs($0 - $1) }.reduce(0, +) / Double(x.count)
            }
            let reversed = distance(a, b.reversed()), same = distance(a, b)
            #expect(reversed < 2, "mean column difference to the reversed unmirrored frame: \(reversed)")
            #expect(same > 3 * reversed, "the scene is not symmetric enough to tell: \(same) against \(reversed)")
        }

        // Capture rules §2.4 (our choice): the sample's capture keeps to an exposure limit the app sets on the
        // camera, as an ordinary photo does. Both photos report the pair's exposure time in their Exif; with the
        // limit at half the time the pair took without one, both report at most that half.
        @Test func constantColorPhotosKeepToTheCamerasExposureLimit() throws {
            func exposureTimes(_ photos: [AVCapturePhoto]) throws -> [Double] {
                try photos.map { photo in
                    let exif = try #require(photo.metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])
                    return try #require(exif[kCGImagePropertyExifExposureTime as String] as? Double)
                }
            }
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let free = ConstantColorCameraProgram()
            try free.configure(mirrors: false)
            let freeTimes = try exposureTimes(try #require(free.run(frames: 1)).photos)
            try #require(freeTimes.count == 2)
            let half = freeTimes[0] / 2
            try #require(half >= camera.activeFormat.minExposureDuration.seconds)

            let limited = ConstantColorCameraProgram()
            try limited.configure(mirrors: false)
            try camera.lockForConfiguration()
            camera.activeMaxExposureDuration = CMTime(seconds: half, preferredTimescale: 1_000_000_000)
            camera.unlockForConfiguration()
            defer {
                if (try? camera.lockForConfiguration()) != nil {
                    camera.activeMaxExposureDuration = .invalid
                    camera.unlockForConfiguration()
                }
            }
            let limitedTimes = try exposureTimes(try #require(limited.run(frames: 1)).photos)
            #expect(freeTimes.allSatisfy { $0 > 1.5 * half }, "\(freeTimes) s without a limit")
            #expect(limitedTimes.count == 2)
            #expect(limitedTimes.allSatisfy { $0 <= half * (1 + 1e-3) }, "\(limitedTimes) s at a limit of \(half) s")
        }
    }
}
