import AVFoundation
import Foundation
import ObscuraTesting
import Testing
import Vision

/// A live saliency viewfinder written as Apple's saliency sample writes it: each frame of the back camera goes to a
/// saliency request, whose heat map the app would draw over the preview and whose salient objects it boxes, turned
/// into the frame's pixels for a crop. Apple's names only, so it would build for iOS unchanged.
final class SaliencyViewfinderProgram: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Frame {
        let width: Int
        let height: Int
        let heatMapSize: (Int, Int)
        /// The salient objects' boxes in the frame's pixels (origin at the bottom left, as Vision's rectangles).
        let crops: [CGRect]
    }

    let session = AVCaptureSession()
    let videoOutput = AVCaptureVideoDataOutput()
    let attentionBased: Bool
    private let frameQueue = DispatchQueue(label: "saliency frames")
    private let lock = NSLock()
    private var _frames: [Frame] = []
    private let frameDone = DispatchSemaphore(value: 0)

    init(attentionBased: Bool) { self.attentionBased = attentionBased }

    var frames: [Frame] { lock.withLock { _frames } }

    func configure() throws {
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
            throw CocoaError(.featureUnsupported)
        }
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        videoOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        videoOutput.setSampleBufferDelegate(self, queue: frameQueue)
        if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
        session.commitConfiguration()
    }

    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        guard let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let request: VNImageBasedRequest =
            attentionBased
            ? VNGenerateAttentionBasedSaliencyImageRequest() : VNGenerateObjectnessBasedSaliencyImageRequest()
        let handler = VNImageRequestHandler(cvPixelBuffer: pixelBuffer, orientation: .up, options: [:])
        try? handler.perform([request])
        let width = CVPixelBufferGetWidth(pixelBuffer), height = CVPixelBufferGetHeight(pixelBuffer)
        if let observation = request.results?.first as? VNSaliencyImageObservation {
            let heat = observation.pixelBuffer
            let crops = (observation.salientObjects ?? []).map {
                VNImageRectForNormalizedRect($0.boundingBox, width, height)
            }
            let frame = Frame(
                width: width, height: height,
                heatMapSize: (CVPixelBufferGetWidth(heat), CVPixelBufferGetHeight(heat)), crops: crops)
            lock.withLock { _frames.append(frame) }
        }
        frameDone.signal()
    }

    /// Runs the viewfinder until `frames` frames have been looked at; false when they do not come.
    func run(frames: Int) -> Bool {
        session.startRunning()
        defer { session.stopRunning() }
        for _ in 0..<frames where frameDone.wait(timeout: .now() + 60) != .success { return false }
        return true
    }
}

@Suite struct SaliencyViewfinderProgramTests {
    /// The violets stand in the middle of a plain room: attention boxes them in one salient object, objectness in
    /// one to three (the flowers and leaves apart from the pot, on luma), the same boxes from frame to frame, around
    /// the frame's centre and clear of its edges.
    @Test(.obscura(device: "iphone-15-pro", scene: "violets-warm-room"), arguments: [true, false])
    func everyFrameBoxesThePlantInTheMiddle(attentionBased: Bool) throws {
        let program = SaliencyViewfinderProgram(attentionBased: attentionBased)
        try program.configure()
        #expect(program.run(frames: 4))
        let frames = program.frames
        #expect(frames.count >= 4)
        for frame in frames {
            #expect(frame.heatMapSize == (68, 68))
            #expect(attentionBased ? frame.crops.count == 1 : (1...3).contains(frame.crops.count), "\(frame.crops)")
            guard let first = frame.crops.first else { continue }
            let plant = frame.crops.dropFirst().reduce(first) { $0.union($1) }
            let whole = CGRect(x: 0, y: 0, width: frame.width, height: frame.height)
            #expect(whole.contains(plant) && plant.contains(CGPoint(x: whole.midX, y: whole.midY)), "\(plant)")
            #expect(plant.width < 0.6 * whole.width && plant.height < 0.6 * whole.height, "\(plant)")
            #expect(frame.crops == frames[0].crops)
        }
    }
}
