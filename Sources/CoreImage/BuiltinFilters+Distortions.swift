import Foundation
import Imaging

// The distortion filters (twirl, bump, pinch, hole, vortex, circle splash), straightening, and the affine clamp
// and tile.
//
// Apple describes the distortions in words only; the formulas below are our choices, each written as the map from an
// output point to the source point it shows (`MapWarpRecipe`), sampled bilinearly. `v` is the output point's offset
// from the centre and `d` its length.

extension FilterDefinition {
    /// Twirl and vortex: inside the radius, the output at offset `v` shows the source at `v` turned clockwise by
    /// `angle · falloff(d / radius)`, so the picture turns anticlockwise by that angle (Core Image's y points up);
    /// outside the radius it is unchanged.
    static func swirl(_ name: String, defaultAngle: Double, falloff: @escaping @Sendable (Double) -> Double)
        -> FilterDefinition
    {
        FilterDefinition(
            name,
            defaults: [
                kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputRadiusKey: 300.0, kCIInputAngleKey: defaultAngle,
            ]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let angle = p.number(kCIInputAngleKey)
            return radial(image, p) { v, d, radius in
                let turn = -angle * falloff(d / radius)
                let (c, s) = (cos(turn), sin(turn))
                return SIMD2(c * v.x - s * v.y, s * v.x + c * v.y)
            }
        }
    }

    /// The image warped inside a disc around `inputCenter` of radius `inputRadius` and unchanged outside it, over
    /// the input's extent. `offset(v, d, radius)` gives the source offset for an output offset inside the disc.
    static func radial(
        _ image: CIImage, _ p: FilterInputs,
        offset: @escaping @Sendable (SIMD2<Double>, Double, Double) -> SIMD2<Double>
    ) -> CIImage {
        let centre = SIMD2(Double(p.vector(kCIInputCenterKey).x), Double(p.vector(kCIInputCenterKey).y))
        let radius = p.number(kCIInputRadiusKey)
        guard radius > 0 else { return image }
        return CIImage(
            recipe: MapWarpRecipe(input: image.recipe, extent: image.extent) { q in
                let v = q - centre
                let d = (v * v).sum().squareRoot()
                return d < radius ? centre + offset(v, d, radius) : q
            })
    }

    /// The rotation by `angle` about the extent's centre, scaled by `|cos| + |sin| · long side / short side`: the
    /// least scale at which the turned rectangle still covers the upright one.
    static func straightening(_ extent: CGRect, angle: Double) -> CGAffineTransform {
        let (w, h) = (Double(extent.width), Double(extent.height))
        let scale = abs(cos(angle)) + abs(sin(angle)) * max(w, h) / min(w, h)
        let (cx, cy) = (extent.midX, extent.midY)
        return CGAffineTransform(translationX: -cx, y: -cy)
            .concatenating(CGAffineTransform(scaleX: CGFloat(scale), y: CGFloat(scale)))
            .concatenating(CGAffineTransform(rotationAngle: CGFloat(angle)))
            .concatenating(CGAffineTransform(translationX: cx, y: cy))
    }

    static let distortions: [FilterDefinition] = [
        // Our choice: the turn falls off linearly, `angle · (1 − d / radius)`, from the whole angle at the centre to
        // none at the radius.
        swirl("CITwirlDistortion", defaultAngle: Double.pi) { 1 - $0 },
        // Our choice: a bump scales each offset by `1 − scale · (1 − d / radius)²`. A positive scale magnifies the
        // middle (convex: the centre shows the source at half the distance for the default 0.5), a negative one
        // shrinks it (concave); the factor is 1 with a flat slope at the radius, so the edge is seamless, and the
        // map is one to one for scales from −1 to 1.
        FilterDefinition(
            "CIBumpDistortion",
            defaults: [kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputRadiusKey: 300.0, kCIInputScaleKey: 0.5]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let scale = p.number(kCIInputScaleKey)
            return radial(image, p) { v, d, radius in
                let t = 1 - d / radius
                return v * (1 - scale * t * t)
            }
        },
        // Our choice: a pinch shows, at distance d, the source at distance `radius · (d / radius)^(1 / (1 + scale))`
        // along the same ray: for a positive scale the source is drawn in towards the centre, most strongly near
        // it; scale 0 is the identity; scales at or below −1 are taken as −0.999.
        FilterDefinition(
            "CIPinchDistortion",
            defaults: [kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputRadiusKey: 300.0, kCIInputScaleKey: 0.5]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let exponent = 1 / (1 + max(p.number(kCIInputScaleKey), -0.999))
            return radial(image, p) { v, d, radius in
                d > 0 ? v * (radius * pow(d / radius, exponent) / d) : .zero
            }
        },
        // Our choice: a clear hole of the radius, the picture pushed out around it with each ring keeping its area:
        // the output at distance d ≥ radius shows the source at distance `√(d² − radius²)` along the same ray, so
        // the hole's edge shows the centre and the push fades with distance. Over the input's extent.
        FilterDefinition(
            "CIHoleDistortion", defaults: [kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputRadiusKey: 150.0]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let v = p.vector(kCIInputCenterKey)
            let centre = SIMD2(Double(v.x), Double(v.y)), radius = max(p.number(kCIInputRadiusKey), 0)
            return CIImage(
                recipe: MapWarpRecipe(input: image.recipe, extent: image.extent) { q in
                    let v = q - centre
                    let d2 = (v * v).sum()
                    guard d2 > radius * radius else { return nil }
                    return radius > 0 ? centre + v * ((d2 - radius * radius) / d2).squareRoot() : q
                })
        },
        // Our choice: as the twirl with a steeper falloff, `angle · (1 − d / radius)²`, so that the default angle of
        // nine turns winds tightly at the centre and loosely towards the radius.
        swirl("CIVortexDistortion", defaultAngle: 56.548667764616276) { (1 - $0) * (1 - $0) },
        // Our choice: the image is unchanged inside the circle; outside it each point shows the point of the circle
        // on its ray from the centre, so the circle's edge streaks outwards for ever (an infinite extent).
        FilterDefinition(
            "CICircleSplashDistortion",
            defaults: [kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputRadiusKey: 150.0]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let v = p.vector(kCIInputCenterKey)
            let centre = SIMD2(Double(v.x), Double(v.y)), radius = max(p.number(kCIInputRadiusKey), 0)
            return CIImage(
                recipe: MapWarpRecipe(input: image.recipe, extent: .infinite) { q in
                    let v = q - centre
                    let d = (v * v).sum().squareRoot()
                    return d <= radius ? q : centre + v * (radius / d)
                })
        },
        // Documented: rotated by the angle (radians) and scaled so that the turned image covers the input's extent,
        // which the output keeps. Our choices: the turn is about the extent's centre, the scale the least that
        // covers, and the input's edges are extended first so that the corners are not faded by the resampling.
        // An infinite image is turned about the origin, unscaled.
        FilterDefinition("CIStraightenFilter", defaults: [kCIInputAngleKey: 0.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let angle = p.number(kCIInputAngleKey)
            let extent = image.extent
            if extent.isInfinite { return image.transformed(by: CGAffineTransform(rotationAngle: CGFloat(angle))) }
            guard !extent.isEmpty, !extent.isNull else { return image }
            return image.clampedToExtent().transformed(by: straightening(extent, angle: angle)).cropped(to: extent)
        },
        // Documented: the transform of the image with its edge pixels extended for ever (an infinite extent).
        FilterDefinition("CIAffineClamp", defaults: [kCIInputTransformKey: CGAffineTransform.identity]) { p in
            p.image(kCIInputImageKey)?.clampedToExtent().transformed(by: p.transform(kCIInputTransformKey))
        },
        // Documented: the image repeated edge to edge for ever, then transformed (an infinite extent). Our choice:
        // the tile is the input's extent rounded out to whole pixels, and interpolation wraps across its edges.
        FilterDefinition("CIAffineTile", defaults: [kCIInputTransformKey: CGAffineTransform.identity]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let t = p.transform(kCIInputTransformKey)
            if image.extent.isInfinite { return image.transformed(by: t) }
            guard let tile = Region(covering: image.extent), !tile.isEmpty else { return .empty() }
            let inverse = t.inverted()
            return CIImage(
                recipe: MapWarpRecipe(input: image.recipe, extent: .infinite, tiled: true) { q in
                    SIMD2(
                        Double(inverse.a) * q.x + Double(inverse.c) * q.y + Double(inverse.tx),
                        Double(inverse.b) * q.x + Double(inverse.d) * q.y + Double(inverse.ty))
                })
        },
    ]
}
