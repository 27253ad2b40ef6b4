import Foundation
import Imaging

/// One stretch of a composition track (Capture rules §25 rule 15): a time range of a source track shown over a
/// range of the composition's time, or nothing (an empty edit) over that range.
struct CompositionEdit {
    /// The source track, nil for an empty edit.
    let source: AVAssetTrack?
    /// The source track's time shown (for an empty edit, equal to `target`).
    var sourceRange: CMTimeRange
    /// Where in the composition it is shown.
    var target: CMTimeRange

    var isEmpty: Bool { source == nil }

    /// Composition time per source time: 1 unless the range was scaled.
    var scale: Double {
        let s = sourceRange.duration.seconds
        return s > 0 ? target.duration.seconds / s : 1
    }

    /// The two edits this one becomes when cut at composition time `time`, strictly inside its target.
    func split(at time: CMTime) -> (CompositionEdit, CompositionEdit) {
        let before = time - target.start
        let sourceBefore = isEmpty || scale == 1 ? before : CMTimeMultiplyByFloat64(before, multiplier: 1 / scale)
        let cut = sourceRange.start + sourceBefore
        return (
            CompositionEdit(
                source: source, sourceRange: CMTimeRange(start: sourceRange.start, end: cut),
                target: CMTimeRange(start: target.start, end: time)),
            CompositionEdit(
                source: source, sourceRange: CMTimeRange(start: cut, end: sourceRange.end),
                target: CMTimeRange(start: time, end: target.end))
        )
    }

    func shifted(by offset: CMTime) -> CompositionEdit {
        var edit = self
        edit.target.start = target.start + offset
        if isEmpty { edit.sourceRange = edit.target }
        return edit
    }
}

/// A composition track's edits, laid end to end from time zero (Capture rules §25 rule 15): what inserting, removing
/// and scaling time ranges do to them.
struct CompositionEdits {
    private(set) var edits: [CompositionEdit] = []

    /// Where the last edit ends.
    var end: CMTime { edits.last?.target.end ?? .zero }

    /// Cuts the edit that spans `time`, so that an edit starts there; time past the end is left alone.
    private mutating func cut(at time: CMTime) {
        guard let i = edits.firstIndex(where: { $0.target.start < time && time < $0.target.end }) else { return }
        let (a, b) = edits[i].split(at: time)
        edits.replaceSubrange(i...i, with: [a, b])
    }

    /// Inserts `edit` at its target's start: what was there and after moves later by its duration, and time between
    /// the end and the start becomes an empty edit.
    mutating func insert(_ edit: CompositionEdit) {
        let at = edit.target.start
        if at > end { append(empty: CMTimeRange(start: end, end: at)) }
        cut(at: at)
        let i = edits.firstIndex { $0.target.start >= at } ?? edits.count
        for j in i..<edits.count { edits[j] = edits[j].shifted(by: edit.target.duration) }
        edits.insert(edit, at: i)
        mergeEmpties()
    }

    /// Inserts an empty range: what was at its start and after moves later by its duration.
    mutating func insert(empty range: CMTimeRange) {
        insert(CompositionEdit(source: nil, sourceRange: range, target: range))
    }

    private mutating func append(empty range: CMTimeRange) {
        edits.append(CompositionEdit(source: nil, sourceRange: range, target: range))
    }

    /// Removes a range: what follows it moves earlier by its duration.
    mutating func remove(_ range: CMTimeRange) {
        let start = max(range.start, .zero), finish = min(range.end, end)
        guard finish > start else { return }
        cut(at: start)
        cut(at: finish)
        let length = finish - start
        edits = edits.compactMap { edit in
            if edit.target.start >= start && edit.target.end <= finish { return nil }
            return edit.target.start >= finish ? edit.shifted(by: .zero - length) : edit
        }
        mergeEmpties()
        // A track does not end in nothing.
        while edits.last?.isEmpty == true { edits.removeLast() }
    }

    /// Plays `range` over `duration`: its edits stretched or squeezed in proportion, what follows moved by the
    /// difference.
    mutating func scale(_ range: CMTimeRange, to duration: CMTime) {
        let start = max(range.start, .zero), finish = min(range.end, end)
        guard finish > start, duration > .zero else { return }
        cut(at: start)
        cut(at: finish)
        let factor = duration.seconds / (finish - start).seconds
        let timescale = max(start.timescale, duration.timescale, 600)
        func mapped(_ t: CMTime) -> CMTime {
            start + CMTime(seconds: (t - start).seconds * factor, preferredTimescale: timescale)
        }
        edits = edits.map { edit in
            var edit = edit
            if edit.target.start >= start && edit.target.end <= finish {
                edit.target = CMTimeRange(start: mapped(edit.target.start), end: mapped(edit.target.end))
                if edit.isEmpty { edit.sourceRange = edit.target }
            } else if edit.target.start >= finish {
                edit = edit.shifted(by: duration - (finish - start))
            }
            return edit
        }
    }

    /// Adjacent empty edits become one.
    private mutating func mergeEmpties() {
        var merged: [CompositionEdit] = []
        for edit in edits {
            if edit.isEmpty, let last = merged.last, last.isEmpty {
                let range = CMTimeRange(start: last.target.start, end: edit.target.end)
                merged[merged.count - 1] = CompositionEdit(source: nil, sourceRange: range, target: range)
            } else {
                merged.append(edit)
            }
        }
        edits = merged
    }
}

/// Decoded pictures in presentation order, each with its time in seconds (−1 where the stream gives none).
protocol PictureSource: AnyObject {
    func next() throws(MediaFileError) -> (PixelPlane<UInt8>, Double)?
}

/// Decoded sound, a frame of samples at a time.
protocol SoundSource: AnyObject {
    func next() throws(MediaFileError) -> MovieSoundReader.Frame?
}

extension MovieFrameReader: PictureSource {}

/// The times a decoded picture stream is shown at: the stream's own, never going back, and for a picture without
/// one, a frame period after the picture before (zero for the first).
struct PictureTimes {
    let step: Double
    private var previous = -1.0

    init(step: Double) { self.step = step }

    /// The time of the next picture, whose stream time is `stamp` (−1 for none).
    mutating func time(of stamp: Double) -> Double {
        let time = stamp >= 0 ? max(stamp, previous + 1e-6) : (previous < 0 ? 0 : previous + step)
        previous = time
        return time
    }
}
extension MovieSoundReader: SoundSource {}

/// A composition track's pictures: each edit's source decoded over its source range, the pictures shown there
/// retimed to the edit's place in the composition. An empty edit gives no pictures, so the picture before it stays
/// on screen until the next one.
final class ComposedPictures: PictureSource {
    private var pending: ArraySlice<CompositionEdit>
    private var current: (edit: CompositionEdit, reader: any PictureSource, step: Double)?
    /// The source picture read but not yet given, with its source time.
    private var ahead: (PixelPlane<UInt8>, Double)?
    private var times = PictureTimes(step: 1.0 / 30)

    init(edits: [CompositionEdit]) { pending = edits.filter { !$0.isEmpty }[...] }

    /// The current source's next picture and its time, a picture without a time following the one before by a frame
    /// period.
    private func read() throws(MediaFileError) -> (PixelPlane<UInt8>, Double)? {
        guard let current else { return nil }
        if let held = ahead {
            ahead = nil
            return held
        }
        guard let (picture, stamp) = try current.reader.next() else { return nil }
        return (picture, times.time(of: stamp))
    }

    func next() throws(MediaFileError) -> (PixelPlane<UInt8>, Double)? {
        while true {
            if current == nil {
                guard let edit = pending.popFirst(), let track = edit.source else { return nil }
                let rate = track.contents.rate
                current = (edit, try track.openPictures(), rate > 0 ? 1 / rate : 1.0 / 30)
                ahead = nil
                times = PictureTimes(step: current?.step ?? 1.0 / 30)
            }
            guard let (edit, _, step) = current else { return nil }
            let start = edit.sourceRange.start.seconds, end = edit.sourceRange.end.seconds
            guard let (picture, time) = try read() else {
                current = nil
                continue
            }
            // A picture is shown until the next one's time (a frame period for the last).
            let following = try read()
            ahead = following
            let until = following?.1 ?? time + step
            if until <= start + 1e-9 { continue }
            if time >= end - 1e-9 {
                current = nil
                continue
            }
            let shown = edit.target.start.seconds + (max(time, start) - start) * edit.scale
            return (picture, shown)
        }
    }
}

/// A composition track's sound: each edit's source decoded over its source range, cut to it sample by sample and
/// retimed to the edit's place. A scaled edit's samples are resampled by linear interpolation to fill its duration
/// at the same rate, so its pitch moves with its speed, as tape does. An empty edit gives no sound.
final class ComposedSound: SoundSource {
    private var pending: ArraySlice<CompositionEdit>
    private var current: (edit: CompositionEdit, reader: any SoundSource)?
    private var position = 0.0

    init(edits: [CompositionEdit]) { pending = edits.filter { !$0.isEmpty }[...] }

    func next() throws(MediaFileError) -> MovieSoundReader.Frame? {
        while true {
            if current == nil {
                guard let edit = pending.popFirst(), let track = edit.source else { return nil }
                current = (edit, try track.openSound())
                position = 0
            }
            guard let (edit, reader) = current else { return nil }
            guard let frame = try reader.next() else {
                current = nil
                continue
            }
            let channels = max(frame.channels, 1), rate = Double(frame.rate)
            let count = frame.samples.count / channels
            let time = frame.seconds >= 0 ? max(frame.seconds, position) : position
            position = time + Double(count) / rate
            let start = edit.sourceRange.start.seconds, end = edit.sourceRange.end.seconds
            if position <= start { continue }
            if time >= end {
                current = nil
                continue
            }
            let first = max(0, Int(((start - time) * rate).rounded()))
            let last = min(count, Int(((end - time) * rate).rounded()))
            guard last > first else { continue }
            var samples = Array(frame.samples[(first * channels)..<(last * channels)])
            if abs(edit.scale - 1) > 1e-9 {
                samples = Self.resampled(
                    samples, channels: channels, to: Int((Double(last - first) * edit.scale).rounded()))
            }
            let shown = edit.target.start.seconds + (time + Double(first) / rate - start) * edit.scale
            return MovieSoundReader.Frame(samples: samples, channels: channels, rate: frame.rate, seconds: shown)
        }
    }

    /// Interleaved samples stretched or squeezed to `frames` frames by linear interpolation between neighbours.
    static func resampled(_ samples: [Float], channels: Int, to frames: Int) -> [Float] {
        let count = samples.count / channels
        guard count > 1, frames > 0 else {
            return [Float](repeating: samples.first ?? 0, count: max(frames, 0) * channels)
        }
        var out = [Float](repeating: 0, count: frames * channels)
        let step = Double(count - 1) / Double(max(frames - 1, 1))
        for f in 0..<frames {
            let x = Double(f) * step, i = min(Int(x), count - 2), t = Float(x - Double(i))
            for c in 0..<channels {
                out[f * channels + c] = samples[i * channels + c] * (1 - t) + samples[(i + 1) * channels + c] * t
            }
        }
        return out
    }
}
