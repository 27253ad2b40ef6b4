import Foundation
import Imaging

/// A built-in image filter looked up by name (`CIFilter`), with parameters set by string keys.
///
/// `CIFilter(name:)` knows the filters listed in the Core Image filters article of the documentation and answers
/// nil for every other name, as Apple's does for an unknown one. Parameters start at Apple's documented
/// defaults (`setDefaults()`); `outputImage` is a new recipe, evaluated only when a context renders it,
/// and nil when a required input image is missing. A value of the wrong type for a key is ignored (the
/// default stands), except for images, where anything but a `CIImage` counts as missing.
open class CIFilter: NSObject, @unchecked Sendable {
    /// The filter's name, such as `"CIGaussianBlur"`.
    public let name: String
    let definition: FilterDefinition
    var values: [String: Any] = [:]

    init(definition: FilterDefinition) {
        name = definition.name
        self.definition = definition
        super.init()
        setDefaults()
    }

    /// A filter of your own: subclass `CIFilter`, keep its inputs in properties and override
    /// `outputImage` to build it from images and built-in filters. It has no keys of its own.
    public override init() {
        definition = FilterDefinition("", images: []) { _ in nil }
        name = String(describing: Self.self)
        super.init()
    }

    /// The filter of that name, with its default parameters; nil for a name it does not know.
    public convenience init?(name: String) {
        guard let definition = FilterDefinition.all[name] else { return nil }
        self.init(definition: definition)
    }

    /// The filter of that name with parameters set.
    public convenience init?(name: String, parameters params: [String: Any]?) {
        self.init(name: name)
        for (key, value) in params ?? [:] { setValue(value, forKey: key) }
    }

    /// Every name `init(name:)` knows, sorted; the category is not consulted.
    public class func filterNames(inCategory category: String?) -> [String] { FilterDefinition.all.keys.sorted() }

    /// The filter's input keys.
    public var inputKeys: [String] { definition.inputKeys }
    /// The filter's output keys: `outputImage`.
    public var outputKeys: [String] { [kCIOutputImageKey] }

    /// Sets every parameter to its documented default and removes the input images.
    public func setDefaults() { values = definition.defaults }

    /// Sets a parameter.
    public func setValue(_ value: Any?, forKey key: String) { values[key] = value }

    /// A parameter's value, or `outputImage` for `kCIOutputImageKey`.
    public func value(forKey key: String) -> Any? { key == kCIOutputImageKey ? outputImage : values[key] }

    /// The filtered image as a recipe; nil when an input image is missing or the parameters describe no image.
    open var outputImage: CIImage? { definition.output(FilterInputs(values: values, defaults: definition.defaults)) }
}

/// The parameters as a filter's output reads them.
struct FilterInputs {
    let values: [String: Any]
    let defaults: [String: Any]

    func image(_ key: String) -> CIImage? { values[key] as? CIImage }

    static func number(_ v: Any?) -> Double? {
        switch v {
        case let n as NSNumber: n.doubleValue
        case let d as Double: d
        case let f as Float: Double(f)
        case let c as CGFloat: Double(c)
        case let i as Int: Double(i)
        case let b as Bool: b ? 1 : 0
        default: nil
        }
    }

    func number(_ key: String) -> Double { Self.number(values[key]) ?? Self.number(defaults[key]) ?? 0 }
    func float(_ key: String) -> Float { Float(number(key)) }
    func vector(_ key: String) -> CIVector {
        (values[key] as? CIVector) ?? (defaults[key] as? CIVector) ?? CIVector(x: 0, y: 0, z: 0, w: 0)
    }
    func optionalVector(_ key: String) -> CIVector? { values[key] as? CIVector }
    func color(_ key: String) -> CIColor { (values[key] as? CIColor) ?? (defaults[key] as? CIColor) ?? .black }
    func bool(_ key: String) -> Bool { number(key) != 0 }
    func transform(_ key: String) -> CGAffineTransform {
        if let t = values[key] as? CGAffineTransform { return t }
        if let v = values[key] as? CIVector, v.count >= 6 { return v.cgAffineTransformValue }
        return .identity
    }
}

/// A filter's documented parameters and what it computes.
struct FilterDefinition: @unchecked Sendable {
    let name: String
    let defaults: [String: Any]
    let imageKeys: [String]
    let output: (FilterInputs) -> CIImage?

    var inputKeys: [String] { (imageKeys + defaults.keys.filter { !imageKeys.contains($0) }.sorted()) }

    init(_ name: String, images: [String] = [kCIInputImageKey], defaults: [String: Any] = [:],
         output: @escaping (FilterInputs) -> CIImage?) {
        self.name = name
        imageKeys = images
        self.defaults = defaults
        self.output = output
    }

    static let all: [String: FilterDefinition] = Dictionary(
        uniqueKeysWithValues: (
            geometry + colour + compositing + blur + depth + helpers + adjustments + looks + stylize + generators
                + reductions + blendModes + distortions + neighbourhood + stylizeMore + colourMore + transitions).map {
                    ($0.name, $0)
                })
}
