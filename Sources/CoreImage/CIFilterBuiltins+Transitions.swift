import Foundation

// The typed filters of `CIFilterBuiltins` for the transitions (`BuiltinFilters+Transitions.swift`): the same pattern
// as `CIFilterBuiltins+More.swift`, each property reading and writing its parameter's key.

/// What every transition has: the image it starts from, the one it ends at, and how far along it is.
public protocol CITransitionFilter: CIFilterProtocol {
    /// `inputImage`: the image at time 0.
    var inputImage: CIImage? { get set }
    /// `inputTargetImage`: the image at time 1.
    var targetImage: CIImage? { get set }
    /// `inputTime`: 0 at the start, 1 at the end.
    var time: Float { get set }
}

/// The parameters of `CIDissolveTransition`.
public protocol CIDissolveTransition: CITransitionFilter {}

/// The parameters of `CISwipeTransition`.
public protocol CISwipeTransition: CITransitionFilter {
    /// `inputExtent`: the rectangle the swipe crosses.
    var extent: CGRect { get set }
    /// `inputColor`: the swipe's colour.
    var color: CIColor { get set }
    /// `inputAngle`: the direction the swipe moves in, in radians.
    var angle: Float { get set }
    /// `inputWidth`: the width of the swipe's band.
    var width: Float { get set }
    /// `inputOpacity`: how strongly the colour covers the band.
    var opacity: Float { get set }
}

/// The parameters of `CICopyMachineTransition`.
public protocol CICopyMachineTransition: CITransitionFilter {
    /// `inputExtent`: the rectangle the light crosses.
    var extent: CGRect { get set }
    /// `inputColor`: the light's colour.
    var color: CIColor { get set }
    /// `inputAngle`: the direction the light moves in, in radians.
    var angle: Float { get set }
    /// `inputWidth`: the width of the light's band.
    var width: Float { get set }
    /// `inputOpacity`: how strongly the light covers the band.
    var opacity: Float { get set }
}

/// The parameters of `CIBarsSwipeTransition`.
public protocol CIBarsSwipeTransition: CITransitionFilter {
    /// `inputAngle`: the direction the bars move in, in radians.
    var angle: Float { get set }
    /// `inputWidth`: the width of each bar.
    var width: Float { get set }
    /// `inputBarOffset`: how far every other bar runs behind its neighbours.
    var barOffset: Float { get set }
}

/// The parameters of `CIModTransition`.
public protocol CIModTransition: CITransitionFilter {
    /// `inputCenter`: the centre of the hole pattern.
    var center: CGPoint { get set }
    /// `inputAngle`: the pattern's turn, in radians.
    var angle: Float { get set }
    /// `inputRadius`: the pattern's period across.
    var radius: Float { get set }
    /// `inputCompression`: the pattern's period along.
    var compression: Float { get set }
}

/// The parameters of `CIDisintegrateWithMaskTransition`.
public protocol CIDisintegrateWithMaskTransition: CITransitionFilter {
    /// `inputMaskImage`: the mask whose dark parts turn first.
    var maskImage: CIImage? { get set }
    /// `inputShadowRadius` (stored, not drawn).
    var shadowRadius: Float { get set }
    /// `inputShadowDensity` (stored, not drawn).
    var shadowDensity: Float { get set }
    /// `inputShadowOffset` (stored, not drawn).
    var shadowOffset: CGPoint { get set }
}

/// The parameters of `CIFlashTransition`.
public protocol CIFlashTransition: CITransitionFilter {
    /// `inputCenter`: where the flash starts.
    var center: CGPoint { get set }
    /// `inputExtent`: the rectangle the flash fills.
    var extent: CGRect { get set }
    /// `inputColor`: the flash's colour.
    var color: CIColor { get set }
    /// `inputMaxStriationRadius` (stored, not drawn).
    var maxStriationRadius: Float { get set }
    /// `inputStriationStrength` (stored, not drawn).
    var striationStrength: Float { get set }
    /// `inputStriationContrast` (stored, not drawn).
    var striationContrast: Float { get set }
    /// `inputFadeThreshold`: the time at which the flash fills the extent and starts to fade.
    var fadeThreshold: Float { get set }
}

extension CIFilter {
    /// The `CIDissolveTransition` filter, with its default parameters.
    public class func dissolveTransition() -> any CIFilter & CIDissolveTransition {
        BuiltinFilter(named: "CIDissolveTransition")
    }
    /// The `CISwipeTransition` filter, with its default parameters.
    public class func swipeTransition() -> any CIFilter & CISwipeTransition {
        BuiltinFilter(named: "CISwipeTransition")
    }
    /// The `CICopyMachineTransition` filter, with its default parameters.
    public class func copyMachineTransition() -> any CIFilter & CICopyMachineTransition {
        BuiltinFilter(named: "CICopyMachineTransition")
    }
    /// The `CIBarsSwipeTransition` filter, with its default parameters.
    public class func barsSwipeTransition() -> any CIFilter & CIBarsSwipeTransition {
        BuiltinFilter(named: "CIBarsSwipeTransition")
    }
    /// The `CIModTransition` filter, with its default parameters.
    public class func modTransition() -> any CIFilter & CIModTransition { BuiltinFilter(named: "CIModTransition") }
    /// The `CIFlashTransition` filter, with its default parameters.
    public class func flashTransition() -> any CIFilter & CIFlashTransition {
        BuiltinFilter(named: "CIFlashTransition")
    }
    /// The `CIDisintegrateWithMaskTransition` filter, with its default parameters.
    public class func disintegrateWithMaskTransition() -> any CIFilter & CIDisintegrateWithMaskTransition {
        BuiltinFilter(named: "CIDisintegrateWithMaskTransition")
    }
}

extension BuiltinFilter: CITransitionFilter, CIDissolveTransition, CISwipeTransition, CICopyMachineTransition,
    CIBarsSwipeTransition, CIModTransition, CIDisintegrateWithMaskTransition, CIFlashTransition
{
    var maxStriationRadius: Float {
        get { self[number: "inputMaxStriationRadius"] }
        set { self[number: "inputMaxStriationRadius"] = newValue }
    }
    var striationStrength: Float {
        get { self[number: "inputStriationStrength"] }
        set { self[number: "inputStriationStrength"] = newValue }
    }
    var striationContrast: Float {
        get { self[number: "inputStriationContrast"] }
        set { self[number: "inputStriationContrast"] = newValue }
    }
    var fadeThreshold: Float {
        get { self[number: "inputFadeThreshold"] }
        set { self[number: "inputFadeThreshold"] = newValue }
    }
    var targetImage: CIImage? {
        get { values["inputTargetImage"] as? CIImage }
        set { values["inputTargetImage"] = newValue }
    }
    var time: Float {
        get { self[number: "inputTime"] }
        set { self[number: "inputTime"] = newValue }
    }
    var opacity: Float {
        get { self[number: "inputOpacity"] }
        set { self[number: "inputOpacity"] = newValue }
    }
    var barOffset: Float {
        get { self[number: "inputBarOffset"] }
        set { self[number: "inputBarOffset"] = newValue }
    }
    var compression: Float {
        get { self[number: "inputCompression"] }
        set { self[number: "inputCompression"] = newValue }
    }
    var shadowRadius: Float {
        get { self[number: "inputShadowRadius"] }
        set { self[number: "inputShadowRadius"] = newValue }
    }
    var shadowDensity: Float {
        get { self[number: "inputShadowDensity"] }
        set { self[number: "inputShadowDensity"] = newValue }
    }
    var shadowOffset: CGPoint {
        get { (values["inputShadowOffset"] as? CIVector)?.cgPointValue ?? .zero }
        set { values["inputShadowOffset"] = CIVector(cgPoint: newValue) }
    }
}
