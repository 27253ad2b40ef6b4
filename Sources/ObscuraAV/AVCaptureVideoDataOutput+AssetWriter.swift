import Foundation

/// Codecs and recommended writer settings (spec §15).
///
/// On iOS a video data output delivers uncompressed frames only, so `availableVideoCodecTypes`
/// is empty, as Apple documents compressed output for macOS alone [D]. The recommendations are
/// settings for an asset writer the app runs itself: plain values derived from the connected
/// camera's active format, which Obscura does not encode.
extension AVCaptureVideoDataOutput {
    /// Codecs the output can deliver frames in: none on iOS (spec §15 [D]).
    public var availableVideoCodecTypes: [AVVideoCodecType] { [] }

    /// Codecs an asset writer of `outputFileType` can be recommended: HEVC then H.264 for
    /// QuickTime and MPEG-4 movies, once the output has a camera; none otherwise (spec §15 [I]).
    public func availableVideoCodecTypesForAssetWriter(writingTo outputFileType: AVFileType) -> [AVVideoCodecType] {
        guard activeVideoFormat != nil, [.mov, .mp4, .m4v].contains(outputFileType) else { return [] }
        return [.hevc, .h264]
    }

    /// Writer settings for the file type: H.264, the codec every movie player reads (spec §15 [I]).
    public func recommendedVideoSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        recommendedVideoSettings(forVideoCodecType: .h264, assetWriterOutputFileType: outputFileType)
    }

    /// Writer settings for a codec and file type: the codec, the frames' size, and compression
    /// properties; nil without a camera, or for a codec not in
    /// `availableVideoCodecTypesForAssetWriter(writingTo:)` (spec §15 [I]).
    ///
    /// The average bit rate is our model [I]: 0.25 bits per pixel per frame for H.264 (about
    /// 15.6 Mbit/s at 1080p30, near an iPhone's recording rate) and half that for HEVC, whose
    /// compression is about twice as efficient at equal quality. Key frames come once a second.
    public func recommendedVideoSettings(
        forVideoCodecType videoCodecType: AVVideoCodecType, assetWriterOutputFileType outputFileType: AVFileType
    ) -> [String: Any]? {
        guard let (dimensions, fps) = activeVideoFormat,
            availableVideoCodecTypesForAssetWriter(writingTo: outputFileType).contains(videoCodecType)
        else { return nil }
        let bitsPerPixel = videoCodecType == .hevc ? 0.125 : 0.25
        let bitRate = Int((Double(dimensions.width) * Double(dimensions.height) * fps * bitsPerPixel).rounded())
        let keyFrameInterval = max(1, Int(fps.rounded()))
        return [
            AVVideoCodecKey: videoCodecType, AVVideoWidthKey: Int(dimensions.width),
            AVVideoHeightKey: Int(dimensions.height),
            AVVideoCompressionPropertiesKey: [
                AVVideoAverageBitRateKey: bitRate, AVVideoExpectedSourceFrameRateKey: Int(fps.rounded()),
                AVVideoMaxKeyFrameIntervalKey: keyFrameInterval,
            ] as [String: Any],
        ]
    }

    /// The media timescale to give an asset writer's video input (iOS 26): the least common multiple of 600 and the
    /// timescale of the camera's frame duration, so every frame time is a whole number of its units; never less than
    /// 600, as Apple states, and 600 without a camera (spec §15 [I]).
    public var recommendedMediaTimeScaleForAssetWriter: CMTimeScale {
        guard let device = connections.first?.deviceInput?.device else { return 600 }
        let frames = Int(device.activeVideoMinFrameDuration.timescale)
        guard frames > 0 else { return 600 }
        var (a, b) = (600, frames)
        while b != 0 { (a, b) = (b, a % b) }
        return CMTimeScale(clamping: 600 / a * frames)
    }

    /// The size of the frames the output delivers and the camera's highest frame rate; nil without a camera.
    private var activeVideoFormat: (CMVideoDimensions, Double)? {
        guard let device = connections.first?.deviceInput?.device else { return nil }
        let duration = device.activeVideoMinFrameDuration.seconds
        guard duration > 0 else { return nil }
        return (bufferDimensions(of: device.activeFormat.dimensions), 1 / duration)
    }
}
