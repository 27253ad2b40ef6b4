import Foundation

/// A layer of a layer tree (QuartzCore's `CALayer`): geometry and hierarchy only, no drawing.
///
/// The geometry follows Core Animation: `frame` is derived from `bounds`, `position` and
/// `anchorPoint` (`frame.origin = position − anchorPoint × bounds.size`, ignoring `transform`),
/// and setting `frame` moves `position` and resizes `bounds`.
open class CALayer: NSObject, CAMediaTiming, @unchecked Sendable {
    private struct Inner {
        var bounds = CGRect.zero
        var position = CGPoint.zero
        var anchorPoint = CGPoint(x: 0.5, y: 0.5)
        var sublayers: [CALayer]?
        weak var superlayer: CALayer?
        var transform = CATransform3DIdentity
        var sublayerTransform = CATransform3DIdentity
        var timing = LayerTiming()
    }

    private let lock = NSRecursiveLock()
    private var inner = Inner()
    /// The animations playing on the layer.
    private let animations = LayerAnimations()
    /// Values set by keys that name no property.
    private var tags: [String: Any] = [:]

    /// A layer with empty geometry. Required, so that a layer class held as a metatype
    /// (`let layerClass: CALayer.Type`) can make one with `layerClass.init()`.
    public required override init() {
        super.init()
        animations.layer = self
    }

    /// A copy of `layer`'s geometry and style (not its place in a tree), as Core Animation makes presentation copies.
    public init(layer: Any) {
        super.init()
        animations.layer = self
        if let other = layer as? CALayer { copyState(from: other) }
    }

    /// Takes `other`'s geometry and style; subclasses take theirs too.
    func copyState(from other: CALayer) {
        let o = other.lock.withLock { other.inner }
        lock.withLock {
            inner.bounds = o.bounds
            inner.position = o.position
            inner.anchorPoint = o.anchorPoint
            inner.transform = o.transform
            inner.sublayerTransform = o.sublayerTransform
            inner.timing = o.timing
        }
        (contentsScale, contentsGravity, masksToBounds) = (other.contentsScale, other.contentsGravity, other.masksToBounds)
        (cornerRadius, backgroundColor, isHidden) = (other.cornerRadius, other.backgroundColor, other.isHidden)
        (opacity, name, zPosition) = (other.opacity, other.name, other.zPosition)
        (borderWidth, borderColor, shadowColor) = (other.borderWidth, other.borderColor, other.shadowColor)
        (shadowOpacity, shadowOffset, shadowRadius) = (other.shadowOpacity, other.shadowOffset, other.shadowRadius)
        (shadowPath, mask, contents, isOpaque) = (other.shadowPath, other.mask, other.contents, other.isOpaque)
        (isDoubleSided, needsDisplayOnBoundsChange) = (other.isDoubleSided, other.needsDisplayOnBoundsChange)
        (shouldRasterize, rasterizationScale) = (other.shouldRasterize, other.rasterizationScale)
        (allowsEdgeAntialiasing, allowsGroupOpacity) = (other.allowsEdgeAntialiasing, other.allowsGroupOpacity)
        tags = other.tags
    }

    /// The layer's own coordinate space.
    open var bounds: CGRect {
        get { lock.withLock { inner.bounds } }
        set { lock.withLock { inner.bounds = newValue } }
    }

    /// Where the anchor point sits in the superlayer.
    open var position: CGPoint {
        get { lock.withLock { inner.position } }
        set { lock.withLock { inner.position = newValue } }
    }

    /// The anchor in unit coordinates of the bounds (default the centre).
    open var anchorPoint: CGPoint {
        get { lock.withLock { inner.anchorPoint } }
        set { lock.withLock { inner.anchorPoint = newValue } }
    }

    /// The layer's rectangle in its superlayer's space.
    open var frame: CGRect {
        get {
            lock.withLock {
                let s = inner.bounds.size
                return CGRect(
                    x: inner.position.x - inner.anchorPoint.x * s.width,
                    y: inner.position.y - inner.anchorPoint.y * s.height, width: s.width, height: s.height)
            }
        }
        set {
            lock.withLock {
                let r = newValue.standardized
                inner.bounds.size = r.size
                inner.position = CGPoint(
                    x: r.minX + inner.anchorPoint.x * r.width, y: r.minY + inner.anchorPoint.y * r.height)
            }
        }
    }

    /// Pixels per point (default 1).
    open var contentsScale: CGFloat = 1
    /// How the contents fill the bounds (default `.resize`). Stored only, as nothing is drawn.
    open var contentsGravity: CALayerContentsGravity = .resize
    /// Whether sublayers are clipped to the bounds.
    open var masksToBounds = false
    /// The corner radius of the background.
    open var cornerRadius: CGFloat = 0
    /// The background colour.
    open var backgroundColor: CGColor?
    /// Whether the layer is hidden.
    open var isHidden = false
    /// The opacity, 0…1.
    open var opacity: Float = 1
    /// A name for finding the layer.
    open var name: String?
    /// The z position among siblings.
    open var zPosition: CGFloat = 0
    /// The width of the border drawn inside the bounds (default 0: none).
    open var borderWidth: CGFloat = 0
    /// The border's colour (default opaque black).
    open var borderColor: CGColor? = .black
    /// The shadow's colour (default opaque black).
    open var shadowColor: CGColor? = .black
    /// The shadow's opacity, 0…1 (default 0: no shadow).
    open var shadowOpacity: Float = 0
    /// How far the shadow is offset (default 0 across, −3 up, as Core Animation's).
    open var shadowOffset = CGSize(width: 0, height: -3)
    /// The shadow's blur radius (default 3).
    open var shadowRadius: CGFloat = 3
    /// The shadow's shape; nil takes the layer's own.
    open var shadowPath: CGPath?
    /// A layer whose opacity masks this one's; nil for none.
    open var mask: CALayer?
    /// The layer's contents, usually a `CGImage`. Stored only, as nothing is drawn.
    open var contents: Any?
    /// Whether the layer promises to be fully opaque (default false).
    open var isOpaque = false
    /// Whether the back of the layer shows when it is turned away (default true).
    open var isDoubleSided = true
    /// Whether a change of bounds asks for a redraw (default false).
    open var needsDisplayOnBoundsChange = false
    /// Whether the layer is drawn once into a bitmap and reused (default false).
    open var shouldRasterize = false
    /// The scale of that bitmap (default 1).
    open var rasterizationScale: CGFloat = 1
    /// Whether the layer's edges are antialiased (default false).
    open var allowsEdgeAntialiasing = false
    /// Whether sublayers are composited with the layer's opacity as a group (default true).
    open var allowsGroupOpacity = true

    // MARK: Timing (spec §19.4)

    /// When the layer's time begins, in its parent's time (default 0).
    open var beginTime: CFTimeInterval {
        get { ownTiming.beginTime }
        set { setTiming { $0.beginTime = newValue } }
    }
    /// How fast the layer's time, and so its animations and sublayers, runs against its parent's (default 1; 0
    /// holds them at `timeOffset`).
    open var speed: Float {
        get { ownTiming.speed }
        set { setTiming { $0.speed = newValue } }
    }
    /// Where the layer's local time stands at its `beginTime` (default 0).
    open var timeOffset: CFTimeInterval {
        get { ownTiming.timeOffset }
        set { setTiming { $0.timeOffset = newValue } }
    }
    /// Kept; a layer's time is not bounded by it (`LayerTiming`).
    open var duration: CFTimeInterval {
        get { ownTiming.duration }
        set { setTiming { $0.duration = newValue } }
    }
    /// Kept; a layer's time is not bounded by it (`LayerTiming`).
    open var repeatCount: Float {
        get { ownTiming.repeatCount }
        set { setTiming { $0.repeatCount = newValue } }
    }
    /// Kept; a layer's time is not bounded by it (`LayerTiming`).
    open var repeatDuration: CFTimeInterval {
        get { ownTiming.repeatDuration }
        set { setTiming { $0.repeatDuration = newValue } }
    }
    /// Kept; a layer's time is not bounded by it (`LayerTiming`).
    open var autoreverses: Bool {
        get { ownTiming.autoreverses }
        set { setTiming { $0.autoreverses = newValue } }
    }
    /// Kept; a layer's time is not bounded by it (`LayerTiming`).
    open var fillMode: CAMediaTimingFillMode {
        get { ownTiming.fillMode }
        set { setTiming { $0.fillMode = newValue } }
    }

    /// The layer's own timing.
    var ownTiming: LayerTiming { lock.withLock { inner.timing } }

    private func setTiming(_ change: (inout LayerTiming) -> Void) {
        let changed = lock.withLock { () -> Bool in
            let old = inner.timing
            change(&inner.timing)
            return old != inner.timing
        }
        if changed { timingChanged() }
    }

    /// The layer's children, nil when it has none.
    open var sublayers: [CALayer]? {
        get { lock.withLock { inner.sublayers } }
        set {
            for layer in sublayers ?? [] { layer.detach() }
            for layer in newValue ?? [] {
                layer.removeFromSuperlayer()
                layer.attach(to: self)
            }
            lock.withLock { inner.sublayers = newValue }
        }
    }

    /// The parent layer.
    open var superlayer: CALayer? { lock.withLock { inner.superlayer } }

    /// Appends `layer` to the sublayers, taking it from any previous parent.
    open func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(lock.withLock { inner.sublayers?.count ?? 0 }))
    }

    /// Inserts `layer` at `idx` among the sublayers.
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        layer.removeFromSuperlayer()
        layer.attach(to: self)
        lock.withLock {
            var list = inner.sublayers ?? []
            list.insert(layer, at: min(Int(idx), list.count))
            inner.sublayers = list
        }
    }

    /// Detaches the layer from its parent.
    open func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.lock.withLock {
            parent.inner.sublayers?.removeAll { $0 === self }
            if parent.inner.sublayers?.isEmpty == true { parent.inner.sublayers = nil }
        }
        detach()
    }

    /// The transform applied to the layer about its anchor point (default the identity).
    open var transform: CATransform3D {
        get { lock.withLock { inner.transform } }
        set { lock.withLock { inner.transform = newValue } }
    }

    /// The transform applied to the sublayers about this layer's anchor point, as a perspective for them all
    /// (default the identity).
    open var sublayerTransform: CATransform3D {
        get { lock.withLock { inner.sublayerTransform } }
        set { lock.withLock { inner.sublayerTransform = newValue } }
    }

    /// The plane's part of `transform`.
    open func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(transform) }

    /// Sets `transform` to the 3D form of `m`.
    open func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// The layer's preferred size in its superlayer's coordinates: with no layout manager, as Core Animation
    /// answers then, its bounds' size mapped through its transform (the rectangle that holds the turned bounds).
    open func preferredFrameSize() -> CGSize {
        bounds.applying(affineTransform()).size
    }

    /// Asks for layout; there is no render loop, so layout happens at once.
    open func setNeedsLayout() { layoutSublayers() }

    /// Lays the layer out now: layout already happens when it is asked for, so there is nothing left to do.
    open func layoutIfNeeded() {}

    /// Whether a layout is waiting: never, as layout happens when it is asked for.
    open func needsLayout() -> Bool { false }

    /// `point`, given in `layer`'s coordinates (or the root's, for nil), in this layer's coordinates. Each layer's
    /// anchor point is placed at its position in its superlayer, with its `transform` applied about the anchor and
    /// the superlayer's `sublayerTransform` about the superlayer's anchor, as Core Animation composes them; the
    /// layer's plane is projected, perspective included.
    open func convert(_ point: CGPoint, from layer: CALayer?) -> CGPoint {
        Self.projection(from: layer, to: self).apply(point)
    }

    /// `point`, given in this layer's coordinates, in `layer`'s (or the root's, for nil).
    open func convert(_ point: CGPoint, to layer: CALayer?) -> CGPoint {
        Self.projection(from: self, to: layer).apply(point)
    }

    /// `rect`, given in `layer`'s coordinates, in this layer's: the smallest rectangle holding its mapped corners.
    open func convert(_ rect: CGRect, from layer: CALayer?) -> CGRect {
        Self.projection(from: layer, to: self).apply(rect)
    }

    /// `rect`, given in this layer's coordinates, in `layer`'s: the smallest rectangle holding its mapped corners.
    open func convert(_ rect: CGRect, to layer: CALayer?) -> CGRect {
        Self.projection(from: self, to: layer).apply(rect)
    }

    /// Whether `point`, in the layer's own coordinates, lies inside its bounds.
    open func contains(_ point: CGPoint) -> Bool { bounds.contains(point) }

    /// The farthest descendant of the layer (or the layer itself) that contains `p`, given in the superlayer's
    /// coordinates (the layer's own, for a layer without one); nil when none does (spec §19.2). Sublayers are asked
    /// front first: the highest `zPosition`, then the last added. A hidden layer is never hit, nor is anything in
    /// it, and a layer that masks to its bounds passes on only the points inside them.
    open func hitTest(_ p: CGPoint) -> CALayer? {
        guard !isHidden else { return nil }
        let local = convert(p, from: superlayer)
        let inside = contains(local)
        if masksToBounds, !inside { return nil }
        let children = (sublayers ?? []).enumerated().sorted { a, b in
            a.element.zPosition != b.element.zPosition ? a.element.zPosition > b.element.zPosition : a.offset > b.offset
        }
        for (_, child) in children {
            if let hit = child.hitTest(local) { return hit }
        }
        return inside ? self : nil
    }

    /// The anchor point in the layer's own coordinates.
    private var pivot: CGPoint {
        let (b, anchor) = lock.withLock { (inner.bounds, inner.anchorPoint) }
        return CGPoint(x: b.minX + anchor.x * b.width, y: b.minY + anchor.y * b.height)
    }

    /// The map from the layer's coordinates to `parent`'s: the layer's own transform and the parent's sublayer
    /// transform are composed in space, and the result is flattened into the parent's plane, as a layer flattens its
    /// sublayers.
    private func projection(into parent: CALayer) -> PlaneProjection {
        let (position, own) = lock.withLock { (inner.position, inner.transform) }
        let (parentPivot, shared) = (parent.pivot, parent.sublayerTransform)
        let steps = [
            CATransform3DMakeTranslation(-pivot.x, -pivot.y, 0), own,
            CATransform3DMakeTranslation(position.x - parentPivot.x, position.y - parentPivot.y, 0), shared,
            CATransform3DMakeTranslation(parentPivot.x, parentPivot.y, 0),
        ]
        return PlaneProjection(steps.dropFirst().reduce(steps[0], CATransform3DConcat))
    }

    /// The map from the layer's coordinates to its tree's root's; the identity for nil.
    private static func toRoot(_ layer: CALayer?) -> PlaneProjection {
        var map = PlaneProjection.identity
        var current = layer
        while let child = current, let parent = child.superlayer {
            map = map.then(child.projection(into: parent))
            current = parent
        }
        return map
    }

    private static func projection(from source: CALayer?, to target: CALayer?) -> PlaneProjection {
        toRoot(source).then(toRoot(target).inverted)
    }

    // MARK: Animations (spec §19.4)

    /// Plays a copy of `anim` on the layer from now (or from its `beginTime`, when set), replacing the animation of
    /// the same key. The model values do not change; `presentation()` shows the animated ones.
    open func add(_ anim: CAAnimation, forKey key: String?) { animations.add(anim, forKey: key) }

    /// The animation playing (or kept at its end) under `key`.
    open func animation(forKey key: String) -> CAAnimation? { animations.animation(forKey: key) }

    /// The keys of the animations on the layer, in the order they were added; nil when there are none.
    open func animationKeys() -> [String]? { animations.keys() }

    /// Stops one animation: its delegate hears that it did not finish.
    open func removeAnimation(forKey key: String) { animations.remove(key: key) }

    /// Stops every animation on the layer.
    open func removeAllAnimations() { animations.removeAll() }

    /// A copy of the layer as it appears now: its model values with its animations applied at its local time.
    open func presentation() -> Self? {
        let copy = type(of: self).init()
        copy.copyState(from: self)
        animations.apply(to: copy, at: localTime(host: CACurrentMediaTime()))
        return copy
    }

    /// The animations' side of `timingChanged()`.
    func animationsTimingChanged() { animations.reschedule() }

    /// The layer of model values: the layer itself.
    open func model() -> Self { self }

    // MARK: Values by key path

    /// The value of a property by key path (`opacity`, `position.x`, `bounds.size`, `transform.scale`, …), or of a
    /// value the app set by key.
    open func value(forKeyPath keyPath: String) -> Any? { keyPathValue(keyPath) ?? tags[keyPath] }

    /// Sets a property by key path; a key that names no property keeps the value with the layer.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        if !setKeyPathValue(value, keyPath) { tags[keyPath] = value }
    }

    /// `value(forKeyPath:)` for a single key.
    open func value(forKey key: String) -> Any? { value(forKeyPath: key) }

    /// `setValue(_:forKeyPath:)` for a single key.
    open func setValue(_ value: Any?, forKey key: String) { setValue(value, forKeyPath: key) }

    /// The property `keyPath` names; nil when it names none. Subclasses add theirs.
    func keyPathValue(_ keyPath: String) -> Any? { LayerKeyPaths.value(of: self, keyPath) }

    /// Sets the property `keyPath` names; false when it names none. Subclasses add theirs.
    func setKeyPathValue(_ value: Any?, _ keyPath: String) -> Bool { LayerKeyPaths.set(value, of: self, keyPath) }

    /// Draws the layer's contents; nothing is drawn here.
    open func display() {}

    /// Marks a part of the layer for redrawing; nothing is drawn.
    open func setNeedsDisplay(_ r: CGRect) {}

    /// Lays out sublayers; subclasses override.
    open func layoutSublayers() {}

    /// Asks for a redraw; nothing is drawn.
    open func setNeedsDisplay() {}

    // A layer's time runs on its parent's, so moving it in the tree moves its animations' clock.
    private func attach(to parent: CALayer) {
        lock.withLock { inner.superlayer = parent }
        timingChanged()
    }
    private func detach() {
        lock.withLock { inner.superlayer = nil }
        timingChanged()
    }
}

/// How a layer's contents are placed in its bounds (`CALayerContentsGravity`).
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Centred, unscaled.
    public static let center = CALayerContentsGravity(rawValue: "center")
    /// At the top edge, centred horizontally.
    public static let top = CALayerContentsGravity(rawValue: "top")
    /// At the bottom edge, centred horizontally.
    public static let bottom = CALayerContentsGravity(rawValue: "bottom")
    /// At the left edge, centred vertically.
    public static let left = CALayerContentsGravity(rawValue: "left")
    /// At the right edge, centred vertically.
    public static let right = CALayerContentsGravity(rawValue: "right")
    /// In the top-left corner.
    public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
    /// In the top-right corner.
    public static let topRight = CALayerContentsGravity(rawValue: "topRight")
    /// In the bottom-left corner.
    public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
    /// In the bottom-right corner.
    public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
    /// Stretched to the bounds (the default).
    public static let resize = CALayerContentsGravity(rawValue: "resize")
    /// Scaled to fit inside the bounds, aspect ratio kept.
    public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
    /// Scaled to fill the bounds, aspect ratio kept, overflow cropped.
    public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")
}
