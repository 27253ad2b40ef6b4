import Foundation
import Imaging
import Spectra

/// A raw developer for a Digital Negative (`DNGFile`): the colour filter array demosaiced, the camera's colour
/// mapped by the file's own calibration, exposed and toned, as a RAW filter gives it to an app.
///
/// Colour follows the DNG specification's model for colour matrices without forward matrices (DNG 1.4, "Mapping
/// Camera Color Space to CIE XYZ Space"): a colour matrix takes XYZ to the camera's RGB, so its inverse takes a
/// camera value back to XYZ under the light; with two calibrations the matrix is blended for the white's colour
/// temperature; the white, the XYZ of the camera neutral, is carried to D65 by the Bradford transform; linear sRGB
/// follows. The neutral is the file's AsShotNeutral unless a white is chosen
/// (`Settings.white`). Scaled so that a grey whose brightest channel reaches the white level is 1 in every channel,
/// then brightened by BaselineExposure and the chosen exposure, in stops.
///
/// The demosaic is Malvar, He and Cutler's gradient-corrected bilinear interpolation (ICASSP 2004): each missing
/// colour is the bilinear mean of its neighbours plus a share of the measured channel's Laplacian there, which keeps
/// edges sharp without the colour fringes plain bilinear interpolation leaves. Outside the picture the CFA is
/// mirrored about the edge pixels, which keeps each site's colour.
///
/// Where a colour falls outside linear sRGB (a channel below 0), it is brought inside by lowering its saturation at
/// the same luminance (`mappedIntoGamut`), unless the settings ask for the picture unmapped.
///
/// The tone step (`Tone`) follows the linear picture: the shadow bias subtracted, then the ordinary photo's highlight
/// shoulder (`BasicDevelop`, identity up to 0.6 and reaching 1 at the clipped white, or at 1 where the exposure brings
/// the white lower) with the shadow boost, mixed with the linear values by the amount asked (`Settings.boost`): 0
/// leaves the values linear and unclipped (extended range), 1 is the curve alone.
public struct DNGDevelopment: Sendable {
    /// Choices of the development.
    public struct Settings: Sendable, Hashable {
        /// Stops added to the file's BaselineExposure.
        public var exposure: Double
        /// The white the picture is balanced for, as a chromaticity; nil for the file's AsShotNeutral.
        public var white: Chromaticity?
        /// How much of the tone curve applies, 0 (linear) … 1.
        public var boost: Double
        /// Whether OpcodeList2's gain maps, the lens's shading the phone corrects, are applied.
        public var correctsLensShading: Bool
        /// Subtracted from the linear values (1 the white), values below it going to 0. Default 0.
        public var shadowBias: Double
        /// How the tone curve treats the shadows, 0 … 2: 1 leaves them, above 1 lightens and below darkens them
        /// (`Tone`). Default 1.
        public var shadowBoost: Double
        /// Whether colours outside linear sRGB's gamut are brought inside it (`Self.mappedIntoGamut`). Default true.
        public var mapsGamut: Bool
        /// The value the tone curve's white lands at: 1 for a standard picture, more for extended dynamic range, where
        /// highlights above 1 are kept rather than rolled off below it (`Tone`). Default 1.
        public var headroom: Double

        public init(
            exposure: Double = 0, white: Chromaticity? = nil, boost: Double = 1, correctsLensShading: Bool = true,
            shadowBias: Double = 0, shadowBoost: Double = 1, mapsGamut: Bool = true, headroom: Double = 1
        ) {
            self.mapsGamut = mapsGamut
            self.headroom = headroom.isFinite ? min(max(headroom, 1), 16) : 1
            self.exposure = exposure
            self.white = white
            self.boost = min(max(boost, 0), 1)
            self.correctsLensShading = correctsLensShading
            self.shadowBias = shadowBias.isFinite ? shadowBias : 0
            self.shadowBoost = shadowBoost.isFinite ? min(max(shadowBoost, 0), 2) : 1
        }
    }

    /// The tone step after the linear picture, per channel: the shadow bias b subtracted (v − b, held at 0 where b is
    /// not 0), then the curve, mixed with its input by the boost. The curve is the shoulder after the shadow boost
    /// s, which scales a value v below the knee k by s^(1 − v/k): s times at black, once at the knee, so the curve
    /// stays continuous and, for s up to e, rising (our choice of form: Apple's header says only that the amount
    /// lightens the shadows above 1 and darkens them below, and does nothing without the boost).
    ///
    /// With headroom H above 1 (extended dynamic range), the curve is the same shoulder scaled by H, H·c(x/H):
    /// identity up to 0.6·H and reaching H, not 1, where the clipped white lands (or at H where that is lower).
    public struct Tone: Sendable {
        let curve: ToneCurve
        let boost: Float, bias: Float, shadows: Float
        var headroom: Float = 1
        static let knee: Float = 0.6

        @inline(__always)
        public func apply(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
            var v = rgb
            if bias != 0 { v = SIMD3<Float>.zero.replacing(with: v - bias, where: v .> bias) }
            guard boost > 0 else { return v }
            @inline(__always) func toned(_ x: Float) -> Float {
                var x = x
                if shadows != 1, x > 0, x < Self.knee { x *= pow(shadows, 1 - x / Self.knee) }
                return headroom * Float(curve.apply(Double(x / headroom)))
            }
            return (1 - boost) * v + boost * SIMD3(toned(v.x), toned(v.y), toned(v.z))
        }
    }

    /// The tone step of a development at `settings`.
    public func tone(_ settings: Settings) -> Tone {
        // The shoulder reaches 1 where the clipped white lands, or at 1 where the exposure brings that lower, so
        // that the curve keeps its knee below its white whatever the exposure.
        let h = settings.headroom
        let clip = max(pow(2, file.baselineExposure + settings.exposure), h)
        return Tone(
            curve: ToneCurve.shoulder(knee: Double(Tone.knee), whiteInput: clip / h), boost: Float(settings.boost),
            bias: Float(settings.shadowBias), shadows: Float(settings.shadowBoost), headroom: Float(h))
    }

    /// The file developed.
    public let file: DNGFile

    public init(file: DNGFile) { self.file = file }

    /// The colour matrix (XYZ → camera RGB) for a white of temperature `cct`: ColorMatrix1 alone, or, where the file
    /// has a second calibration and both lights have a temperature, the two blended linearly in 1/T and held at the
    /// nearer one outside them (DNG 1.4, "Mapping Camera Color Space to CIE XYZ Space").
    func xyzToCamera(cct: Double) -> Matrix3 {
        let first = Self.matrix3(file.xyzToCamera)
        guard let second = file.secondCalibration, let t1 = Self.temperature(ofLightSource: file.calibrationIlluminant1),
            let t2 = Self.temperature(ofLightSource: second.illuminant), t1 != t2, cct > 0
        else { return first }
        let g = min(max((1 / cct - 1 / t2) / (1 / t1 - 1 / t2), 0), 1)
        let other = Self.matrix3(second.xyzToCamera)
        return Matrix3(rows: (0..<3).map { r in (0..<3).map { c in g * first[r, c] + (1 - g) * other[r, c] } })
    }

    /// The XYZ of the white a camera neutral stands for (its scale the neutral's) and the colour matrix at that
    /// white's temperature, found as DNG describes: a matrix guessed, the white computed through it, the matrix
    /// taken again at the white's temperature, until the temperature settles. Nil where a matrix cannot be inverted
    /// or the neutral lies outside the colours it maps.
    func calibration(ofNeutral neutral: SIMD3<Double>) -> (white: SIMD3<Double>, xyzToCamera: Matrix3)? {
        // The first guess: midway between the calibrations in 1/T (any temperature where there is one matrix).
        let known = ([file.calibrationIlluminant1] + (file.secondCalibration.map { [$0.illuminant] } ?? []))
            .compactMap(Self.temperature(ofLightSource:))
        var cct = known.isEmpty ? 6504 : Double(known.count) / known.map { 1 / $0 }.reduce(0, +)
        for _ in 0..<30 {
            let m = xyzToCamera(cct: cct)
            guard let inverse = m.inverse else { return nil }
            let xyz = inverse * neutral
            let sum = xyz.x + xyz.y + xyz.z
            guard xyz.y > 0, sum > 0 else { return nil }
            let next = CCT.cctAndDuv(of: Chromaticity(x: xyz.x / sum, y: xyz.y / sum)).cct
            if abs(1e6 / next - 1e6 / cct) < 0.01 { return (xyz, m) }
            cct = min(max(next, 1000), 100_000)
        }
        let m = xyzToCamera(cct: cct)
        return m.inverse.map { (($0 * neutral), m) }
    }

    /// The chromaticity of the white a camera neutral stands for (the file's AsShotNeutral by default); nil where
    /// the matrix cannot be inverted or the neutral lies outside the colours it maps.
    public func white(ofNeutral neutral: SIMD3<Double>? = nil) -> Chromaticity? {
        guard let xyz = calibration(ofNeutral: neutral ?? file.asShotNeutral)?.white else { return nil }
        let sum = xyz.x + xyz.y + xyz.z
        return Chromaticity(x: xyz.x / sum, y: xyz.y / sum)
    }

    /// The camera neutral of a white chromaticity, its largest channel 1, through the matrix at its temperature.
    public func neutral(ofWhite white: Chromaticity) -> SIMD3<Double> {
        let xyz = white.xyz(luminance: 1)
        let n = xyzToCamera(cct: CCT.cctAndDuv(of: white).cct) * SIMD3(xyz.X, xyz.Y, xyz.Z)
        return n / max(n.max(), 1e-12)
    }

    /// Normalised camera RGB (0 black, 1 the white level) → linear sRGB for `settings`, exposure included.
    public func matrix(_ settings: Settings) -> Matrix3? {
        let n = settings.white.map { neutral(ofWhite: $0) } ?? file.asShotNeutral
        guard let (whiteXYZ, m) = calibration(ofNeutral: n), let inverse = m.inverse else { return nil }
        guard whiteXYZ.y > 0, n.max() > 0 else { return nil }
        let d65 = Colorimetry.whitePoint(of: Illuminants.d65)
        let adapt = ChromaticAdaptation.matrix(
            from: XYZ(whiteXYZ.x / whiteXYZ.y, 1, whiteXYZ.z / whiteXYZ.y), to: XYZ(d65.X / d65.Y, 1, d65.Z / d65.Y))
        let gain = n.max() / whiteXYZ.y * pow(2, file.baselineExposure + settings.exposure)
        let out = RGBColorSpace.linearSRGB.fromXYZ * adapt * inverse
        return Matrix3(rows: out.rows.map { $0.map { $0 * gain } })
    }

    /// The colour temperature of the lights Exif's LightSource codes name, for blending calibrations: the CIE
    /// temperatures of the standard illuminants (A 2856 K, B 4874 K, C 6774 K, D50, D55, D65, D75), ISO studio
    /// tungsten 3200 K, the middle of each fluorescent class's range in the Exif table (daylight 5700–7100 K, day
    /// white 4600–5400 K, cool white 3900–4500 K, white 3200–3700 K, warm white 2600–3250 K), and nominal values
    /// for the others, our choice: daylight, flash and fine weather 5500 K, cloudy 6500 K, shade 7500 K,
    /// tungsten 2856 K, fluorescent as cool white. Nil for unknown (0), other (255) and codes Exif does not define.
    static func temperature(ofLightSource code: Int) -> Double? {
        switch code {
        case 1, 4, 9: 5500  // daylight, flash, fine weather
        case 2, 14: 4200  // fluorescent, cool white fluorescent
        case 3, 17: 2856  // tungsten, standard light A
        case 10: 6500  // cloudy
        case 11: 7500  // shade
        case 12: 6400  // daylight fluorescent
        case 13: 5000  // day white fluorescent
        case 15: 3450  // white fluorescent
        case 16: 2925  // warm white fluorescent
        case 18: 4874  // standard light B
        case 19: 6774  // standard light C
        case 20: 5503  // D55
        case 21: 6504  // D65
        case 22: 7504  // D75
        case 23: 5003  // D50
        case 24: 3200  // ISO studio tungsten
        default: nil
        }
    }

    /// Linear sRGB's luminance weights (the Y row of its matrix to XYZ, IEC 61966-2-1).
    static let luminance = SIMD3<Float>(0.2126, 0.7152, 0.0722)

    /// A linear sRGB colour brought inside sRGB's gamut where a channel is negative (a saturated colour the camera
    /// saw that sRGB's primaries cannot make): moved straight towards the grey of the same luminance, just far
    /// enough that its lowest channel is 0, so that its luminance and its hue's direction from grey stay and only
    /// its saturation falls (our choice of gamut mapping: Apple's header says only that gamut mapping is on by
    /// default). A colour of no luminance or less becomes black. Channels above 1 are the tone curve's to roll
    /// off, not the gamut's.
    @inline(__always)
    public static func mappedIntoGamut(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        let lowest = rgb.min()
        guard lowest < 0 else { return rgb }
        let y = (luminance * rgb).sum()
        guard y > 0 else { return .zero }
        let t = y / (y - lowest)
        return y + t * (rgb - y)
    }

    static func matrix3(_ m: [Double]) -> Matrix3 {
        Matrix3(rows: [Array(m[0..<3]), Array(m[3..<6]), Array(m[6..<9])])
    }

    /// The developed picture, `scale` of its size (box-averaged; 1 for full size): linear sRGB with an opaque alpha,
    /// rows top first, and its size. Nil where the file's colour matrix cannot be inverted.
    public func develop(_ settings: Settings = Settings(), scale: Double = 1)
        -> (pixels: [SIMD4<Float>], width: Int, height: Int)?
    {
        guard let m = matrix(settings) else { return nil }
        let (w, h) = (file.width, file.height)
        let lanes = (0..<3).map { r in SIMD3<Float>((0..<3).map { Float(m[r, $0]) }) }
        let tone = tone(settings)
        let pattern = file.cfaPattern.map(Int.init)
        let linear = linearValues(correctingLensShading: settings.correctsLensShading)
        // Each pixel demosaiced, mapped and toned in one pass, with no camera-RGB picture kept in between.
        var out: [SIMD4<Float>] = BandParallel.uninitialized(w * h)
        out.withUnsafeMutableBufferPointer { o in
            let o = SharedPointer(o)
            linear.withUnsafeBufferPointer { s in
                let s = SharedReadPointer(s)
                BandParallel.forEachBand(height: h) { rows in
                    for y in rows {
                        for x in 0..<w {
                            let v = Self.site(x, y, s.base, w, h, pattern: pattern)
                            var rgb = SIMD3<Float>((lanes[0] * v).sum(), (lanes[1] * v).sum(), (lanes[2] * v).sum())
                            if settings.mapsGamut { rgb = Self.mappedIntoGamut(rgb) }
                            o.base[y * w + x] = SIMD4(tone.apply(rgb), 1)
                        }
                    }
                }
            }
        }
        guard scale < 1, scale > 0 else { return (out, w, h) }
        return Self.reduced(out, width: w, height: h, scale: scale)
    }

    /// Whether the file carries a gain map the development applies (OpcodeList2's, on the colour filter array's one
    /// plane): the lens correction a RAW filter can switch off.
    public var hasLensShadingCorrection: Bool { !Self.applicable(file.gainMaps).isEmpty }

    /// Maps of the one plane a colour filter array has; an area inside out (from code, not a file) covers nothing.
    static func applicable(_ maps: [DNGFile.GainMap]) -> [DNGFile.GainMap] {
        maps.filter {
            $0.plane == 0 && $0.top <= $0.bottom && $0.left <= $0.right && $0.rowPitch > 0 && $0.columnPitch > 0
        }
    }

    /// The camera neutral measured on the picture: the mean of each colour's samples in the square of `radius`
    /// pixels about (column, row), largest channel 1, as a photographer's grey picker reads a grey card. Nil where the
    /// square leaves the picture, holds a sample at the white level (a clipped channel has lost its ratio), or a
    /// colour's mean is within twice a level of black (no ratio to read).
    public func neutral(atColumn x: Int, row y: Int, radius: Int = 8) -> SIMD3<Double>? {
        let (w, h) = (file.width, file.height)
        guard radius >= 1, x - radius >= 0, y - radius >= 0, x + radius < w, y + radius < h,
            file.cfaPattern.count == 4
        else { return nil }
        let black = Double(file.blackLevel), span = Double(file.whiteLevel - file.blackLevel)
        var sums = SIMD3<Double>(0, 0, 0), counts = SIMD3<Double>(0, 0, 0)
        for row in (y - radius)...(y + radius) {
            for column in (x - radius)...(x + radius) {
                let sample = file.samples[row * w + column]
                guard sample < file.whiteLevel else { return nil }
                let c = Int(file.cfaPattern[(row % 2) * 2 + column % 2])
                guard c < 3 else { return nil }
                sums[c] += (Double(sample) - black) / span
                counts[c] += 1
            }
        }
        let means = sums / counts
        guard means.min() > 2 / span else { return nil }
        return means / means.max()
    }

    /// The samples as linear values, 0 at the black level and 1 at the white level, with OpcodeList2's gain maps
    /// applied where asked (a product above the white level stays at it), as DNG orders the steps before
    /// demosaicing.
    func linearValues(correctingLensShading: Bool = true) -> [Float] {
        let (w, h) = (file.width, file.height)
        let black = Float(file.blackLevel), span = Float(file.whiteLevel - file.blackLevel)
        let maps = correctingLensShading ? Self.applicable(file.gainMaps) : []
        var out: [Float] = BandParallel.uninitialized(w * h)
        out.withUnsafeMutableBufferPointer { o in
            let o = SharedPointer(o)
            file.samples.withUnsafeBufferPointer { s in
                let s = SharedReadPointer(s)
                BandParallel.forEachBand(height: h) { rows in
                    for y in rows {
                        for x in 0..<w { o.base[y * w + x] = (Float(s.base[y * w + x]) - black) / span }
                        for map in maps where y >= map.top && y < map.bottom && (y - map.top) % map.rowPitch == 0 {
                            for x in stride(from: map.left, to: min(map.right, w), by: map.columnPitch) where x >= 0 {
                                let p = y * w + x
                                o.base[p] = min(o.base[p] * map.gain(column: x, row: y, width: w, height: h), 1)
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// The development at `settings` as 8-bit sRGB (IEC 61966-2-1's curve, values clipped to 0…1), as a picture
    /// viewer shows a RAW file; nil where the file's colour matrix cannot be inverted.
    public func developedSRGB(_ settings: Settings = Settings()) -> PixelPlane<UInt8>? {
        guard let picture = develop(settings) else { return nil }
        // The curve tabulated finely enough that its steepest part, 12.92 near black, moves under a quarter code a
        // step: 2¹⁴ entries over 0…1.
        let steps = 1 << 14
        let table = (0...steps).map { i in
            UInt8((TransferFunction.sRGB.encode(Double(i) / Double(steps)) * 255).rounded())
        }
        let scale = Float(steps)
        return PixelPlane<UInt8>(width: picture.width, height: picture.height, channels: 3) { x, y, c in
            let v = picture.pixels[y * picture.width + x][c]
            return table[Int((min(max(v, 0), 1) * scale).rounded())]
        }
    }

    /// A picture box-averaged to `scale` of its size (at least one pixel a side).
    static func reduced(_ pixels: [SIMD4<Float>], width: Int, height: Int, scale: Double)
        -> (pixels: [SIMD4<Float>], width: Int, height: Int)
    {
        let (sw, sh) = (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
        var out = [SIMD4<Float>](repeating: .zero, count: sw * sh)
        for y in 0..<sh {
            let (y0, y1) = (y * height / sh, max(y * height / sh + 1, (y + 1) * height / sh))
            for x in 0..<sw {
                let (x0, x1) = (x * width / sw, max(x * width / sw + 1, (x + 1) * width / sw))
                var sum = SIMD4<Float>.zero
                for yy in y0..<y1 { for xx in x0..<x1 { sum += pixels[yy * width + xx] } }
                out[y * sw + x] = sum / Float((y1 - y0) * (x1 - x0))
            }
        }
        return (out, sw, sh)
    }
}

extension DNGDevelopment {
    /// One pixel's three channels from the 5 × 5 sites around it.
    @inline(__always)
    static func site(_ x: Int, _ y: Int, _ s: UnsafePointer<Float>, _ w: Int, _ h: Int, pattern: [Int])
        -> SIMD3<Float>
    {
        // A site mirrored about the edge pixels keeps its CFA colour (an even step).
        @inline(__always) func v(_ dx: Int, _ dy: Int) -> Float {
            var (i, j) = (x + dx, y + dy)
            if i < 0 { i = -i } else if i >= w { i = 2 * (w - 1) - i }
            if j < 0 { j = -j } else if j >= h { j = 2 * (h - 1) - j }
            i = min(max(i, 0), w - 1)
            j = min(max(j, 0), h - 1)
            return s[j * w + i]
        }
        let own = pattern[(y & 1) * 2 + (x & 1)]
        let across = pattern[(y & 1) * 2 + (1 - (x & 1))], down = pattern[(1 - (y & 1)) * 2 + (x & 1)]
        let centre = v(0, 0)
        var rgb = SIMD3<Float>(repeating: 0)
        rgb[own] = centre
        // Each kernel's weights (eighths) from the paper's Figure 2, written as sums of symmetric rings.
        let axial1 = v(-1, 0) + v(1, 0) + v(0, -1) + v(0, 1)
        let axial2 = v(-2, 0) + v(2, 0) + v(0, -2) + v(0, 2)
        let diagonal = v(-1, -1) + v(1, -1) + v(-1, 1) + v(1, 1)
        if own == 1 {
            // Green site: the row's other colour from its horizontal neighbours, the column's from its vertical ones.
            let row1 = v(-1, 0) + v(1, 0), column1 = v(0, -1) + v(0, 1)
            let row2 = v(-2, 0) + v(2, 0), column2 = v(0, -2) + v(0, 2)
            rgb[across] = (5 * centre + 4 * row1 - diagonal - row2 + 0.5 * column2) / 8
            rgb[down] = (5 * centre + 4 * column1 - diagonal - column2 + 0.5 * row2) / 8
        } else {
            // Red or blue site: green from the four axial neighbours, the opposite colour from the diagonal ones.
            rgb[1] = (4 * centre + 2 * axial1 - axial2) / 8
            rgb[2 - own] = (6 * centre + 2 * diagonal - 1.5 * axial2) / 8
        }
        return rgb
    }
}
