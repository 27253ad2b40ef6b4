import Foundation

// The typed filters of Core Image's `CIFilterBuiltins`: each protocol names a filter's parameters as
// properties, and `CIFilter.<name>()` returns the filter behind it. A property reads and writes the
// same parameter as its string key, so both styles can be mixed on one filter.

/// What every filter has: its output. Filters are objects, so their protocols are class-bound, as
/// Apple's Objective-C protocols are.
public protocol CIFilterProtocol: AnyObject {
    /// The filtered image, or nil when an input image is missing.
    var outputImage: CIImage? { get }
}

/// The parameters of `CIPerspectiveCorrection`.
public protocol CIPerspectiveCorrection: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputTopLeft`.
    var topLeft: CGPoint { get set }
    /// `inputTopRight`.
    var topRight: CGPoint { get set }
    /// `inputBottomRight`.
    var bottomRight: CGPoint { get set }
    /// `inputBottomLeft`.
    var bottomLeft: CGPoint { get set }
    /// `inputCrop`.
    var crop: Bool { get set }
}

/// The parameters of `CIPerspectiveTransform`.
public protocol CIPerspectiveTransform: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputTopLeft`.
    var topLeft: CGPoint { get set }
    /// `inputTopRight`.
    var topRight: CGPoint { get set }
    /// `inputBottomRight`.
    var bottomRight: CGPoint { get set }
    /// `inputBottomLeft`.
    var bottomLeft: CGPoint { get set }
}

/// The parameters of `CILanczosScaleTransform`.
public protocol CILanczosScaleTransform: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputScale`.
    var scale: Float { get set }
    /// `inputAspectRatio`.
    var aspectRatio: Float { get set }
}

/// The parameters of `CIBicubicScaleTransform`.
public protocol CIBicubicScaleTransform: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputScale`.
    var scale: Float { get set }
    /// `inputAspectRatio`.
    var aspectRatio: Float { get set }
    /// `inputB`: the cubic's B.
    var parameterB: Float { get set }
    /// `inputC`: the cubic's C.
    var parameterC: Float { get set }
}

/// The parameters of `CIColorMatrix`.
public protocol CIColorMatrix: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRVector`.
    var rVector: CIVector { get set }
    /// `inputGVector`.
    var gVector: CIVector { get set }
    /// `inputBVector`.
    var bVector: CIVector { get set }
    /// `inputAVector`.
    var aVector: CIVector { get set }
    /// `inputBiasVector`.
    var biasVector: CIVector { get set }
}

/// The parameters of `CIColorClamp`.
public protocol CIColorClamp: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputMinComponents`.
    var minComponents: CIVector { get set }
    /// `inputMaxComponents`.
    var maxComponents: CIVector { get set }
}

/// The parameters of `CIColorControls`.
public protocol CIColorControls: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputSaturation`.
    var saturation: Float { get set }
    /// `inputBrightness`.
    var brightness: Float { get set }
    /// `inputContrast`.
    var contrast: Float { get set }
}

/// The parameters of `CIExposureAdjust`.
public protocol CIExposureAdjust: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputEV`.
    var ev: Float { get set }
}

/// The parameters of `CITemperatureAndTint`.
public protocol CITemperatureAndTint: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputNeutral`.
    var neutral: CIVector { get set }
    /// `inputTargetNeutral`.
    var targetNeutral: CIVector { get set }
}

/// The parameters of `CIGammaAdjust`.
public protocol CIGammaAdjust: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputPower`.
    var power: Float { get set }
}

/// The parameters of `CIColorInvert`.
public protocol CIColorInvert: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
}

/// The parameters of `CISepiaTone`.
public protocol CISepiaTone: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputIntensity`.
    var intensity: Float { get set }
}

/// The parameters of `CIPhotoEffectMono`.
public protocol CIPhotoEffect: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
}

/// The parameters of `CIBlendWithMask`.
public protocol CIBlendWithMask: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputBackgroundImage`.
    var backgroundImage: CIImage? { get set }
    /// `inputMaskImage`.
    var maskImage: CIImage? { get set }
}

/// The parameters of `CISourceOverCompositing`.
public protocol CICompositeOperation: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputBackgroundImage`.
    var backgroundImage: CIImage? { get set }
}

/// The parameters of `CIGaussianBlur`.
public protocol CIGaussianBlur: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIBoxBlur`.
public protocol CIBoxBlur: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIDepthBlurEffect`.
public protocol CIDepthBlurEffect: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputDisparityImage`.
    var disparityImage: CIImage? { get set }
    /// `inputAperture`.
    var aperture: Float { get set }
    /// `inputFocusRect`.
    var focusRect: CGRect { get set }
    /// `inputScaleFactor`.
    var scaleFactor: Float { get set }
    /// `inputLumaNoiseScale`.
    var lumaNoiseScale: Float { get set }
}

/// The parameters of `CIDepthToDisparity`.
public protocol CIDepthToDisparity: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
}

/// The parameters of `CIDisparityToDepth`.
public protocol CIDisparityToDepth: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
}

/// The parameters of `CIConstantColorGenerator`.
public protocol CIConstantColorGenerator: CIFilterProtocol {
    /// `inputColor`.
    var color: CIColor { get set }
}

/// The parameters of `CIAreaAverage`.
public protocol CIAreaAverage: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputExtent`.
    var extent: CGRect { get set }
}

extension CIFilter {
    /// The `CIPerspectiveCorrection` filter, with its default parameters.
    public class func perspectiveCorrection() -> any CIFilter & CIPerspectiveCorrection {
        BuiltinFilter(definition: FilterDefinition.all["CIPerspectiveCorrection"]!)
    }
    /// The `CIPerspectiveTransform` filter, with its default parameters.
    public class func perspectiveTransform() -> any CIFilter & CIPerspectiveTransform {
        BuiltinFilter(definition: FilterDefinition.all["CIPerspectiveTransform"]!)
    }
    /// The `CILanczosScaleTransform` filter, with its default parameters.
    public class func lanczosScaleTransform() -> any CIFilter & CILanczosScaleTransform {
        BuiltinFilter(definition: FilterDefinition.all["CILanczosScaleTransform"]!)
    }
    /// The `CIBicubicScaleTransform` filter, with its default parameters.
    public class func bicubicScaleTransform() -> any CIFilter & CIBicubicScaleTransform {
        BuiltinFilter(definition: FilterDefinition.all["CIBicubicScaleTransform"]!)
    }
    /// The `CIColorMatrix` filter, with its default parameters.
    public class func colorMatrix() -> any CIFilter & CIColorMatrix {
        BuiltinFilter(definition: FilterDefinition.all["CIColorMatrix"]!)
    }
    /// The `CIColorClamp` filter, with its default parameters.
    public class func colorClamp() -> any CIFilter & CIColorClamp {
        BuiltinFilter(definition: FilterDefinition.all["CIColorClamp"]!)
    }
    /// The `CIColorControls` filter, with its default parameters.
    public class func colorControls() -> any CIFilter & CIColorControls {
        BuiltinFilter(definition: FilterDefinition.all["CIColorControls"]!)
    }
    /// The `CIExposureAdjust` filter, with its default parameters.
    public class func exposureAdjust() -> any CIFilter & CIExposureAdjust {
        BuiltinFilter(definition: FilterDefinition.all["CIExposureAdjust"]!)
    }
    /// The `CITemperatureAndTint` filter, with its default parameters.
    public class func temperatureAndTint() -> any CIFilter & CITemperatureAndTint {
        BuiltinFilter(definition: FilterDefinition.all["CITemperatureAndTint"]!)
    }
    /// The `CIGammaAdjust` filter, with its default parameters.
    public class func gammaAdjust() -> any CIFilter & CIGammaAdjust {
        BuiltinFilter(definition: FilterDefinition.all["CIGammaAdjust"]!)
    }
    /// The `CIColorInvert` filter, with its default parameters.
    public class func colorInvert() -> any CIFilter & CIColorInvert {
        BuiltinFilter(definition: FilterDefinition.all["CIColorInvert"]!)
    }
    /// The `CISepiaTone` filter, with its default parameters.
    public class func sepiaTone() -> any CIFilter & CISepiaTone {
        BuiltinFilter(definition: FilterDefinition.all["CISepiaTone"]!)
    }
    /// The `CIPhotoEffectMono` filter, with its default parameters.
    public class func photoEffectMono() -> any CIFilter & CIPhotoEffect {
        BuiltinFilter(definition: FilterDefinition.all["CIPhotoEffectMono"]!)
    }
    /// The `CIBlendWithMask` filter, with its default parameters.
    public class func blendWithMask() -> any CIFilter & CIBlendWithMask {
        BuiltinFilter(definition: FilterDefinition.all["CIBlendWithMask"]!)
    }
    /// The `CIBlendWithAlphaMask` filter, with its default parameters.
    public class func blendWithAlphaMask() -> any CIFilter & CIBlendWithMask {
        BuiltinFilter(definition: FilterDefinition.all["CIBlendWithAlphaMask"]!)
    }
    /// The `CISourceOverCompositing` filter, with its default parameters.
    public class func sourceOverCompositing() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(definition: FilterDefinition.all["CISourceOverCompositing"]!)
    }
    /// The `CIGaussianBlur` filter, with its default parameters.
    public class func gaussianBlur() -> any CIFilter & CIGaussianBlur {
        BuiltinFilter(definition: FilterDefinition.all["CIGaussianBlur"]!)
    }
    /// The `CIBoxBlur` filter, with its default parameters.
    public class func boxBlur() -> any CIFilter & CIBoxBlur {
        BuiltinFilter(definition: FilterDefinition.all["CIBoxBlur"]!)
    }
    /// The `CIDepthBlurEffect` filter, with its default parameters.
    public class func depthBlurEffect() -> any CIFilter & CIDepthBlurEffect {
        BuiltinFilter(definition: FilterDefinition.all["CIDepthBlurEffect"]!)
    }
    /// The `CIDepthToDisparity` filter, with its default parameters.
    public class func depthToDisparity() -> any CIFilter & CIDepthToDisparity {
        BuiltinFilter(definition: FilterDefinition.all["CIDepthToDisparity"]!)
    }
    /// The `CIDisparityToDepth` filter, with its default parameters.
    public class func disparityToDepth() -> any CIFilter & CIDisparityToDepth {
        BuiltinFilter(definition: FilterDefinition.all["CIDisparityToDepth"]!)
    }
    /// The `CIConstantColorGenerator` filter, with its default parameters.
    public class func constantColorGenerator() -> any CIFilter & CIConstantColorGenerator {
        BuiltinFilter(definition: FilterDefinition.all["CIConstantColorGenerator"]!)
    }
    /// The `CIAreaAverage` filter, with its default parameters.
    public class func areaAverage() -> any CIFilter & CIAreaAverage {
        BuiltinFilter(definition: FilterDefinition.all["CIAreaAverage"]!)
    }
}

/// The class behind every typed filter: each property reads and writes its parameter's key.
final class BuiltinFilter: CIFilter, @unchecked Sendable,
    CIPerspectiveCorrection, CIPerspectiveTransform, CILanczosScaleTransform, CIBicubicScaleTransform, CIColorMatrix, CIColorClamp, CIColorControls, CIExposureAdjust, CITemperatureAndTint, CIGammaAdjust, CIColorInvert, CISepiaTone, CIPhotoEffect, CIBlendWithMask, CICompositeOperation, CIGaussianBlur, CIBoxBlur, CIDepthBlurEffect, CIDepthToDisparity, CIDisparityToDepth, CIConstantColorGenerator, CIAreaAverage
{
    var inputImage: CIImage? {
        get { values["inputImage"] as? CIImage }
        set { values["inputImage"] = newValue }
    }
    var topLeft: CGPoint {
        get { (values["inputTopLeft"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputTopLeft"] = CIVector(cgPoint: newValue) }
    }
    var topRight: CGPoint {
        get { (values["inputTopRight"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputTopRight"] = CIVector(cgPoint: newValue) }
    }
    var bottomRight: CGPoint {
        get { (values["inputBottomRight"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputBottomRight"] = CIVector(cgPoint: newValue) }
    }
    var bottomLeft: CGPoint {
        get { (values["inputBottomLeft"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputBottomLeft"] = CIVector(cgPoint: newValue) }
    }
    var crop: Bool {
        get { FilterInputs.number(values["inputCrop"]).map { $0 != 0 } ?? false }
        set { values["inputCrop"] = newValue }
    }
    var scale: Float {
        get { Float(FilterInputs.number(values["inputScale"]) ?? 0) }
        set { values["inputScale"] = newValue }
    }
    var aspectRatio: Float {
        get { Float(FilterInputs.number(values["inputAspectRatio"]) ?? 0) }
        set { values["inputAspectRatio"] = newValue }
    }
    var parameterB: Float {
        get { Float(FilterInputs.number(values["inputB"]) ?? 0) }
        set { values["inputB"] = newValue }
    }
    var parameterC: Float {
        get { Float(FilterInputs.number(values["inputC"]) ?? 0) }
        set { values["inputC"] = newValue }
    }
    var rVector: CIVector {
        get { (values["inputRVector"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputRVector"] = newValue }
    }
    var gVector: CIVector {
        get { (values["inputGVector"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputGVector"] = newValue }
    }
    var bVector: CIVector {
        get { (values["inputBVector"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputBVector"] = newValue }
    }
    var aVector: CIVector {
        get { (values["inputAVector"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputAVector"] = newValue }
    }
    var biasVector: CIVector {
        get { (values["inputBiasVector"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputBiasVector"] = newValue }
    }
    var minComponents: CIVector {
        get { (values["inputMinComponents"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputMinComponents"] = newValue }
    }
    var maxComponents: CIVector {
        get { (values["inputMaxComponents"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputMaxComponents"] = newValue }
    }
    var saturation: Float {
        get { Float(FilterInputs.number(values["inputSaturation"]) ?? 0) }
        set { values["inputSaturation"] = newValue }
    }
    var brightness: Float {
        get { Float(FilterInputs.number(values["inputBrightness"]) ?? 0) }
        set { values["inputBrightness"] = newValue }
    }
    var contrast: Float {
        get { Float(FilterInputs.number(values["inputContrast"]) ?? 0) }
        set { values["inputContrast"] = newValue }
    }
    var ev: Float {
        get { Float(FilterInputs.number(values["inputEV"]) ?? 0) }
        set { values["inputEV"] = newValue }
    }
    var neutral: CIVector {
        get { (values["inputNeutral"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputNeutral"] = newValue }
    }
    var targetNeutral: CIVector {
        get { (values["inputTargetNeutral"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputTargetNeutral"] = newValue }
    }
    var power: Float {
        get { Float(FilterInputs.number(values["inputPower"]) ?? 0) }
        set { values["inputPower"] = newValue }
    }
    var intensity: Float {
        get { Float(FilterInputs.number(values["inputIntensity"]) ?? 0) }
        set { values["inputIntensity"] = newValue }
    }
    var backgroundImage: CIImage? {
        get { values["inputBackgroundImage"] as? CIImage }
        set { values["inputBackgroundImage"] = newValue }
    }
    var maskImage: CIImage? {
        get { values["inputMaskImage"] as? CIImage }
        set { values["inputMaskImage"] = newValue }
    }
    var radius: Float {
        get { Float(FilterInputs.number(values["inputRadius"]) ?? 0) }
        set { values["inputRadius"] = newValue }
    }
    var disparityImage: CIImage? {
        get { values["inputDisparityImage"] as? CIImage }
        set { values["inputDisparityImage"] = newValue }
    }
    var aperture: Float {
        get { Float(FilterInputs.number(values["inputAperture"]) ?? 0) }
        set { values["inputAperture"] = newValue }
    }
    var focusRect: CGRect {
        get { (values["inputFocusRect"] as? CIVector)?.cgRectValue ?? .zero }
        set { values["inputFocusRect"] = CIVector(cgRect: newValue) }
    }
    var scaleFactor: Float {
        get { Float(FilterInputs.number(values["inputScaleFactor"]) ?? 0) }
        set { values["inputScaleFactor"] = newValue }
    }
    var lumaNoiseScale: Float {
        get { Float(FilterInputs.number(values["inputLumaNoiseScale"]) ?? 0) }
        set { values["inputLumaNoiseScale"] = newValue }
    }
    var color: CIColor {
        get { (values["inputColor"] as? CIColor) ?? .black }
        set { values["inputColor"] = newValue }
    }
    var extent: CGRect {
        get { (values["inputExtent"] as? CIVector)?.cgRectValue ?? .zero }
        set { values["inputExtent"] = CIVector(cgRect: newValue) }
    }
}
