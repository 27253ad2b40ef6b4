import Foundation

/// What a segment report needs from fragmented MPEG-4 (ISO/IEC 14496-12): each track's identifier, handler and
/// timescale from an initialization segment's movie box, and each track's run of samples from a fragment's movie
/// fragment box. Boxes are read by their sizes; anything else in them is passed over.
enum FragmentedMP4 {
    /// A track as the initialization segment declares it, with the sample defaults its `trex` gives fragments.
    struct Track: Equatable {
        var id: UInt32
        /// `vide` or `soun`.
        var handler: String
        var timescale: UInt32
        var defaultDuration: UInt32 = 0
        var defaultSize: UInt32 = 0
        var defaultFlags: UInt32 = 0
    }

    /// One track's samples in a fragment.
    struct Run: Equatable {
        var trackID: UInt32
        /// The decode time of the first sample, in the track's timescale.
        var baseDecodeTime: UInt64
        /// The first sample's composition offset (presentation minus decode time).
        var firstCompositionOffset: Int64
        var sampleCount: Int
        /// The samples' durations together, in the track's timescale.
        var duration: UInt64
        /// Where the first sample's bytes start in the fragment, and how many there are.
        var firstOffset: Int
        var firstSize: Int
        var firstIsSync: Bool
    }

    /// A box: its type, where its payload starts and where the box ends, in `bytes`.
    private struct Box {
        let type: String
        let start: Int
        let payload: Int
        let end: Int
    }

    /// The boxes laid end to end in `bytes[range]`; stops at the first malformed size.
    private static func boxes(_ bytes: [UInt8], in range: Range<Int>) -> [Box] {
        var found: [Box] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = Int(u32(bytes, at))
            var header = 8
            if size == 1, at + 16 <= range.upperBound {
                size = Int(clamping: u64(bytes, at + 8))
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, at + size <= range.upperBound else { break }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            found.append(Box(type: type, start: at, payload: at + header, end: at + size))
            at += size
        }
        return found
    }

    private static func child(_ bytes: [UInt8], _ box: Box, _ type: String) -> Box? {
        boxes(bytes, in: box.payload..<box.end).first { $0.type == type }
    }

    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        guard i + 4 <= b.count else { return 0 }
        return UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    private static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) << 32 | UInt64(u32(b, i + 4)) }

    /// The tracks an initialization segment declares, in order.
    static func tracks(initialization bytes: [UInt8]) -> [Track] {
        guard let moov = boxes(bytes, in: 0..<bytes.count).first(where: { $0.type == "moov" }) else { return [] }
        var tracks: [Track] = []
        for trak in boxes(bytes, in: moov.payload..<moov.end) where trak.type == "trak" {
            guard let tkhd = child(bytes, trak, "tkhd"), let mdia = child(bytes, trak, "mdia"),
                let mdhd = child(bytes, mdia, "mdhd"), let hdlr = child(bytes, mdia, "hdlr")
            else { continue }
            let tkhdV1 = bytes[tkhd.payload] == 1
            let mdhdV1 = bytes[mdhd.payload] == 1
            tracks.append(
                Track(
                    id: u32(bytes, tkhd.payload + (tkhdV1 ? 20 : 12)),
                    handler: String(decoding: bytes[(hdlr.payload + 8)..<(hdlr.payload + 12)], as: UTF8.self),
                    timescale: u32(bytes, mdhd.payload + (mdhdV1 ? 20 : 12))))
        }
        if let mvex = child(bytes, moov, "mvex") {
            for trex in boxes(bytes, in: mvex.payload..<mvex.end) where trex.type == "trex" {
                let id = u32(bytes, trex.payload + 4)
                guard let i = tracks.firstIndex(where: { $0.id == id }) else { continue }
                tracks[i].defaultDuration = u32(bytes, trex.payload + 12)
                tracks[i].defaultSize = u32(bytes, trex.payload + 16)
                tracks[i].defaultFlags = u32(bytes, trex.payload + 20)
            }
        }
        return tracks
    }

    /// Whether sample flags mark a sync sample (`sample_is_non_sync_sample` clear).
    static func isSync(_ flags: UInt32) -> Bool { flags & 0x0001_0000 == 0 }

    /// Each track's run of samples in a fragment (its first movie fragment box), in the order the fragment lists
    /// them.
    static func runs(fragment bytes: [UInt8], tracks: [Track]) -> [Run] {
        guard let moof = boxes(bytes, in: 0..<bytes.count).first(where: { $0.type == "moof" }) else { return [] }
        var runs: [Run] = []
        for traf in boxes(bytes, in: moof.payload..<moof.end) where traf.type == "traf" {
            guard let tfhd = child(bytes, traf, "tfhd") else { continue }
            let flags = u32(bytes, tfhd.payload) & 0xFF_FFFF
            let id = u32(bytes, tfhd.payload + 4)
            let track = tracks.first { $0.id == id } ?? Track(id: id, handler: "", timescale: 1)
            var at = tfhd.payload + 8
            var base = moof.start
            if flags & 0x01 != 0 {
                base = Int(clamping: u64(bytes, at))
                at += 8
            }
            if flags & 0x02 != 0 { at += 4 }
            var duration = track.defaultDuration, size = track.defaultSize, sampleFlags = track.defaultFlags
            if flags & 0x08 != 0 {
                duration = u32(bytes, at)
                at += 4
            }
            if flags & 0x10 != 0 {
                size = u32(bytes, at)
                at += 4
            }
            if flags & 0x20 != 0 { sampleFlags = u32(bytes, at) }
            var decodeTime: UInt64 = 0
            if let tfdt = child(bytes, traf, "tfdt") {
                decodeTime =
                    bytes[tfdt.payload] == 1 ? u64(bytes, tfdt.payload + 4) : UInt64(u32(bytes, tfdt.payload + 4))
            }
            var run = Run(
                trackID: id, baseDecodeTime: decodeTime, firstCompositionOffset: 0, sampleCount: 0, duration: 0,
                firstOffset: 0, firstSize: 0, firstIsSync: true)
            for trun in boxes(bytes, in: traf.payload..<traf.end) where trun.type == "trun" {
                let version = bytes[trun.payload]
                let runFlags = u32(bytes, trun.payload) & 0xFF_FFFF
                let count = Int(u32(bytes, trun.payload + 4))
                var at = trun.payload + 8
                var dataOffset = 0
                if runFlags & 0x01 != 0 {
                    dataOffset = Int(Int32(bitPattern: u32(bytes, at)))
                    at += 4
                }
                var firstFlags: UInt32?
                if runFlags & 0x04 != 0 {
                    firstFlags = u32(bytes, at)
                    at += 4
                }
                for i in 0..<count {
                    var d = duration, s = size, f = sampleFlags, c: Int64 = 0
                    if runFlags & 0x100 != 0 { d = u32(bytes, at); at += 4 }
                    if runFlags & 0x200 != 0 { s = u32(bytes, at); at += 4 }
                    if runFlags & 0x400 != 0 { f = u32(bytes, at); at += 4 }
                    if runFlags & 0x800 != 0 {
                        let raw = u32(bytes, at)
                        c = version == 1 ? Int64(Int32(bitPattern: raw)) : Int64(raw)
                        at += 4
                    }
                    if i == 0, let firstFlags { f = firstFlags }
                    if run.sampleCount == 0 {
                        run.firstOffset = base + dataOffset
                        run.firstSize = Int(s)
                        run.firstIsSync = isSync(f)
                        run.firstCompositionOffset = c
                    }
                    run.sampleCount += 1
                    run.duration += UInt64(d)
                }
            }
            runs.append(run)
        }
        return runs
    }
}
