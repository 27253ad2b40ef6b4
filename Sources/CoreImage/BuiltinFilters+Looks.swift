import Foundation
import Imaging

// Looks: colour lookup tables (`CIColorCube`, the form LUT-based filter apps use) and the preset photo effects.

/// A three-dimensional colour table, looked up by trilinear interpolation. Apple documents the layout: `dimension`³
/// RGBA entries of 32-bit floats, premultiplied, with red changing fastest, then green, then blue; the input's red,
/// green and blue (0…1) index the cube. Outside 0…1 the input is clamped to the cube's faces, or, with
/// `extrapolate`, the nearest cell's interpolation is carried on linearly.
struct ColourCube: Sendable {
    let dimension: Int
    let entries: [SIMD4<Float>]
    let extrapolate: Bool

    /// The table in `data`, or nil when its size is not `dimension`³ entries or the dimension is outside 2…128
    /// (Core Image then gives no output image).
    init?(dimension: Int, data: Data, extrapolate: Bool) {
        guard (2...128).contains(dimension), data.count == dimension * dimension * dimension * 16 else { return nil }
        self.dimension = dimension
        self.extrapolate = extrapolate
        entries = data.withUnsafeBytes { raw in
            (0..<(dimension * dimension * dimension)).map { i in
                SIMD4(
                    raw.loadUnaligned(fromByteOffset: 16 * i, as: Float.self),
                    raw.loadUnaligned(fromByteOffset: 16 * i + 4, as: Float.self),
                    raw.loadUnaligned(fromByteOffset: 16 * i + 8, as: Float.self),
                    raw.loadUnaligned(fromByteOffset: 16 * i + 12, as: Float.self))
            }
        }
    }

    /// The identity table of a dimension, as `Data` (the filter's default, and what tests start from).
    static func identityData(dimension d: Int) -> Data {
        var floats: [Float] = []
        floats.reserveCapacity(4 * d * d * d)
        for b in 0..<d {
            for g in 0..<d {
                for r in 0..<d { floats += [Float(r), Float(g), Float(b), Float(d - 1)].map { $0 / Float(d - 1) } }
            }
        }
        return floats.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// The premultiplied table value at an unpremultiplied colour.
    func lookup(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let last = Float(dimension - 1)
        // Each axis: the cell's lower index and the position within it.
        func axis(_ x: Float) -> (Int, Float) {
            let scaled = (x.isNaN ? 0 : x) * last
            let base = Int(min(max(scaled.rounded(.down), 0), last - 1))
            let t = scaled - Float(base)
            return (base, extrapolate ? t : min(max(t, 0), 1))
        }
        let (r, tr) = axis(v.x), (g, tg) = axis(v.y), (b, tb) = axis(v.z)
        let d = dimension
        func entry(_ i: Int, _ j: Int, _ k: Int) -> SIMD4<Float> { entries[(b + k) * d * d + (g + j) * d + r + i] }
        func along(_ j: Int, _ k: Int) -> SIMD4<Float> { entry(0, j, k) + (entry(1, j, k) - entry(0, j, k)) * tr }
        let lower = along(0, 0) + (along(1, 0) - along(0, 0)) * tg
        let upper = along(0, 1) + (along(1, 1) - along(0, 1)) * tg
        return lower + (upper - lower) * tb
    }

    /// The per-pixel step: the table's colour, unpremultiplied, with the table's alpha times the input's.
    func step(encodedAs transfer: CubeSpace) -> PointStep {
        .map { v in
            let input =
                transfer == .sRGB ? SIMD4(SRGBCurve.encode(v.x), SRGBCurve.encode(v.y), SRGBCurve.encode(v.z), v.w) : v
            let t = lookup(input)
            let s: Float = t.w > 0 ? 1 / t.w : 0
            var out = SIMD4(t.x * s, t.y * s, t.z * s, t.w * v.w)
            if transfer == .sRGB {
                out = SIMD4(SRGBCurve.decode(out.x), SRGBCurve.decode(out.y), SRGBCurve.decode(out.z), out.w)
            }
            return out
        }
    }

    /// The space in which a table's colours are read: the working space itself, or sRGB-encoded values
    /// (`CIColorCubeWithColorSpace` with a space that has the sRGB curve).
    enum CubeSpace: Sendable { case working, sRGB }
}

/// One preset photo effect: how it moves sRGB-encoded values. Apple describes each only in words ("imitates vintage
/// photography film with exaggerated colour", and so on); these numbers are our reading of those words.
struct FilmLook: Sendable {
    /// The gain on the distance from grey (0 gives a black-and-white look).
    var saturation: Float
    /// The gain on the distance from mid-grey (0.5 encoded).
    var contrast: Float
    /// Per-channel gains, which tint the picture warm or cool.
    var tint: SIMD3<Float> = SIMD3(1, 1, 1)
    /// How far black is lifted towards grey (a faded print).
    var lift: Float = 0

    /// The look applied to an unpremultiplied working colour; `linear` says whether the working values are linear
    /// (a colour-managed context), when they are encoded for the look and decoded after it.
    func apply(_ v: SIMD4<Float>, linear: Bool) -> SIMD4<Float> {
        let rgb = SIMD3(v.x, v.y, v.z)
        let grey = (rgb * SIMD3(lumaWeights.x, lumaWeights.y, lumaWeights.z)).sum()
        guard linear else { return SIMD4(shape(rgb, grey: grey), v.w) }
        let encoded = SIMD3(SRGBCurve.encode(rgb.x), SRGBCurve.encode(rgb.y), SRGBCurve.encode(rgb.z))
        let e = shape(encoded, grey: SRGBCurve.encode(grey))
        return SIMD4(SRGBCurve.decode(e.x), SRGBCurve.decode(e.y), SRGBCurve.decode(e.z), v.w)
    }

    /// Saturation, contrast, tint and lift, on encoded values.
    func shape(_ encoded: SIMD3<Float>, grey: Float) -> SIMD3<Float> {
        var e = SIMD3(repeating: grey) + (encoded - SIMD3(repeating: grey)) * saturation
        e = SIMD3(repeating: 0.5) + (e - SIMD3(repeating: 0.5)) * contrast
        e = (e * tint).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        return SIMD3(repeating: lift) + e * (1 - lift)
    }

    static let presets: [(String, FilmLook)] = [
        ("CIPhotoEffectChrome", FilmLook(saturation: 1.3, contrast: 1.15)),
        ("CIPhotoEffectFade", FilmLook(saturation: 0.7, contrast: 0.85, lift: 0.08)),
        ("CIPhotoEffectInstant", FilmLook(saturation: 0.85, contrast: 0.95, tint: SIMD3(1.06, 1, 0.88), lift: 0.05)),
        ("CIPhotoEffectNoir", FilmLook(saturation: 0, contrast: 1.5)),
        ("CIPhotoEffectProcess", FilmLook(saturation: 0.95, contrast: 1.1, tint: SIMD3(0.92, 1, 1.08))),
        ("CIPhotoEffectTonal", FilmLook(saturation: 0, contrast: 1)),
        ("CIPhotoEffectTransfer", FilmLook(saturation: 1.05, contrast: 1.05, tint: SIMD3(1.08, 1, 0.9), lift: 0.03)),
    ]
}

extension FilterDefinition {
    static func cube(_ p: FilterInputs, space: ColourCube.CubeSpace) -> CIImage? {
        guard let image = p.image(kCIInputImageKey) else { return nil }
        guard let data = p.values["inputCubeData"] as? Data ?? p.defaults["inputCubeData"] as? Data,
            let cube = ColourCube(
                dimension: Int(p.number("inputCubeDimension")), data: data, extrapolate: p.bool("inputExtrapolate"))
        else { return nil }
        // The sRGB curve is applied only where the working values are linear: in a context that does not manage
        // colour they are the stored values already.
        return image.applying(.contextual { context in cube.step(encodedAs: context.managesColor ? space : .working) })
    }

    /// Whether a colour space's values carry the sRGB curve (every space but the linear ones, as Core Image here
    /// tells only sRGB-encoded and linear values apart).
    static func hasSRGBCurve(_ space: Any?) -> Bool {
        guard let name = (space as? CGColorSpace)?.name else { return true }
        return !name.contains("Linear")
    }

    static let looks: [FilterDefinition] =
        [
            FilterDefinition(
                "CIColorCube",
                defaults: [
                    "inputCubeDimension": 2.0, "inputCubeData": ColourCube.identityData(dimension: 2),
                    "inputExtrapolate": false,
                ]
            ) { p in cube(p, space: .working) },
            FilterDefinition(
                "CIColorCubeWithColorSpace",
                defaults: [
                    "inputCubeDimension": 2.0, "inputCubeData": ColourCube.identityData(dimension: 2),
                    "inputExtrapolate": false,
                ]
            ) { p in cube(p, space: hasSRGBCurve(p.values["inputColorSpace"]) ? .sRGB : .working) },
        ]
        + FilmLook.presets.map { name, look in
            point(name) { _ in .contextual { context in .map { look.apply($0, linear: context.managesColor) } } }
        }
}
