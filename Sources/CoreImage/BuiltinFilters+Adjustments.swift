import Foundation
import Imaging

// The colour adjustments camera and photo apps chain after capture. Each runs in the context's working space (linear
// sRGB by default) on unpremultiplied colour, as the filters of `BuiltinFilters.swift` do. Apple documents what
// each does but not its arithmetic; where the formula below is ours, the Core Image filters article says so.

extension FilterDefinition {
    /// Rec. 709 luma of an unpremultiplied colour.
    @inline(__always)
    static func luma(_ v: SIMD4<Float>) -> Float { v.x * lumaWeights.x + v.y * lumaWeights.y + v.z * lumaWeights.z }

    /// The rotation by `angle` radians about the grey axis (1, 1, 1), as the rows of a colour matrix (Rodrigues'
    /// formula): greys stay where they are and every hue turns by the same angle.
    static func hueRotationRows(_ angle: Float) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let c = cosf(angle), s = sinf(angle), k: Float = 1 / sqrtf(3), t = (1 - c) / 3
        return (
            SIMD4(c + t, t - s * k, t + s * k, 0),
            SIMD4(t + s * k, c + t, t - s * k, 0),
            SIMD4(t - s * k, t + s * k, c + t, 0)
        )
    }

    static let adjustments: [FilterDefinition] = [
        point("CIHueAdjust", defaults: [kCIInputAngleKey: 0.0]) { p in
            let (r, g, b) = hueRotationRows(p.float(kCIInputAngleKey))
            return .matrix(rows: r, g, b, SIMD4(0, 0, 0, 1), bias: .zero)
        },
        // Saturation raised (or lowered) most where the colour is least saturated, so skin and skies that are
        // already vivid move least: the gain on the distance from grey is 1 + amount · (1 − (max − min)).
        point("CIVibrance", defaults: ["inputAmount": 0.0]) { p in
            let amount = p.float("inputAmount")
            return .map { v in
                let grey = luma(v)
                let spread = min(max(max(v.x, v.y, v.z) - min(v.x, v.y, v.z), 0), 1)
                let gain = max(0, 1 + amount * (1 - spread))
                return SIMD4(grey + (v.x - grey) * gain, grey + (v.y - grey) * gain, grey + (v.z - grey) * gain, v.w)
            }
        },
        // The luma times the colour, mixed with the original by the intensity.
        point(
            "CIColorMonochrome",
            defaults: [
                kCIInputColorKey: CIColor(red: 0.6, green: 0.45, blue: 0.3), kCIInputIntensityKey: 1.0,
            ]
        ) { p in
            let colour = p.color(kCIInputColorKey), intensity = p.float(kCIInputIntensityKey)
            return .contextual { context in
                let tint = context.working(colour)
                return .map { v in
                    let mono = tint * luma(v)
                    let mixed = v + (mono - v) * intensity
                    return SIMD4(mixed.x, mixed.y, mixed.z, v.w)
                }
            }
        },
        // The luma picks a colour between the two: black gives the first, white the second.
        point(
            "CIFalseColor",
            defaults: [
                "inputColor0": CIColor(red: 0.3, green: 0, blue: 0),
                "inputColor1": CIColor(red: 1, green: 0.9, blue: 0.8),
            ]
        ) { p in
            let dark = p.color("inputColor0"), light = p.color("inputColor1")
            return .contextual { context in
                let c0 = context.working(dark), c1 = context.working(light)
                return .map { v in
                    let mixed = c0 + (c1 - c0) * luma(v)
                    return SIMD4(mixed.x, mixed.y, mixed.z, v.w)
                }
            }
        },
        // White becomes the colour: each component scaled by the colour's (a von Kries scaling).
        point("CIWhitePointAdjust", defaults: [kCIInputColorKey: CIColor(red: 1, green: 1, blue: 1)]) { p in
            let colour = p.color(kCIInputColorKey)
            return .contextual { context in
                let k = context.working(colour)
                return .matrix(
                    rows: SIMD4(k.x, 0, 0, 0), SIMD4(0, k.y, 0, 0), SIMD4(0, 0, k.z, 0), SIMD4(0, 0, 0, 1), bias: .zero)
            }
        },
        // Each component rounded to one of `levels` values spread evenly from 0 to 1.
        point("CIColorPosterize", defaults: ["inputLevels": 6.0]) { p in
            let steps = max(1, p.float("inputLevels").rounded() - 1)
            @Sendable func level(_ x: Float) -> Float { (min(max(x, 0), 1) * steps).rounded() / steps }
            return .map { SIMD4(level($0.x), level($0.y), level($0.z), $0.w) }
        },
        // Each component 1 above the threshold, 0 at or below it (iOS 14).
        point("CIColorThreshold", defaults: ["inputThreshold": 0.5]) { p in
            let threshold = p.float("inputThreshold")
            return .map { v in
                SIMD4(v.x > threshold ? 1 : 0, v.y > threshold ? 1 : 0, v.z > threshold ? 1 : 0, v.w)
            }
        },
        // White, as opaque as the input is light: the mask a grey picture describes.
        point("CIMaskToAlpha") { _ in
            .map { v in SIMD4(1, 1, 1, min(max(luma(v), 0), 1) * v.w) }
        },
        point("CILinearToSRGBToneCurve") { _ in
            .map { SIMD4(SRGBCurve.encode($0.x), SRGBCurve.encode($0.y), SRGBCurve.encode($0.z), $0.w) }
        },
        point("CISRGBToneCurveToLinear") { _ in
            .map { SIMD4(SRGBCurve.decode($0.x), SRGBCurve.decode($0.y), SRGBCurve.decode($0.z), $0.w) }
        },
        point(
            "CIToneCurve",
            defaults: [
                "inputPoint0": CIVector(x: 0, y: 0), "inputPoint1": CIVector(x: 0.25, y: 0.25),
                "inputPoint2": CIVector(x: 0.5, y: 0.5), "inputPoint3": CIVector(x: 0.75, y: 0.75),
                "inputPoint4": CIVector(x: 1, y: 1),
            ]
        ) { p in
            let points = (0..<5).map { i -> SIMD2<Float> in
                let v = p.vector("inputPoint\(i)")
                return SIMD2(Float(v.x), Float(v.y))
            }
            let curve = MonotoneCurve(points: points)
            return .map { SIMD4(curve.value(at: $0.x), curve.value(at: $0.y), curve.value(at: $0.z), $0.w) }
        },
    ]
}

/// The curve through a few points that rises (or falls) between them only as the points do: a cubic Hermite
/// spline with Fritsch and Carlson's slopes (SIAM J. Numer. Anal. 17, 1980), so it never overshoots a point.
/// Before the first point and after the last it stays level.
struct MonotoneCurve: Sendable {
    let xs: [Float]
    let ys: [Float]
    let slopes: [Float]

    init(points: [SIMD2<Float>]) {
        // Points sharing an x are one point (the later one stands).
        var byX: [Float: Float] = [:]
        for p in points { byX[p.x] = p.y }
        let sorted = byX.sorted { $0.key < $1.key }
        xs = sorted.map(\.key)
        ys = sorted.map(\.value)
        slopes = Self.slopes(xs, ys)
    }

    /// Fritsch–Carlson: the secants' mean at interior points, zero where the secants change sign, and limited so
    /// that each interval's cubic stays monotone.
    static func slopes(_ xs: [Float], _ ys: [Float]) -> [Float] {
        let n = xs.count
        guard n > 1 else { return Array(repeating: 0, count: n) }
        let secants: [Float] = (0..<(n - 1)).map { i -> Float in (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) }
        var m = [Float](repeating: 0, count: n)
        m[0] = secants[0]
        m[n - 1] = secants[n - 2]
        for i in 1..<(n - 1) {
            m[i] = secants[i - 1] * secants[i] <= 0 ? 0 : (secants[i - 1] + secants[i]) / 2
        }
        for i in 0..<(n - 1) {
            guard secants[i] != 0 else {
                m[i] = 0
                m[i + 1] = 0
                continue
            }
            let a: Float = m[i] / secants[i], b: Float = m[i + 1] / secants[i]
            let length: Float = a * a + b * b
            if length > 9 {
                let t: Float = 3 / sqrtf(length)
                m[i] = t * a * secants[i]
                m[i + 1] = t * b * secants[i]
            }
        }
        return m
    }

    func value(at x: Float) -> Float {
        guard let first = xs.first, let last = xs.last else { return x }
        if xs.count == 1 { return ys[0] }
        if x <= first { return ys[0] }
        if x >= last { return ys[ys.count - 1] }
        var i = 0
        while x > xs[i + 1] { i += 1 }
        let h = xs[i + 1] - xs[i], t = (x - xs[i]) / h
        let t2 = t * t, t3 = t2 * t
        return (2 * t3 - 3 * t2 + 1) * ys[i] + (t3 - 2 * t2 + t) * h * slopes[i] + (-2 * t3 + 3 * t2) * ys[i + 1]
            + (t3 - t2) * h * slopes[i + 1]
    }
}
