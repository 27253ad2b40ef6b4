import Foundation
import Imaging

// The transitions: the source image (`inputImage`) turning into the target (`inputTargetImage`) as `inputTime` runs
// from 0 to 1. Time is clamped to 0…1; time 0 gives the source and time 1 the target, exactly. The output covers the
// union of the two images' extents. Apple describes each transition in words only, so every formula here but the
// dissolve's is our choice; the keys and defaults are Apple's (Core Image Filter Reference, "Transition" category).

/// A straight front crossing a rectangle along a direction: ahead of it the source shows, behind it the target, and
/// across a band of `width` behind its leading edge the one turns into the other. At time 0 the leading edge touches
/// the rectangle's first corner along the direction; at time 1 the band's trailing edge has passed the last one.
struct SweepFront: Sendable {
    /// The unit direction the front moves in.
    let direction: SIMD2<Float>
    /// The leading edge's position along the direction.
    let edge: Float
    let width: Float

    /// A front over `extent` moving along `angle` (radians, anticlockwise from +x). `lag` is extra travel shared by a
    /// family of fronts and `delay` (0…lag) how far this one runs behind, so that every front of the family starts
    /// before the rectangle and finishes past it.
    init(extent: CGRect, angle: Float, width: Float, time: Float, lag: Float = 0, delay: Float = 0) {
        let direction = SIMD2(cosf(angle), sinf(angle))
        let band = max(width, 0)
        let corners: [SIMD2<Float>] = [
            SIMD2(Float(extent.minX), Float(extent.minY)), SIMD2(Float(extent.maxX), Float(extent.minY)),
            SIMD2(Float(extent.minX), Float(extent.maxY)), SIMD2(Float(extent.maxX), Float(extent.maxY)),
        ]
        let along = corners.map { ($0 * direction).sum() }
        let first = along.min() ?? 0, last = along.max() ?? 0
        self.direction = direction
        self.width = band
        edge = first + time * (last - first + band + lag) - delay
    }

    /// How far the target has replaced the source at a point: 0 ahead of the band, 1 behind it, rising linearly
    /// across it (a hard step where the band has no width).
    @inline(__always)
    func fraction(_ p: SIMD2<Float>) -> Float {
        let s = (p * direction).sum()
        guard width > 0 else { return s < edge ? 1 : 0 }
        return min(max((edge - s) / width, 0), 1)
    }
}

extension FilterDefinition {
    /// A transition's definition: its keys are the two images (and any in `images`), the time (default 0) and
    /// `defaults`; `output` gets the parameters, the source, the target and the time clamped to 0…1, and is not
    /// called without both images.
    static func transitionFilter(
        _ name: String, images: [String] = [], defaults: [String: Any],
        _ output: @escaping (FilterInputs, CIImage, CIImage, Float) -> CIImage?
    ) -> FilterDefinition {
        FilterDefinition(
            name, images: [kCIInputImageKey, kCIInputTargetImageKey] + images,
            defaults: defaults.merging([kCIInputTimeKey: 0.0]) { a, _ in a }
        ) { p in
            guard let source = p.image(kCIInputImageKey), let target = p.image(kCIInputTargetImageKey) else {
                return nil
            }
            return output(p, source, target, min(max(p.float(kCIInputTimeKey), 0), 1))
        }
    }

    /// Each pixel of the union of the two images' extents from its centre and the two premultiplied pixels there.
    static func combined(
        _ source: CIImage, _ target: CIImage,
        _ rule: @escaping @Sendable (SIMD2<Float>, SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>
    ) -> CIImage {
        CIImage(
            recipe: CombineRecipe(
                inputs: [source.recipe, target.recipe], kind: .positional(rule),
                extent: source.extent.union(target.extent)))
    }

    /// A transition along a sweep front over `inputExtent` (moving along `inputAngle`, its band `inputWidth` wide)
    /// that shows `band(source, target, fraction)` and then lays `inputColor` over it, mixed in by
    /// `strength(fraction, opacity)` (0 leaves the pixel as it is), the colour decoded as the context treats colour.
    static func sweep(
        _ name: String, defaults: [String: Any],
        band: @escaping @Sendable (SIMD4<Float>, SIMD4<Float>, Float) -> SIMD4<Float>,
        strength: @escaping @Sendable (Float, Float) -> Float
    ) -> FilterDefinition {
        transitionFilter(name, defaults: defaults) { p, source, target, time in
            let front = SweepFront(
                extent: p.vector(kCIInputExtentKey).cgRectValue, angle: p.float(kCIInputAngleKey),
                width: p.float(kCIInputWidthKey), time: time)
            let opacity = p.float("inputOpacity")
            let swept = combined(source, target) { position, a, b in band(a, b, front.fraction(position)) }
            return combined(swept, CIImage(color: p.color(kCIInputColorKey))) { position, v, c in
                let k = strength(front.fraction(position), opacity)
                return k == 0 ? v : v + (c - v) * k
            }.cropped(to: swept.extent)
        }
    }

    /// The value a mask image gives a transition: its green component unpremultiplied, as `CIBlendWithMask` reads a
    /// mask.
    @inline(__always)
    static func maskValue(_ v: SIMD4<Float>) -> Float { v.y }

    /// The hole pattern of `CIModTransition` at a point, in 0…1: with u the point about the centre turned by −angle,
    /// in radii, h = (1 + sin(2π·u.x) · cos(2π·u.y · radius / compression)) / 2. Holes open where h < time.
    @inline(__always)
    static func modPattern(
        _ position: SIMD2<Float>, centre: SIMD2<Float>, cosA: Float, sinA: Float, radius: Float,
        compression: Float
    ) -> Float {
        let d = position - centre
        let u = SIMD2(d.x * cosA + d.y * sinA, -d.x * sinA + d.y * cosA) / radius
        return (1 + sinf(2 * .pi * u.x) * cosf(2 * .pi * u.y * radius / compression)) / 2
    }

    static let transitions: [FilterDefinition] = [
        // (1 − t) · source + t · target, premultiplied.
        transitionFilter("CIDissolveTransition", defaults: [:]) { _, source, target, t in
            combined(source, target) { _, a, b in a + (b - a) * t }
        },
        // A band of the width sweeping across the extent along the angle: the target behind it, the source ahead,
        // mixed linearly across it, and the colour laid over the band at the opacity.
        sweep(
            "CISwipeTransition",
            defaults: [
                kCIInputExtentKey: CIVector(x: 0, y: 0, z: 300, w: 300),
                kCIInputColorKey: CIColor(red: 1, green: 1, blue: 1),
                kCIInputAngleKey: 0.0, kCIInputWidthKey: 300.0, "inputOpacity": 0.0,
            ],
            band: { a, b, f in a + (b - a) * f },
            strength: { f, opacity in f > 0 && f < 1 ? min(max(opacity, 0), 1) : 0 }),
        // A copier's light sweeping across the extent: the target wherever the band has reached, the source ahead of
        // it, and the band lit with the colour, mixed in by min(1, opacity · (1 − |2f − 1|)) for the band fraction f
        // (brightest in its middle).
        sweep(
            "CICopyMachineTransition",
            defaults: [
                kCIInputExtentKey: CIVector(x: 0, y: 0, z: 300, w: 300),
                kCIInputColorKey: CIColor(red: 0.6, green: 1, blue: 1), kCIInputAngleKey: 0.0, kCIInputWidthKey: 200.0,
                "inputOpacity": 1.3,
            ],
            band: { a, b, f in f > 0 ? b : a },
            strength: { f, opacity in min(max(opacity, 0) * (1 - abs(2 * f - 1)), 1) }),
        // Bars of the width, running along the angle, each a hard-edged swipe over the union of the two extents;
        // every other bar runs the bar offset behind its neighbours.
        transitionFilter(
            "CIBarsSwipeTransition",
            defaults: [kCIInputAngleKey: Double.pi, kCIInputWidthKey: 30.0, "inputBarOffset": 10.0]
        ) { p, source, target, t in
            let area = source.extent.union(target.extent)
            let finite = area.isInfinite ? CGRect.zero : area
            let angle = p.float(kCIInputAngleKey), width = max(p.float(kCIInputWidthKey), 1)
            let offset = max(p.float("inputBarOffset"), 0)
            let leading = SweepFront(extent: finite, angle: angle, width: 0, time: t, lag: offset)
            let lagging = SweepFront(extent: finite, angle: angle, width: 0, time: t, lag: offset, delay: offset)
            let across = SIMD2(-sinf(angle), cosf(angle))
            return combined(source, target) { position, a, b in
                let bar = Int(((position * across).sum() / width).rounded(.down))
                let f = (bar & 1 == 0 ? leading : lagging).fraction(position)
                return f > 0 ? b : a
            }
        },
        // The target through holes that open as time passes, where the pattern `modPattern` lies below the time.
        transitionFilter(
            "CIModTransition",
            defaults: [
                kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputAngleKey: 2.0, kCIInputRadiusKey: 150.0,
                "inputCompression": 300.0,
            ]
        ) { p, source, target, t in
            let centre = point2(p.vector(kCIInputCenterKey)), angle = p.float(kCIInputAngleKey)
            let radius = max(p.float(kCIInputRadiusKey), 1e-3), compression = max(p.float("inputCompression"), 1e-3)
            let cosA = cosf(angle), sinA = sinf(angle)
            return combined(source, target) { position, a, b in
                if t >= 1 { return b }
                let h = modPattern(
                    position, centre: centre, cosA: cosA, sinA: sinA, radius: radius,
                    compression: compression)
                return h < t ? b : a
            }
        },
        // A flash of the colour from the centre: until the fade threshold F its disc grows linearly to the farthest
        // corner of the extent (radius R · t / F) over the source; after it the colour fades into the target,
        // mix(colour, target, (t − F) / (1 − F)), everywhere. The striation keys are stored but draw nothing.
        transitionFilter(
            "CIFlashTransition",
            defaults: [
                kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputExtentKey: CIVector(x: 0, y: 0, z: 300, w: 300),
                kCIInputColorKey: CIColor(red: 1, green: 0.8, blue: 0.6), "inputMaxStriationRadius": 2.58,
                "inputStriationStrength": 0.5, "inputStriationContrast": 1.375, "inputFadeThreshold": 0.85,
            ]
        ) { p, source, target, t in
            let centre = point2(p.vector(kCIInputCenterKey)), e = p.vector(kCIInputExtentKey).cgRectValue
            let corners = [(e.minX, e.minY), (e.maxX, e.minY), (e.minX, e.maxY), (e.maxX, e.maxY)]
            let reach = corners.map { hypotf(Float($0.0) - centre.x, Float($0.1) - centre.y) }.max() ?? 0
            let threshold = min(max(p.float("inputFadeThreshold"), 0.01), 0.99)
            let growing = t <= threshold
            let radius = reach * t / threshold, fade = (t - threshold) / (1 - threshold)
            let under = combined(source, target) { _, a, b in growing ? a : b }
            return combined(under, CIImage(color: p.color(kCIInputColorKey))) { position, v, c in
                guard growing else { return c + (v - c) * fade }
                let d = position - centre
                return (d * d).sum() < radius * radius ? c : v
            }.cropped(to: under.extent)
        },
        // The target where the mask's value (green, as `CIBlendWithMask` reads it; its edge repeated outwards) lies
        // below the time, so the mask's dark parts go first. The shadow keys are stored but draw nothing.
        transitionFilter(
            "CIDisintegrateWithMaskTransition", images: [kCIInputMaskImageKey],
            defaults: [
                "inputShadowRadius": 8.0, "inputShadowDensity": 0.65, "inputShadowOffset": CIVector(x: 0, y: -10),
            ]
        ) { p, source, target, time in
            guard let mask = p.image(kCIInputMaskImageKey) else { return nil }
            let spread: Recipe = ClampRecipe(input: mask.recipe) ?? mask.recipe
            let gate = PointRecipe.applying(
                .map { v in
                    let shown: Float = time >= 1 || maskValue(v) < time ? 1 : 0
                    return SIMD4(shown, shown, shown, 1)
                }, to: spread)
            return CIImage(
                recipe: CombineRecipe(
                    inputs: [target.recipe, source.recipe, gate], kind: .blend(alphaMask: false),
                    extent: source.extent.union(target.extent)))
        },
    ]
}
