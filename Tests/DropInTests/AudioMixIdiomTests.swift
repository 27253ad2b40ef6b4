import AVFoundation
import Foundation
import Testing

extension DropIn {
    /// Audio mixes as editing apps write them: a fade and a held volume on a recording's sound, then an export. The
    /// exported sound is read back with an asset reader; the microphone's 1 kHz tone at a quarter of full scale
    /// makes the expected level at any time its volume there times that amplitude.
    @Suite(.needs(.ffmpeg, .ffprobe))
    struct AudioMixIdiomTests {
        /// The RMS of the sound's 16-bit samples (44.1 kHz mono) over the 50 ms centred on `seconds`.
        static func level(_ samples: [Double], at seconds: Double) -> Double {
            let centre = Int(seconds * 44_100), half = 1_102
            let window = samples[max(0, centre - half)..<min(samples.count, centre + half)]
            return (window.map { $0 * $0 }.reduce(0, +) / Double(max(window.count, 1))).squareRoot()
        }

        /// A fade out over the first half second, silence held after it, and the full volume again from 0.6 s: the
        /// level is the tone's times the volume at each time (a linear ramp's value half-way is half).
        @Test func aVolumeRampFadesTheExportedSound() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try CompositionIdiomTests.take(in: folder))
            let sound = try #require(asset.tracks(withMediaType: .audio).first)
            let parameters = AVMutableAudioMixInputParameters(track: sound)
            parameters.setVolumeRamp(
                fromStartVolume: 1, toEndVolume: 0,
                timeRange: CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 2)))
            parameters.setVolume(1, at: CMTime(value: 6, timescale: 10))
            let mix = AVMutableAudioMix()
            mix.inputParameters = [parameters]

            var start: Float = -1, end: Float = -1
            var range = CMTimeRange.invalid
            #expect(
                parameters.getVolumeRamp(
                    for: CMTime(value: 1, timescale: 4), startVolume: &start, endVolume: &end, timeRange: &range))
            #expect(start == 1 && end == 0 && range.duration == CMTime(value: 1, timescale: 2))

            let url = folder.appendingPathComponent("faded.mp4")
            let session = try AssetExportIdiomTests.export(asset, preset: AVAssetExportPresetMediumQuality, to: url) {
                $0.audioMix = mix
            }
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let samples = try AssetExportIdiomTests.samples(url)
            let full = 32767 * 0.25 / 2.0.squareRoot()
            for (time, volume) in [(0.125, 0.75), (0.25, 0.5), (0.375, 0.25), (0.8, 1.0)] {
                let level = Self.level(samples, at: time)
                #expect(abs(level - full * volume) < 0.08 * full, "at \(time) s: RMS \(level), not \(full * volume)")
            }
            #expect(Self.level(samples, at: 0.55) < 0.03 * full, "silent between the fade and 0.6 s")
        }

        /// Without an audio mix, and with parameters for another track, the sound is exported as recorded.
        @Test func parametersForAnotherTrackChangeNothing() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try CompositionIdiomTests.take(in: folder))
            let elsewhere = AVMutableAudioMixInputParameters(track: nil)
            elsewhere.trackID = 99
            elsewhere.setVolume(0, at: .zero)
            let mix = AVMutableAudioMix()
            mix.inputParameters = [elsewhere]
            let url = folder.appendingPathComponent("unchanged.mp4")
            let session = try AssetExportIdiomTests.export(asset, preset: AVAssetExportPresetMediumQuality, to: url) {
                $0.audioMix = mix
            }
            #expect(session.status == .completed, "\(String(describing: session.error))")
            try AssetExportIdiomTests.expectTone(url)
        }
    }
}
