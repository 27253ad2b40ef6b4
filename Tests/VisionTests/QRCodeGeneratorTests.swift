import CoreImage
import ExternalTools
import Foundation
import Testing

/// `CIQRCodeGenerator` as apps use it: a message's bytes in, a one-pixel-per-module image out, scaled up for
/// display or print. Checked by reading the code back and by decoding the symbol's format information by hand.
@Suite struct QRCodeGeneratorTests {
    /// The generated code's modules, top row first: true where dark.
    static func modules(_ image: CIImage) throws -> [[Bool]] {
        let context = CIContext(options: [.workingColorSpace: NSNull()])
        let cg = try #require(context.createCGImage(image, from: image.extent))
        let data = try #require(cg.dataProvider?.data) as Data
        let bytes = [UInt8](data)
        return (0..<cg.height).map { y in (0..<cg.width).map { x in bytes[y * cg.bytesPerRow + 4 * x] < 128 } }
    }

    /// The error correction level a symbol declares in its format information (ISO/IEC 18004 §7.9): 15 bits beside
    /// the top-left finder, masked with 101010000010010, whose top two bits name the level (01 L, 00 M, 11 Q, 10 H)
    /// and whose low ten are a BCH(15, 5) check of the top five. Nil where the check fails or the two copies of the
    /// bits disagree.
    static func declaredLevel(_ matrix: [[Bool]], quietZone: Int) -> String? {
        let n = matrix.count - 2 * quietZone
        func dark(_ row: Int, _ column: Int) -> Int { matrix[row + quietZone][column + quietZone] ? 1 : 0 }
        // First copy: along row 8 from the left (skipping the timing column), then up column 8.
        let first: [(Int, Int)] = [0, 1, 2, 3, 4, 5, 7, 8].map { (8, $0) } + [7, 5, 4, 3, 2, 1, 0].map { ($0, 8) }
        // Second copy: up column 8 from the bottom, then along row 8 at the right.
        let second: [(Int, Int)] = (0..<7).map { (n - 1 - $0, 8) } + (0..<8).map { (8, n - 8 + $0) }
        func bits(_ cells: [(Int, Int)]) -> Int {
            cells.reduce(0) { ($0 << 1) | dark($1.0, $1.1) } ^ 0b101_0100_0001_0010
        }
        let format = bits(first)
        guard format == bits(second) else { return nil }
        // The remainder of the five data bits, shifted ten places, divided by x¹⁰ + x⁸ + x⁵ + x⁴ + x² + x + 1.
        var remainder = (format >> 10) << 10
        for shift in stride(from: 4, through: 0, by: -1) where remainder & (1 << (shift + 10)) != 0 {
            remainder ^= 0b101_0011_0111 << shift
        }
        guard remainder == format & 0x3FF else { return nil }
        return ["M", "L", "H", "Q"][format >> 13]
    }

    static func generate(_ message: Data, level: String) throws -> CIImage {
        let filter = CIFilter.qrCodeGenerator()
        filter.message = message
        filter.correctionLevel = level
        return try #require(filter.outputImage)
    }

    @Test(.needs(.zxing)) func eachLevelIsDeclaredInTheSymbolAndTheMessageReadsBack() throws {
        let message = Data("https://obscura.example/tickets?id=4217".utf8)
        var sizes: [Int] = []
        for level in ["L", "M", "Q", "H"] {
            let image = try Self.generate(message, level: level)
            let side = Int(image.extent.width)
            #expect(image.extent == CGRect(x: 0, y: 0, width: side, height: side))
            // One module of quiet zone, and a symbol of 4 · version + 17 modules.
            #expect((side - 2 - 17) % 4 == 0, "\(side)")
            let matrix = try Self.modules(image)
            #expect(matrix.first?.allSatisfy { !$0 } == true && matrix.allSatisfy { !$0[0] }, "a light border")
            #expect(Self.declaredLevel(matrix, quietZone: 1) == level, "level \(level)")
            sizes.append(side)
            // Apps scale the module image up before showing or printing it.
            let shown = image.transformed(by: CGAffineTransform(scaleX: 8, y: 8))
            let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: nil, options: nil))
            let read = try #require(detector.features(in: shown).first as? CIQRCodeFeature)
            #expect(read.messageString == "https://obscura.example/tickets?id=4217")
        }
        #expect(sizes == sizes.sorted() && sizes[3] > sizes[0], "more correction needs more modules: \(sizes)")
    }

    @Test(.needs(.zxing)) func bytesAreEncodedAsGivenThroughTheStringKeys() throws {
        // The key-value style of older code, with Latin-1 bytes that are not UTF-8.
        let filter = try #require(CIFilter(name: "CIQRCodeGenerator"))
        filter.setValue(try #require("Café 12".data(using: .isoLatin1)) as NSData, forKey: "inputMessage")
        filter.setValue("Q", forKey: "inputCorrectionLevel")
        let image = try #require(filter.outputImage)
        #expect(Self.declaredLevel(try Self.modules(image), quietZone: 1) == "Q")
        let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: nil, options: nil))
        let read = try #require(
            detector.features(in: image.transformed(by: CGAffineTransform(scaleX: 6, y: 6))).first as? CIQRCodeFeature)
        #expect(read.messageString == "Café 12")
    }

    @Test func withoutAMessageOrWithAnUnknownLevelThereIsNoImage() throws {
        let filter = CIFilter.qrCodeGenerator()
        #expect(filter.outputImage == nil)
        filter.message = Data("x".utf8)
        filter.correctionLevel = "X"
        #expect(filter.outputImage == nil)
        #expect(filter.correctionLevel == "X")
        #expect(CIFilter(name: "CIQRCodeGenerator")?.value(forKey: "inputCorrectionLevel") as? String == "M")
    }
}
