import Foundation

/// Regions a reader finds (faces, salient objects) followed from one read to the next: a region keeps the
/// identifier of the region of the last read it overlaps most (at least a third of their union, our choice), and a
/// region that overlaps none is new and takes the next identifier, never reused, so an identifier stays with what
/// it marks while it stays in view (spec §16 rule 2). The first identifier is 1.
struct RegionTracks {
    private(set) var regions: [(id: Int, bounds: CGRect)] = []
    private var lastID = 0

    /// Takes the regions of a new read and returns them with their identifiers.
    mutating func update(_ found: [CGRect]) -> [(id: Int, bounds: CGRect)] {
        var free = regions
        var next: [(id: Int, bounds: CGRect)] = []
        for bounds in found {
            let best = free.indices.max {
                Self.overlap(free[$0].bounds, bounds) < Self.overlap(free[$1].bounds, bounds)
            }
            if let best, Self.overlap(free[best].bounds, bounds) >= 1.0 / 3 {
                next.append((free[best].id, bounds))
                free.remove(at: best)
            } else {
                lastID += 1
                next.append((lastID, bounds))
            }
        }
        regions = next
        return next
    }

    /// Intersection over union.
    static func overlap(_ a: CGRect, _ b: CGRect) -> Double {
        let i = a.intersection(b)
        guard !i.isNull else { return 0 }
        let inter = Double(i.width * i.height)
        let union = Double(a.width * a.height + b.width * b.height) - inter
        return union > 0 ? inter / union : 0
    }
}

/// One reader's findings as the metadata output follows them: the reader runs on the captured frame once every
/// `interval` frames, or at once when the region of interest changes, and between reads its last findings stand
/// (spec §16).
struct TrackedReads {
    let interval: Int
    private var last: (frame: Int, region: CGRect)?
    private(set) var tracks = RegionTracks()

    init(interval: Int) { self.interval = interval }

    /// Whether the findings of the last read still stand at `frame` for `region`.
    func stands(frame: Int, region: CGRect) -> Bool {
        guard let last, last.region == region, frame >= last.frame else { return false }
        return frame - last.frame < interval
    }

    /// Takes a new read's findings and returns them with their identifiers.
    mutating func update(frame: Int, region: CGRect, found: [CGRect]) -> [(id: Int, bounds: CGRect)] {
        last = (frame, region)
        return tracks.update(found)
    }
}
