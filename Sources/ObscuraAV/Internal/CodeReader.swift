import CZXing
import Foundation
import Imaging
import Scenes

/// A code read from a picture: its type, text, bytes and corners (normalised, origin top-left, in the
/// order the symbol was printed: top-left, top-right, bottom-right, bottom-left).
package struct ReadCode: Sendable, Equatable {
    package let type: AVMetadataObject.ObjectType
    package let text: String
    /// The payload as the symbol encodes it, before any character set conversion; nil where the
    /// library does not give it.
    package let payload: [UInt8]?
    package let corners: [CGPoint]
}

/// Reads machine-readable codes from a video picture's luma with zxing-cpp (spec §16): what the
/// camera imaged decides what is read, so distance, angle, glare and exposure matter as they do to a
/// phone's reader. Only the pixels inside the region of interest are searched. Vision's barcode request
/// reads its images through `read(luma:width:height:types:)` too.
package enum CodeReader {
    /// Whether zxing-cpp loads, and codes can be read at all.
    package static var isAvailable: Bool { CodeSymbol.isAvailable }

    /// The codes of `types` found inside `region` (normalised) of `rgb`, encoded 0…1 values.
    static func read(_ rgb: PixelPlane<Float>, region: CGRect, types: [AVMetadataObject.ObjectType]) -> [ReadCode] {
        guard rgb.width > 0, rgb.height > 0 else { return [] }
        let (w, h) = (rgb.width, rgb.height)
        let (x0, y0, x1, y1) = region.pixels(width: w, height: h)
        let (cw, ch) = (x1 - x0, y1 - y0)
        guard cw > 0, ch > 0 else { return [] }
        // The luma a 4:2:0 full-range buffer of the frame carries: BT.601 weights on the encoded values,
        // as `PixelBufferFilling` fills its Y' plane.
        var luma = [UInt8](repeating: 0, count: cw * ch)
        for y in 0..<ch {
            for x in 0..<cw {
                let (r, g, b) = (rgb[x0 + x, y0 + y, 0], rgb[x0 + x, y0 + y, 1], rgb[x0 + x, y0 + y, 2])
                let l = 0.299 * r + 0.587 * g + 0.114 * b
                luma[y * cw + x] = UInt8(min(max((255 * l).rounded(), 0), 255))
            }
        }
        return read(luma: luma, width: cw, height: ch, types: types).map { code in
            ReadCode(
                type: code.type, text: code.text, payload: code.payload,
                corners: code.corners.map {
                    CGPoint(x: (Double(x0) + $0.x) / Double(w), y: (Double(y0) + $0.y) / Double(h))
                })
        }
    }

    /// The codes of `types` in an 8-bit luma picture (`width × height`, rows packed, top row first), with
    /// corners in its pixels (origin at the top-left corner of the top-left pixel), in the order the
    /// symbol was printed.
    package static func read(
        luma: [UInt8], width: Int, height: Int, types: [AVMetadataObject.ObjectType]
    ) -> [ReadCode] {
        let mask = types.reduce(Int32(0)) { $0 | $1.czxingMask }
        guard mask != 0, width > 0, height > 0, luma.count >= width * height else { return [] }
        var results: UnsafeMutablePointer<czxing_result>?
        let count = luma.withUnsafeBufferPointer { pixels in
            czxing_read(pixels.baseAddress, Int32(width), Int32(height), Int32(width), mask, &results)
        }
        guard count > 0, let results else { return [] }
        defer { czxing_free_results(results, count) }
        var out: [ReadCode] = []
        for i in 0..<Int(count) {
            let found = results[i]
            var text = String(cString: found.text)
            guard let type = Self.type(of: found.symbology, text: &text, wanted: types) else { continue }
            var payload = found.bytes.map { Array(UnsafeBufferPointer(start: $0, count: Int(found.byte_count))) }
            // The leading zero that makes UPC-A's digits EAN-13's belongs to the payload's bytes as well.
            if found.symbology == Int32(CZXING_UPCA) { payload = payload.map { Array("0".utf8) + $0 } }
            let c = found.corners
            let raw = [(c.0, c.1), (c.2, c.3), (c.4, c.5), (c.6, c.7)]
            // zxing-cpp gives pixel indices; a pixel's centre lies half a pixel further in.
            let corners = raw.map { CGPoint(x: $0.0 + 0.5, y: $0.1 + 0.5) }
            out.append(ReadCode(type: type, text: text, payload: payload, corners: corners))
        }
        return out
    }

    /// The metadata type of a symbol zxing-cpp read, among the wanted ones; UPC-A reads as EAN-13 with a
    /// leading zero, and interleaved 2 of 5 with 14 digits and a valid GS1 check digit as ITF-14.
    private static func type(
        of symbology: Int32, text: inout String, wanted: [AVMetadataObject.ObjectType]
    ) -> AVMetadataObject.ObjectType? {
        let type: AVMetadataObject.ObjectType
        switch Int(symbology) {
        case Int(CZXING_UPCA):
            text = "0" + text
            type = .ean13
        case Int(CZXING_CODE39):
            // Its last character is the modulo-43 check of the others: Code 39 mod 43 where that is asked for.
            let checked = text.count > 1 && CodeAnnotation.code39Check(String(text.dropLast())) == text.last
            type = checked && wanted.contains(.code39Mod43) ? .code39Mod43 : .code39
        case Int(CZXING_DATABAR): type = .gs1DataBar
        case Int(CZXING_DATABAR_EXPANDED): type = .gs1DataBarExpanded
        case Int(CZXING_MICRO_QR): type = .microQR
        case Int(CZXING_ITF):
            let gtin =
                text.count == 14 && text.allSatisfy(\.isNumber)
                && CodeAnnotation.gs1CheckDigit(String(text.prefix(13))) == text.last?.wholeNumberValue
            type = gtin && wanted.contains(.itf14) ? .itf14 : .interleaved2of5
        default:
            guard let symbology = CodeAnnotation.Symbology.allCases.first(where: { $0.czxing == symbology }) else {
                return nil
            }
            type = AVMetadataObject.ObjectType(symbology)
        }
        return wanted.contains(type) ? type : nil
    }
}

extension AVMetadataObject.ObjectType {
    /// The zxing-cpp symbologies that read as this type; 0 for types that are not codes.
    var czxingMask: Int32 {
        switch self {
        case .ean13: return Int32(CZXING_EAN13 | CZXING_UPCA)
        case .interleaved2of5, .itf14: return Int32(CZXING_ITF)
        case .code39, .code39Mod43: return Int32(CZXING_CODE39)
        case .gs1DataBar: return Int32(CZXING_DATABAR)
        case .gs1DataBarExpanded: return Int32(CZXING_DATABAR_EXPANDED)
        case .microQR: return Int32(CZXING_MICRO_QR)
        default:
            return CodeAnnotation.Symbology.allCases.first { AVMetadataObject.ObjectType($0) == self }?.czxing ?? 0
        }
    }
}

extension CGRect {
    /// The pixels this normalised region (origin top-left) covers in a `width × height` picture: its edges rounded
    /// outwards and clipped to the picture, as column and row ranges `x0..<x1`, `y0..<y1`.
    func pixels(width: Int, height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let x0 = min(max(Int((minX * Double(width)).rounded(.down)), 0), width)
        let y0 = min(max(Int((minY * Double(height)).rounded(.down)), 0), height)
        let x1 = min(max(Int((maxX * Double(width)).rounded(.up)), x0), width)
        let y1 = min(max(Int((maxY * Double(height)).rounded(.up)), y0), height)
        return (x0, y0, x1, y1)
    }
}
