import AVFoundation
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import Testing

extension DropIn {
    /// Video compositions as editing apps write them: a portrait turn with a layer transform, a fade to a background
    /// colour, a picture in a picture, a Core Image filter over every frame, then an export, a reader, an image
    /// generator or a player item. The exported file is read with ffprobe and decoded with `AVAssetReader`; the
    /// expected pixels follow from the source's known levels and the compositing rule (source over, premultiplied).
    @Suite(.needs(.ffmpeg, .ffprobe))
    struct VideoCompositionIdiomTests {
        typealias Clips = AssetExportIdiomTests

        /// The source clips' grey away from their white quarter, picture `n`: 20 + 20·(n mod 10).
        static func level(_ n: Int) -> Double { Double(20 + 20 * (n % 10)) }

        /// Every frame an asset reader's composition output gives: its time and its BGRA bytes with their row length.
        static func frames(of asset: AVAsset, composition: AVVideoComposition) throws
            -> [(time: Double, width: Int, height: Int, pixel: (Int, Int) -> (r: Double, g: Double, b: Double))]
        {
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderVideoCompositionOutput(
                videoTracks: asset.tracks(withMediaType: .video),
                videoSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            output.videoComposition = composition
            reader.add(output)
            #expect(reader.startReading(), "\(String(describing: reader.error))")
            var frames: [(Double, Int, Int, (Int, Int) -> (r: Double, g: Double, b: Double))] = []
            while let sample = output.copyNextSampleBuffer() {
                let buffer = try #require(CMSampleBufferGetImageBuffer(sample))
                CVPixelBufferLockBaseAddress(buffer, .readOnly)
                let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
                let rowBytes = CVPixelBufferGetBytesPerRow(buffer)
                let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
                let bytes = Array(UnsafeBufferPointer(start: base, count: rowBytes * height))
                CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
                frames.append(
                    (
                        sample.presentationTimeStamp.seconds, width, height,
                        { x, y in
                            let o = y * rowBytes + 4 * x
                            return (Double(bytes[o + 2]), Double(bytes[o + 1]), Double(bytes[o]))
                        }
                    ))
            }
            #expect(reader.status == .completed, "\(String(describing: reader.error))")
            return frames
        }

        /// The rotation idiom of apps that export a portrait recording upright: render size turned, the layer
        /// turned a quarter clockwise and moved back into the frame. The file is 90 × 160 with no turn in its track,
        /// and the source's white top-left quarter is now at the top right.
        @Test func aQuarterTurnExportsUpright() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try Clips.movie(in: folder, width: 160, height: 90, frames: 10))
            let track = try #require(asset.tracks(withMediaType: .video).first)

            let composition = AVMutableVideoComposition()
            composition.renderSize = CGSize(width: track.naturalSize.height, height: track.naturalSize.width)
            composition.frameDuration = CMTime(value: 1, timescale: 30)
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = CMTimeRange(start: .zero, duration: asset.duration)
            let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
            // (x, y) → (90 − y, x): a quarter turn clockwise, y pointing down.
            layer.setTransform(
                CGAffineTransform(translationX: track.naturalSize.height, y: 0).rotated(by: .pi / 2), at: .zero)
            instruction.layerInstructions = [layer]
            composition.instructions = [instruction]
            #expect(composition.isValid(for: asset, timeRange: instruction.timeRange, validationDelegate: nil))

            let url = folder.appendingPathComponent("upright.mov")
            let session = try Clips.export(
                asset, preset: AVAssetExportPresetHighestQuality, to: url, type: .mov
            ) { $0.videoComposition = composition }
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let probed = try ProbedMovie(url)
            let video = try #require(probed.streams.first { $0.kind == "video" })
            #expect(video.width == 90 && video.height == 160)
            #expect(video.rotation == nil || video.rotation == 0)
            #expect(video.frames == 10)

            let picture = try Clips.firstPicture(url)
            func grey(_ x: Int, _ y: Int) -> Int { Int(picture.bytes[y * picture.rowBytes + 4 * x + 1]) }
            #expect(picture.width == 90 && picture.height == 160)
            #expect(grey(80, 15) > 200, "the white quarter, turned to the top right")
            #expect(abs(grey(15, 15) - 20) < 12, "the grey of the first picture where the white was not")
            #expect(abs(grey(80, 120) - 20) < 12)
        }

        /// A movie recorded turned (a portrait recording's track transform: a quarter turn clockwise and back into
        /// the frame) shows upright through `AVVideoComposition(propertiesOf:)`, whose render size is the turned
        /// size, and a Core Image handler is given the upright picture.
        @Test func propertiesOfATurnedMovieShowItUpright() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let turn = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 90, ty: 0)
            let asset = AVURLAsset(
                url: try Clips.movie(in: folder, width: 160, height: 90, frames: 5, transform: turn))
            let composition = AVVideoComposition(propertiesOf: asset)
            #expect(composition.renderSize == CGSize(width: 90, height: 160))
            let layer = try #require(
                (composition.instructions.first as? AVVideoCompositionInstruction)?.layerInstructions.first)
            var transform = CGAffineTransform.identity
            _ = layer.getTransformRamp(for: .zero, start: &transform, end: nil, timeRange: nil)
            #expect(transform == turn)

            let extents = Seen()
            let filtering = AVVideoComposition(asset: asset) { request in
                extents.add(request.compositionTime.seconds, request.renderSize, request.sourceImage.extent)
                request.finish(with: request.sourceImage, context: nil)
            }
            for video in [composition, filtering] {
                let frames = try Self.frames(of: asset, composition: video)
                #expect(frames.count == 5)
                for (k, frame) in frames.enumerated() {
                    #expect(frame.width == 90 && frame.height == 160)
                    #expect(frame.pixel(80, 15).g > 200, "frame \(k): the white quarter, at the top right")
                    #expect(abs(frame.pixel(15, 15).g - Self.level(k)) < 6, "frame \(k)")
                }
            }
            #expect(extents.all.allSatisfy { $0.extent == CGRect(x: 0, y: 0, width: 90, height: 160) })
        }

        /// A fade to red: the layer's opacity ramps from 1 to 0 over the second, over a red background. Frame k
        /// (at k/30 s) is the source at opacity 1 − k/30 over red: red = L·o + 255·(1 − o), green = blue = L·o.
        @Test func anOpacityRampFadesToTheBackground() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try Clips.movie(in: folder, width: 160, height: 90, frames: 30))
            let track = try #require(asset.tracks(withMediaType: .video).first)

            let composition = AVMutableVideoComposition(propertiesOf: asset)
            #expect(composition.renderSize == CGSize(width: 160, height: 90))
            #expect(composition.frameDuration == CMTime(value: 1, timescale: 30))
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = CMTimeRange(start: .zero, duration: asset.duration)
            instruction.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
            layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: instruction.timeRange)
            instruction.layerInstructions = [layer]
            composition.instructions = [instruction]

            let frames = try Self.frames(of: asset, composition: composition)
            #expect(frames.count == 30)
            for (k, frame) in frames.enumerated() {
                #expect(abs(frame.time - Double(k) / 30) < 1e-3)
                #expect(frame.width == 160 && frame.height == 90)
                let o = 1 - Double(k) / 30, level = Self.level(k)
                let (r, g, b) = frame.pixel(120, 60)
                #expect(abs(r - (level * o + 255 * (1 - o))) < 6, "frame \(k): red \(r)")
                #expect(abs(g - level * o) < 6 && abs(b - level * o) < 6, "frame \(k): green \(g), blue \(b)")
            }
            // Half-way through the ramp, as the layer instruction reports it.
            var start: Float = -1, end: Float = -1
            var range = CMTimeRange.invalid
            #expect(
                layer.getOpacityRamp(
                    for: CMTime(value: 1, timescale: 2), startOpacity: &start, endOpacity: &end, timeRange: &range))
            #expect(start == 1 && end == 0 && range == instruction.timeRange)
        }

        /// A picture in a picture: the second clip at half size in the top right corner, over the first. The first
        /// layer instruction is the top one; each part of the frame shows its clip's grey.
        @Test func theFirstLayerIsDrawnOnTop() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let first = AVURLAsset(url: try Clips.movie(in: folder, width: 160, height: 90, frames: 10, name: "a.mov"))
            let second = AVURLAsset(
                url: try Clips.movie(in: folder, width: 160, height: 90, frames: 10, name: "b.mov", first: 5))
            let composition = AVMutableComposition()
            let whole = CMTimeRange(start: .zero, duration: first.duration)
            let main = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: 0))
            let inset = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: 0))
            try main.insertTimeRange(whole, of: try #require(first.tracks(withMediaType: .video).first), at: .zero)
            try inset.insertTimeRange(whole, of: try #require(second.tracks(withMediaType: .video).first), at: .zero)

            let video = AVMutableVideoComposition()
            video.renderSize = CGSize(width: 160, height: 90)
            video.frameDuration = CMTime(value: 1, timescale: 30)
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = whole
            let top = AVMutableVideoCompositionLayerInstruction(assetTrack: inset)
            top.setTransform(CGAffineTransform(translationX: 80, y: 0).scaledBy(x: 0.5, y: 0.5), at: .zero)
            instruction.layerInstructions = [top, AVMutableVideoCompositionLayerInstruction(assetTrack: main)]
            video.instructions = [instruction]

            let frames = try Self.frames(of: composition, composition: video)
            #expect(frames.count == 10)
            for (k, frame) in frames.enumerated() {
                #expect(abs(frame.pixel(130, 30).g - Self.level(k + 5)) < 6, "frame \(k): the inset")
                #expect(abs(frame.pixel(40, 70).g - Self.level(k)) < 6, "frame \(k): the main clip")
                #expect(frame.pixel(85, 5).g > 200, "frame \(k): the inset's white quarter")
                #expect(frame.pixel(10, 10).g > 200, "frame \(k): the main clip's white quarter")
            }
        }

        /// A Core Image handler: every frame mirrored left to right, with a red square laid over its bottom-left
        /// corner (Core Image's origin), and the request's time and size. Mirroring and pure red do not depend on
        /// the working colour space, so the source's greys come back as they were, and its white quarter is at the
        /// top right; the export's first picture shows the same.
        @Test func aCoreImageHandlerFiltersEveryFrame() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try Clips.movie(in: folder, width: 160, height: 90, frames: 15))
            let seen = Seen()
            let composition = AVMutableVideoComposition(asset: asset) { request in
                let source = request.sourceImage
                let mirrored = source.transformed(
                    by: CGAffineTransform(translationX: source.extent.width, y: 0).scaledBy(x: -1, y: 1))
                let square = CIImage(color: CIColor(red: 1, green: 0, blue: 0))
                    .cropped(to: CGRect(x: 0, y: 0, width: 40, height: 40))
                seen.add(request.compositionTime.seconds, request.renderSize, source.extent)
                request.finish(with: square.composited(over: mirrored), context: nil)
            }
            #expect(composition.renderSize == CGSize(width: 160, height: 90))

            let frames = try Self.frames(of: asset, composition: composition)
            #expect(frames.count == 15)
            for (k, frame) in frames.enumerated() {
                #expect(abs(frame.pixel(100, 30).g - Self.level(k)) < 6, "frame \(k): the grey, unchanged")
                #expect(frame.pixel(150, 10).g > 200, "frame \(k): the white quarter, mirrored")
                #expect(abs(frame.pixel(10, 10).g - Self.level(k)) < 6, "frame \(k): where the white was")
                let red = frame.pixel(20, 80)
                #expect(red.r > 250 && red.g < 5 && red.b < 5, "frame \(k): the square")
            }
            let calls = seen.all
            #expect(calls.count == 15)
            #expect(calls.enumerated().allSatisfy { abs($1.time - Double($0) / 30) < 1e-3 })
            #expect(calls.allSatisfy { $0.size == CGSize(width: 160, height: 90) })
            #expect(calls.allSatisfy { $0.extent == CGRect(x: 0, y: 0, width: 160, height: 90) })

            let url = folder.appendingPathComponent("mirrored.mp4")
            let session = try Clips.export(asset, preset: AVAssetExportPreset1280x720, to: url) {
                $0.videoComposition = composition
            }
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let picture = try Clips.firstPicture(url)
            #expect(picture.bytes[10 * picture.rowBytes + 4 * 150 + 1] > 200)
            #expect(picture.bytes[10 * picture.rowBytes + 4 * 10 + 1] < 40)
            #expect(picture.bytes[80 * picture.rowBytes + 4 * 20 + 2] > 200)
        }

        /// A handler that finishes a frame with an error fails the export, which leaves nothing at its URL.
        @Test func aHandlersErrorFailsTheExport() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try Clips.movie(in: folder, width: 160, height: 90, frames: 10))
            let composition = AVVideoComposition(asset: asset) { request in
                if request.compositionTime >= CMTime(value: 5, timescale: 30) {
                    request.finish(with: NSError(domain: "FilterApp", code: 7))
                } else {
                    request.finish(with: request.sourceImage, context: nil)
                }
            }
            let url = folder.appendingPathComponent("never.mp4")
            let session = try Clips.export(asset, preset: AVAssetExportPresetMediumQuality, to: url) {
                $0.videoComposition = composition
            }
            #expect(session.status == .failed)
            #expect(session.error != nil)
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }

        /// An image generator with a composition shows the composed frame, whatever `appliesPreferredTrackTransform`
        /// says; a player item's video output gives frames of the render size; an export keeps its own copy.
        @Test func aGeneratorAndAPlayerShowTheComposition() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try Clips.movie(in: folder, width: 160, height: 90, frames: 10))
            let track = try #require(asset.tracks(withMediaType: .video).first)
            let composition = AVMutableVideoComposition(propertiesOf: asset)
            composition.renderSize = CGSize(width: 80, height: 46)
            let instruction = try #require(composition.instructions.first as? AVMutableVideoCompositionInstruction)
            let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
            layer.setTransform(CGAffineTransform(scaleX: 0.5, y: 0.5), at: .zero)
            instruction.layerInstructions = [layer]

            let generator = AVAssetImageGenerator(asset: asset)
            generator.appliesPreferredTrackTransform = true
            generator.videoComposition = composition
            var actual = CMTime.invalid
            let image = try generator.copyCGImage(at: CMTime(value: 4, timescale: 30), actualTime: &actual)
            #expect(image.width == 80 && image.height == 46)
            #expect(abs(actual.seconds - 4.0 / 30) < 1e-3)

            let item = AVPlayerItem(asset: asset)
            item.videoComposition = composition
            let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [
                kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA
            ])
            item.add(output)
            let player = AVPlayer(playerItem: item)
            _ = player
            let buffer = try #require(output.copyPixelBuffer(forItemTime: .zero, itemTimeForDisplay: nil))
            #expect(CVPixelBufferGetWidth(buffer) == 80 && CVPixelBufferGetHeight(buffer) == 46)

            // An export keeps the composition as it was given: the app's later change to its instruction does not
            // reach it, and the half-size picture's white corner is there.
            let url = folder.appendingPathComponent("half.mp4")
            let session = try Clips.export(asset, preset: AVAssetExportPresetHighestQuality, to: url) {
                $0.videoComposition = composition
                instruction.layerInstructions = []
            }
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let picture = try Clips.firstPicture(url)
            #expect(picture.width == 80 && picture.height == 46)
            #expect(picture.bytes[5 * picture.rowBytes + 4 * 5 + 1] > 200)
        }

        /// Instructions that overlap cannot compose: `isValid` says so to its delegate, and an export fails with
        /// `AVError.invalidVideoComposition` (-11841), leaving nothing at the destination.
        @Test func overlappingInstructionsFailTheExport() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try Clips.movie(in: folder, width: 160, height: 90, frames: 10))
            let track = try #require(asset.tracks(withMediaType: .video).first)
            let composition = AVMutableVideoComposition(propertiesOf: asset)
            let second = AVMutableVideoCompositionInstruction()
            second.timeRange = CMTimeRange(
                start: CMTime(value: 1, timescale: 10), duration: CMTime(value: 1, timescale: 10))
            second.layerInstructions = [AVMutableVideoCompositionLayerInstruction(assetTrack: track)]
            composition.instructions = composition.instructions + [second]

            final class Delegate: AVVideoCompositionValidationHandling {
                var ranges: [CMTimeRange] = []
                func videoComposition(
                    _ videoComposition: AVVideoComposition,
                    shouldContinueValidatingAfterFindingInvalidTimeRangeIn instruction:
                        any AVVideoCompositionInstructionProtocol
                ) -> Bool {
                    ranges.append(instruction.timeRange)
                    return true
                }
            }
            let delegate = Delegate()
            let range = CMTimeRange(start: .zero, duration: asset.duration)
            #expect(!composition.isValid(for: asset, timeRange: range, validationDelegate: delegate))
            #expect(delegate.ranges == [second.timeRange])

            let url = folder.appendingPathComponent("never.mp4")
            let session = try Clips.export(asset, preset: AVAssetExportPresetMediumQuality, to: url) {
                $0.videoComposition = composition
            }
            #expect(session.status == .failed)
            #expect((session.error as? AVError)?.code == .invalidVideoComposition)
            #expect((session.error as NSError?)?.code == -11841)
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }

        /// The handler's calls, from the compositor's thread.
        final class Seen: @unchecked Sendable {
            private let lock = NSLock()
            private var calls: [(time: Double, size: CGSize, extent: CGRect)] = []
            func add(_ time: Double, _ size: CGSize, _ extent: CGRect) {
                lock.withLock { calls.append((time, size, extent)) }
            }
            var all: [(time: Double, size: CGSize, extent: CGRect)] { lock.withLock { calls } }
        }
    }
}
