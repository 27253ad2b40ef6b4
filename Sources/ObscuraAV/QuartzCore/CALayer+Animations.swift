import Foundation

/// The animations on one layer, played on the layer's local time (spec §19.4): the host clock, as the layer and its
/// ancestors' timing turn it (`LayerTiming`). Each is a copy of what the app added, placed on the layer's clock when
/// it was added. Its delegate hears of its start and stop on the main queue, when the layer's time reaches them;
/// an animation that ended leaves the layer then, or when the layer is next asked about its animations, whichever
/// comes first.
final class LayerAnimations: @unchecked Sendable {
    /// One animation on the layer.
    final class Record: @unchecked Sendable {
        let key: String?
        let animation: CAAnimation
        let clock: AnimationClock
        /// Whether its delegate was told of its start, and of its stop.
        var started = false
        var stopped = false
        /// Which scheduling of its start and stop is current: a change of the layer's timing schedules them anew,
        /// and the checks scheduled before then stand down.
        var round = 0

        init(key: String?, animation: CAAnimation, clock: AnimationClock) {
            (self.key, self.animation, self.clock) = (key, animation, clock)
        }
    }

    private let lock = NSLock()
    private var records: [Record] = []
    /// The layer whose time the animations play on.
    weak var layer: CALayer?

    /// The layer's local time now.
    private func now() -> CFTimeInterval {
        let host = CACurrentMediaTime()
        return layer?.localTime(host: host) ?? host
    }

    /// Places a copy of `animation` on the clock now, in place of the one under the same key.
    func add(_ animation: CAAnimation, forKey key: String?) {
        let copy = animation.copy() as! CAAnimation
        // An animation added with no begin time begins at the layer's time now, and its copy says when (spec §19.4).
        if copy.beginTime == 0 { copy.beginTime = now() }
        let duration = copy.duration > 0 ? copy.duration : CATransaction.animationDuration()
        let record = Record(
            key: key, animation: copy, clock: AnimationClock(copy, begin: copy.beginTime, duration: duration))
        let replaced = lock.withLock { () -> Record? in
            let old = key.flatMap { key in records.firstIndex { $0.key == key } }.map { records.remove(at: $0) }
            records.append(record)
            return old
        }
        if let replaced { stop(replaced, finished: false) }
        CATransaction.noteAnimation(ending: hostTime(reaching: record.clock.end) ?? .infinity)
        schedule(record)
    }

    /// The host time at which the layer's time reaches `t`; nil when it never does.
    private func hostTime(reaching t: CFTimeInterval) -> CFTimeInterval? {
        guard t.isFinite else { return nil }
        guard let layer else { return t }
        return layer.hostTime(reaching: t)
    }

    /// Schedules the checks of `record`'s start and stop at the host times the layer's timing gives them now.
    private func schedule(_ record: Record) {
        let round = lock.withLock { () -> Int? in
            guard !record.stopped else { return nil }
            record.round += 1
            return record.round
        }
        guard let round else { return }
        for time in [record.clock.start, record.clock.end] {
            guard let host = hostTime(reaching: time) else { continue }
            Self.onMain(at: host) { [weak self] in self?.check(record, round: round) }
        }
    }

    /// Tells the delegate what `record` has reached at the layer's time now. A check that finds the layer's time
    /// short of what it was scheduled for (by rounding) looks again a millisecond later.
    private func check(_ record: Record, round: Int) {
        guard lock.withLock({ record.round == round && !record.stopped }) else { return }
        let t = now()
        if t >= record.clock.start { begin(record) }
        if t >= record.clock.end { return stop(record, finished: true) }
        let pending = t < record.clock.start ? record.clock.start : record.clock.end
        if let host = hostTime(reaching: pending), host <= CACurrentMediaTime() {
            Self.onMain(at: CACurrentMediaTime() + 0.001) { [weak self] in self?.check(record, round: round) }
        }
    }

    /// Schedules every animation's start and stop anew: the layer's timing, or an ancestor's, changed.
    func reschedule() {
        for record in lock.withLock({ records }) { schedule(record) }
    }

    /// The animation under `key`.
    func animation(forKey key: String) -> CAAnimation? {
        current().last { $0.key == key }?.animation
    }

    /// The keys of the animations on the layer, in the order they were added; nil when there are none.
    func keys() -> [String]? {
        let keys = current().compactMap(\.key)
        return keys.isEmpty ? nil : keys
    }

    /// Stops the animation under `key`.
    func remove(key: String) {
        let removed = lock.withLock { () -> [Record] in
            let gone = records.filter { $0.key == key }
            records.removeAll { $0.key == key }
            return gone
        }
        for record in removed { stop(record, finished: false) }
    }

    /// Stops every animation.
    func removeAll() {
        let removed = lock.withLock { () -> [Record] in
            defer { records.removeAll() }
            return records
        }
        for record in removed { stop(record, finished: false) }
    }

    /// Sets `layer`'s animated properties to their values at local time `now`, in the order the animations were
    /// added, each starting from the value the ones before it left.
    func apply(to layer: CALayer, at now: CFTimeInterval) {
        for record in current(at: now) { Self.apply(record.animation, clock: record.clock, at: now, to: layer) }
    }

    private static func apply(
        _ animation: CAAnimation, clock: AnimationClock, at now: CFTimeInterval, to layer: CALayer
    ) {
        guard let (fraction, iteration) = clock.position(at: now) else { return }
        let progress = animation.eased(fraction, duration: clock.duration)
        if let group = animation as? CAAnimationGroup {
            // The children run on the group's local time within its pass.
            let local = progress * clock.duration
            for child in group.animations ?? [] {
                let duration = child.duration > 0 ? child.duration : clock.duration
                apply(
                    child, clock: AnimationClock(child, begin: child.beginTime, duration: duration), at: local,
                    to: layer)
            }
        } else if let property = animation as? CAPropertyAnimation, let keyPath = property.keyPath,
            let value = property.value(at: progress, iteration: iteration, current: layer.value(forKeyPath: keyPath))
        {
            layer.setValue(value, forKeyPath: keyPath)
        }
    }

    /// The animations on the layer at `now`, once those that ended and leave at their end have left.
    private func current(at now: CFTimeInterval? = nil) -> [Record] {
        let now = now ?? self.now()
        let (kept, ended) = lock.withLock { () -> ([Record], [Record]) in
            let ended = records.filter { $0.clock.end <= now && $0.animation.isRemovedOnCompletion }
            records.removeAll { record in ended.contains { $0 === record } }
            return (records, ended)
        }
        for record in ended { stop(record, finished: true) }
        return kept
    }

    private func begin(_ record: Record) {
        let tell = lock.withLock { () -> Bool in
            guard !record.started, !record.stopped else { return false }
            record.started = true
            return true
        }
        if tell { record.animation.delegate?.animationDidStart(record.animation) }
    }

    /// Ends `record`: it leaves the layer unless it finished and stays at its end, and its delegate is told once, on
    /// the main queue (of its start first, when it finished before that was told).
    private func stop(_ record: Record, finished: Bool) {
        let (tellStart, tellStop) = lock.withLock { () -> (Bool, Bool) in
            guard !record.stopped else { return (false, false) }
            record.stopped = true
            if !finished || record.animation.isRemovedOnCompletion { records.removeAll { $0 === record } }
            let start = finished && !record.started
            record.started = true
            return (start, true)
        }
        guard tellStop else { return }
        let animation = record.animation
        Self.onMain(at: 0) {
            if tellStart { animation.delegate?.animationDidStart(animation) }
            animation.delegate?.animationDidStop(animation, finished: finished)
        }
    }

    /// Runs `work` on the main queue at host time `time` (at once when it has passed).
    static func onMain(at time: CFTimeInterval, _ work: @escaping @Sendable () -> Void) {
        let delay = time - CACurrentMediaTime()
        if delay > 0 {
            DispatchQueue.main.asyncAfter(deadline: .now() + delay, execute: work)
        } else {
            DispatchQueue.main.async(execute: work)
        }
    }
}

/// A layer's properties by key path, as Core Animation's key-value coding names them, with the transform's parts
/// (`transform.scale`, `transform.rotation.z`, `transform.translation.x`, …) read from and written into its plane
/// part as a scale, then a turn, then a move.
enum LayerKeyPaths {
    /// A number from any of the forms apps write one in.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let v as Double: v
        case let v as CGFloat: Double(v)
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    static func cgFloat(_ value: Any?) -> CGFloat? { number(value).map { CGFloat($0) } }

    private static func point(_ value: Any?) -> CGPoint? {
        (value as? CGPoint) ?? (value as? NSValue).map(\.pointValue)
    }

    private static func size(_ value: Any?) -> CGSize? {
        (value as? CGSize) ?? (value as? NSValue).map(\.sizeValue)
    }

    private static func rect(_ value: Any?) -> CGRect? {
        (value as? CGRect) ?? (value as? NSValue).map(\.rectValue)
    }

    /// The plane part of a transform as scales, a turn about z and a move.
    private struct Parts {
        var scale: (x: Double, y: Double, z: Double)
        var rotation: Double
        var translation: (x: Double, y: Double, z: Double)

        init(_ t: CATransform3D) {
            let (a, b, c, d) = (Double(t.m11), Double(t.m12), Double(t.m21), Double(t.m22))
            let sx = (a * a + b * b).squareRoot()
            scale = (sx, sx > 0 ? (a * d - b * c) / sx : (c * c + d * d).squareRoot(), Double(t.m33))
            rotation = atan2(b, a)
            translation = (Double(t.m41), Double(t.m42), Double(t.m43))
        }

        var transform: CATransform3D {
            let s = CATransform3DMakeScale(CGFloat(scale.x), CGFloat(scale.y), CGFloat(scale.z))
            let r = CATransform3DMakeRotation(CGFloat(rotation), 0, 0, 1)
            let m = CATransform3DMakeTranslation(CGFloat(translation.x), CGFloat(translation.y), CGFloat(translation.z))
            return CATransform3DConcat(CATransform3DConcat(s, r), m)
        }
    }

    static func value(of layer: CALayer, _ keyPath: String) -> Any? {
        switch keyPath {
        case "opacity": return Double(layer.opacity)
        case "position": return layer.position
        case "position.x": return Double(layer.position.x)
        case "position.y": return Double(layer.position.y)
        case "bounds": return layer.bounds
        case "bounds.origin": return layer.bounds.origin
        case "bounds.size": return layer.bounds.size
        case "bounds.size.width": return Double(layer.bounds.width)
        case "bounds.size.height": return Double(layer.bounds.height)
        case "frame": return layer.frame
        case "anchorPoint": return layer.anchorPoint
        case "zPosition": return Double(layer.zPosition)
        case "cornerRadius": return Double(layer.cornerRadius)
        case "borderWidth": return Double(layer.borderWidth)
        case "borderColor": return layer.borderColor
        case "backgroundColor": return layer.backgroundColor
        case "shadowOpacity": return Double(layer.shadowOpacity)
        case "shadowRadius": return Double(layer.shadowRadius)
        case "shadowOffset": return layer.shadowOffset
        case "shadowColor": return layer.shadowColor
        case "hidden", "isHidden": return layer.isHidden
        case "contents": return layer.contents
        case "contentsScale": return Double(layer.contentsScale)
        case "masksToBounds": return layer.masksToBounds
        case "transform": return layer.transform
        case "sublayerTransform": return layer.sublayerTransform
        default: break
        }
        guard keyPath.hasPrefix("transform.") else { return nil }
        let parts = Parts(layer.transform)
        switch keyPath.dropFirst("transform.".count) {
        case "scale": return (parts.scale.x + parts.scale.y + parts.scale.z) / 3
        case "scale.x": return parts.scale.x
        case "scale.y": return parts.scale.y
        case "scale.z": return parts.scale.z
        case "rotation", "rotation.z": return parts.rotation
        case "translation": return CGSize(width: parts.translation.x, height: parts.translation.y)
        case "translation.x": return parts.translation.x
        case "translation.y": return parts.translation.y
        case "translation.z": return parts.translation.z
        default: return nil
        }
    }

    static func set(_ value: Any?, of layer: CALayer, _ keyPath: String) -> Bool {
        let n = number(value)
        switch keyPath {
        case "opacity": n.map { layer.opacity = Float($0) }
        case "position": point(value).map { layer.position = $0 }
        case "position.x": n.map { layer.position.x = CGFloat($0) }
        case "position.y": n.map { layer.position.y = CGFloat($0) }
        case "bounds": rect(value).map { layer.bounds = $0 }
        case "bounds.origin": point(value).map { layer.bounds.origin = $0 }
        case "bounds.size": size(value).map { layer.bounds.size = $0 }
        case "bounds.size.width": n.map { layer.bounds.size.width = CGFloat($0) }
        case "bounds.size.height": n.map { layer.bounds.size.height = CGFloat($0) }
        case "frame": rect(value).map { layer.frame = $0 }
        case "anchorPoint": point(value).map { layer.anchorPoint = $0 }
        case "zPosition": n.map { layer.zPosition = CGFloat($0) }
        case "cornerRadius": n.map { layer.cornerRadius = CGFloat($0) }
        case "borderWidth": n.map { layer.borderWidth = CGFloat($0) }
        case "borderColor": layer.borderColor = value as? CGColor
        case "backgroundColor": layer.backgroundColor = value as? CGColor
        case "shadowOpacity": n.map { layer.shadowOpacity = Float($0) }
        case "shadowRadius": n.map { layer.shadowRadius = CGFloat($0) }
        case "shadowOffset": size(value).map { layer.shadowOffset = $0 }
        case "shadowColor": layer.shadowColor = value as? CGColor
        case "hidden", "isHidden": layer.isHidden = (value as? Bool) ?? (n.map { $0 != 0 } ?? false)
        case "contents": layer.contents = value
        case "contentsScale": n.map { layer.contentsScale = CGFloat($0) }
        case "masksToBounds": layer.masksToBounds = (value as? Bool) ?? (n.map { $0 != 0 } ?? false)
        case "transform": (value as? CATransform3D).map { layer.transform = $0 }
        case "sublayerTransform": (value as? CATransform3D).map { layer.sublayerTransform = $0 }
        default:
            guard keyPath.hasPrefix("transform.") else { return false }
            var parts = Parts(layer.transform)
            switch keyPath.dropFirst("transform.".count) {
            case "scale": n.map { parts.scale = ($0, $0, $0) }
            case "scale.x": n.map { parts.scale.x = $0 }
            case "scale.y": n.map { parts.scale.y = $0 }
            case "scale.z": n.map { parts.scale.z = $0 }
            case "rotation", "rotation.z": n.map { parts.rotation = $0 }
            case "translation":
                size(value).map { parts.translation = (Double($0.width), Double($0.height), parts.translation.z) }
            case "translation.x": n.map { parts.translation.x = $0 }
            case "translation.y": n.map { parts.translation.y = $0 }
            case "translation.z": n.map { parts.translation.z = $0 }
            default: return false
            }
            layer.transform = parts.transform
        }
        return true
    }
}
