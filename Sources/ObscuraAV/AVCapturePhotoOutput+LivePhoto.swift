import Foundation
import CaptureRules
import ISP

/// Live Photo movies (spec §20 rule 12): a short movie around the photo, H.264 unless the settings ask for
/// HEVC, written through the same FFmpeg path as movie recordings.
extension AVCapturePhotoOutput {
    /// What one Live Photo movie holds.
    struct LivePhotoPlan {
        let url: URL
        let device: AVCaptureDevice
        let dimensions: CMVideoDimensions
        let frameDuration: CMTime
        let hasAudio: Bool
        let scene: String
        /// The photo connection's clockwise rotation, kept in the movie's track matrix (spec §20 rule 10).
        let rotationDegrees: Int
        /// The settings' `livePhotoVideoCodecType` where it is available, else the default.
        let codec: AVVideoCodecType
        /// The QuickTime metadata the movie carries: the settings' `livePhotoMovieMetadata`, with a content
        /// identifier first where they hold none.
        let metadata: [(key: String, value: String)]
        /// The identifier that pairs the movie with its photo.
        let contentIdentifier: String
    }

    /// The codecs a Live Photo movie can be written with, the default (H.264) first, as Apple presents them;
    /// empty where Live Photos are not supported, as outside a session with a camera (spec §20 rule 12).
    public var availableLivePhotoVideoCodecTypes: [AVVideoCodecType] {
        guard isLivePhotoCaptureSupported else { return [] }
        return [AVVideoCodecType.h264, .hevc].filter(MovieWriter.availableCodecs.contains)
    }

    /// The session stopped: Live Photo capture is no longer suspended unless the app asked to keep it so.
    func sessionDidStop() {
        lock.withLock {
            if !inner.preservesLivePhotoSuspension { inner.livePhotoSuspended = false }
        }
    }

    /// Seconds of movie on each side of the photo, as Apple describes Live Photos [D].
    static let livePhotoHalfSpan = 1.5
    /// The widest Live Photo movie frame: the 1440 × 1080 of iPhones' Live Photo movies [I].
    static let livePhotoMaxWidth = 1440

    /// Live Photo is offered where movies can be written, under the `.photo` preset, without a movie
    /// file output in the session (spec §3.1 [D], §20 rule 12 [I]).
    static func livePhotoSupported(preset: AVCaptureSession.Preset, session: AVCaptureSession?) -> Bool {
        guard MovieWriter.availableCodecs.contains(.h264) || MovieWriter.availableCodecs.contains(.hevc) else {
            return false
        }
        let hasMovieOutput = session?.outputs.contains { $0 is AVCaptureMovieFileOutput } ?? false
        return preset == .photo && !hasMovieOutput
    }

    /// The movie's plan for a request with a Live Photo URL: the active format scaled to at most
    /// `livePhotoMaxWidth`, at the stream's rate capped at 30 frames per second [I].
    static func livePhotoPlan(
        url: URL, device: AVCaptureDevice, session: AVCaptureSession?, rotationDegrees: Int,
        codec asked: AVVideoCodecType, metadata: [AVMetadataItem]
    ) -> LivePhotoPlan {
        let codecs = [AVVideoCodecType.h264, .hevc].filter(MovieWriter.availableCodecs.contains)
        let codec = codecs.contains(asked) ? asked : codecs.first ?? .h264
        if codec != asked {
            Emulation.shared.record(
                TraceEntry(
                    section: "§20", rule: 12, outcome: .decided,
                    sentence: "livePhotoVideoCodecType \(asked.rawValue) is not in availableLivePhotoVideoCodecTypes: "
                        + "the Live Photo movie is written with \(codec.rawValue)."))
        }
        // spec §20 rule 12 [D]: the movie always carries a content identifier, the app's or a new one.
        var entries = AVMetadataItem.quickTimeEntries(metadata, for: "livePhotoMovieMetadata")
        let key = AVMetadataKey.quickTimeMetadataKeyContentIdentifier.rawValue
        let identifier = entries.first { $0.key == key }?.value ?? UUID().uuidString
        if !entries.contains(where: { $0.key == key }) { entries.insert((key, identifier), at: 0) }
        let format = device.activeFormat.dimensions
        let scale = min(1, Double(livePhotoMaxWidth) / Double(max(1, format.width)))
        func even(_ v: Int32) -> Int32 { max(2, Int32((Double(v) * scale / 2).rounded()) * 2) }
        let thirtieth = CMTime(value: 1, timescale: 30)
        let active = device.activeVideoMinFrameDuration
        let duration = active.isValid && active.seconds > thirtieth.seconds ? active : thirtieth
        return LivePhotoPlan(
            url: url, device: device,
            dimensions: CMVideoDimensions(width: even(format.width), height: even(format.height)),
            frameDuration: duration, hasAudio: session?.audioDevice != nil, scene: Emulation.shared.scene,
            rotationDegrees: rotationDegrees, codec: codec, metadata: entries, contentIdentifier: identifier)
    }

    /// Writes the movie: `livePhotoHalfSpan` seconds of frames before the photo and as many after,
    /// the photo's moment in the middle. Returns the movie's duration, the photo's time in it, and
    /// the error if the movie could not be written (the URL then holds nothing).
    func writeLivePhotoMovie(_ plan: LivePhotoPlan) -> (duration: CMTime, photoDisplayTime: CMTime, error: Error?) {
        let tick = plan.frameDuration
        let half = Int64((Self.livePhotoHalfSpan / tick.seconds).rounded())
        let count = 2 * half
        let photoTime = CMTime(value: half * tick.value, timescale: tick.timescale)
        let duration = CMTime(value: count * tick.value, timescale: tick.timescale)
        let (w, h) = (Int(plan.dimensions.width), Int(plan.dimensions.height))
        let device = plan.device
        let space: BasicDevelop.OutputSpace = device.activeColorSpace == .P3_D65 ? .displayP3 : .sRGB
        guard
            let frame = StreamRendering.shared.template(
                device: device.deviceProfile, camera: device.camera, width: w, height: h, scene: plan.scene,
                pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, space: space, look: device.streamLook,
                readout: device.activeFormat.readout,
                renderWidth: StreamRendering.frameRenderWidth(
                    width: w, look: device.streamLook, scene: plan.scene, settled: true))
        else { return (.zero, .zero, AVError(.unknown)) }
        let codec = plan.codec
        let fps = 1 / tick.seconds
        let compression = AVCaptureMovieFileOutput.defaultCompression(codec, dimensions: plan.dimensions, fps: fps)
        do {
            if FileManager.default.fileExists(atPath: plan.url.path) { throw AVError(.fileAlreadyExists) }
            let writer = try MovieWriter(
                destination: plan.url.path,
                plan: MovieWriter.Plan(
                    codec: codec, container: "mov", width: w, height: h, frameDuration: tick,
                    bitRate: compression[AVVideoAverageBitRateKey] as? Int ?? 0,
                    keyFrameInterval: compression[AVVideoMaxKeyFrameIntervalKey] as? Int ?? 30,
                    hasAudio: plan.hasAudio, fragmentInterval: .invalid, rotationDegrees: plan.rotationDegrees,
                    metadata: plan.metadata))
            let perBuffer = AVCaptureAudioDataOutput.samplesPerBuffer
            let rate = Double(AVCaptureAudioDataOutput.sampleRate)
            var nextAudio = 0
            for k in 0..<count {
                let end = Double(k + 1) * tick.seconds * rate
                while plan.hasAudio, Double(nextAudio * perBuffer) < end {
                    try writer.appendAudio(
                        AVCaptureAudioDataOutput.samples(index: nextAudio), sampleIndex: Int64(nextAudio * perBuffer))
                    nextAudio += 1
                }
                try writer.appendVideo(frame, index: k)
            }
            try writer.finish()
            do {
                try writer.publish()
            } catch {
                if error.destinationExists { throw AVError(.fileAlreadyExists) }
                throw error
            }
            return (duration, photoTime, nil)
        } catch let error as AVError {
            return (.zero, .zero, error)
        } catch {
            return (.zero, .zero, AVError(.unknown, userInfo: [NSLocalizedFailureReasonErrorKey: "\(error)"]))
        }
    }
}
