import Obscura
import Foundation
import ObscuraAV
import Testing

/// Streaming on the virtual clock. Serialized: `Emulator.run(for:)` advances every running session.
@Suite(.serialized)
struct AVCaptureStreamingTests {
    @Test func videoAndDepthCountsOverTenSeconds() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig()
            let recorder = StreamRecorder()
            rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
            rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.run(for: CMTime(value: 10, timescale: 1))
            // spec §2.5: 30 fps video, depth at 30 / ceil(30 / 24) = 15 fps.
            #expect(recorder.video.count == 300)
            #expect(recorder.depth.count == 150)
            #expect(recorder.video[1].presentationTimeStamp == CMTime(value: 1, timescale: 30))
            #expect(recorder.depth[1].1 == CMTime(value: 2, timescale: 30))
            let image = try #require(recorder.video[0].imageBuffer)
            #expect(CVPixelBufferGetWidth(image) == 1440 && CVPixelBufferGetHeight(image) == 1080)
            #expect(CVPixelBufferGetPixelFormatType(image) == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
            let map = recorder.depth[0].0.depthDataMap
            #expect(CVPixelBufferGetWidth(map) == 320 && CVPixelBufferGetHeight(map) == 240)
            #expect(recorder.depth[0].0.isDepthDataFiltered)
        }
    }

    @Test func depthRateFollowsVideoRateAndCap() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig()
            let recorder = StreamRecorder()
            rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
            try rig.device.lockForConfiguration()
            rig.device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 24)
            rig.device.unlockForConfiguration()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.run(for: CMTime(value: 1, timescale: 1))
            #expect(recorder.depth.count == 24)  // 24 → 24 (spec §2.5)
            try rig.device.lockForConfiguration()
            rig.device.activeDepthDataMinFrameDuration = CMTime(value: 1, timescale: 10)
            rig.device.unlockForConfiguration()
            Emulator.shared.run(for: CMTime(value: 1, timescale: 1))
            #expect(recorder.depth.count == 24 + 8)  // cap 10 fps: 24 / ceil(2.4) = 8
        }
    }

    @Test func unfilteredDepthHasHolesAndFilteredHasNone() throws {
        try onDevice("iphone-7-plus") {
            let raw = try #require(try StreamRig.unfilteredDepth(frames: 1).first)
            #expect(!raw.isDepthDataFiltered)
            #expect(raw.depthDataAccuracy == .relative)  // spec §9: dual camera is relative
            #expect(raw.depthDataType == kCVPixelFormatType_DisparityFloat16)
        }
    }

    @Test func noDepthOnWideCamera() throws {
        try onDevice("iphone-7-plus") {
            // spec §13 N17: no exception, no depth frames.
            let rig = try StreamRig(type: .builtInWideAngleCamera)
            let recorder = StreamRecorder()
            rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            #expect(recorder.depth.isEmpty)
            #expect(rig.device.activeDepthDataFormat == nil)
        }
    }

    @Test func dualCameraDepthLocksZoomAtTwo() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig()
            #expect(rig.device.videoZoomFactor == 2)
            try rig.device.lockForConfiguration()
            rig.device.videoZoomFactor = 1
            rig.device.unlockForConfiguration()
            #expect(rig.device.videoZoomFactor == 2)
        }
    }

    @Test func audioBuffersCarryATone() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig(outputs: ["video", "audio"])
            let recorder = StreamRecorder()
            rig.audio.setSampleBufferDelegate(recorder, queue: rig.queue)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.run(for: CMTime(value: 1, timescale: 1))
            // Buffers starting at or before the last frame, 29/30 s: floor(0.9667 · 44100 / 1024) + 1 = 42.
            #expect(recorder.audio.count == 42)
            let buffer = recorder.audio[1]
            #expect(CMSampleBufferGetNumSamples(buffer) == 1024)
            #expect(buffer.presentationTimeStamp == CMTime(value: 1024, timescale: 44_100))
            let block = try #require(CMSampleBufferGetDataBuffer(buffer))
            var samples = [Int16](repeating: 0, count: 1024)
            samples.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: 2048, destination: $0.baseAddress!) }
            // A 1 kHz sine at a quarter of full scale, sample n = 1024 + i (closed form).
            for i in [0, 7, 300] {
                let expected = 0.25 * sin(2 * Double.pi * 1000 * Double(1024 + i) / 44_100) * 32767
                #expect(abs(Double(samples[i]) - expected) <= 1)
            }
        }
    }

    @Test func intrinsicMatrixAttachment() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig(type: .builtInWideAngleCamera, outputs: ["video"])
            let recorder = StreamRecorder()
            rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
            let connection = try #require(rig.video.connection(with: .video))
            #expect(connection.isCameraIntrinsicMatrixDeliverySupported)
            connection.isCameraIntrinsicMatrixDeliveryEnabled = true
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(1)
            let sample = try #require(recorder.video.first)
            let data = try #require(CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: nil) as? Data)
            let m = data.withUnsafeBytes { $0.load(as: matrix_float3x3.self) }
            #expect(m.columns.2.z == 1 && m.columns.0.y == 0)
            #expect(m.columns.0.x > 0 && abs(m.columns.0.x - m.columns.1.y) < 1e-3)
            // The principal point lies inside the 1440×1080 buffer, near its centre.
            #expect(abs(m.columns.2.x - 720) < 40 && abs(m.columns.2.y - 540) < 40)
        }
    }

    @Test func realtimeSlowDelegateDropsLateData() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig(type: .builtInWideAngleCamera, outputs: ["video"], clock: .realtime)
            let recorder = StreamRecorder()
            recorder.sleep = 0.1
            rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
            rig.session.startRunning()
            Emulator.shared.run(for: CMTime(value: 1, timescale: 2))
            rig.session.stopRunning()
            rig.queue.sync {}
            // Half a second at 30 fps on the wall clock: 15 frames are due (one either way for the
            // moment the wait ends); a delegate taking 0.1 s can take at most every third.
            #expect(recorder.videoDrops > 0)
            #expect((14...16).contains(recorder.video.count + recorder.videoDrops))
            #expect(recorder.video.count <= 8)
        }
    }

    @Test func synchronizerCollectionsFrameByFrame() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig(outputs: ["video", "depth", "metadata"])
            let recorder = StreamRecorder()
            rig.metadata.metadataObjectTypes = [.salientObject]
            rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
            let sync = AVCaptureDataOutputSynchronizer(dataOutputs: [rig.video, rig.depth, rig.metadata])
            sync.setDelegate(recorder, queue: rig.queue)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(6)
            // Outputs' own delegates are silent while the synchronizer's is set (spec §8 [D]).
            #expect(recorder.video.isEmpty)
            // Metadata lags 2 frames, so frames 0–3 are complete after 6 ticks; frames 4 and 5 wait.
            let c = recorder.collections
            #expect(c.count == 4)
            for (k, collection) in c.enumerated() {
                let video = try #require(collection[rig.video] as? AVCaptureSynchronizedSampleBufferData)
                #expect(video.timestamp == CMTime(value: Int64(k), timescale: 30))
                #expect(!video.sampleBufferWasDropped && video.droppedReason == .none)
                let depth = collection[rig.depth] as? AVCaptureSynchronizedDepthData
                #expect((depth != nil) == (k % 2 == 0))  // depth at 15 fps: every other frame
                let meta = try #require(collection[rig.metadata] as? AVCaptureSynchronizedMetadataObjectData)
                // The default scene's plant (violets-warm-room) stands out of the room.
                #expect(meta.metadataObjects.contains { $0.type == .salientObject })
                #expect(collection.count == (k % 2 == 0 ? 3 : 2))
                #expect(Array(collection).first === rig.video)
            }
            sync.setDelegate(nil, queue: nil)
            Emulator.shared.runFrames(1)
            #expect(recorder.video.count == 1)
        }
    }

    @Test func synchronizerInitializerValidates() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig(outputs: ["video"])
            // spec §13 N13.
            expectException(.invalidArgumentException, "empty") { _ = AVCaptureDataOutputSynchronizer(dataOutputs: []) }
            expectException(.invalidArgumentException, "must be added to a session") {
                _ = AVCaptureDataOutputSynchronizer(dataOutputs: [rig.video, AVCaptureDepthDataOutput()])
            }
            expectException(.invalidArgumentException, "not a supported data output") {
                _ = AVCaptureDataOutputSynchronizer(dataOutputs: [rig.video, AVCapturePhotoOutput()])
            }
            expectException(.invalidArgumentException, "queue may not be NULL") {
                AVCaptureDataOutputSynchronizer(dataOutputs: [rig.video]).setDelegate(StreamRecorder(), queue: nil)
            }
        }
    }
}
