import AVFoundation
import CoreMedia
import Foundation
import Obscura
import Testing

/// Video compositions' rules (Capture rules §25 rule 16): what an image generator refuses, what `isValid` reports,
/// what a reader output without a composition does, and how layer ramps hold and move.
@Suite(.needs(.ffmpeg)) struct AVVideoCompositionRulesTests {
    // rule 16 [D]: an image generator refuses a composition it cannot use, with NSInvalidArgumentException.
    @Test func anImageGeneratorRefusesUnusableSettings() throws {
        let (url, folder) = try AVAssetReaderRulesTests.movie()
        defer { try? FileManager.default.removeItem(at: folder) }
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        func refused(_ change: (AVMutableVideoComposition) -> Void) -> NSException? {
            let composition = AVMutableVideoComposition()
            composition.renderSize = CGSize(width: 64, height: 48)
            composition.frameDuration = CMTime(value: 1, timescale: 30)
            change(composition)
            return Emulator.catchException { generator.videoComposition = composition }
        }
        #expect(refused { _ in } == nil)
        #expect(refused { $0.renderScale = 2 }?.name == .invalidArgumentException)
        #expect(refused { $0.renderSize = CGSize(width: -1, height: 48) }?.name == .invalidArgumentException)
        #expect(refused { $0.frameDuration = .zero }?.name == .invalidArgumentException)
        #expect(refused { $0.frameDuration = .invalid }?.name == .invalidArgumentException)
        #expect(refused { $0.sourceTrackIDForFrameTiming = -1 }?.name == .invalidArgumentException)
        #expect(refused { $0.frameDuration = .zero }?.reason?.contains("frameDuration") == true)
    }

    // rule 16 [D]: isValid reports a zero render size, an empty stretch and a layer of a track the asset lacks.
    @Test func validationReportsEachFault() throws {
        let (url, folder) = try AVAssetReaderRulesTests.movie()
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = AVURLAsset(url: url)
        let whole = CMTimeRange(start: .zero, duration: asset.duration)
        #expect(AVVideoComposition(propertiesOf: asset).isValid(for: asset, timeRange: whole, validationDelegate: nil))

        final class Faults: AVVideoCompositionValidationHandling {
            var keys: [String] = [], gaps: [CMTimeRange] = [], tracks: [CMPersistentTrackID] = []
            func videoComposition(
                _ videoComposition: AVVideoComposition,
                shouldContinueValidatingAfterFindingInvalidValueForKey key: String
            ) -> Bool {
                keys.append(key)
                return true
            }
            func videoComposition(
                _ videoComposition: AVVideoComposition,
                shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange
            ) -> Bool {
                gaps.append(timeRange)
                return true
            }
            func videoComposition(
                _ videoComposition: AVVideoComposition,
                shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction:
                    any AVVideoCompositionInstructionProtocol,
                layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset
            ) -> Bool {
                tracks.append(layerInstruction.trackID)
                return true
            }
        }
        let composition = AVMutableVideoComposition()
        composition.frameDuration = CMTime(value: 1, timescale: 30)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: CMTime(value: 1, timescale: 30), end: asset.duration)
        let stranger = AVMutableVideoCompositionLayerInstruction()
        stranger.trackID = 9
        instruction.layerInstructions = [stranger]
        composition.instructions = [instruction]
        let faults = Faults()
        #expect(!composition.isValid(for: asset, timeRange: whole, validationDelegate: faults))
        #expect(faults.keys == ["renderSize"])
        #expect(faults.gaps == [CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 30))])
        #expect(faults.tracks == [9])
    }

    // rule 16 [I]: a composition output without a composition fails its reader with -11841.
    @Test func aCompositionOutputNeedsAComposition() throws {
        let (url, folder) = try AVAssetReaderRulesTests.movie()
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderVideoCompositionOutput(
            videoTracks: asset.tracks(withMediaType: .video), videoSettings: AVAssetReaderRulesTests.bgra)
        reader.add(output)
        #expect(!reader.startReading())
        #expect(reader.status == .failed)
        #expect((reader.error as? AVError)?.code == .invalidVideoComposition)
        let late = Emulator.catchException { output.videoComposition = AVVideoComposition(propertiesOf: asset) }
        #expect(late?.name == .internalInconsistencyException)
    }

    // rule 16 [D]: a value set holds until the next; a ramp moves linearly; before both, the defaults.
    @Test func layerValuesHoldAndRamp() {
        let layer = AVMutableVideoCompositionLayerInstruction()
        func t(_ tenths: Int64) -> CMTime { CMTime(value: tenths, timescale: 10) }
        layer.setOpacity(0.5, at: t(2))
        layer.setOpacityRamp(fromStartOpacity: 0.5, toEndOpacity: 1, timeRange: CMTimeRange(start: t(5), end: t(10)))
        var start: Float = 0, end: Float = 0
        var range = CMTimeRange.invalid
        #expect(layer.getOpacityRamp(for: t(1), startOpacity: &start, endOpacity: &end, timeRange: &range))
        #expect(start == 1 && end == 1 && range == CMTimeRange(start: .zero, end: t(2)))
        #expect(layer.getOpacityRamp(for: t(3), startOpacity: &start, endOpacity: &end, timeRange: &range))
        #expect(start == 0.5 && end == 0.5 && range == CMTimeRange(start: t(2), end: t(5)))
        #expect(layer.getOpacityRamp(for: t(7), startOpacity: &start, endOpacity: &end, timeRange: &range))
        #expect(start == 0.5 && end == 1 && range == CMTimeRange(start: t(5), end: t(10)))
        #expect(!layer.getOpacityRamp(for: t(12), startOpacity: &start, endOpacity: &end, timeRange: &range))
        #expect(start == 1 && end == 1)
        var transform = CGAffineTransform(scaleX: 3, y: 3)
        #expect(layer.getTransformRamp(for: t(4), start: &transform, end: nil, timeRange: nil))
        #expect(transform == .identity, "the identity until one is set, not the track's preferred transform")
    }
}
