import Foundation

// Parameters of the typed filters that several filter families share, each reading and writing its key (the pattern
// of `CIFilterBuiltins+More.swift`).

extension BuiltinFilter {
    var width: Float {
        get { Float(FilterInputs.number(values["inputWidth"]) ?? 0) }
        set { values["inputWidth"] = newValue }
    }
    var height: Float {
        get { Float(FilterInputs.number(values["inputHeight"]) ?? 0) }
        set { values["inputHeight"] = newValue }
    }
}

extension BuiltinFilter {
    /// `inputTransform`, as a `CGAffineTransform` (a six-component `CIVector` is read as one too).
    var transform: CGAffineTransform {
        get {
            if let t = values["inputTransform"] as? CGAffineTransform { return t }
            if let v = values["inputTransform"] as? CIVector, v.count >= 6 { return v.cgAffineTransformValue }
            return .identity
        }
        set { values["inputTransform"] = newValue }
    }
}

extension BuiltinFilter {
    /// `inputCount`, a whole number (`CIAreaHistogram`'s bins, `CIKMeans`'s clusters).
    var count: Int {
        get { Int(FilterInputs.number(values["inputCount"]) ?? 0) }
        set { values["inputCount"] = newValue }
    }
}

extension CIFilter {
    /// A numeric parameter as a typed property reads and writes it: 0 where unset or not a number.
    subscript(number key: String) -> Float {
        get { Float(FilterInputs.number(values[key]) ?? 0) }
        set { values[key] = newValue }
    }
}
