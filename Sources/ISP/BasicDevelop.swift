import Imaging
import Sensor
import Spectra

/// The basic develop step: raw DN → black level → white balance → colour correction → output
/// colour space → global tone curve → transfer-function encoding.
///
/// Everything colorimetric is folded into one 3×3 matrix when the pipeline is built (once per
/// camera and illuminant); a pixel costs a subtraction, a matrix product, the tone curve and the
/// encoding.
public struct BasicDevelop: Sendable {
    /// Where the output lives.
    public enum OutputSpace: String, Sendable, Hashable, CaseIterable {
        case sRGB
        case displayP3

        /// Spectra's description of the space (primaries, D65 white, sRGB transfer curve).
        public var colorSpace: RGBColorSpace { self == .sRGB ? .sRGB : .displayP3 }
        /// The PNG tag for it.
        public var pngColorSpace: PNGColorSpace { self == .sRGB ? .sRGB : .displayP3 }
    }

    /// Rendering choices.
    public struct Settings: Sendable, Hashable {
        /// The output colour space.
        public var outputSpace: OutputSpace
        /// How much of the illuminant's cast to keep, 0 (fully neutral) … 1 (no white balance):
        /// the white is adapted to the chromaticity D65 + r·(illuminant − D65) in xy instead of D65.
        /// Phones keep part of a warm room's cast (DESIGN.md, Pipelines).
        public var warmthRetention: Double
        /// The global tone curve; nil picks a highlight shoulder at 0.6 reaching 1 at the clip level.
        public var toneCurve: ToneCurve?
        /// Linear gain applied before the tone curve; the default maps the auto-exposure mid-grey
        /// (10/78 of the clipping level) to 0.18.
        public var exposureScale: Double

        /// Settings.
        public init(
            outputSpace: OutputSpace = .sRGB, warmthRetention: Double = 0, toneCurve: ToneCurve? = nil,
            exposureScale: Double = 0.18 / AutoExposure.midGreyFraction
        ) {
            self.outputSpace = outputSpace
            self.warmthRetention = min(max(warmthRetention, 0), 1)
            self.toneCurve = toneCurve
            self.exposureScale = exposureScale
        }
    }

    /// The white balance used.
    public let whiteBalance: WhiteBalance
    /// The fitted colour-correction matrix.
    public let colorCorrection: ColorCorrectionMatrix
    /// The settings.
    public let settings: Settings
    /// Normalised, black-subtracted camera RGB → linear output RGB (white balance, CCM,
    /// adaptation, output primaries and exposure scale together).
    public let matrix: Matrix3
    /// The tone curve in use.
    public let toneCurve: ToneCurve
    let blackLevel: Double
    let whiteLevel: Double

    /// Builds the pipeline for a camera balanced for `whiteBalance`.
    public init(camera: CameraModel, whiteBalance: WhiteBalance, settings: Settings = Settings()) {
        self.whiteBalance = whiteBalance
        self.settings = settings
        let ccm = ColorCorrectionMatrix(camera: camera, illuminant: whiteBalance.illuminant)
        colorCorrection = ccm
        let d65 = ColorCorrectionMatrix.d65White
        let source = Colorimetry.whitePoint(of: whiteBalance.illuminant).chromaticity
        let r = settings.warmthRetention
        let kept = Chromaticity(x: 0.3127 + r * (source.x - 0.3127), y: 0.3290 + r * (source.y - 0.3290))
        let retain = ChromaticAdaptation.matrix(from: d65, to: kept.xyz(luminance: 1), method: .bradford)
        let space = settings.outputSpace.colorSpace
        let toOutput = space.fromXYZ * retain * ccm.matrix * Matrix3.diagonal(whiteBalance.gains)
        matrix = Matrix3.diagonal(SIMD3(repeating: settings.exposureScale)) * toOutput
        toneCurve = settings.toneCurve ?? .shoulder(knee: 0.6, whiteInput: settings.exposureScale)
        blackLevel = camera.noise.blackLevel
        whiteLevel = camera.noise.whiteLevel
    }

    /// Linear output RGB per pixel (interleaved), before the tone curve. A pixel with any channel
    /// at the white level is clipped: its true colour is unknown, so it is rendered as a neutral
    /// at its brightest balanced channel instead of the false hue the gains would give it.
    public func linearRGB(_ frame: RawFrame) -> [Float] {
        let range = whiteLevel - blackLevel
        let gains = whiteBalance.gains
        let clip = UInt16(max(0, min(whiteLevel, Double(UInt16.max)) - 0.5))
        let white = matrix * SIMD3<Double>(1, 1, 1)
        var out = [Float](repeating: 0, count: frame.width * frame.height * 3)
        frame.dn.withUnsafeBufferPointer { dn in
            for p in 0..<(frame.width * frame.height) {
                let r = dn[3 * p], g = dn[3 * p + 1], b = dn[3 * p + 2]
                let v = SIMD3((Double(r) - blackLevel), (Double(g) - blackLevel), (Double(b) - blackLevel)) / range
                let rgb: SIMD3<Double>
                if r >= clip || g >= clip || b >= clip {
                    rgb = white * (v * gains).max()
                } else {
                    rgb = matrix * v
                }
                out[3 * p] = Float(rgb.x)
                out[3 * p + 1] = Float(rgb.y)
                out[3 * p + 2] = Float(rgb.z)
            }
        }
        return out
    }

    /// The developed picture: tone-mapped and encoded, 3 channels, at the component's bit depth
    /// (`UInt8` or `UInt16`).
    public func develop<Component: PixelComponent>(_ frame: RawFrame, as _: Component.Type) -> PixelPlane<Component> {
        let linear = linearRGB(frame)
        let transfer = settings.outputSpace.colorSpace.transfer
        let tone = toneCurve
        return PixelPlane(
            width: frame.width, height: frame.height, channels: 3,
            elements: linear.lazy.map { Component(normalized: Float(transfer.encode(tone.apply(Double($0))))) })
    }
}
