import Foundation
import Imaging

/// Rec. 709 luma weights (which sRGB shares): the grey that saturation, mono and sepia filters mix towards.
let lumaWeights = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)

extension FilterDefinition {
    // MARK: Geometry

    /// The corner keys of the perspective filters, with Apple's documented defaults.
    nonisolated(unsafe) static let cornerDefaults: [String: Any] = [
        "inputTopLeft": CIVector(x: 118, y: 484), "inputTopRight": CIVector(x: 646, y: 507),
        "inputBottomRight": CIVector(x: 548, y: 140), "inputBottomLeft": CIVector(x: 155, y: 153),
    ]

    static func corners(_ p: FilterInputs) -> [SIMD2<Double>] {
        ["inputTopLeft", "inputTopRight", "inputBottomRight", "inputBottomLeft"].map {
            let v = p.vector($0)
            return SIMD2(Double(v.x), Double(v.y))
        }
    }

    static func bounds(_ points: [SIMD2<Double>]) -> CGRect {
        let xs = points.map(\.x), ys = points.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    static let geometry: [FilterDefinition] = [
        // The quadrilateral mapped onto an upright rectangle whose sides are the longer of each pair of
        // opposite sides (the scanner's `PerspectiveCorrection.outputSize`), placed at the origin.
        FilterDefinition("CIPerspectiveCorrection", defaults: cornerDefaults.merging(["inputCrop": true]) { a, _ in a }) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let quad = corners(p)
            let size = PerspectiveCorrection.outputSize(for: quad)
            let (w, h) = (Double(size.width), Double(size.height))
            // Rectangle corners in Core Image's coordinates (y up), in the corners' order.
            let rect: [SIMD2<Double>] = [SIMD2(0, h), SIMD2(w, h), SIMD2(w, 0), SIMD2(0, 0)]
            guard let toSource = Homography(mapping: rect, to: quad) else { return nil }
            var extent = CGRect(x: 0, y: 0, width: w, height: h)
            if !p.bool("inputCrop"), let inverse = toSource.inverse, !image.extent.isInfinite {
                let e = image.extent
                let mapped = [CGPoint(x: e.minX, y: e.minY), CGPoint(x: e.maxX, y: e.minY), CGPoint(x: e.maxX, y: e.maxY),
                              CGPoint(x: e.minX, y: e.maxY)].map { inverse.apply(SIMD2(Double($0.x), Double($0.y))) }
                if mapped.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) { extent = bounds(mapped) }
            }
            return CIImage(recipe: WarpRecipe(input: image.recipe, outputToSource: toSource, extent: extent))
        },
        // The image's corners moved to the four points.
        FilterDefinition("CIPerspectiveTransform", defaults: cornerDefaults) { p in
            guard let image = p.image(kCIInputImageKey), !image.extent.isInfinite else { return nil }
            let e = image.extent
            let source = [CGPoint(x: e.minX, y: e.maxY), CGPoint(x: e.maxX, y: e.maxY), CGPoint(x: e.maxX, y: e.minY),
                          CGPoint(x: e.minX, y: e.minY)].map { SIMD2(Double($0.x), Double($0.y)) }
            let quad = corners(p)
            guard let toSource = Homography(mapping: quad, to: source) else { return nil }
            return CIImage(recipe: WarpRecipe(input: image.recipe, outputToSource: toSource, extent: bounds(quad)))
        },
        FilterDefinition("CIAffineTransform", defaults: [kCIInputTransformKey: CGAffineTransform.identity]) { p in
            p.image(kCIInputImageKey)?.transformed(by: p.transform(kCIInputTransformKey))
        },
        FilterDefinition("CILanczosScaleTransform", defaults: [kCIInputScaleKey: 1.0, kCIInputAspectRatioKey: 1.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            guard let recipe = ScaleRecipe(input: image.recipe, scale: p.number(kCIInputScaleKey),
                                           aspectRatio: p.number(kCIInputAspectRatioKey)) else { return .empty() }
            return CIImage(recipe: recipe)
        },
        // Apple's defaults: B 0 and C 0.75, "the most commonly used" values.
        FilterDefinition(
            "CIBicubicScaleTransform",
            defaults: [kCIInputScaleKey: 1.0, kCIInputAspectRatioKey: 1.0, "inputB": 0.0, "inputC": 0.75]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let kernel = ScaleRecipe.Kernel.cubic(b: p.number("inputB"), c: p.number("inputC"))
            guard let recipe = ScaleRecipe(input: image.recipe, scale: p.number(kCIInputScaleKey),
                                           aspectRatio: p.number(kCIInputAspectRatioKey), kernel: kernel)
            else { return .empty() }
            return CIImage(recipe: recipe)
        },
        FilterDefinition("CICrop", defaults: ["inputRectangle": CIVector(x: -8.98847e307, y: -8.98847e307, z: 1.79769e308, w: 1.79769e308)]) { p in
            p.image(kCIInputImageKey)?.cropped(to: p.vector("inputRectangle").cgRectValue)
        },
    ]

    // MARK: Colour

    static func point(_ name: String, defaults: [String: Any] = [:], _ step: @escaping (FilterInputs) -> PointStep)
        -> FilterDefinition
    {
        FilterDefinition(name, defaults: defaults) { p in p.image(kCIInputImageKey)?.applying(step(p)) }
    }

    static let identityRows: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) = (
        SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))

    /// Each colour component mixed with the pixel's luma: `s · c + (1 − s) · luma`.
    static func saturationRows(_ s: Float) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let grey = lumaWeights * (1 - s)
        return (grey + SIMD4(s, 0, 0, 0), grey + SIMD4(0, s, 0, 0), grey + SIMD4(0, 0, s, 0))
    }

    static let colour: [FilterDefinition] = [
        point("CIColorMatrix", defaults: [
            "inputRVector": CIVector(x: 1, y: 0, z: 0, w: 0), "inputGVector": CIVector(x: 0, y: 1, z: 0, w: 0),
            "inputBVector": CIVector(x: 0, y: 0, z: 1, w: 0), "inputAVector": CIVector(x: 0, y: 0, z: 0, w: 1),
            "inputBiasVector": CIVector(x: 0, y: 0, z: 0, w: 0),
        ]) { p in
            .matrix(rows: p.vector("inputRVector").simd4, p.vector("inputGVector").simd4, p.vector("inputBVector").simd4,
                    p.vector("inputAVector").simd4, bias: p.vector("inputBiasVector").simd4)
        },
        point("CIColorClamp", defaults: [
            "inputMinComponents": CIVector(x: 0, y: 0, z: 0, w: 0), "inputMaxComponents": CIVector(x: 1, y: 1, z: 1, w: 1),
        ]) { p in
            let lo = p.vector("inputMinComponents").simd4, hi = p.vector("inputMaxComponents").simd4
            return .map { $0.clamped(lowerBound: lo, upperBound: hi) }
        },
        // Saturation mixes with luma, brightness adds, contrast scales about 0.5: one matrix.
        point("CIColorControls", defaults: [kCIInputSaturationKey: 1.0, kCIInputBrightnessKey: 0.0, kCIInputContrastKey: 1.0]) { p in
            let (r, g, b) = saturationRows(p.float(kCIInputSaturationKey))
            let c = p.float(kCIInputContrastKey), offset = p.float(kCIInputBrightnessKey) * c + 0.5 * (1 - c)
            return .matrix(rows: r * c, g * c, b * c, SIMD4(0, 0, 0, 1), bias: SIMD4(offset, offset, offset, 0))
        },
        point("CIExposureAdjust", defaults: [kCIInputEVKey: 0.0]) { p in
            let k = powf(2, p.float(kCIInputEVKey))
            return .matrix(rows: SIMD4(k, 0, 0, 0), SIMD4(0, k, 0, 0), SIMD4(0, 0, k, 0), SIMD4(0, 0, 0, 1), bias: .zero)
        },
        point("CITemperatureAndTint", defaults: [
            "inputNeutral": CIVector(x: 6500, y: 0), "inputTargetNeutral": CIVector(x: 6500, y: 0),
        ]) { p in
            let n = p.vector("inputNeutral"), t = p.vector("inputTargetNeutral")
            let gain = WhitePoint.linearSRGB(temperature: Double(t.x), tint: Double(t.y))
                / WhitePoint.linearSRGB(temperature: Double(n.x), tint: Double(n.y))
            let k = SIMD3<Float>(gain)
            return .matrix(rows: SIMD4(k.x, 0, 0, 0), SIMD4(0, k.y, 0, 0), SIMD4(0, 0, k.z, 0), SIMD4(0, 0, 0, 1), bias: .zero)
        },
        point("CIGammaAdjust", defaults: ["inputPower": 1.0]) { p in
            let power = p.float("inputPower")
            @Sendable func f(_ v: Float) -> Float { v < 0 ? -powf(-v, power) : powf(v, power) }
            return .map { SIMD4(f($0.x), f($0.y), f($0.z), $0.w) }
        },
        point("CIColorInvert") { _ in
            .matrix(rows: SIMD4(-1, 0, 0, 0), SIMD4(0, -1, 0, 0), SIMD4(0, 0, -1, 0), SIMD4(0, 0, 0, 1), bias: SIMD4(1, 1, 1, 0))
        },
        // The classic sepia matrix, mixed with the original by the intensity.
        point("CISepiaTone", defaults: [kCIInputIntensityKey: 1.0]) { p in
            let i = p.float(kCIInputIntensityKey)
            let sepia = (SIMD4<Float>(0.393, 0.769, 0.189, 0), SIMD4<Float>(0.349, 0.686, 0.168, 0), SIMD4<Float>(0.272, 0.534, 0.131, 0))
            let id = identityRows
            return .matrix(rows: id.0 + (sepia.0 - id.0) * i, id.1 + (sepia.1 - id.1) * i, id.2 + (sepia.2 - id.2) * i,
                           SIMD4(0, 0, 0, 1), bias: .zero)
        },
        point("CIPhotoEffectMono") { _ in
            .matrix(rows: lumaWeights, lumaWeights, lumaWeights, SIMD4(0, 0, 0, 1), bias: .zero)
        },
    ]

    // MARK: Compositing

    static let compositing: [FilterDefinition] = [
        FilterDefinition("CIBlendWithMask", images: [kCIInputImageKey, kCIInputBackgroundImageKey, kCIInputMaskImageKey]) { p in
            blend(p, alphaMask: false)
        },
        FilterDefinition("CIBlendWithAlphaMask", images: [kCIInputImageKey, kCIInputBackgroundImageKey, kCIInputMaskImageKey]) { p in
            blend(p, alphaMask: true)
        },
        FilterDefinition("CISourceOverCompositing", images: [kCIInputImageKey, kCIInputBackgroundImageKey]) { p in
            guard let image = p.image(kCIInputImageKey), let background = p.image(kCIInputBackgroundImageKey) else { return nil }
            return image.composited(over: background)
        },
    ]

    static func blend(_ p: FilterInputs, alphaMask: Bool) -> CIImage? {
        guard let image = p.image(kCIInputImageKey), let mask = p.image(kCIInputMaskImageKey) else { return nil }
        // A missing background blends with clear.
        let background = p.image(kCIInputBackgroundImageKey) ?? CIImage(color: .clear)
        let extent = image.extent.union(background.extent.isInfinite ? image.extent : background.extent)
        return CIImage(recipe: CombineRecipe(
            inputs: [image.recipe, background.recipe, mask.recipe], kind: .blend(alphaMask: alphaMask), extent: extent))
    }

    // MARK: Blur

    static let blur: [FilterDefinition] = [
        // The radius is taken as the Gaussian's standard deviation, in pixels.
        FilterDefinition("CIGaussianBlur", defaults: [kCIInputRadiusKey: 10.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            return CIImage(recipe: ConvolutionRecipe(input: image.recipe, kernel: ConvolutionRecipe.gaussian(sigma: max(0, p.float(kCIInputRadiusKey)))))
        },
        // A square of 2·radius + 1 pixels (the radius rounded), weighted equally.
        FilterDefinition("CIBoxBlur", defaults: [kCIInputRadiusKey: 10.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let radius = Int(max(0, p.number(kCIInputRadiusKey)).rounded())
            return CIImage(recipe: ConvolutionRecipe(input: image.recipe, kernel: ConvolutionRecipe.box(radius: radius)))
        },
        FilterDefinition("CIDepthBlurEffect", images: [kCIInputImageKey, kCIInputDisparityImageKey], defaults: [
            "inputAperture": 0.0, "inputScaleFactor": 1.0, "inputLumaNoiseScale": 0.0,
        ]) { p in
            guard let image = p.image(kCIInputImageKey), let disparity = p.image(kCIInputDisparityImageKey) else { return nil }
            return CIImage(recipe: DepthBlurRecipe(
                image: image.recipe, disparity: disparity.recipe, aperture: p.float("inputAperture"),
                focusRect: p.optionalVector("inputFocusRect")?.cgRectValue, scaleFactor: p.float("inputScaleFactor")))
        },
    ]

    // MARK: Depth

    static let depth: [FilterDefinition] = [
        point("CIDepthToDisparity") { _ in reciprocal },
        point("CIDisparityToDepth") { _ in reciprocal },
    ]

    /// `1/x` of red, green and blue, with the depth rules of Imaging's `DepthDisparity` (holes stay holes).
    static let reciprocal = PointStep.map {
        SIMD4(DepthDisparity.reciprocal($0.x), DepthDisparity.reciprocal($0.y), DepthDisparity.reciprocal($0.z), $0.w)
    }

    // MARK: Helpers

    static let helpers: [FilterDefinition] = [
        FilterDefinition("CIConstantColorGenerator", images: [], defaults: [kCIInputColorKey: CIColor(red: 1, green: 0, blue: 0)]) { p in
            CIImage(color: p.color(kCIInputColorKey))
        },
    ]
}

/// The white of a correlated colour temperature and tint, in linear sRGB with green 1.
enum WhitePoint {
    /// CIE 1931 xy of the Planckian locus (Kim et al.'s cubic fit, 1667–25000 K; clamped to that range).
    static func planckian(_ kelvin: Double) -> SIMD2<Double> {
        let t = min(max(kelvin, 1667), 25000)
        let x = t <= 4000
            ? -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
            : -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
        let y = t <= 2222 ? -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
            : t <= 4000 ? -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
            : 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        return SIMD2(x, y)
    }

    /// The white, its tint moving it across the locus in CIE 1960 uv (1/3000 per unit, positive towards
    /// magenta, as raw converters scale it).
    static func linearSRGB(temperature: Double, tint: Double) -> SIMD3<Double> {
        let xy = planckian(temperature)
        // Normal to the locus from the finite difference along it.
        func uv(_ p: SIMD2<Double>) -> SIMD2<Double> {
            let d = -2 * p.x + 12 * p.y + 3
            return SIMD2(4 * p.x / d, 6 * p.y / d)
        }
        let here = uv(xy), further = uv(planckian(temperature + 10))
        var tangent = further - here
        tangent /= (tangent * tangent).sum().squareRoot()
        let normal = SIMD2(-tangent.y, tangent.x)
        let shifted = here + normal * (-tint / 3000)
        let d = 2 * shifted.x - 8 * shifted.y + 4
        let x = 3 * shifted.x / d, y = 2 * shifted.y / d
        let X = x / y, Z = (1 - x - y) / y
        let r = 3.2404542 * X - 1.5371385 - 0.4985314 * Z
        let g = -0.9692660 * X + 1.8760108 + 0.0415560 * Z
        let b = 0.0556434 * X - 0.2040259 + 1.0572252 * Z
        return SIMD3(r, g, b) / g
    }
}
