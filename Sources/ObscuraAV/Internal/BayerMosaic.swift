import ISP
import Imaging
import Sensor
import Spectra

/// A RAW photo's sensor data: one DN per photosite in an RGGB colour-filter pattern.
///
/// The Sensor renders three DN planes (one per colour filter) at every pixel; a Bayer sensor
/// keeps only the filter over each photosite. RGGB (Bayer 1976, US 3,971,065, with the red site
/// top-left) samples red at even rows and even columns, blue at odd rows and odd columns and green
/// elsewhere. The DNs are the sensor's own, black level included, not rescaled to 14 bits: the
/// `kCVPixelFormatType_14Bayer_RGGB` container holds them unchanged, as it holds a 10- or 12-bit
/// sensor's codes on a phone; `blackLevel` and `whiteLevel` say where the range lies.
struct BayerMosaic: Sendable {
    let plane: PixelPlane<UInt16>
    let blackLevel: Int
    let whiteLevel: Int
    /// What a raw developer needs for colour and shading (a DNG's colour matrices, AsShotNeutral and gain map).
    let colour: RawColour

    /// The filter channel (0 red, 1 green, 2 blue) over photosite (x, y) in RGGB order.
    static func channel(x: Int, y: Int) -> Int {
        switch (y & 1, x & 1) {
        case (0, 0): 0
        case (1, 1): 2
        default: 1
        }
    }

    /// A mosaic of DNs already laid out in RGGB order.
    init(plane: PixelPlane<UInt16>, blackLevel: Int, whiteLevel: Int, colour: RawColour) {
        self.plane = plane
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.colour = colour
    }

    /// The mosaic of a rendered frame, with the camera's colour and the white the photo was balanced for.
    init(frame: RawFrame, camera: CameraModel, whiteBalance: WhiteBalance) {
        plane = PixelPlane(width: frame.width, height: frame.height) { x, y, _ in
            frame.dn(x: x, y: y, channel: Self.channel(x: x, y: y))
        }
        blackLevel = Int(camera.noise.blackLevel.rounded())
        whiteLevel = Int(camera.noise.whiteLevel.rounded())
        colour = RawColour(camera: camera, asShotNeutral: whiteBalance.cameraNeutral)
    }
}

/// A RAW photo's colour, as a DNG carries it: the matrices from CIE XYZ under D65 and under Standard light A to the
/// camera's RGB, as a phone's DNG carries both, and the camera RGB of the white the photo was balanced for.
struct RawColour: Sendable {
    /// XYZ (D65, Y = 1) → camera RGB, row-major: ColorMatrix1, CalibrationIlluminant1 D65 (21).
    let xyzToCamera: [Double]
    /// XYZ (Standard light A, Y = 1) → camera RGB, row-major: ColorMatrix2, CalibrationIlluminant2 A (17); nil
    /// for colour already in an RGB space.
    let xyzToCameraUnderA: [Double]?
    let asShotNeutral: SIMD3<Double>
    /// The lens shading the processed photo corrects, as OpcodeList2's gain map; nil without shading.
    let shading: DNGFile.GainMap?

    /// A camera's: for each light, its colour-correction matrix there (white-balanced camera RGB to XYZ adapted to
    /// D65, the ordinary photo's fit), with the adaptation undone (Bradford, D65 to the light), inverted and scaled
    /// back by the light's camera neutral (green 1), so that the light's white gives that neutral.
    init(camera: CameraModel, asShotNeutral: SIMD3<Double>) {
        xyzToCamera = Self.xyzToCamera(camera, under: Illuminants.d65)
        xyzToCameraUnderA = Self.xyzToCamera(camera, under: Illuminants.a)
        self.asShotNeutral = asShotNeutral
        shading = DNGFile.GainMap.lensShadingCorrection(camera: camera)
    }

    private static func xyzToCamera(_ camera: CameraModel, under light: Spectrum) -> [Double] {
        let correction = ColorCorrectionMatrix(camera: camera, illuminant: light).matrix
        let response = CameraResponse.neutral(illuminant: light, camera: camera)
        let white = Colorimetry.whitePoint(of: light)
        let toD65 = ChromaticAdaptation.matrix(
            from: XYZ(white.vector / white.Y), to: ColorCorrectionMatrix.d65White, method: .bradford)
        let inverse = correction.inverse ?? Matrix3.diagonal(SIMD3(1, 1, 1))
        return (Matrix3.diagonal(response / response.y) * inverse * toD65).rows.flatMap { $0 }
    }

    /// Linear-light colour already in a known RGB space (footage, decoded from its curve): that space's matrix,
    /// balanced for its own white.
    init(space: RGBColorSpace) {
        xyzToCamera = space.fromXYZ.rows.flatMap { $0 }
        xyzToCameraUnderA = nil
        asShotNeutral = SIMD3(1, 1, 1)
        shading = nil
    }
}
