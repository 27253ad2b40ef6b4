import Foundation

// The typed filters of `CIFilterBuiltins` for the distortions, straightening and the affine clamp and tile: the same
// pattern as `CIFilterBuiltins.swift`, each property reading and writing its parameter's key.

/// The parameters of `CITwirlDistortion`.
public protocol CITwirlDistortion: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputAngle`: radians.
    var angle: Float { get set }
}

/// The parameters of `CIBumpDistortion`.
public protocol CIBumpDistortion: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputScale`.
    var scale: Float { get set }
}

/// The parameters of `CIPinchDistortion`.
public protocol CIPinchDistortion: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputScale`.
    var scale: Float { get set }
}

/// The parameters of `CIHoleDistortion`.
public protocol CIHoleDistortion: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIVortexDistortion`.
public protocol CIVortexDistortion: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputRadius`.
    var radius: Float { get set }
    /// `inputAngle`: radians.
    var angle: Float { get set }
}

/// The parameters of `CICircleSplashDistortion`.
public protocol CICircleSplashDistortion: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputCenter`.
    var center: CGPoint { get set }
    /// `inputRadius`.
    var radius: Float { get set }
}

/// The parameters of `CIStraightenFilter`.
public protocol CIStraighten: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputAngle`: radians.
    var angle: Float { get set }
}

/// The parameters of `CIAffineClamp`.
public protocol CIAffineClamp: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputTransform`.
    var transform: CGAffineTransform { get set }
}

/// The parameters of `CIAffineTile`.
public protocol CIAffineTile: CIFilterProtocol {
    /// `inputImage`.
    var inputImage: CIImage? { get set }
    /// `inputTransform`.
    var transform: CGAffineTransform { get set }
}

extension CIFilter {
    /// The `CITwirlDistortion` filter, with its default parameters.
    public class func twirlDistortion() -> any CIFilter & CITwirlDistortion {
        BuiltinFilter(named: "CITwirlDistortion")
    }
    /// The `CIBumpDistortion` filter, with its default parameters.
    public class func bumpDistortion() -> any CIFilter & CIBumpDistortion { BuiltinFilter(named: "CIBumpDistortion") }
    /// The `CIPinchDistortion` filter, with its default parameters.
    public class func pinchDistortion() -> any CIFilter & CIPinchDistortion {
        BuiltinFilter(named: "CIPinchDistortion")
    }
    /// The `CIHoleDistortion` filter, with its default parameters.
    public class func holeDistortion() -> any CIFilter & CIHoleDistortion { BuiltinFilter(named: "CIHoleDistortion") }
    /// The `CIVortexDistortion` filter, with its default parameters.
    public class func vortexDistortion() -> any CIFilter & CIVortexDistortion {
        BuiltinFilter(named: "CIVortexDistortion")
    }
    /// The `CICircleSplashDistortion` filter, with its default parameters.
    public class func circleSplashDistortion() -> any CIFilter & CICircleSplashDistortion {
        BuiltinFilter(named: "CICircleSplashDistortion")
    }
    /// The `CIStraightenFilter` filter, with its default parameters.
    public class func straighten() -> any CIFilter & CIStraighten { BuiltinFilter(named: "CIStraightenFilter") }
    /// The `CIAffineClamp` filter, with its default parameters.
    public class func affineClamp() -> any CIFilter & CIAffineClamp { BuiltinFilter(named: "CIAffineClamp") }
    /// The `CIAffineTile` filter, with its default parameters.
    public class func affineTile() -> any CIFilter & CIAffineTile { BuiltinFilter(named: "CIAffineTile") }
}

extension BuiltinFilter: CITwirlDistortion, CIBumpDistortion, CIPinchDistortion, CIHoleDistortion, CIVortexDistortion,
    CICircleSplashDistortion, CIStraighten, CIAffineClamp, CIAffineTile
{}
