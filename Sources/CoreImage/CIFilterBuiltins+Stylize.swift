import Foundation

// The typed filters of `CIFilterBuiltins` for the stylizing filters (`BuiltinFilters+Stylize.swift`): the same
// pattern as `CIFilterBuiltins+More.swift`, each property reading and writing its parameter's key.

/// The parameters of `CIHighlightShadowAdjust`.
public protocol CIHighlightShadowAdjust: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputShadowAmount`.
    var shadowAmount: Float { get set }
    /// `inputHighlightAmount`.
    var highlightAmount: Float { get set }
}

/// The parameters of `CIBloom`.
public protocol CIBloom: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputIntensity`.
    var intensity: Float { get set }
}

/// The parameters of `CIGloom`.
public protocol CIGloom: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputIntensity`.
    var intensity: Float { get set }
}

/// The parameters of `CIHexagonalPixellate`.
public protocol CIHexagonalPixellate: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputScale`.
    var scale: Float { get set }
}

/// The parameters of `CICrystallize`.
public protocol CICrystallize: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
}

/// The parameters of `CIPointillize`.
public protocol CIPointillize: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
}

/// The parameters of `CIDotScreen`.
public protocol CIDotScreen: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputAngle`.
    var angle: Float { get set }
    /// `inputWidth`.
    var width: Float { get set }
    /// `inputSharpness`.
    var sharpness: Float { get set }
}

/// The parameters of `CILineScreen`.
public protocol CILineScreen: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputAngle`.
    var angle: Float { get set }
    /// `inputWidth`.
    var width: Float { get set }
    /// `inputSharpness`.
    var sharpness: Float { get set }
}

/// The parameters of `CIHatchedScreen`.
public protocol CIHatchedScreen: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputAngle`.
    var angle: Float { get set }
    /// `inputWidth`.
    var width: Float { get set }
    /// `inputSharpness`.
    var sharpness: Float { get set }
}

/// The parameters of `CICircularScreen`.
public protocol CICircularScreen: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputWidth`.
    var width: Float { get set }
    /// `inputSharpness`.
    var sharpness: Float { get set }
}

/// The parameters of `CICMYKHalftone`.
public protocol CICMYKHalftone: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputWidth`.
    var width: Float { get set }
    /// `inputAngle`.
    var angle: Float { get set }
    /// `inputSharpness`.
    var sharpness: Float { get set }
    /// `inputGCR`.
    var grayComponentReplacement: Float { get set }
    /// `inputUCR`.
    var underColorRemoval: Float { get set }
}

extension CIFilter {
    /// The `CIHighlightShadowAdjust` filter, with its default parameters.
    public class func highlightShadowAdjust() -> any CIFilter & CIHighlightShadowAdjust {
        BuiltinFilter(named: "CIHighlightShadowAdjust")
    }
    /// The `CIBloom` filter, with its default parameters.
    public class func bloom() -> any CIFilter & CIBloom { BuiltinFilter(named: "CIBloom") }
    /// The `CIGloom` filter, with its default parameters.
    public class func gloom() -> any CIFilter & CIGloom { BuiltinFilter(named: "CIGloom") }
    /// The `CIHexagonalPixellate` filter, with its default parameters.
    public class func hexagonalPixellate() -> any CIFilter & CIHexagonalPixellate {
        BuiltinFilter(named: "CIHexagonalPixellate")
    }
    /// The `CICrystallize` filter, with its default parameters.
    public class func crystallize() -> any CIFilter & CICrystallize { BuiltinFilter(named: "CICrystallize") }
    /// The `CIPointillize` filter, with its default parameters.
    public class func pointillize() -> any CIFilter & CIPointillize { BuiltinFilter(named: "CIPointillize") }
    /// The `CIDotScreen` filter, with its default parameters.
    public class func dotScreen() -> any CIFilter & CIDotScreen { BuiltinFilter(named: "CIDotScreen") }
    /// The `CILineScreen` filter, with its default parameters.
    public class func lineScreen() -> any CIFilter & CILineScreen { BuiltinFilter(named: "CILineScreen") }
    /// The `CIHatchedScreen` filter, with its default parameters.
    public class func hatchedScreen() -> any CIFilter & CIHatchedScreen { BuiltinFilter(named: "CIHatchedScreen") }
    /// The `CICircularScreen` filter, with its default parameters.
    public class func circularScreen() -> any CIFilter & CICircularScreen { BuiltinFilter(named: "CICircularScreen") }
    /// The `CICMYKHalftone` filter, with its default parameters.
    public class func cmykHalftone() -> any CIFilter & CICMYKHalftone { BuiltinFilter(named: "CICMYKHalftone") }
}

extension BuiltinFilter: CIHighlightShadowAdjust, CIBloom, CIGloom, CIHexagonalPixellate, CICrystallize, CIPointillize,
    CIDotScreen, CILineScreen, CIHatchedScreen, CICircularScreen, CICMYKHalftone
{
    var shadowAmount: Float {
        get { Float(FilterInputs.number(values["inputShadowAmount"]) ?? 0) }
        set { values["inputShadowAmount"] = newValue }
    }
    var highlightAmount: Float {
        get { Float(FilterInputs.number(values["inputHighlightAmount"]) ?? 0) }
        set { values["inputHighlightAmount"] = newValue }
    }
    var grayComponentReplacement: Float {
        get { Float(FilterInputs.number(values["inputGCR"]) ?? 0) }
        set { values["inputGCR"] = newValue }
    }
    var underColorRemoval: Float {
        get { Float(FilterInputs.number(values["inputUCR"]) ?? 0) }
        set { values["inputUCR"] = newValue }
    }
}

/// The parameters of `CIComicEffect`.
public protocol CIComicEffect: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
}

extension CIFilter {
    /// The `CIComicEffect` filter, with its default parameters.
    public class func comicEffect() -> any CIFilter & CIComicEffect { BuiltinFilter(named: "CIComicEffect") }
}

extension BuiltinFilter: CIComicEffect {}
