import Foundation

/// A layer's own timing (`CAMediaTiming` on a layer, spec §19.4): how its local time, the time its animations and
/// sublayers play on, runs against its parent's. Local time is (parent time − `beginTime`) × `speed` + `timeOffset`;
/// the root's parent time is the host clock (`CACurrentMediaTime()`). A layer's `duration`, repeats, autoreverse and
/// fill mode are kept but do not bound its time (our choice): a layer is always active.
struct LayerTiming: Equatable {
    var beginTime: CFTimeInterval = 0
    var duration: CFTimeInterval = 0
    var speed: Float = 1
    var timeOffset: CFTimeInterval = 0
    var repeatCount: Float = 0
    var repeatDuration: CFTimeInterval = 0
    var autoreverses = false
    var fillMode: CAMediaTimingFillMode = .removed

    /// Local time at parent time `tp`.
    func local(fromParent tp: CFTimeInterval) -> CFTimeInterval { (tp - beginTime) * Double(speed) + timeOffset }

    /// Parent time at local time `t`: the formula turned round, so infinite or not a number when `speed` is 0 (a
    /// held layer's local time stands at `timeOffset` at every parent time).
    func parent(fromLocal t: CFTimeInterval) -> CFTimeInterval { (t - timeOffset) / Double(speed) + beginTime }
}

extension CALayer {
    /// The layer and its ancestors, the layer first.
    private var lineage: [CALayer] {
        var chain: [CALayer] = [self]
        while let parent = chain[chain.count - 1].superlayer { chain.append(parent) }
        return chain
    }

    /// Converts `t` from the time space of `l` (the host clock when nil) into the layer's. The conversion runs up
    /// from `l` to the nearest layer the two share and down again, so it holds wherever the layers share a held
    /// ancestor (spec §19.4).
    public func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval {
        Self.convert(t, from: l, to: self)
    }

    /// Converts `t` from the layer's time space into that of `l` (the host clock when nil).
    public func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval {
        Self.convert(t, from: self, to: l)
    }

    private static func convert(_ t: CFTimeInterval, from source: CALayer?, to target: CALayer?) -> CFTimeInterval {
        let up = source?.lineage ?? [], down = target?.lineage ?? []
        let shared = up.first { layer in down.contains { $0 === layer } }
        var time = t
        for layer in up {
            if layer === shared { break }
            time = layer.ownTiming.parent(fromLocal: time)
        }
        for layer in down.prefix(while: { $0 !== shared }).reversed() { time = layer.ownTiming.local(fromParent: time) }
        return time
    }

    /// The layer's local time at host time `host`.
    func localTime(host: CFTimeInterval) -> CFTimeInterval { convertTime(host, from: nil) }

    /// The host time at which the layer's local time reaches `t`, going forward; nil when it never does from now on
    /// (a held layer, or one whose time runs backwards).
    func hostTime(reaching t: CFTimeInterval) -> CFTimeInterval? {
        let chain = lineage
        guard chain.allSatisfy({ $0.ownTiming.speed > 0 }) else { return nil }
        let host = convertTime(t, to: nil)
        return host.isFinite ? host : nil
    }

    /// Tells the animations of the layer and its sublayers that their clock changed, so that their delegates hear
    /// of their start and stop when the new timing reaches them.
    func timingChanged() {
        animationsTimingChanged()
        for layer in sublayers ?? [] { layer.timingChanged() }
    }
}
