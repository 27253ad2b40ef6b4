import Foundation

// The typed filters of `CIFilterBuiltins` for the neighbourhood filters (convolutions, morphology, the median, the
// disc, motion and zoom blurs, edges, noise reduction): the pattern of `CIFilterBuiltins+More.swift`.

/// The parameters of the convolutions (`CIConvolution3X3`, `CIConvolution5X5`, `CIConvolution7X7`,
/// `CIConvolution9Horizontal`, `CIConvolution9Vertical` and their `RGB` variants).
public protocol CIConvolution: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputWeights`.
    var weights: CIVector { get set }
    /// `inputBias`.
    var bias: Float { get set }
}

/// The parameters of `CIMorphologyMaximum`.
public protocol CIMorphologyMaximum: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIMorphologyMinimum`.
public protocol CIMorphologyMinimum: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIMorphologyRectangleMaximum`.
public protocol CIMorphologyRectangleMaximum: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputWidth`.
    var width: Float { get set }
    /// `inputHeight`.
    var height: Float { get set }
}

/// The parameters of `CIMorphologyRectangleMinimum`.
public protocol CIMorphologyRectangleMinimum: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputWidth`.
    var width: Float { get set }
    /// `inputHeight`.
    var height: Float { get set }
}

/// The parameters of `CIMorphologyGradient`.
public protocol CIMorphologyGradient: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIMedianFilter`.
public protocol CIMedian: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
}

/// The parameters of `CIDiscBlur`.
public protocol CIDiscBlur: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIMotionBlur`.
public protocol CIMotionBlur: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputAngle`.
    var angle: Float { get set }
}

/// The parameters of `CIZoomBlur`.
public protocol CIZoomBlur: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputAmount`.
    var amount: Float { get set }
}

/// The parameters of `CIEdges`.
public protocol CIEdges: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputIntensity`.
    var intensity: Float { get set }
}

/// The parameters of `CINoiseReduction`.
public protocol CINoiseReduction: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputNoiseLevel`.
    var noiseLevel: Float { get set }
    /// `inputSharpness`.
    var sharpness: Float { get set }
}

extension CIFilter {
    /// The `CIConvolution3X3` filter, with its default parameters.
    public class func convolution3X3() -> any CIFilter & CIConvolution { BuiltinFilter(named: "CIConvolution3X3") }
    /// The `CIConvolution5X5` filter, with its default parameters.
    public class func convolution5X5() -> any CIFilter & CIConvolution { BuiltinFilter(named: "CIConvolution5X5") }
    /// The `CIConvolution7X7` filter, with its default parameters.
    public class func convolution7X7() -> any CIFilter & CIConvolution { BuiltinFilter(named: "CIConvolution7X7") }
    /// The `CIConvolution9Horizontal` filter, with its default parameters.
    public class func convolution9Horizontal() -> any CIFilter & CIConvolution {
        BuiltinFilter(named: "CIConvolution9Horizontal")
    }
    /// The `CIConvolution9Vertical` filter, with its default parameters.
    public class func convolution9Vertical() -> any CIFilter & CIConvolution {
        BuiltinFilter(named: "CIConvolution9Vertical")
    }
    /// The `CIConvolutionRGB3X3` filter, with its default parameters.
    public class func convolutionRGB3X3() -> any CIFilter & CIConvolution {
        BuiltinFilter(named: "CIConvolutionRGB3X3")
    }
    /// The `CIConvolutionRGB5X5` filter, with its default parameters.
    public class func convolutionRGB5X5() -> any CIFilter & CIConvolution {
        BuiltinFilter(named: "CIConvolutionRGB5X5")
    }
    /// The `CIConvolutionRGB7X7` filter, with its default parameters.
    public class func convolutionRGB7X7() -> any CIFilter & CIConvolution {
        BuiltinFilter(named: "CIConvolutionRGB7X7")
    }
    /// The `CIConvolutionRGB9Horizontal` filter, with its default parameters.
    public class func convolutionRGB9Horizontal() -> any CIFilter & CIConvolution {
        BuiltinFilter(named: "CIConvolutionRGB9Horizontal")
    }
    /// The `CIConvolutionRGB9Vertical` filter, with its default parameters.
    public class func convolutionRGB9Vertical() -> any CIFilter & CIConvolution {
        BuiltinFilter(named: "CIConvolutionRGB9Vertical")
    }
    /// The `CIMorphologyMaximum` filter, with its default parameters.
    public class func morphologyMaximum() -> any CIFilter & CIMorphologyMaximum {
        BuiltinFilter(named: "CIMorphologyMaximum")
    }
    /// The `CIMorphologyMinimum` filter, with its default parameters.
    public class func morphologyMinimum() -> any CIFilter & CIMorphologyMinimum {
        BuiltinFilter(named: "CIMorphologyMinimum")
    }
    /// The `CIMorphologyRectangleMaximum` filter, with its default parameters.
    public class func morphologyRectangleMaximum() -> any CIFilter & CIMorphologyRectangleMaximum {
        BuiltinFilter(named: "CIMorphologyRectangleMaximum")
    }
    /// The `CIMorphologyRectangleMinimum` filter, with its default parameters.
    public class func morphologyRectangleMinimum() -> any CIFilter & CIMorphologyRectangleMinimum {
        BuiltinFilter(named: "CIMorphologyRectangleMinimum")
    }
    /// The `CIMorphologyGradient` filter, with its default parameters.
    public class func morphologyGradient() -> any CIFilter & CIMorphologyGradient {
        BuiltinFilter(named: "CIMorphologyGradient")
    }
    /// The `CIMedianFilter` filter, with its default parameters.
    public class func median() -> any CIFilter & CIMedian { BuiltinFilter(named: "CIMedianFilter") }
    /// The `CIDiscBlur` filter, with its default parameters.
    public class func discBlur() -> any CIFilter & CIDiscBlur { BuiltinFilter(named: "CIDiscBlur") }
    /// The `CIMotionBlur` filter, with its default parameters.
    public class func motionBlur() -> any CIFilter & CIMotionBlur { BuiltinFilter(named: "CIMotionBlur") }
    /// The `CIZoomBlur` filter, with its default parameters.
    public class func zoomBlur() -> any CIFilter & CIZoomBlur { BuiltinFilter(named: "CIZoomBlur") }
    /// The `CIEdges` filter, with its default parameters.
    public class func edges() -> any CIFilter & CIEdges { BuiltinFilter(named: "CIEdges") }
    /// The `CINoiseReduction` filter, with its default parameters.
    public class func noiseReduction() -> any CIFilter & CINoiseReduction { BuiltinFilter(named: "CINoiseReduction") }
}

extension BuiltinFilter: CIConvolution, CIMorphologyMaximum, CIMorphologyMinimum, CIMorphologyRectangleMaximum,
    CIMorphologyRectangleMinimum, CIMorphologyGradient, CIMedian, CIDiscBlur, CIMotionBlur, CIZoomBlur, CIEdges,
    CINoiseReduction
{
    var weights: CIVector {
        get { (values["inputWeights"] as? CIVector) ?? CIVector([]) }
        set { values["inputWeights"] = newValue }
    }
    var bias: Float {
        get { Float(FilterInputs.number(values["inputBias"]) ?? 0) }
        set { values["inputBias"] = newValue }
    }
    var noiseLevel: Float {
        get { Float(FilterInputs.number(values["inputNoiseLevel"]) ?? 0) }
        set { values["inputNoiseLevel"] = newValue }
    }
}
