import Imaging
import Sensor
import Spectra

/// The 3×3 matrix from white-balanced camera RGB to CIE XYZ adapted to D65, fitted once per
/// (camera, illuminant) by least squares over a training set of reflectances.
///
/// For each training reflectance ρᵢ the input is the camera response under the illuminant divided
/// by the camera neutral (so white is (1, 1, 1)); the target is its CIE 1931 XYZ under the same
/// illuminant (CIE 15:2018 §7.1, Y_white = 1), carried to D65 by the Bradford transform. Each
/// matrix row m minimises Σᵢ (m·cᵢ − tᵢ)² subject to m·(1, 1, 1) = w (the D65 white), so white and
/// greys stay exactly neutral; with the Lagrange multiplier the solution is
/// m = m_LS + A⁻¹1 · (w − 1·m_LS) / (1·A⁻¹1), with A = Σ cᵢcᵢᵀ and m_LS = A⁻¹ Σ cᵢtᵢ.
/// The default training set is the ColorChecker (24) plus the synthetic skin set, as a phone
/// tuning weighs skin (How the physics works, “From raw to photo”).
public struct ColorCorrectionMatrix: Sendable, Hashable {
    /// White-balanced camera RGB → XYZ (D65 white, Y = 1).
    public let matrix: Matrix3
    /// The white the output is adapted to: D65 at the sRGB/Display P3 white chromaticity, Y = 1.
    public static let d65White = Chromaticity(x: 0.3127, y: 0.3290).xyz(luminance: 1)

    /// The reflectances fitted by default.
    public static let defaultTrainingSet: [Spectrum] =
        ColorChecker.patches.map(\.reflectance) + SkinTones.patches.map(\.reflectance)

    /// Fits the matrix for a camera under an illuminant.
    public init(camera: CameraModel, illuminant: Spectrum, training: [Spectrum] = defaultTrainingSet) {
        let neutral = CameraResponse.neutral(illuminant: illuminant, camera: camera)
        let white = Colorimetry.whitePoint(of: illuminant)
        let adapt = ChromaticAdaptation.matrix(
            from: XYZ(white.vector / 100), to: ColorCorrectionMatrix.d65White, method: .bradford)
        let pairs = training.map { reflectance in
            (
                CameraResponse.rgb(reflectance: reflectance, illuminant: illuminant, camera: camera) / neutral,
                adapt * (Colorimetry.xyz(reflectance: reflectance, illuminant: illuminant).vector / 100)
            )
        }
        matrix = ColorCorrectionMatrix.fit(pairs, white: ColorCorrectionMatrix.d65White.vector)
    }

    /// The white-constrained least-squares fit of the type's documentation: rows m minimising
    /// Σᵢ (m·cᵢ − tᵢ)² with M·(1, 1, 1) = `white`.
    static func fit(_ pairs: [(input: SIMD3<Double>, target: SIMD3<Double>)], white w: SIMD3<Double>) -> Matrix3 {
        var a = [[Double]](repeating: [0, 0, 0], count: 3)
        var b = [[Double]](repeating: [0, 0, 0], count: 3)  // b[row][k] = Σ t_row c_k
        for (c, t) in pairs {
            for i in 0..<3 {
                for j in 0..<3 { a[i][j] += c[i] * c[j] }
                for row in 0..<3 { b[row][i] += t[row] * c[i] }
            }
        }
        guard let inverse = Matrix3(rows: a).inverse else {
            // Degenerate sensitivities (two identical channels): fall back to a plain white-point
            // scaling, which is at least neutral-preserving.
            return .diagonal(w)
        }
        let u = inverse * SIMD3<Double>(1, 1, 1)
        var rows: [SIMD3<Double>] = []
        for row in 0..<3 {
            let mLS = inverse * SIMD3(b[row][0], b[row][1], b[row][2])
            rows.append(mLS + u * ((w[row] - mLS.sum()) / u.sum()))
        }
        return Matrix3(rows: rows[0], rows[1], rows[2])
    }
}
