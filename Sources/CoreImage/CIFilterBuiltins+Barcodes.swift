import Foundation

// The typed filters of `CIFilterBuiltins` for the barcode generators (`BuiltinFilters+Barcodes.swift`), each property
// reading and writing its parameter's key.

/// The parameters of `CIAztecCodeGenerator`.
public protocol CIAztecCodeGenerator: CIFilterProtocol {
    /// `inputMessage`: the bytes to encode.
    var message: Data { get set }
    /// `inputCorrectionLevel`: the percentage of redundancy, 5…95 (not honoured by zxing-cpp 1.4).
    var correctionLevel: Float { get set }
    /// `inputLayers`: the number of layers, 1…32 (stored, not honoured).
    var layers: Float { get set }
    /// `inputCompactStyle`: whether to force a compact symbol (stored, not honoured).
    var compactStyle: Float { get set }
}

/// The parameters of `CICode128BarcodeGenerator`.
public protocol CICode128BarcodeGenerator: CIFilterProtocol {
    /// `inputMessage`: the ASCII bytes to encode.
    var message: Data { get set }
    /// `inputQuietSpace`: the white pixels around the bars.
    var quietSpace: Float { get set }
    /// `inputBarcodeHeight`: the bars' height in pixels.
    var barcodeHeight: Float { get set }
}

/// The parameters of `CIPDF417BarcodeGenerator`. Only the message and the correction level are honoured; the rest
/// are stored.
public protocol CIPDF417BarcodeGenerator: CIFilterProtocol {
    /// `inputMessage`: the bytes to encode.
    var message: Data { get set }
    /// `inputMinWidth`.
    var minWidth: Float { get set }
    /// `inputMaxWidth`.
    var maxWidth: Float { get set }
    /// `inputMinHeight`.
    var minHeight: Float { get set }
    /// `inputMaxHeight`.
    var maxHeight: Float { get set }
    /// `inputDataColumns`.
    var dataColumns: Float { get set }
    /// `inputRows`.
    var rows: Float { get set }
    /// `inputPreferredAspectRatio`.
    var preferredAspectRatio: Float { get set }
    /// `inputCompactionMode`.
    var compactionMode: Float { get set }
    /// `inputCompactStyle`.
    var compactStyle: Float { get set }
    /// `inputCorrectionLevel`: 0…8.
    var correctionLevel: Float { get set }
    /// `inputAlwaysSpecifyCompaction`.
    var alwaysSpecifyCompaction: Float { get set }
}

extension CIFilter {
    /// The `CIAztecCodeGenerator` filter, with its default parameters.
    public class func aztecCodeGenerator() -> any CIFilter & CIAztecCodeGenerator {
        NumberedCodeGenerator(named: "CIAztecCodeGenerator")
    }
    /// The `CICode128BarcodeGenerator` filter, with its default parameters.
    public class func code128BarcodeGenerator() -> any CIFilter & CICode128BarcodeGenerator {
        BuiltinFilter(named: "CICode128BarcodeGenerator")
    }
    /// The `CIPDF417BarcodeGenerator` filter, with its default parameters.
    public class func pdf417BarcodeGenerator() -> any CIFilter & CIPDF417BarcodeGenerator {
        NumberedCodeGenerator(named: "CIPDF417BarcodeGenerator")
    }
}

extension BuiltinFilter: CICode128BarcodeGenerator {
    var quietSpace: Float {
        get { self[number: "inputQuietSpace"] }
        set { self[number: "inputQuietSpace"] = newValue }
    }
    var barcodeHeight: Float {
        get { self[number: "inputBarcodeHeight"] }
        set { self[number: "inputBarcodeHeight"] = newValue }
    }
}

/// The typed Aztec and PDF417 generators. Their correction level is a number where the QR code's is a letter, so
/// they cannot share `BuiltinFilter`'s `correctionLevel` and have a class of their own.
final class NumberedCodeGenerator: CIFilter, @unchecked Sendable, CIAztecCodeGenerator, CIPDF417BarcodeGenerator {
    convenience init(named name: String) {
        self.init(definition: FilterDefinition.all[name] ?? FilterDefinition(name, images: []) { _ in nil })
    }

    var message: Data {
        get { (values["inputMessage"] as? Data) ?? Data() }
        set { values["inputMessage"] = newValue }
    }
    var correctionLevel: Float {
        get { self[number: "inputCorrectionLevel"] }
        set { self[number: "inputCorrectionLevel"] = newValue }
    }
    var layers: Float {
        get { self[number: "inputLayers"] }
        set { self[number: "inputLayers"] = newValue }
    }
    var compactStyle: Float {
        get { self[number: "inputCompactStyle"] }
        set { self[number: "inputCompactStyle"] = newValue }
    }
    var minWidth: Float {
        get { self[number: "inputMinWidth"] }
        set { self[number: "inputMinWidth"] = newValue }
    }
    var maxWidth: Float {
        get { self[number: "inputMaxWidth"] }
        set { self[number: "inputMaxWidth"] = newValue }
    }
    var minHeight: Float {
        get { self[number: "inputMinHeight"] }
        set { self[number: "inputMinHeight"] = newValue }
    }
    var maxHeight: Float {
        get { self[number: "inputMaxHeight"] }
        set { self[number: "inputMaxHeight"] = newValue }
    }
    var dataColumns: Float {
        get { self[number: "inputDataColumns"] }
        set { self[number: "inputDataColumns"] = newValue }
    }
    var rows: Float {
        get { self[number: "inputRows"] }
        set { self[number: "inputRows"] = newValue }
    }
    var preferredAspectRatio: Float {
        get { self[number: "inputPreferredAspectRatio"] }
        set { self[number: "inputPreferredAspectRatio"] = newValue }
    }
    var compactionMode: Float {
        get { self[number: "inputCompactionMode"] }
        set { self[number: "inputCompactionMode"] = newValue }
    }
    var alwaysSpecifyCompaction: Float {
        get { self[number: "inputAlwaysSpecifyCompaction"] }
        set { self[number: "inputAlwaysSpecifyCompaction"] = newValue }
    }
}
