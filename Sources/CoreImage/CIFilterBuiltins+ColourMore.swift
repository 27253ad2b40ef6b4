import Foundation

// The typed filters of `CIFilterBuiltins` for the non-separable and further blend modes, the colour polynomials and
// colour map, the pattern and noise generators and the row, column, min–max and histogram reductions: the pattern of
// `CIFilterBuiltins+More.swift`, each property reading and writing its parameter's key.

/// The parameters of `CIColorPolynomial`.
public protocol CIColorPolynomial: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRedCoefficients`: k0…k3 of `k0 + k1 r + k2 r² + k3 r³`.
    var redCoefficients: CIVector { get set }
    /// `inputGreenCoefficients`.
    var greenCoefficients: CIVector { get set }
    /// `inputBlueCoefficients`.
    var blueCoefficients: CIVector { get set }
    /// `inputAlphaCoefficients`.
    var alphaCoefficients: CIVector { get set }
}

/// The parameters of `CIColorCrossPolynomial`.
public protocol CIColorCrossPolynomial: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputRedCoefficients`: ten weights of (R, G, B, R², G², B², RG, GB, BR, 1).
    var redCoefficients: CIVector { get set }
    /// `inputGreenCoefficients`.
    var greenCoefficients: CIVector { get set }
    /// `inputBlueCoefficients`.
    var blueCoefficients: CIVector { get set }
}

/// The parameters of `CIColorMap`.
public protocol CIColorMap: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputGradientImage`: the table, read along its width by luma.
    var gradientImage: CIImage? { get set }
}

/// The parameters of `CIRandomGenerator`: none.
public protocol CIRandomGenerator: CIFilterProtocol {}

/// The parameters of `CICheckerboardGenerator`.
public protocol CICheckerboardGenerator: CIFilterProtocol {
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputColor0`.
    var color0: CIColor { get set }
    /// `inputColor1`.
    var color1: CIColor { get set }
    /// `inputWidth`: the side of a square.
    var width: Float { get set }
    /// `inputSharpness`: 1 for hard edges.
    var sharpness: Float { get set }
}

/// The parameters of `CIStripesGenerator`.
public protocol CIStripesGenerator: CIFilterProtocol {
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputColor0`.
    var color0: CIColor { get set }
    /// `inputColor1`.
    var color1: CIColor { get set }
    /// `inputWidth`: the width of a stripe.
    var width: Float { get set }
    /// `inputSharpness`: 1 for hard edges.
    var sharpness: Float { get set }
}

/// The parameters of `CIRowAverage`.
public protocol CIRowAverage: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputExtent`.
    var extent: CGRect { get set }
}

/// The parameters of `CIColumnAverage`.
public protocol CIColumnAverage: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputExtent`.
    var extent: CGRect { get set }
}

/// The parameters of `CIAreaMinMax`.
public protocol CIAreaMinMax: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputExtent`.
    var extent: CGRect { get set }
}

/// The parameters of `CIAreaMinMaxRed`.
public protocol CIAreaMinMaxRed: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputExtent`.
    var extent: CGRect { get set }
}

/// The parameters of `CIAreaHistogram`.
public protocol CIAreaHistogram: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputExtent`.
    var extent: CGRect { get set }
    /// `inputScale`: what the bins add up to.
    var scale: Float { get set }
    /// `inputCount`: the number of bins, the output's width.
    var count: Int { get set }
}

extension CIFilter {
    /// The `CIHueBlendMode` filter, with its default parameters.
    public class func hueBlendMode() -> any CIFilter & CICompositeOperation { BuiltinFilter(named: "CIHueBlendMode") }
    /// The `CISaturationBlendMode` filter, with its default parameters.
    public class func saturationBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CISaturationBlendMode")
    }
    /// The `CIColorBlendMode` filter, with its default parameters.
    public class func colorBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIColorBlendMode")
    }
    /// The `CILuminosityBlendMode` filter, with its default parameters.
    public class func luminosityBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CILuminosityBlendMode")
    }
    /// The `CISubtractBlendMode` filter, with its default parameters.
    public class func subtractBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CISubtractBlendMode")
    }
    /// The `CIPinLightBlendMode` filter, with its default parameters.
    public class func pinLightBlendMode() -> any CIFilter & CICompositeOperation {
        BuiltinFilter(named: "CIPinLightBlendMode")
    }
    /// The `CIColorPolynomial` filter, with its default parameters.
    public class func colorPolynomial() -> any CIFilter & CIColorPolynomial {
        BuiltinFilter(named: "CIColorPolynomial")
    }
    /// The `CIColorCrossPolynomial` filter, with its default parameters.
    public class func colorCrossPolynomial() -> any CIFilter & CIColorCrossPolynomial {
        BuiltinFilter(named: "CIColorCrossPolynomial")
    }
    /// The `CIColorMap` filter, with its default parameters.
    public class func colorMap() -> any CIFilter & CIColorMap { BuiltinFilter(named: "CIColorMap") }
    /// The `CIRandomGenerator` filter.
    public class func randomGenerator() -> any CIFilter & CIRandomGenerator {
        BuiltinFilter(named: "CIRandomGenerator")
    }
    /// The `CICheckerboardGenerator` filter, with its default parameters.
    public class func checkerboardGenerator() -> any CIFilter & CICheckerboardGenerator {
        BuiltinFilter(named: "CICheckerboardGenerator")
    }
    /// The `CIStripesGenerator` filter, with its default parameters.
    public class func stripesGenerator() -> any CIFilter & CIStripesGenerator {
        BuiltinFilter(named: "CIStripesGenerator")
    }
    /// The `CIRowAverage` filter, with its default parameters.
    public class func rowAverage() -> any CIFilter & CIRowAverage { BuiltinFilter(named: "CIRowAverage") }
    /// The `CIColumnAverage` filter, with its default parameters.
    public class func columnAverage() -> any CIFilter & CIColumnAverage { BuiltinFilter(named: "CIColumnAverage") }
    /// The `CIAreaMinMax` filter, with its default parameters.
    public class func areaMinMax() -> any CIFilter & CIAreaMinMax { BuiltinFilter(named: "CIAreaMinMax") }
    /// The `CIAreaMinMaxRed` filter, with its default parameters.
    public class func areaMinMaxRed() -> any CIFilter & CIAreaMinMaxRed { BuiltinFilter(named: "CIAreaMinMaxRed") }
    /// The `CIAreaHistogram` filter, with its default parameters.
    public class func areaHistogram() -> any CIFilter & CIAreaHistogram { BuiltinFilter(named: "CIAreaHistogram") }
}

extension BuiltinFilter: CIColorPolynomial, CIColorCrossPolynomial, CIColorMap, CIRandomGenerator,
    CICheckerboardGenerator, CIStripesGenerator, CIRowAverage, CIColumnAverage, CIAreaMinMax, CIAreaMinMaxRed,
    CIAreaHistogram
{
    var redCoefficients: CIVector {
        get { (values["inputRedCoefficients"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputRedCoefficients"] = newValue }
    }
    var greenCoefficients: CIVector {
        get { (values["inputGreenCoefficients"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputGreenCoefficients"] = newValue }
    }
    var blueCoefficients: CIVector {
        get { (values["inputBlueCoefficients"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputBlueCoefficients"] = newValue }
    }
    var alphaCoefficients: CIVector {
        get { (values["inputAlphaCoefficients"] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
        set { values["inputAlphaCoefficients"] = newValue }
    }
    var gradientImage: CIImage? {
        get { values["inputGradientImage"] as? CIImage }
        set { values["inputGradientImage"] = newValue }
    }
}
