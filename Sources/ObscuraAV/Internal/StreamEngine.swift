import Devices
import Foundation
import ISP
import Sensor

/// Produces the data outputs' samples on the virtual clock (DESIGN.md, Time).
///
/// Timing diagram of one running session (video at Rv, depth every `stride` frames):
///
///     video  k=0    k=1    k=2    k=3   …   t_k = k / Rv
///     depth  k=0           k=2          …   stride = Rv / depth rate (spec §2.5)
///     audio  ||||||||||||||||||||||||||    buffer j at j·1024 / 44,100 s, sent at the first
///                                           frame tick not before it
///     meta          (k=0)  (k=1)  …         objects of frame k sent at frame k + 2
///
/// `Emulator.run(for:)` emits every frame with t_k before the new end of stream time. In
/// virtual mode each callback runs to completion before the next (deterministic, nothing is
/// ever late); in realtime mode frames are paced to the wall clock, callbacks are queued
/// asynchronously, and data arriving while its queue is still busy is dropped with
/// `.lateData` when the output discards late data.
final class StreamEngine: @unchecked Sendable {
    static let shared = StreamEngine()
    private let lock = NSLock()
    private var streams: [ObjectIdentifier: SessionStream] = [:]

    func register(_ session: AVCaptureSession) {
        lock.withLock {
            streams = streams.filter { $0.value.session != nil }
            if streams[ObjectIdentifier(session)] == nil {
                streams[ObjectIdentifier(session)] = SessionStream(session: session)
            }
        }
    }

    /// Runs every running session for a duration, or for a number of video frames.
    func run(seconds: Double?, frames: Int?) {
        var active = lock.withLock { Array(streams.values) }.filter { $0.session?.isRunning == true }
        // Inside `withDevice` only the task's own sessions advance, so parallel runs do not
        // push each other's clocks.
        if let world = Emulator.shared.scopedWorld {
            active = active.filter { stream in
                stream.session?.videoDevices.contains { device in world.devices.contains { $0 === device } } ?? false
            }
        }
        let realtime = Emulator.shared.clockMode == .realtime
        for stream in active { stream.run(seconds: seconds, frames: frames, realtime: realtime) }
        for stream in active { stream.waitForCallbacks() }
    }
}

/// One session's streaming position and per-output state.
final class SessionStream: @unchecked Sendable {
    weak var session: AVCaptureSession?
    private var nextFrame = 0
    /// Where the current frame duration took over: frame index and its time. A new frame rate
    /// continues from the stream time reached instead of rescaling past frames.
    private var origin = (frame: 0, time: CMTime.zero, duration: CMTime.invalid)
    private var nextAudio = 0
    private var elapsed = 0.0
    private var temporal: [ObjectIdentifier: DepthTemporalFilter] = [:]
    private var pendingMetadata: [(frame: Int, output: AVCaptureMetadataOutput, data: AVCaptureSynchronizedMetadataObjectData)] = []
    private let busy = BusyCounter()
    private var usedQueues: [DispatchQueue] = []

    init(session: AVCaptureSession) { self.session = session }

    func waitForCallbacks() {
        for queue in usedQueues { queue.sync {} }
        usedQueues.removeAll()
    }

    func run(seconds: Double?, frames: Int?, realtime: Bool) {
        guard let session, let device = session.videoDevices.first else { return }
        let duration = device.activeVideoMinFrameDuration
        let frameSeconds = duration.seconds
        let end = seconds.map { elapsed + $0 } ?? (elapsed + Double(frames ?? 0) * frameSeconds)
        let wallStart = Date()
        let streamStart = elapsed
        if origin.duration != duration {
            if origin.duration.isValid {
                origin = (nextFrame, frameTime(nextFrame), duration)
            } else {
                origin = (nextFrame, .zero, duration)
            }
        }
        while frameTime(nextFrame).seconds < end - 1e-9 {
            let k = nextFrame
            let t = frameTime(k).seconds
            if realtime {
                let due = t - streamStart - Date().timeIntervalSince(wallStart)
                if due > 0 { Thread.sleep(forTimeInterval: due) }
            }
            emitFrame(k, time: frameTime(k), session: session, device: device, duration: duration, realtime: realtime)
            nextFrame += 1
        }
        elapsed = end
    }

    /// The presentation time of frame `k` under the current frame duration.
    private func frameTime(_ k: Int) -> CMTime {
        origin.time + CMTime(value: Int64(k - origin.frame) * origin.duration.value, timescale: origin.duration.timescale)
    }

    private func emitFrame(
        _ k: Int, time: CMTime, session: AVCaptureSession, device: AVCaptureDevice, duration: CMTime, realtime: Bool
    ) {
        let scene = Emulator.shared.scene
        let outputs = session.outputs
        var synchronizers: [AVCaptureDataOutputSynchronizer] = []
        func note(_ s: AVCaptureDataOutputSynchronizer?) {
            if let s, s.target != nil, !synchronizers.contains(where: { $0 === s }) { synchronizers.append(s) }
        }

        // Audio first: every buffer that starts by this frame's time.
        for case let output as AVCaptureAudioDataOutput in outputs {
            guard let connection = output.connections.first, connection.isEnabled else { continue }
            while Double(nextAudio * AVCaptureAudioDataOutput.samplesPerBuffer)
                / Double(AVCaptureAudioDataOutput.sampleRate) <= time.seconds + 1e-9
            {
                let buffer = AVCaptureAudioDataOutput.buffer(index: nextAudio)
                nextAudio += 1
                if let sync = output.synchronizer, sync.target != nil {
                    sync.receive(AVCaptureSynchronizedSampleBufferData(sampleBuffer: buffer, dropped: .none), from: output)
                } else if let target = output.target {
                    dispatch(target.queue, output, realtime: realtime, discardsLate: false, drop: {}) {
                        target.delegate.captureOutput(output, didOutput: buffer, from: connection)
                    }
                }
            }
            output.synchronizer?.advance(output, through: time)
            note(output.synchronizer)
        }

        for case let output as AVCaptureVideoDataOutput in outputs {
            guard let connection = output.connections.first, connection.isEnabled, connection.isActive else { continue }
            let sync = output.synchronizer?.target != nil ? output.synchronizer : nil
            let target = output.target
            guard sync != nil || target != nil else { continue }
            let buffer = videoBuffer(output, connection: connection, device: device, time: time, duration: duration, scene: scene)
            if let sync {
                let late = realtime && output.alwaysDiscardsLateVideoFrames && busy.isBusy(sync)
                sync.receive(AVCaptureSynchronizedSampleBufferData(sampleBuffer: buffer, dropped: late ? .lateData : .none), from: output)
                sync.advance(output, through: time)
                note(sync)
            } else if let target {
                dispatch(
                    target.queue, output, realtime: realtime, discardsLate: output.alwaysDiscardsLateVideoFrames,
                    drop: { target.delegate.captureOutput(output, didDrop: buffer, from: connection) }
                ) { target.delegate.captureOutput(output, didOutput: buffer, from: connection) }
            }
        }

        for case let output as AVCaptureDepthDataOutput in outputs {
            guard let connection = output.connections.first, connection.isEnabled else { continue }
            let sync = output.synchronizer?.target != nil ? output.synchronizer : nil
            let stride = device.depthFrameStride
            let target = output.target
            if stride > 0, k % stride == 0, sync != nil || target != nil,
                let data = depthData(output, device: device, scene: scene)
            {
                let shell = AVDepthData(map: data.map, isShell: true)
                if let sync {
                    let late = realtime && output.alwaysDiscardsLateDepthData && busy.isBusy(sync)
                    sync.receive(
                        AVCaptureSynchronizedDepthData(
                            depthData: late ? shell : data, timestamp: time, dropped: late ? .lateData : .none),
                        from: output)
                } else if let target {
                    dispatch(
                        target.queue, output, realtime: realtime, discardsLate: output.alwaysDiscardsLateDepthData,
                        drop: {
                            target.delegate.depthDataOutput(
                                output, didDrop: shell, timestamp: time, connection: connection, reason: .lateData)
                        }
                    ) { target.delegate.depthDataOutput(output, didOutput: data, timestamp: time, connection: connection) }
                }
            }
            sync?.advance(output, through: time)
            note(sync)
        }

        for case let output as AVCaptureMetadataOutput in outputs {
            guard let connection = output.connections.first, connection.isEnabled else { continue }
            let d = device.activeFormat.dimensions
            let picture = StreamRendering.shared.picture(
                device: device.deviceProfile, camera: device.camera, width: Int(d.width), height: Int(d.height),
                scene: scene)
            let objects = output.objects(in: picture, time: time, duration: duration)
            pendingMetadata.append(
                (k + AVCaptureMetadataOutput.latencyFrames, output,
                 AVCaptureSynchronizedMetadataObjectData(metadataObjects: objects, timestamp: time)))
            let due = pendingMetadata.filter { $0.frame <= k && $0.output === output }
            pendingMetadata.removeAll { $0.frame <= k && $0.output === output }
            for item in due {
                if let sync = output.synchronizer, sync.target != nil {
                    // An empty detection is still known: the synchronizer learns there is nothing.
                    if !item.data.metadataObjects.isEmpty { sync.receive(item.data, from: output) }
                    sync.advance(output, through: item.data.timestamp)
                    note(sync)
                } else if let target = output.target, !item.data.metadataObjects.isEmpty {
                    dispatch(target.queue, output, realtime: realtime, discardsLate: false, drop: {}) {
                        target.delegate.metadataOutput(output, didOutput: item.data.metadataObjects, from: connection)
                    }
                }
            }
        }

        for sync in synchronizers {
            guard let target = sync.target else { continue }
            for collection in sync.collectionsReady() {
                dispatch(target.queue, sync, realtime: realtime, discardsLate: false, drop: {}) {
                    target.delegate.dataOutputSynchronizer(sync, didOutput: collection)
                }
            }
        }
    }

    private func videoBuffer(
        _ output: AVCaptureVideoDataOutput, connection: AVCaptureConnection, device: AVCaptureDevice, time: CMTime,
        duration: CMTime, scene: String
    ) -> CMSampleBuffer {
        let d = device.activeFormat.dimensions
        let format = output.deliveredPixelFormat
        let (w, h) = (Int(d.width), Int(d.height))
        // spec §2.6: frames follow activeColorSpace; P3_D65 develops into Display P3, the rest into sRGB [I].
        let space: BasicDevelop.OutputSpace = device.activeColorSpace == .P3_D65 ? .displayP3 : .sRGB
        let template = StreamRendering.shared.template(
            device: device.deviceProfile, camera: device.camera, width: w, height: h, scene: scene, pixelFormat: format,
            space: space)
        let image = template.flatMap(PixelBufferCopying.copy).map(connection.videoTransform.apply)  // spec §1.5
        var attachments: [String: Any] = [:]
        if connection.isCameraIntrinsicMatrixDeliveryEnabled,
            let picture = StreamRendering.shared.picture(
                device: device.deviceProfile, camera: device.camera, width: w, height: h, scene: scene)
        {
            // spec §1.5 [D]: a matrix_float3x3 as Data, column-major, pixels of this buffer.
            let k = picture.intrinsics
            var m = matrix_float3x3(columns: (
                simd_float3(Float(k.fx), 0, 0), simd_float3(0, Float(k.fy), 0), simd_float3(Float(k.cx), Float(k.cy), 1)))
            attachments[kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix] = withUnsafeBytes(of: &m) { Data($0) }
        }
        connection.videoTransform.reorient(&attachments, width: w, height: h)
        return CMSampleBuffer(
            imageBuffer: image, presentationTimeStamp: time, duration: duration,
            formatDescription: CMFormatDescription(
                mediaType: kCMMediaType_Video, mediaSubType: format, dimensions: connection.videoTransform.dimensions(d)),
            attachments: attachments)
    }

    /// The output's depth for this frame: the active depth format, filtered when asked
    /// (hole filling, then temporal smoothing, spec §7 [D]). Nil on devices without depth (N17).
    private func depthData(_ output: AVCaptureDepthDataOutput, device: AVCaptureDevice, scene: String) -> AVDepthData? {
        guard let format = device.activeDepthDataFormat, let (depth, pixelFormat) = format.depthProfile else { return nil }
        let filtered = output.isFilteringEnabled
        guard
            var map = StreamRendering.shared.depth(
                device: device.deviceProfile, camera: device.camera, width: depth.dimensions.width,
                height: depth.dimensions.height, format: pixelFormat, filtered: filtered, scene: scene, seed: 1)
        else { return nil }
        if filtered {
            let id = ObjectIdentifier(output)
            var filter = temporal[id] ?? DepthTemporalFilter()
            map = filter.filter(map)
            temporal[id] = filter
        }
        return AVDepthData(map: map, isShell: false)
    }

    /// Queues a callback. Realtime: when the target's earlier callbacks are still running and
    /// late data is discarded, the drop callback runs instead (spec §7 [D] `.lateData`).
    private func dispatch(
        _ queue: DispatchQueue, _ owner: AnyObject, realtime: Bool, discardsLate: Bool, drop: @escaping () -> Void,
        _ work: @escaping () -> Void
    ) {
        let job = UncheckedSendable(work)
        let dropJob = UncheckedSendable(drop)
        if !usedQueues.contains(where: { $0 === queue }) { usedQueues.append(queue) }
        guard realtime else {
            queue.sync { job.value() }
            return
        }
        if discardsLate && busy.isBusy(owner) {
            queue.async { dropJob.value() }
            return
        }
        busy.begin(owner)
        let counter = busy
        let key = ObjectIdentifier(owner)
        queue.async {
            job.value()
            counter.end(key)
        }
    }
}

/// Callbacks in flight per output, for realtime late-data decisions.
final class BusyCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [ObjectIdentifier: Int] = [:]
    func isBusy(_ owner: AnyObject) -> Bool { lock.withLock { counts[ObjectIdentifier(owner), default: 0] > 0 } }
    func begin(_ owner: AnyObject) { lock.withLock { counts[ObjectIdentifier(owner), default: 0] += 1 } }
    func end(_ key: ObjectIdentifier) { lock.withLock { counts[key, default: 1] -= 1 } }
}

/// Copies a cached frame into a fresh buffer, plane by plane.
enum PixelBufferCopying {
    static func copy(_ source: CVPixelBuffer) -> CVPixelBuffer? {
        guard let out = CVPixelBuffer(width: source.width, height: source.height, pixelFormat: source.pixelFormat) else {
            return nil
        }
        for (s, d) in zip(source.planes, out.planes) { d.base.copyMemory(from: s.base, byteCount: s.bytesPerRow * s.height) }
        out.attachments = source.attachments
        return out
    }
}
