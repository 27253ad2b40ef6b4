import AVFoundation
import Foundation
import Testing

/// A depth sampler written as public depth samples write one: the TrueDepth camera, a video data output
/// and a depth data output behind a synchronizer, both connections turned to portrait and mirrored
/// with automatic mirroring left on, as a selfie view wants them.
final class DepthSamplerProgram: NSObject, AVCaptureDataOutputSynchronizerDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let videoOutput = AVCaptureVideoDataOutput()
    let depthOutput = AVCaptureDepthDataOutput()
    private var synchronizer: AVCaptureDataOutputSynchronizer?
    private let dataQueue = DispatchQueue(label: "depth sampler data")
    private let lock = NSLock()
    private var _pairs: [(video: CVPixelBuffer, depth: AVDepthData)] = []
    let delivered = DispatchSemaphore(value: 0)

    var pairs: [(video: CVPixelBuffer, depth: AVDepthData)] { lock.withLock { _pairs } }

    /// `orient`: turn both connections to portrait and mirror them, or leave them as they come.
    func configure(orient: Bool) throws {
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        guard let camera = AVCaptureDevice.default(.builtInTrueDepthCamera, for: .video, position: .front) else {
            throw CocoaError(.featureUnsupported)
        }
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
        if session.canAddOutput(depthOutput) { session.addOutput(depthOutput) }
        depthOutput.isFilteringEnabled = false
        if orient {
            for connection in [videoOutput.connection(with: .video), depthOutput.connection(with: .depthData)] {
                guard let connection else { continue }
                if connection.isVideoOrientationSupported { connection.videoOrientation = .portrait }
                if connection.isVideoMirroringSupported { connection.isVideoMirrored = true }
            }
        }
        session.commitConfiguration()
        synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [videoOutput, depthOutput])
        synchronizer?.setDelegate(self, queue: dataQueue)
    }

    func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer, didOutput collection: AVCaptureSynchronizedDataCollection
    ) {
        guard let video = collection.synchronizedData(for: videoOutput) as? AVCaptureSynchronizedSampleBufferData,
            let depth = collection.synchronizedData(for: depthOutput) as? AVCaptureSynchronizedDepthData,
            !depth.depthDataWasDropped, let pixels = CMSampleBufferGetImageBuffer(video.sampleBuffer)
        else { return }
        lock.withLock { _pairs.append((pixels, depth.depthData)) }
        delivered.signal()
    }

    /// The first synchronized pair, after the session ran until one came.
    func firstPair() throws -> (video: CVPixelBuffer, depth: AVDepthData) {
        session.startRunning()
        defer { session.stopRunning() }
        guard delivered.wait(timeout: .now() + 60) == .success, let first = pairs.first else {
            throw CocoaError(.fileReadUnknown)
        }
        return first
    }
}

/// The depth map's values as Floats, row by row.
private func depthValues(_ depth: AVDepthData) -> (width: Int, height: Int, values: [Float]) {
    let map = depth.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32).depthDataMap
    CVPixelBufferLockBaseAddress(map, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(map, .readOnly) }
    let (w, h) = (CVPixelBufferGetWidth(map), CVPixelBufferGetHeight(map))
    let stride = CVPixelBufferGetBytesPerRow(map)
    guard let base = CVPixelBufferGetBaseAddress(map) else { return (w, h, []) }
    var values: [Float] = []
    for y in 0..<h {
        let row = (base + y * stride).assumingMemoryBound(to: Float.self)
        for x in 0..<w { values.append(row[x]) }
    }
    return (w, h, values)
}

extension DropIn {
    @Suite struct DepthSamplerProgramTests {
        // spec §1.5 [D]: a depth data output's connection turns and mirrors its maps as the video's
        // connection turns its buffers, calibration included. A quarter turn clockwise then a mirror is
        // a transpose, so the portrait map is the landscape map with rows and columns exchanged.
        @Test func portraitMirroredDepthMatchesThePortraitVideo() throws {
            let plain = DepthSamplerProgram()
            try plain.configure(orient: false)
            let landscape = try plain.firstPair()

            let sampler = DepthSamplerProgram()
            try sampler.configure(orient: true)
            let depthConnection = try #require(sampler.depthOutput.connection(with: .depthData))
            #expect(depthConnection.isVideoOrientationSupported && depthConnection.isVideoMirroringSupported)
            #expect(depthConnection.videoOrientation == .portrait && depthConnection.isVideoMirrored)
            let portrait = try sampler.firstPair()

            // The video is portrait, and so is the depth, at the video's aspect.
            let (vw, vh) = (CVPixelBufferGetWidth(portrait.video), CVPixelBufferGetHeight(portrait.video))
            #expect(vh > vw)
            let turned = depthValues(portrait.depth), upright = depthValues(landscape.depth)
            #expect(turned.height > turned.width)
            #expect(turned.width == upright.height && turned.height == upright.width)
            #expect(abs(Double(turned.width) / Double(turned.height) - Double(vw) / Double(vh)) < 0.01)

            // The transpose, up to the sensor's noise between two sessions.
            var difference = 0.0, spread = 0.0, count = 0
            let mean = upright.values.filter(\.isFinite).reduce(0, +) / Float(max(1, upright.values.count))
            for y in 0..<turned.height {
                for x in 0..<turned.width {
                    let a = turned.values[y * turned.width + x], b = upright.values[x * upright.width + y]
                    guard a.isFinite, b.isFinite, a > 0, b > 0 else { continue }
                    difference += Double(abs(a - b))
                    spread += Double(abs(b - mean))
                    count += 1
                }
            }
            #expect(count > turned.width * turned.height / 2)
            #expect(difference < 0.1 * spread, "mean |difference| \(difference / Double(count)) m")

            // The calibration turns with the map: reference dimensions and focal lengths trade places,
            // and the principal point is transposed.
            let k0 = try #require(landscape.depth.cameraCalibrationData)
            let k1 = try #require(portrait.depth.cameraCalibrationData)
            #expect(k1.intrinsicMatrixReferenceDimensions.width == k0.intrinsicMatrixReferenceDimensions.height)
            #expect(k1.intrinsicMatrixReferenceDimensions.height == k0.intrinsicMatrixReferenceDimensions.width)
            let (m0, m1) = (k0.intrinsicMatrix, k1.intrinsicMatrix)
            #expect(abs(m1.columns.0.x - m0.columns.1.y) < 1e-3 && abs(m1.columns.1.y - m0.columns.0.x) < 1e-3)
            #expect(abs(m1.columns.2.x - m0.columns.2.y) < 1e-2 && abs(m1.columns.2.y - m0.columns.2.x) < 1e-2)
        }

        // spec §1.5 rule M (our choice, from Apple's documentation and samples): setting isVideoMirrored
        // with automatic mirroring left on takes effect and raises nothing.
        @Test func mirroringAVideoOutputWithAutomaticMirroringOn() throws {
            let session = AVCaptureSession()
            session.beginConfiguration()
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            if session.canAddInput(input) { session.addInput(input) }
            let output = AVCaptureVideoDataOutput()
            if session.canAddOutput(output) { session.addOutput(output) }
            let connection = try #require(output.connection(with: .video))
            #expect(connection.automaticallyAdjustsVideoMirroring)
            #expect(!connection.isVideoMirrored)
            if connection.isVideoMirroringSupported { connection.isVideoMirrored = true }
            #expect(connection.isVideoMirrored)
            #expect(connection.automaticallyAdjustsVideoMirroring)
            session.commitConfiguration()
        }
    }
}
