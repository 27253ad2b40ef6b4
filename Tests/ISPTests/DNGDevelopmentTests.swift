import Foundation
import ISP
import Imaging
import Spectra
import Testing

/// The raw developer against closed forms: the demosaic keeps flat fields and linear ramps exactly (its kernels'
/// weights sum to one and its corrections vanish on them, Malvar, He and Cutler 2004), and the colour follows the
/// DNG model from the file's own calibration.
struct DNGDevelopmentTests {
    static let patterns: [[UInt8]] = [[0, 1, 1, 2], [2, 1, 1, 0], [1, 0, 2, 1], [1, 2, 0, 1]]

    /// A DNG whose site of colour c at (x, y) reads `value(c, x, y)` DN above a black level of 64, white 4095, with
    /// `xyzToCamera` as its matrix.
    static func file(
        pattern: [UInt8], width: Int = 16, height: Int = 12, xyzToCamera: [Double], neutral: SIMD3<Double>,
        baseline: Double = 0, value: (Int, Int, Int) -> Double
    ) -> DNGFile {
        let samples = (0..<(width * height)).map { p -> UInt16 in
            let (x, y) = (p % width, p / width)
            let c = Int(pattern[(y % 2) * 2 + x % 2])
            return UInt16(min(max((64 + value(c, x, y)).rounded(), 0), 65535))
        }
        let exif = ExifMetadata(
            make: "Test", model: "Test", software: "", orientation: 1, exposureTimeSeconds: 0.01, fNumber: 2, iso: 100,
            focalLengthMM: 5, focalLength35mmEquivalentMM: nil, flashFired: false, pixelWidth: width,
            pixelHeight: height, isSRGB: false)
        return DNGFile(
            exif: exif, width: width, height: height, samples: samples, cfaPattern: pattern, blackLevel: 64,
            whiteLevel: 4095, xyzToCamera: xyzToCamera, asShotNeutral: neutral, uniqueCameraModel: "Test",
            baselineExposure: baseline)
    }

    /// A camera whose RGB is linear sRGB: the developer's matrix is then the identity but for the difference
    /// between sRGB's rounded white and the tabulated D65 (parts in 10⁴), so expectations pass through it.
    static let sRGBCamera = RGBColorSpace.linearSRGB.fromXYZ.rows.flatMap { $0 }
    static let linear = DNGDevelopment.Settings(boost: 0)

    @Test(arguments: patterns)
    func aFlatFieldStaysFlat(pattern: [UInt8]) throws {
        let levels = SIMD3<Double>(1200, 2400, 600)
        let file = Self.file(pattern: pattern, xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) { c, _, _ in
            levels[c]
        }
        let development = DNGDevelopment(file: file)
        let out = try #require(development.develop(Self.linear))
        let expected = try #require(development.matrix(Self.linear)) * (levels / 4031)
        for p in out.pixels {
            for c in 0..<3 { #expect(abs(Double(p[c]) - expected[c]) < 1e-5) }
        }
    }

    @Test(arguments: patterns)
    func linearRampsAreInterpolatedExactly(pattern: [UInt8]) throws {
        // Each channel a different plane in x and y: bilinear means are exact on it and every Laplacian is zero.
        func plane(_ c: Int, _ x: Int, _ y: Int) -> Double { 300 + Double(40 + 10 * c) * Double(x) + Double(25 - 5 * c) * Double(y) }
        let (w, h) = (16, 12)
        let file = Self.file(pattern: pattern, xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1), value: plane)
        let development = DNGDevelopment(file: file)
        let out = try #require(development.develop(Self.linear))
        let matrix = try #require(development.matrix(Self.linear))
        // Away from the edges, where the mirroring bends the ramps.
        for y in 2..<(h - 2) {
            for x in 2..<(w - 2) {
                let expected = matrix * SIMD3((0..<3).map { plane($0, x, y) / 4031 })
                for c in 0..<3 {
                    #expect(abs(Double(out.pixels[y * w + x][c]) - expected[c]) < 1e-5, "(\(x), \(y)) channel \(c)")
                }
            }
        }
    }

    /// Two calibrations blend linearly in 1/T (DNG 1.4): a camera whose matrix is that blend at the white's own
    /// temperature gives back that white, found by the iteration from the file's neutral alone. Outside the two
    /// calibrations' temperatures the nearer matrix holds.
    @Test(arguments: [2400.0, 2856, 4000, 6504, 9000])
    func twoCalibrationsBlendByTheWhitesTemperature(kelvin: Double) throws {
        let underD65 = [0.7, 0.25, -0.1, -0.3, 1.2, 0.15, 0.05, -0.2, 0.9]
        let underA = [0.9, 0.1, -0.15, -0.35, 1.3, 0.1, 0.1, -0.3, 0.5]
        // The weight of ColorMatrix2 (A, 2856 K) against ColorMatrix1 (D65, 6504 K).
        let g = min(max((1 / kelvin - 1 / 6504) / (1 / 2856 - 1 / 6504), 0), 1)
        let blend = Matrix3(rows: (0..<3).map { r in (0..<3).map { c in g * underA[3 * r + c] + (1 - g) * underD65[3 * r + c] } })
        let white = CCT.chromaticity(cct: kelvin, duv: 0)
        let xyz = white.xyz(luminance: 1)
        let camera = blend * SIMD3(xyz.X, xyz.Y, xyz.Z)
        let neutral = camera / camera.max()
        let exif = ExifMetadata(
            make: "Test", model: "Test", software: "", orientation: 1, exposureTimeSeconds: 0.01, fNumber: 2, iso: 100,
            focalLengthMM: 5, focalLength35mmEquivalentMM: nil, flashFired: false, pixelWidth: 2, pixelHeight: 2,
            isSRGB: false)
        let file = DNGFile(
            exif: exif, width: 2, height: 2, samples: [100, 100, 100, 100], blackLevel: 0, whiteLevel: 4095,
            xyzToCamera: underD65, asShotNeutral: neutral, uniqueCameraModel: "Test",
            secondCalibration: (17, underA))
        let development = DNGDevelopment(file: file)
        let found = try #require(development.white())
        #expect(abs(found.x - white.x) < 2e-4 && abs(found.y - white.y) < 2e-4, "\(found) for \(white)")
        // And back: the white's neutral through the blended matrix.
        let back = development.neutral(ofWhite: white)
        for c in 0..<3 { #expect(abs(back[c] - neutral[c]) < 1e-6) }
    }

    /// OpcodeList2's gain map multiplies the linear values before the demosaic: a flat field under a map whose
    /// gain is 1.5 on the left half and 1 on the right (one point each, held beyond) develops to 1.5 × and 1 × the
    /// flat value away from the seam, and a product above the white level stays at it.
    @Test func aGainMapScalesTheLinearValues() throws {
        let levels = SIMD3<Double>(1000, 2000, 800)
        var file = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) { c, _, _ in
            levels[c]
        }
        let development = DNGDevelopment(file: file)
        let matrix = try #require(development.matrix(Self.linear))
        file.gainMaps = [
            DNGFile.GainMap(
                top: 0, left: 0, bottom: 12, right: 16, pointsV: 1, pointsH: 2, spacingV: 1, spacingH: 0.5,
                originH: 0.25, gains: [1.5, 1])
        ]
        let out = try #require(DNGDevelopment(file: file).develop(Self.linear))
        // Pixel centres left of a quarter of the width (x ≤ 3) take the first gain, right of three quarters
        // (x ≥ 12) the second; the demosaic reads two pixels around, so x ≤ 1 and x ≥ 14 see one gain only.
        for y in 0..<12 {
            for (x, gain) in [(0, 1.5), (1, 1.5), (14, 1.0), (15, 1.0)] {
                let expected = matrix * (levels / 4031 * gain)
                for c in 0..<3 { #expect(abs(Double(out.pixels[y * 16 + x][c]) - expected[c]) < 1e-5) }
            }
        }
        file.gainMaps[0].gains = [4, 4]
        let clipped = try #require(DNGDevelopment(file: file).develop(Self.linear))
        // 2000 DN × 4 is past the white level: green stays at the white, 1 before the matrix.
        let white = matrix * SIMD3(min(1000 * 4 / 4031.0, 1), 1, min(800 * 4 / 4031.0, 1))
        for c in 0..<3 { #expect(abs(Double(clipped.pixels[6 * 16 + 8][c]) - white[c]) < 1e-5) }
    }

    /// Switched off, the gain map is not applied: the development is the file's without its map.
    @Test func theLensCorrectionCanBeSwitchedOff() throws {
        let levels = SIMD3<Double>(1000, 2000, 800)
        var file = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) { c, _, _ in
            levels[c]
        }
        let plain = try #require(DNGDevelopment(file: file).develop(Self.linear))
        #expect(!DNGDevelopment(file: file).hasLensShadingCorrection)
        file.gainMaps = [
            DNGFile.GainMap(
                top: 0, left: 0, bottom: 12, right: 16, pointsV: 1, pointsH: 1, spacingV: 1, spacingH: 1,
                gains: [1.5])
        ]
        let development = DNGDevelopment(file: file)
        #expect(development.hasLensShadingCorrection)
        var off = Self.linear
        off.correctsLensShading = false
        let uncorrected = try #require(development.develop(off))
        let corrected = try #require(development.develop(Self.linear))
        for p in plain.pixels.indices {
            #expect(uncorrected.pixels[p] == plain.pixels[p])
            for c in 0..<3 { #expect(abs(corrected.pixels[p][c] - 1.5 * plain.pixels[p][c]) < 1e-5) }
        }
    }

    /// The tone step's shadow terms against their closed forms on flat fields: the bias is subtracted from the
    /// linear values (black below it); the shadow boost s scales a value v below the knee 0.6 by s^(1 − v/0.6), and
    /// leaves values above the knee to the shoulder alone.
    @Test func shadowBiasAndBoostFollowTheirForms() throws {
        for level in [200.0, 1200, 3000] {
            let file = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) { _, _, _ in
                level
            }
            let development = DNGDevelopment(file: file)
            let plain = try #require(development.develop(Self.linear)).pixels[6 * 16 + 8]
            var biased = Self.linear
            biased.shadowBias = 0.1
            let b = try #require(development.develop(biased)).pixels[6 * 16 + 8]
            for c in 0..<3 { #expect(abs(b[c] - max(plain[c] - 0.1, 0)) < 1e-6) }
            for s in [0.5, 2.0] {
                var boosted = DNGDevelopment.Settings(boost: 1, shadowBoost: s)
                let toned = try #require(development.develop(boosted)).pixels[6 * 16 + 8]
                boosted.shadowBoost = 1
                let unboosted = try #require(development.develop(boosted)).pixels[6 * 16 + 8]
                for c in 0..<3 {
                    let v = Double(plain[c])
                    if v < 0.6 {
                        // The shoulder is the identity below the knee; a lifted value may pass the knee.
                        let lifted = v * pow(s, 1 - v / 0.6)
                        if lifted < 0.6 { #expect(abs(Double(toned[c]) - lifted) < 1e-5, "v \(v), s \(s)") }
                    } else {
                        #expect(toned[c] == unboosted[c])
                    }
                }
            }
        }
    }

    /// The grey picker's neutral is each colour's mean level over the square, largest 1; a clipped sample, a black
    /// spot or a square leaving the picture reads none.
    @Test(arguments: patterns)
    func aPickedSpotGivesItsNeutral(pattern: [UInt8]) throws {
        // A level that varies across the square (a gradient), each colour in its own proportion.
        let ratios = SIMD3<Double>(0.5, 1, 0.25)
        let file = Self.file(pattern: pattern, width: 32, height: 24, xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) {
            c, x, _ in ratios[c] * (1600 + 20 * Double(x))
        }
        let development = DNGDevelopment(file: file)
        let neutral = try #require(development.neutral(atColumn: 16, row: 12, radius: 4))
        // Rounding each sample to a whole DN moves a ratio by at most half a DN in 400.
        for c in 0..<3 { #expect(abs(neutral[c] - ratios[c]) < 2e-3, "\(neutral)") }
        #expect(development.neutral(atColumn: 2, row: 12, radius: 4) == nil)
        #expect(development.neutral(atColumn: 16, row: 22, radius: 4) == nil)
        let clipped = Self.file(pattern: pattern, width: 32, height: 24, xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) {
            c, x, y in x == 17 && y == 13 ? 5000 : ratios[c] * 1600
        }
        #expect(DNGDevelopment(file: clipped).neutral(atColumn: 16, row: 12, radius: 4) == nil)
        let black = Self.file(pattern: pattern, width: 32, height: 24, xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) {
            c, _, _ in c == 2 ? 0 : 1600
        }
        #expect(DNGDevelopment(file: black).neutral(atColumn: 16, row: 12, radius: 4) == nil)
    }

    /// Whatever a damaged file's bytes, a file that still reads develops without a crash: every byte before the
    /// samples of a file with two calibrations and a gain map, inverted in turn.
    @Test func aDamagedFileThatReadsStillDevelops() throws {
        var file = Self.file(pattern: [0, 1, 1, 2], width: 8, height: 6, xyzToCamera: Self.sRGBCamera, neutral: SIMD3(0.5, 1, 0.7)) {
            c, x, y in Double(100 * c + 10 * x + y)
        }
        file.secondCalibration = (17, [0.9, 0.1, -0.15, -0.35, 1.3, 0.1, 0.1, -0.3, 0.5])
        file.gainMaps = [
            DNGFile.GainMap(
                top: 0, left: 0, bottom: 6, right: 8, pointsV: 2, pointsH: 2, spacingV: 1, spacingH: 1,
                gains: [1.2, 1, 1, 1.2])
        ]
        let bytes = file.bytes
        let original = try #require(try? DNGFile(bytes: bytes))
        /// What the development reads of a file.
        func developed(_ f: DNGFile) -> [Double] {
            [Double(f.width), Double(f.height), Double(f.blackLevel), Double(f.whiteLevel), f.baselineExposure,
             Double(f.calibrationIlluminant1), Double(f.secondCalibration?.illuminant ?? -1)]
                + f.cfaPattern.map(Double.init) + f.xyzToCamera + (f.secondCalibration?.xyzToCamera ?? [])
                + [f.asShotNeutral.x, f.asShotNeutral.y, f.asShotNeutral.z]
        }
        var developments = 0
        for at in 0..<(bytes.count - 2 * 48) {
            do {
                var damaged = bytes
                damaged[at] ^= 0xFF
                // A file that reads and differs from the original in what the development reads is developed;
                // one equal to it there develops as the original does.
                guard let read = try? DNGFile(bytes: damaged),
                    developed(read) != developed(original) || read.gainMaps != original.gainMaps
                else { continue }
                _ = DNGDevelopment(file: read).develop(DNGDevelopment.Settings(exposure: -3))
                developments += 1
            }
        }
        // Flips in the matrices, the neutral and the gain map leave files that read and develop differently.
        #expect(developments > 0)
    }

    /// The 8-bit picture a viewer shows is the linear development through sRGB's curve (IEC 61966-2-1), clipped:
    /// each code within one of 255 × the curve at the linear value, from near black to past the white.
    @Test func theSRGBPictureEncodesTheLinearValues() throws {
        for levels in [SIMD3<Double>(4, 40, 400), SIMD3<Double>(1500, 3000, 4031)] {
            let file = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) { c, _, _ in
                levels[c]
            }
            let development = DNGDevelopment(file: file)
            let linear = try #require(development.matrix(Self.linear)) * (levels / 4031)
            let picture = try #require(development.developedSRGB(Self.linear))
            #expect(picture.width == 16 && picture.height == 12 && picture.channels == 3)
            for c in 0..<3 {
                let expected = 255 * TransferFunction.sRGB.encode(min(max(linear[c], 0), 1))
                #expect(abs(Double(picture[8, 6, c]) - expected) <= 1, "channel \(c): \(picture[8, 6, c]) for \(expected)")
            }
        }
    }

    @Test func theFilesCalibrationMapsItsWhiteToNeutral() throws {
        // The camera sees XYZ through an arbitrary invertible matrix; the file's white is illuminant A's.
        let matrix = [0.7, 0.25, -0.1, -0.3, 1.2, 0.15, 0.05, -0.2, 0.9]
        let m = Matrix3(rows: [Array(matrix[0..<3]), Array(matrix[3..<6]), Array(matrix[6..<9])])
        let a = Colorimetry.whitePoint(of: Illuminants.a)
        let whiteCamera = m * SIMD3(a.X / a.Y, 1, a.Z / a.Y)
        let neutral = whiteCamera / whiteCamera.max()
        // A grey of 40 % under A, in the camera's counts.
        let grey = 0.4 * neutral * 4031
        let file = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: matrix, neutral: neutral) { c, _, _ in grey[c] }
        let development = DNGDevelopment(file: file)
        let out = try #require(development.develop(Self.linear))
        let p = out.pixels[6 * 16 + 8]
        // Neutral, and 0.4 of the white level: a grey whose brightest channel reaches the white level is 1.
        #expect(abs(p.x - 0.4) < 1e-3 && abs(p.y - 0.4) < 1e-3 && abs(p.z - 0.4) < 1e-3)
        // The white the file stands for is A's chromaticity.
        let white = try #require(development.white())
        let expected = Chromaticity(x: a.X / (a.X + a.Y + a.Z), y: a.Y / (a.X + a.Y + a.Z))
        #expect(abs(white.x - expected.x) < 1e-4 && abs(white.y - expected.y) < 1e-4)
        // Balanced for D65 instead, the same grey is warm: red above blue.
        let d65 = Colorimetry.whitePoint(of: Illuminants.d65)
        let warm = try #require(
            development.develop(
                DNGDevelopment.Settings(
                    white: Chromaticity(x: d65.X / (d65.X + d65.Y + d65.Z), y: d65.Y / (d65.X + d65.Y + d65.Z)),
                    boost: 0)))
        let q = warm.pixels[6 * 16 + 8]
        #expect(q.x > 1.3 * q.z)
    }

    @Test func exposureAndBaselineAreStops() throws {
        let file = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1), baseline: 0.5) {
            _, _, _ in 500
        }
        let development = DNGDevelopment(file: file)
        let plain = try #require(development.develop(Self.linear)).pixels[40].x
        let brighter = try #require(development.develop(DNGDevelopment.Settings(exposure: 1, boost: 0))).pixels[40].x
        #expect(abs(Double(plain) - 500 / 4031 * pow(2, 0.5)) < 1e-5)
        #expect(abs(brighter / plain - 2) < 1e-5)
        // The tone curve keeps values below its knee and holds the clipped white at 1.
        let toned = try #require(development.develop(DNGDevelopment.Settings())).pixels[40].x
        #expect(abs(toned - plain) < 1e-6)
        let clipped = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) {
            _, _, _ in 4031
        }
        #expect(abs(try #require(DNGDevelopment(file: clipped).develop()).pixels[40].y - 1) < 1e-6)
    }

    @Test func aReducedDevelopmentAveragesBoxes() throws {
        let file = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1)) {
            _, x, _ in x < 8 ? 400 : 800
        }
        let out = try #require(DNGDevelopment(file: file).develop(Self.linear, scale: 0.25))
        #expect(out.width == 4 && out.height == 3)
        #expect(abs(out.pixels[0].y - Float(400.0 / 4031)) < 1e-5)
        #expect(abs(out.pixels[3].y - Float(800.0 / 4031)) < 1e-5)
    }

    /// Gamut mapping moves a colour with a negative channel straight towards the grey of its luminance (linear
    /// sRGB's Y, IEC 61966-2-1's weights) until the channel is 0; colours inside are left, and a colour of no
    /// luminance becomes black.
    @Test func gamutMappingKeepsLuminanceAndTheDirectionFromGrey() {
        let weights = SIMD3<Float>(0.2126, 0.7152, 0.0722)
        for rgb in [SIMD3<Float>(1.2, 0.3, -0.2), SIMD3(-0.1, 0.5, 0.4), SIMD3(0.3, -0.05, 0.9)] {
            let y = (weights * rgb).sum()
            let out = DNGDevelopment.mappedIntoGamut(rgb)
            #expect(abs(out.min()) < 1e-6, "\(rgb) → \(out)")
            #expect(abs((weights * out).sum() - y) < 1e-6)
            let t = (out.x - y) / (rgb.x - y)
            #expect(t > 0 && t < 1)
            for c in 0..<3 { #expect(abs(out[c] - (y + t * (rgb[c] - y))) < 1e-6) }
        }
        #expect(DNGDevelopment.mappedIntoGamut(SIMD3(0.2, 0.5, 0.9)) == SIMD3(0.2, 0.5, 0.9))
        #expect(DNGDevelopment.mappedIntoGamut(SIMD3(1.5, 2, 0)) == SIMD3(1.5, 2, 0))
        #expect(DNGDevelopment.mappedIntoGamut(SIMD3(-0.5, 0.1, 0.1)) == .zero)
    }

    /// A camera whose RGB is Display P3 sees a pure P3 green, which linear sRGB can show only with negative red and
    /// blue: developed with gamut mapping, no channel is negative and the luminance is the unmapped one's.
    @Test func aColourOutsideSRGBIsMappedAtItsLuminance() throws {
        let p3Camera = RGBColorSpace.displayP3.fromXYZ.rows.flatMap { $0 }
        let file = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: p3Camera, neutral: SIMD3(1, 1, 1)) { c, _, _ in
            c == 1 ? 2000 : 0
        }
        let development = DNGDevelopment(file: file)
        var unmapped = Self.linear
        unmapped.mapsGamut = false
        let raw = try #require(development.develop(unmapped)).pixels[6 * 16 + 8]
        let mapped = try #require(development.develop(Self.linear)).pixels[6 * 16 + 8]
        #expect(raw.x < -0.05 && raw.z < -0.01, "\(raw)")
        #expect(min(mapped.x, mapped.y, mapped.z) >= -1e-6, "\(mapped)")
        let weights = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)
        #expect(abs((weights * mapped).sum() - (weights * raw).sum()) < 1e-5)
    }

    /// Extended dynamic range: with headroom H the curve is H·c(x/H), c the standard shoulder with the clipped white
    /// at clip/H. A file with BaselineExposure 1 develops its clipped white at 2: the standard curve holds it at 1,
    /// headroom 2 shows it at 2 and keeps values up to 0.6·2 = 1.2, headroom 4 keeps everything up to 2.4 as it is.
    @Test func headroomKeepsTheHighlightsAboveOne() throws {
        for level in [1000.0, 2500, 4031] {
            let file = Self.file(pattern: [0, 1, 1, 2], xyzToCamera: Self.sRGBCamera, neutral: SIMD3(1, 1, 1), baseline: 1) {
                _, _, _ in level
            }
            let development = DNGDevelopment(file: file)
            func developed(_ settings: DNGDevelopment.Settings) throws -> Double {
                Double(try #require(development.develop(settings)).pixels[6 * 16 + 8].y)
            }
            let x = try developed(Self.linear)
            let standard = try developed(DNGDevelopment.Settings())
            let two = try developed(DNGDevelopment.Settings(headroom: 2))
            let four = try developed(DNGDevelopment.Settings(headroom: 4))
            #expect(abs(x - level / 4031 * 2) < 2e-3 * x)
            #expect(standard <= 1 + 1e-6)
            #expect(abs(four - x) < 1e-5)
            if x <= 0.6 { #expect(abs(standard - x) < 1e-5 && abs(two - x) < 1e-5) }
            if x > 1.2 && x < 1.9 {
                // Past 1.2 the shoulder of white input 2/2 = 1, scaled by 2: the Hermite cubic of slope 1 at the knee
                // and 0 at the white, 0.6 + 0.4·(u + u² − u³) with u = (x/2 − 0.6)/0.4.
                let u = (x / 2 - 0.6) / 0.4
                #expect(standard < 1 && abs(two - 2 * (0.6 + 0.4 * (u + u * u - u * u * u))) < 1e-5, "x \(x): \(two)")
            }
            if level == 4031 { #expect(abs(standard - 1) < 1e-5 && abs(two - 2) < 1e-5, "\(standard), \(two)") }
        }
    }
}
