import Foundation
import Imaging
import Scenes

// The barcode generators besides the QR code's (`BuiltinFilters+Effects.swift`): Aztec, Code 128 and PDF417, drawn
// by zxing-cpp as the QR code is. Each gives one pixel a module, black on white and opaque, its bottom-left corner at
// the origin, and nil without a message, for a message the symbology cannot hold, or where zxing-cpp is missing.

extension FilterDefinition {
    /// A symbol's modules as an opaque image, one pixel a module, black on white, with its bottom-left corner at the
    /// origin: each row of modules `rowHeight` pixels tall, inside a white border of `quietZone` pixels on every side.
    static func moduleImage(_ symbol: CodeSymbol, rowHeight: Int = 1, quietZone: Int = 0) -> CIImage {
        let width = symbol.width + 2 * quietZone, height = symbol.height * rowHeight + 2 * quietZone
        var bytes = [UInt8](repeating: 255, count: 4 * width * height)
        for row in 0..<(symbol.height * rowHeight) {
            let modules = (row / rowHeight) * symbol.width
            for column in 0..<symbol.width where symbol.dark[modules + column] {
                let i = 4 * ((row + quietZone) * width + column + quietZone)
                (bytes[i], bytes[i + 1], bytes[i + 2]) = (0, 0, 0)
            }
        }
        return CIImage(
            recipe: BitmapRecipe(
                width: width, height: height, storage: .bytes(bytes, rowStride: 4 * width), encoding: .sRGB,
                isOpaque: true))
    }

    /// The message's bytes, or nil where none is set.
    static func messageBytes(_ p: FilterInputs) -> [UInt8]? { (p.values["inputMessage"] as? Data).map { [UInt8]($0) } }

    /// An Aztec code (ISO/IEC 24778). The correction level is Apple's percentage of redundancy (5…95, default 23),
    /// handed to zxing-cpp in its eighths (rounded to the nearest 12.5 %); zxing-cpp 1.4's writer ignores it and keeps
    /// its own 33 %. The quiet zone of one module is our choice, as the QR code's (Aztec needs none). `inputLayers`
    /// and `inputCompactStyle` (0 for automatic, our choice of default) are stored but not honoured: zxing-cpp's
    /// writer chooses the smallest symbol itself.
    static let aztecCodeGenerator = FilterDefinition(
        "CIAztecCodeGenerator", images: [],
        defaults: ["inputCorrectionLevel": 23.0, "inputLayers": 0.0, "inputCompactStyle": 0.0]
    ) { p in
        guard let message = messageBytes(p) else { return nil }
        let percent = min(max(p.number("inputCorrectionLevel"), 5), 95)
        let eighths = Int((percent * 8 / 100).rounded())
        guard let symbol = try? CodeSymbol.drawing(bytes: message, as: .aztec, eccLevel: eighths) else { return nil }
        return moduleImage(symbol, quietZone: 1)
    }

    /// A Code 128 barcode (ISO/IEC 15417) of ASCII bytes: bars `inputBarcodeHeight` pixels tall (default 32) with
    /// `inputQuietSpace` white pixels on every side (default 7), both rounded to whole pixels, as Apple documents
    /// them ("the number of empty white pixels that should surround the barcode").
    static let code128BarcodeGenerator = FilterDefinition(
        "CICode128BarcodeGenerator", images: [], defaults: ["inputQuietSpace": 7.0, "inputBarcodeHeight": 32.0]
    ) { p in
        guard let message = messageBytes(p),
            let symbol = try? CodeSymbol.drawing(bytes: message, as: .code128, eccLevel: nil)
        else { return nil }
        let quiet = Int(max(p.number("inputQuietSpace"), 0).rounded())
        let height = max(Int(p.number("inputBarcodeHeight").rounded()), 1)
        return moduleImage(symbol, rowHeight: height, quietZone: quiet)
    }

    /// A PDF417 symbol (ISO/IEC 15438) at the correction level (0…8, rounded; default 2, the smallest that AIM
    /// recommends), with zxing-cpp's layout: each row of codewords four modules tall. The quiet zone of two modules
    /// is ISO/IEC 15438's least and our choice. The size, shape and compaction keys are stored but not honoured:
    /// zxing-cpp's writer lays the symbol out itself; their defaults are our choice, 0 meaning automatic.
    static let pdf417BarcodeGenerator = FilterDefinition(
        "CIPDF417BarcodeGenerator", images: [],
        defaults: [
            "inputMinWidth": 0.0, "inputMaxWidth": 0.0, "inputMinHeight": 0.0, "inputMaxHeight": 0.0,
            "inputDataColumns": 0.0, "inputRows": 0.0, "inputPreferredAspectRatio": 0.0, "inputCompactionMode": 0.0,
            "inputCompactStyle": 0.0, "inputCorrectionLevel": 2.0, "inputAlwaysSpecifyCompaction": 0.0,
        ]
    ) { p in
        guard let message = messageBytes(p) else { return nil }
        let level = min(max(Int(p.number("inputCorrectionLevel").rounded()), 0), 8)
        guard let symbol = try? CodeSymbol.drawing(bytes: message, as: .pdf417, eccLevel: level) else { return nil }
        return moduleImage(symbol, quietZone: 2)
    }
}
