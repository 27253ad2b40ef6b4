import Foundation

// The typed filters of `CIFilterBuiltins` for the adjustments, looks, effects, generators, reductions and blend
// modes: the same pattern as `CIFilterBuiltins.swift`, each property reading and writing its parameter's key.

/// The parameters of `CIHueAdjust`.
public protocol CIHueAdjust: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputAngle`.
    var angle: Float { get set }
}

/// The parameters of `CIVibrance`.
public protocol CIVibrance: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputAmount`.
    var amount: Float { get set }
}

/// The parameters of `CIColorMonochrome`.
public protocol CIColorMonochrome: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputColor`.
    var color: CIColor { get set }
    /// `inputIntensity`.
    var intensity: Float { get set }
}

/// The parameters of `CIFalseColor`.
public protocol CIFalseColor: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputColor0`.
    var color0: CIColor { get set }
    /// `inputColor1`.
    var color1: CIColor { get set }
}

/// The parameters of `CIWhitePointAdjust`.
public protocol CIWhitePointAdjust: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputColor`.
    var color: CIColor { get set }
}

/// The parameters of `CIColorPosterize`.
public protocol CIColorPosterize: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputLevels`.
    var levels: Float { get set }
}

/// The parameters of `CIColorThreshold`.
public protocol CIColorThreshold: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputThreshold`.
    var threshold: Float { get set }
}

/// The parameters of `CIMaskToAlpha`.
public protocol CIMaskToAlpha: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
}

/// The parameters of `CILinearToSRGBToneCurve`.
public protocol CILinearToSRGBToneCurve: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
}

/// The parameters of `CISRGBToneCurveToLinear`.
public protocol CISRGBToneCurveToLinear: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
}

/// The parameters of `CIToneCurve`.
public protocol CIToneCurve: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputPoint0`.
    var point0: CGPoint { get set }
    /// `inputPoint1`.
    var point1: CGPoint { get set }
    /// `inputPoint2`.
    var point2: CGPoint { get set }
    /// `inputPoint3`.
    var point3: CGPoint { get set }
    /// `inputPoint4`.
    var point4: CGPoint { get set }
}

/// The parameters of `CIColorCube`.
public protocol CIColorCube: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCubeDimension`.
    var cubeDimension: Float { get set }
    /// `inputCubeData`.
    var cubeData: Data { get set }
    /// `inputExtrapolate`.
    var extrapolate: Bool { get set }
}

/// The parameters of `CIColorCubeWithColorSpace`.
public protocol CIColorCubeWithColorSpace: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCubeDimension`.
    var cubeDimension: Float { get set }
    /// `inputCubeData`.
    var cubeData: Data { get set }
    /// `inputExtrapolate`.
    var extrapolate: Bool { get set }
    /// `inputColorSpace`.
    var colorSpace: CGColorSpace? { get set }
}

/// The parameters of `CIVignette`.
public protocol CIVignette: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputIntensity`.
    var intensity: Float { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIVignetteEffect`.
public protocol CIVignetteEffect: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputIntensity`.
    var intensity: Float { get set }
    /// `inputFalloff`.
    var falloff: Float { get set }
}

/// The parameters of `CIUnsharpMask`.
public protocol CIUnsharpMask: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputIntensity`.
    var intensity: Float { get set }
}

/// The parameters of `CISharpenLuminance`.
public protocol CISharpenLuminance: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputSharpness`.
    var sharpness: Float { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIPixellate`.
public protocol CIPixellate: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputScale`.
    var scale: Float { get set }
}

/// The parameters of `CILinearGradient`.
public protocol CILinearGradient: CIFilterProtocol {
    /// `inputPoint0`.
    var point0: CGPoint { get set }
    /// `inputPoint1`.
    var point1: CGPoint { get set }
    /// `inputColor0`.
    var color0: CIColor { get set }
    /// `inputColor1`.
    var color1: CIColor { get set }
}

/// The parameters of `CIRadialGradient`.
public protocol CIRadialGradient: CIFilterProtocol {
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputRadius0`.
    var radius0: Float { get set }
    /// `inputRadius1`.
    var radius1: Float { get set }
    /// `inputColor0`.
    var color0: CIColor { get set }
    /// `inputColor1`.
    var color1: CIColor { get set }
}

/// The parameters of `CIAreaMaximum`.
public protocol CIAreaMaximum: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputExtent`.
    var extent: CGRect { get set }
}

/// The parameters of `CIAreaMinimum`.
public protocol CIAreaMinimum: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputExtent`.
    var extent: CGRect { get set }
}

/// The parameters of `CIQRCodeGenerator`.
public protocol CIQRCodeGenerator: CIFilterProtocol {
    /// `inputMessage`: the bytes to encode.
    var message: Data { get set }
    /// `inputCorrectionLevel`: "L", "M", "Q" or "H" (7, 15, 25 or 30 % of the code words recoverable).
    var correctionLevel: String { get set }
}

extension CIFilter {
    /// The `CIQRCodeGenerator` filter, with its default parameters.
    public class func qrCodeGenerator() -> any CIFilter & CIQRCodeGenerator {
        BuiltinFilter(named: "CIQRCodeGenerator")
    }
    /// The `CIHueAdjust` filter, with its default parameters.
    public class func hueAdjust() -> any CIFilter & CIHueAdjust { BuiltinFilter(named: "CIHueAdjust") }
    /// The `CIVibrance` filter, with its default parameters.
    public class func vibrance() -> any CIFilter & CIVibrance { BuiltinFilter(named: "CIVibrance") }
    /// The `CIColorMonochrome` filter, with its default parameters.
    public class func colorMonochrome() -> any CIFilter & CIColorMonochrome {
        BuiltinFilter(named: "CIColorMonochrome")
    }
    /// The `CIFalseColor` filter, with its default parameters.
    public class func falseColor() -> any CIFilter & CIFalseColor { BuiltinFilter(named: "CIFalseColor") }
    /// The `CIWhitePointAdjust` filter, with its default parameters.
    public class func whitePointAdjust() -> any CIFilter & CIWhitePointAdjust {
        BuiltinFilter(named: "CIWhitePointAdjust")
    }
    /// The `CIColorPosterize` filter, with its default parameters.
    public class func colorPosterize() -> any CIFilter & CIColorPosterize { BuiltinFilter(named: "CIColorPosterize") }
    /// The `CIColorThreshold` filter, with its default parameters.
    public class func colorThreshold() -> any CIFilter & CIColorThreshold { BuiltinFilter(named: "CIColorThreshold") }
    /// The `CIMaskToAlpha` filter, with its default parameters.
    public class func maskToAlpha() -> any CIFilter & CIMaskToAlpha { BuiltinFilter(named: "CIMaskToAlpha") }
    /// The `CILinearToSRGBToneCurve` filter, with its default parameters.
    public class func linearToSRGBToneCurve() -> any CIFilter & CILinearToSRGBToneCurve {
        BuiltinFilter(named: "CILinearToSRGBToneCurve")
    }
    /// The `CISRGBToneCurveToLinear` filter, with its default parameters.
    public class func sRGBToneCurveToLinear() -> any CIFilter & CISRGBToneCurveToLinear {
        BuiltinFilter(named: "CISRGBToneCurveToLinear")
    }
    /// The `CIToneCurve` filter, with its default parameters.
    public class func toneCurve() -> any CIFilter & CIToneCurve { BuiltinFilter(named: "CIToneCurve") }
    /// The `CIColorCube` filter, with its default parameters.
    public class func colorCube() -> any CIFilter & CIColorCube { BuiltinFilter(named: "CIColorCube") }
    /// The `CIColorCubeWithColorSpace` filter, with its default parameters.
    public class func colorCubeWithColorSpace() -> any CIFilter & CIColorCubeWithColorSpace {
        BuiltinFilter(named: "CIColorCubeWithColorSpace")
    }
    /// The `CIPhotoEffectChrome` filter, with its default parameters.
    public class func photoEffectChrome() -> any CIFilter & CIPhotoEffect {
        BuiltinFilter(named: "CIPhotoEffectChrome")
    }
    /// The `CIPhotoEffectFade` filter, with its default parameters.
    public class func photoEffectFade() -> any CIFilter & CIPhotoEffect { BuiltinFilter(named: "CIPhotoEffectFade") }
    /// The `CIPhotoEffectInstant` filter, with its default parameters.
    public class func photoEffectInstant() -> any CIFilter & CIPhotoEffect {
        BuiltinFilter(named: "CIPhotoEffectInstant")
    }
    /// The `CIPhotoEffectNoir` filter, with its default parameters.
    public class func photoEffectNoir() -> any CIFilter & CIPhotoEffect { BuiltinFilter(named: "CIPhotoEffectNoir") }
    /// The `CIPhotoEffectProcess` filter, with its default parameters.
    public class func photoEffectProcess() -> any CIFilter & CIPhotoEffect {
        BuiltinFilter(named: "CIPhotoEffectProcess")
    }
    /// The `CIPhotoEffectTonal` filter, with its default parameters.
    public class func photoEffectTonal() -> any CIFilter & CIPhotoEffect { BuiltinFilter(named: "CIPhotoEffectTonal") }
    /// The `CIPhotoEffectTransfer` filter, with its default parameters.
    public class func photoEffectTransfer() -> any CIFilter & CIPhotoEffect {
        BuiltinFilter(named: "CIPhotoEffectTransfer")
    }
    /// The `CIVignette` filter, with its default parameters.
    public class func vignette() -> any CIFilter & CIVignette { BuiltinFilter(named: "CIVignette") }
    /// The `CIVignetteEffect` filter, with its default parameters.
    public class func vignetteEffect() -> any CIFilter & CIVignetteEffect { BuiltinFilter(named: "CIVignetteEffect") }
    /// The `CIUnsharpMask` filter, with its default parameters.
    public class func unsharpMask() -> any CIFilter & CIUnsharpMask { BuiltinFilter(named: "CIUnsharpMask") }
    /// The `CISharpenLuminance` filter, with its default parameters.
    public class func sharpenLuminance() -> any CIFilter & CISharpenLuminance {
        BuiltinFilter(named: "CISharpenLuminance")
    }
    /// The `CIPixellate` filter, with its default parameters.
    public class func pixellate() -> any CIFilter & CIPixellate { BuiltinFilter(named: "CIPixellate") }
    /// The `CILinearGradient` filter, with its default parameters.
    public class func linearGradient() -> any CIFilter & CILinearGradient { BuiltinFilter(named: "CILinearGradient") }
    /// The `CIRadialGradient` filter, with its default parameters.
    public class func radialGradient() -> any CIFilter & CIRadialGradient { BuiltinFilter(named: "CIRadialGradient") }
    /// The `CIAreaMaximum` filter, with its default parameters.
    public class func areaMaximum() -> any CIFilter & CIAreaMaximum { BuiltinFilter(named: "CIAreaMaximum") }
    /// The `CIAreaMinimum` filter, with its default parameters.
    public class func areaMinimum() -> any CIFilter & CIAreaMinimum { BuiltinFilter(named: "CIAreaMinimum") }
    /// The `CIMultiplyBlendMode` filter, with its default parameters.
    public class func multiplyBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIMultiplyBlendMode")
    }
    /// The `CIScreenBlendMode` filter, with its default parameters.
    public class func screenBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIScreenBlendMode")
    }
    /// The `CIOverlayBlendMode` filter, with its default parameters.
    public class func overlayBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIOverlayBlendMode")
    }
    /// The `CIDarkenBlendMode` filter, with its default parameters.
    public class func darkenBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIDarkenBlendMode")
    }
    /// The `CILightenBlendMode` filter, with its default parameters.
    public class func lightenBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CILightenBlendMode")
    }
    /// The `CIColorDodgeBlendMode` filter, with its default parameters.
    public class func colorDodgeBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIColorDodgeBlendMode")
    }
    /// The `CIColorBurnBlendMode` filter, with its default parameters.
    public class func colorBurnBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIColorBurnBlendMode")
    }
    /// The `CIHardLightBlendMode` filter, with its default parameters.
    public class func hardLightBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIHardLightBlendMode")
    }
    /// The `CISoftLightBlendMode` filter, with its default parameters.
    public class func softLightBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CISoftLightBlendMode")
    }
    /// The `CIDifferenceBlendMode` filter, with its default parameters.
    public class func differenceBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIDifferenceBlendMode")
    }
    /// The `CIExclusionBlendMode` filter, with its default parameters.
    public class func exclusionBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIExclusionBlendMode")
    }
    /// The `CILinearDodgeBlendMode` filter, with its default parameters.
    public class func linearDodgeBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CILinearDodgeBlendMode")
    }
    /// The `CILinearBurnBlendMode` filter, with its default parameters.
    public class func linearBurnBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CILinearBurnBlendMode")
    }
    /// The `CIDivideBlendMode` filter, with its default parameters.
    public class func divideBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIDivideBlendMode")
    }
    /// The `CIAdditionCompositing` filter, with its default parameters.
    public class func additionCompositing() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIAdditionCompositing")
    }
    /// The `CIMultiplyCompositing` filter, with its default parameters.
    public class func multiplyCompositing() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIMultiplyCompositing")
    }
    /// The `CIMinimumCompositing` filter, with its default parameters.
    public class func minimumCompositing() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIMinimumCompositing")
    }
    /// The `CIMaximumCompositing` filter, with its default parameters.
    public class func maximumCompositing() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIMaximumCompositing")
    }
    /// The `CISourceInCompositing` filter, with its default parameters.
    public class func sourceInCompositing() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CISourceInCompositing")
    }
    /// The `CISourceOutCompositing` filter, with its default parameters.
    public class func sourceOutCompositing() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CISourceOutCompositing")
    }
    /// The `CISourceAtopCompositing` filter, with its default parameters.
    public class func sourceAtopCompositing() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CISourceAtopCompositing")
    }
}

extension BuiltinFilter: CIQRCodeGenerator, CIHueAdjust, CIVibrance, CIColorMonochrome, CIFalseColor,
    CIWhitePointAdjust, CIColorPosterize,
    CIColorThreshold, CIMaskToAlpha, CILinearToSRGBToneCurve, CISRGBToneCurveToLinear, CIToneCurve, CIColorCube,
    CIColorCubeWithColorSpace, CIVignette, CIVignetteEffect, CIUnsharpMask, CISharpenLuminance, CIPixellate,
    CILinearGradient, CIRadialGradient, CIAreaMaximum, CIAreaMinimum
{
    var message: Data {
        get { (values["inputMessage"] as? Data) ?? Data() }
        set { values["inputMessage"] = newValue }
    }
    var correctionLevel: String {
        get { (values["inputCorrectionLevel"] as? String) ?? "" }
        set { values["inputCorrectionLevel"] = newValue }
    }

    /// The built-in filter of a name the definitions hold.
    convenience init(named name: String) {
        self.init(definition: FilterDefinition.all[name] ?? FilterDefinition(name, images: []) { _ in nil })
    }

    var angle: Float {
        get { Float(FilterInputs.number(values["inputAngle"]) ?? 0) }
        set { values["inputAngle"] = newValue }
    }
    var amount: Float {
        get { Float(FilterInputs.number(values["inputAmount"]) ?? 0) }
        set { values["inputAmount"] = newValue }
    }
    var color0: CIColor {
        get { (values["inputColor0"] as? CIColor) ?? .black }
        set { values["inputColor0"] = newValue }
    }
    var color1: CIColor {
        get { (values["inputColor1"] as? CIColor) ?? .black }
        set { values["inputColor1"] = newValue }
    }
    var levels: Float {
        get { Float(FilterInputs.number(values["inputLevels"]) ?? 0) }
        set { values["inputLevels"] = newValue }
    }
    var threshold: Float {
        get { Float(FilterInputs.number(values["inputThreshold"]) ?? 0) }
        set { values["inputThreshold"] = newValue }
    }
    var point0: CGPoint {
        get { (values["inputPoint0"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputPoint0"] = CIVector(cgPoint: newValue) }
    }
    var point1: CGPoint {
        get { (values["inputPoint1"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputPoint1"] = CIVector(cgPoint: newValue) }
    }
    var point2: CGPoint {
        get { (values["inputPoint2"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputPoint2"] = CIVector(cgPoint: newValue) }
    }
    var point3: CGPoint {
        get { (values["inputPoint3"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputPoint3"] = CIVector(cgPoint: newValue) }
    }
    var point4: CGPoint {
        get { (values["inputPoint4"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputPoint4"] = CIVector(cgPoint: newValue) }
    }
    var cubeDimension: Float {
        get { Float(FilterInputs.number(values["inputCubeDimension"]) ?? 0) }
        set { values["inputCubeDimension"] = newValue }
    }
    var cubeData: Data {
        get { (values["inputCubeData"] as? Data) ?? Data() }
        set { values["inputCubeData"] = newValue }
    }
    var extrapolate: Bool {
        get { FilterInputs.number(values["inputExtrapolate"]).map { $0 != 0 } ?? false }
        set { values["inputExtrapolate"] = newValue }
    }
    var colorSpace: CGColorSpace? {
        get { values["inputColorSpace"] as? CGColorSpace }
        set { values["inputColorSpace"] = newValue }
    }
    var center: CGPoint {
        get { (values["inputCenter"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputCenter"] = CIVector(cgPoint: newValue) }
    }
    var falloff: Float {
        get { Float(FilterInputs.number(values["inputFalloff"]) ?? 0) }
        set { values["inputFalloff"] = newValue }
    }
    var sharpness: Float {
        get { Float(FilterInputs.number(values["inputSharpness"]) ?? 0) }
        set { values["inputSharpness"] = newValue }
    }
    var radius0: Float {
        get { Float(FilterInputs.number(values["inputRadius0"]) ?? 0) }
        set { values["inputRadius0"] = newValue }
    }
    var radius1: Float {
        get { Float(FilterInputs.number(values["inputRadius1"]) ?? 0) }
        set { values["inputRadius1"] = newValue }
    }
}
