import Foundation

// The shortcuts `CIImage` offers over filters and sampling: what camera code chains between capture and display.
extension CIImage {
    /// The image to be sampled from the nearest pixel by the transforms and warps applied to it (no interpolation:
    /// a QR code or pixel art scaled up keeps its hard edges).
    public func samplingNearest() -> CIImage { CIImage(recipe: SamplingRecipe(input: recipe, nearest: true)) }

    /// The image to be sampled bilinearly by the transforms applied to it (the default).
    public func samplingLinear() -> CIImage { CIImage(recipe: SamplingRecipe(input: recipe, nearest: false)) }

    /// The image blurred by a Gaussian of standard deviation `sigma` pixels (`CIGaussianBlur`, whose radius is read
    /// as the standard deviation).
    public func applyingGaussianBlur(sigma: Double) -> CIImage {
        applyingFilter("CIGaussianBlur", parameters: [kCIInputRadiusKey: sigma])
    }

    /// The part of the image within a rectangle, its edge pixels repeated outwards for ever.
    public func clamped(to rect: CGRect) -> CIImage { cropped(to: rect).clampedToExtent() }

    /// The image made opaque within a rectangle and clear outside it: each pixel's stored (premultiplied) colour
    /// with alpha 1.
    public func settingAlphaOne(in extent: CGRect) -> CIImage {
        CIImage(
            recipe: CropRecipe(
                input: PointRecipe.applying(.map { SIMD4($0.x * $0.w, $0.y * $0.w, $0.z * $0.w, 1) }, to: recipe),
                rect: extent))
    }

    /// The image with its colour multiplied by its alpha once more: for an image whose stored colour is not
    /// premultiplied.
    public func premultiplyingAlpha() -> CIImage {
        applying(.map { SIMD4($0.x * $0.w, $0.y * $0.w, $0.z * $0.w, $0.w) })
    }

    /// The image with its colour divided by its alpha once: the stored values become the straight colour.
    public func unpremultiplyingAlpha() -> CIImage {
        applying(.map { v in v.w > 0 ? SIMD4(v.x / v.w, v.y / v.w, v.z / v.w, v.w) : .zero })
    }

    /// The image itself: renders here are not cached between one render and the next, so there is no
    /// intermediate to keep.
    public func insertingIntermediate() -> CIImage { self }

    /// The image itself, as `insertingIntermediate()`.
    public func insertingIntermediate(cache: Bool) -> CIImage { self }

    /// Opaque black everywhere (an infinite extent).
    public class var black: CIImage { CIImage(color: .black) }
    /// Opaque white everywhere.
    public class var white: CIImage { CIImage(color: .white) }
    /// Opaque mid-grey everywhere.
    public class var gray: CIImage { CIImage(color: .gray) }
    /// Opaque red everywhere.
    public class var red: CIImage { CIImage(color: .red) }
    /// Opaque green everywhere.
    public class var green: CIImage { CIImage(color: .green) }
    /// Opaque blue everywhere.
    public class var blue: CIImage { CIImage(color: .blue) }
    /// Opaque cyan everywhere.
    public class var cyan: CIImage { CIImage(color: .cyan) }
    /// Opaque magenta everywhere.
    public class var magenta: CIImage { CIImage(color: .magenta) }
    /// Opaque yellow everywhere.
    public class var yellow: CIImage { CIImage(color: .yellow) }
    /// Clear everywhere.
    public class var clear: CIImage { CIImage(color: .clear) }
}
