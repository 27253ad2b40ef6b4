import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

extension DropIn {
    /// A clip played back as camera apps show what they recorded: `AVPlayer(url:)`, `play()`, the end notification,
    /// a periodic time observer for the scrubber, `seek(to:)`, an `AVPlayerItemVideoOutput` for the pictures, an
    /// `AVPlayerLayer` for the layout, and `AVQueuePlayer` with `AVPlayerLooper` for a looping preview. The clips
    /// are `AssetExportIdiomTests.movie`'s: 30 fps, picture i a grey of level 20 + 20·(i mod 10).
    @Suite(.needs(.ffmpeg))
    struct PlayerIdiomTests {
        /// Records what a player's observers saw.
        final class Log: @unchecked Sendable {
            private let lock = NSLock()
            private var entries: [String] = []
            func add(_ entry: String) { lock.withLock { entries.append(entry) } }
            var all: [String] { lock.withLock { entries } }
        }

        /// A one-second clip plays to its end in a second of the host clock: the end notification comes with the
        /// item, the player pauses there, and its time control status went from playing to paused.
        @Test func aClipPlaysToItsEndInItsOwnTime() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try AssetExportIdiomTests.movie(in: folder, width: 160, height: 90, frames: 30)
            let player = AVPlayer(url: url)
            let item = try #require(player.currentItem)
            let log = Log()
            let statuses = player.observe(\.timeControlStatus, options: [.new]) { _, change in
                log.add("\(change.newValue?.rawValue ?? -1)")
            }
            defer { statuses.invalidate() }
            let ended = DispatchSemaphore(value: 0)
            let token = NotificationCenter.default.addObserver(
                forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: nil
            ) { _ in ended.signal() }
            defer { NotificationCenter.default.removeObserver(token) }
            let start = Date()
            player.play()
            #expect(player.rate == 1)
            #expect(ended.wait(timeout: .now() + 10) == .success)
            let elapsed = Date().timeIntervalSince(start)
            #expect(elapsed > 0.95 && elapsed < 3, "played in \(elapsed) s")
            #expect(item.status == .readyToPlay)
            #expect(abs(item.duration.seconds - 1) < 0.02)
            #expect(abs(player.currentTime().seconds - 1) < 0.02, "\(player.currentTime().seconds)")
            // Paused at the end (`actionAtItemEnd` is `.pause` by default).
            Thread.sleep(forTimeInterval: 0.05)
            #expect(player.rate == 0 && player.timeControlStatus == .paused)
            let playing = String(AVPlayer.TimeControlStatus.playing.rawValue)
            let paused = String(AVPlayer.TimeControlStatus.paused.rawValue)
            #expect(Array(log.all.suffix(2)) == [playing, paused], "\(log.all)")
        }

        /// A periodic observer hears each quarter second of item time, and the start and stop; at twice the rate the
        /// clip ends in half the time.
        @Test func aPeriodicObserverHearsEachInterval() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try AssetExportIdiomTests.movie(in: folder, width: 160, height: 90, frames: 30)
            let player = AVPlayer(url: url)
            let times = Log()
            let observer = player.addPeriodicTimeObserver(
                forInterval: CMTime(value: 1, timescale: 4), queue: DispatchQueue(label: "observer")
            ) { time in times.add(String(format: "%.3f", time.seconds)) }
            let ended = DispatchSemaphore(value: 0)
            let token = NotificationCenter.default.addObserver(
                forName: AVPlayerItem.didPlayToEndTimeNotification, object: nil, queue: nil
            ) { _ in ended.signal() }
            defer { NotificationCenter.default.removeObserver(token) }
            let start = Date()
            // As a streaming app sets up its item: no effect on a local file.
            player.currentItem?.preferredForwardBufferDuration = 1
            player.playImmediately(atRate: 2)
            #expect(player.rate == 2)
            #expect(ended.wait(timeout: .now() + 10) == .success)
            let elapsed = Date().timeIntervalSince(start)
            #expect(elapsed > 0.45 && elapsed < 2, "played at twice the rate in \(elapsed) s")
            Thread.sleep(forTimeInterval: 0.1)
            player.removeTimeObserver(observer)
            let seen = times.all.compactMap(Double.init)
            // The start, each quarter second, and the pause at the end.
            #expect(seen.first.map { $0 < 0.05 } == true, "\(seen)")
            for quarter in [0.25, 0.5, 0.75] {
                #expect(seen.contains { $0 >= quarter && $0 < quarter + 0.06 }, "no call near \(quarter): \(seen)")
            }
            #expect(seen.last.map { abs($0 - 1) < 0.02 } == true, "\(seen)")
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 })
        }

        /// Seeking moves the item's time, and a video output gives the picture shown there: the frame of that time,
        /// new only when the frame changes.
        @Test func seekingShowsThePictureOfThatTime() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try AssetExportIdiomTests.movie(in: folder, width: 160, height: 90, frames: 30)
            let item = AVPlayerItem(url: url)
            let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [
                kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA
            ])
            item.add(output)
            let player = AVPlayer(playerItem: item)
            let sought = DispatchSemaphore(value: 0)
            player.seek(to: CMTime(value: 1, timescale: 2), toleranceBefore: .zero, toleranceAfter: .zero) { finished in
                #expect(finished)
                sought.signal()
            }
            #expect(sought.wait(timeout: .now() + 5) == .success)
            #expect(abs(player.currentTime().seconds - 0.5) < 1e-3)

            func grey(at seconds: Double) throws -> (level: Int, shownFrom: Double) {
                var shown = CMTime.invalid
                let buffer = try #require(
                    output.copyPixelBuffer(
                        forItemTime: CMTime(seconds: seconds, preferredTimescale: 600), itemTimeForDisplay: &shown))
                #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
                CVPixelBufferLockBaseAddress(buffer, .readOnly)
                defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
                let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
                return (Int(base[60 * CVPixelBufferGetBytesPerRow(buffer) + 4 * 120 + 1]), shown.seconds)
            }
            // Frame 15 at 0.5 s: level 20 + 20·5.
            let half = try grey(at: player.currentTime().seconds)
            #expect(abs(half.level - 120) <= 6 && abs(half.shownFrom - 0.5) < 1e-3, "\(half)")
            #expect(!output.hasNewPixelBuffer(forItemTime: CMTime(seconds: 0.51, preferredTimescale: 600)))
            #expect(output.hasNewPixelBuffer(forItemTime: CMTime(seconds: 0.6, preferredTimescale: 600)))
            // Frame 18 at 0.6 s, and back to frame 3 at 0.1 s.
            #expect(abs(try grey(at: 0.6).level - 180) <= 6)
            #expect(abs(try grey(at: 0.1).level - 80) <= 6)
        }

        /// An item whose movie cannot be read fails, with the reason, and its status is key-value observable.
        @Test func anUnreadableItemFails() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let item = AVPlayerItem(url: folder.appendingPathComponent("missing.mov"))
            let failed = DispatchSemaphore(value: 0)
            let observation = item.observe(\.status, options: [.new]) { _, change in
                if change.newValue == .failed { failed.signal() }
            }
            defer { observation.invalidate() }
            #expect(item.status == .unknown)
            let player = AVPlayer(playerItem: item)
            player.play()
            #expect(failed.wait(timeout: .now() + 5) == .success)
            #expect(item.error != nil)
            #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        }

        /// A queue player plays its items one after the other and is left with none; a looper plays one item again
        /// and again.
        @Test func queuedItemsPlayInTurnAndALooperRepeats() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try AssetExportIdiomTests.movie(in: folder, width: 160, height: 90, frames: 6)
            let first = AVPlayerItem(url: url), second = AVPlayerItem(url: url)
            let queue = AVQueuePlayer(items: [first, second])
            #expect(queue.items().count == 2 && queue.actionAtItemEnd == .advance)
            let log = Log()
            let done = DispatchSemaphore(value: 0)
            let token = NotificationCenter.default.addObserver(
                forName: .AVPlayerItemDidPlayToEndTime, object: nil, queue: nil
            ) { note in
                let which =
                    (note.object as AnyObject?) === first
                    ? "first" : (note.object as AnyObject?) === second ? "second" : "other"
                log.add(which)
                if which == "second" { done.signal() }
            }
            queue.play()
            #expect(done.wait(timeout: .now() + 10) == .success)
            NotificationCenter.default.removeObserver(token)
            #expect(log.all == ["first", "second"])
            Thread.sleep(forTimeInterval: 0.05)
            #expect(queue.currentItem == nil && queue.items().isEmpty)

            let looping = AVQueuePlayer()
            let looper = AVPlayerLooper(player: looping, templateItem: AVPlayerItem(url: url))
            #expect(looper.status == .ready)
            looping.play()
            // Six frames last 0.2 s: within 1.2 s it has looped several times.
            Thread.sleep(forTimeInterval: 1.2)
            #expect(looper.loopCount >= 3, "\(looper.loopCount) loops")
            #expect(looping.currentItem != nil && looping.timeControlStatus == .playing)
            looper.disableLooping()
            looping.pause()
        }

        /// A player layer lays the video out by its gravity once the item is ready.
        @Test func aPlayerLayerLaysTheVideoOut() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try AssetExportIdiomTests.movie(in: folder, width: 160, height: 90, frames: 3)
            let player = AVPlayer(url: url)
            let layer = AVPlayerLayer(player: player)
            layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            let ready = DispatchSemaphore(value: 0)
            let observation = try #require(player.currentItem).observe(\.status, options: [.initial, .new]) { _, c in
                if c.newValue == .readyToPlay { ready.signal() }
            }
            defer { observation.invalidate() }
            #expect(ready.wait(timeout: .now() + 5) == .success)
            #expect(layer.isReadyForDisplay)
            // 16:9 in a square: the full width, 112.5 high, centred.
            #expect(layer.videoRect == CGRect(x: 0, y: 43.75, width: 200, height: 112.5))
            // Filling: the full height, 200 · 16/9 wide, centred.
            layer.videoGravity = .resizeAspectFill
            let fill = layer.videoRect
            #expect(abs(fill.width - 3200.0 / 9) < 1e-6 && fill.height == 200)
            #expect(abs(fill.minX - (200 - 3200.0 / 9) / 2) < 1e-6 && fill.minY == 0)
        }
    }
}
