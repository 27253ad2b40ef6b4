import CoreImage
import ExternalTools
import Foundation
import Testing
import Vision

/// `CIAztecCodeGenerator`, `CICode128BarcodeGenerator` and `CIPDF417BarcodeGenerator` as apps use them: a message's
/// bytes in, a one-pixel-per-module image out. Checked by reading the code back with Vision and by the symbologies'
/// own geometry (ISO/IEC 15417 for Code 128, 24778 for Aztec, 15438 for PDF417).
@Suite struct BarcodeGeneratorTests {
    /// The image's pixels, top row first: true where dark.
    static func dark(_ image: CIImage) throws -> [[Bool]] { try QRCodeGeneratorTests.modules(image) }

    /// What Vision reads from the image, scaled up with sharp module edges as an app shows it (a smooth scale would
    /// blend the one-module border with the clear outside the extent).
    static func read(_ image: CIImage, _ symbology: VNBarcodeSymbology) throws -> [String] {
        let request = VNDetectBarcodesRequest()
        request.symbologies = [symbology]
        let shown = image.samplingNearest().transformed(by: CGAffineTransform(scaleX: 4, y: 4))
        try VNImageRequestHandler(ciImage: shown).perform([request])
        return (request.results ?? []).compactMap(\.payloadStringValue)
    }

    /// Rows `from..<to` all light.
    static func light(_ matrix: [[Bool]], rows: Range<Int>) -> Bool { rows.allSatisfy { !matrix[$0].contains(true) } }
    /// Columns `from..<to` all light.
    static func light(_ matrix: [[Bool]], columns: Range<Int>) -> Bool {
        matrix.allSatisfy { row in columns.allSatisfy { !row[$0] } }
    }

    // MARK: Code 128

    @Test(.needs(.zxing)) func code128ReadsBackWithApplesDefaultQuietSpaceAndHeight() throws {
        let filter = CIFilter.code128BarcodeGenerator()
        filter.message = Data("OBSCURA-42".utf8)
        let image = try #require(filter.outputImage)
        // Start B, ten characters and the check character of 11 modules each, and the stop pattern's 13 (ISO/IEC
        // 15417): 145 modules, with 7 light pixels on every side and bars 32 pixels tall.
        try #require(image.extent == CGRect(x: 0, y: 0, width: 145 + 14, height: 32 + 14))
        let m = try Self.dark(image)
        #expect(Self.light(m, rows: 0..<7) && Self.light(m, rows: 39..<46), "light above and below")
        #expect(Self.light(m, columns: 0..<7) && Self.light(m, columns: 152..<159), "light at both ends")
        #expect((7..<39).allSatisfy { m[$0] == m[7] }, "every row of the bars is the same")
        // Both the start and the stop pattern begin and end with a bar.
        #expect(m[7][7] && m[7][151])
        #expect(try Self.read(image, .code128) == ["OBSCURA-42"])
    }

    @Test(.needs(.zxing)) func code128HonoursTheQuietSpaceAndHeightItIsGiven() throws {
        let filter = try #require(CIFilter(name: "CICode128BarcodeGenerator"))
        filter.setValue(Data("OBSCURA-42".utf8) as NSData, forKey: "inputMessage")
        filter.setValue(3, forKey: "inputQuietSpace")
        filter.setValue(10, forKey: "inputBarcodeHeight")
        let image = try #require(filter.outputImage)
        try #require(image.extent == CGRect(x: 0, y: 0, width: 145 + 6, height: 10 + 6))
        let m = try Self.dark(image)
        #expect(Self.light(m, rows: 0..<3) && Self.light(m, rows: 13..<16) && m[3][3] && m[12][147])
        #expect(try Self.read(image, .code128) == ["OBSCURA-42"])
    }

    // MARK: Aztec

    @Test(.needs(.zxing)) func aztecReadsBackAtEveryCorrectionLevel() throws {
        for level: Float in [5, 23, 95] {
            let filter = CIFilter.aztecCodeGenerator()
            filter.message = Data("BOARDING PASS 7Q 0412".utf8)
            filter.correctionLevel = level
            let image = try #require(filter.outputImage)
            let side = Int(image.extent.width)
            #expect(image.extent == CGRect(x: 0, y: 0, width: side, height: side))
            let m = try Self.dark(image)
            // One light module around the symbol, and the bullseye's dark centre in the middle of it.
            #expect(Self.light(m, rows: 0..<1) && Self.light(m, rows: (side - 1)..<side), "level \(level)")
            #expect(Self.light(m, columns: 0..<1) && Self.light(m, columns: (side - 1)..<side), "level \(level)")
            #expect(m[side / 2][side / 2], "level \(level)")
            // Around the centre, the bullseye's light ring and then its dark ring (ISO/IEC 24778).
            let c = side / 2
            #expect(!m[c][c - 1] && !m[c - 1][c] && m[c][c - 2] && m[c + 2][c], "level \(level)")
            // Compact symbols are 11 + 4 · layers modules across (ISO/IEC 24778); this message needs two layers.
            #expect(side == 2 + 11 + 4 * 2, "level \(level): \(side)")
            #expect(try Self.read(image, .aztec) == ["BOARDING PASS 7Q 0412"], "level \(level)")
        }
    }

    // MARK: PDF417

    @Test(.needs(.zxing)) func pdf417ReadsBackWithItsStartAndStopPatterns() throws {
        var areas: [Int] = []
        for level: Float in [0, 2, 5] {
            let filter = CIFilter.pdf417BarcodeGenerator()
            filter.message = Data("DL 4217 OBSCURA".utf8)
            filter.correctionLevel = level
            let image = try #require(filter.outputImage)
            let (w, h) = (Int(image.extent.width), Int(image.extent.height))
            let m = try Self.dark(image)
            #expect(Self.light(m, rows: 0..<2) && Self.light(m, rows: (h - 2)..<h), "level \(level)")
            #expect(Self.light(m, columns: 0..<2) && Self.light(m, columns: (w - 2)..<w), "level \(level)")
            // 17 modules a codeword, four codewords of start, stop and row indicators beside the data columns, and
            // the stop pattern's one extra module (ISO/IEC 15438).
            #expect((w - 4 - 1) % 17 == 0, "level \(level): \(w)")
            // The start pattern opens with eight dark modules and the stop pattern closes with one, on every row.
            let symbolRows = 2..<(h - 2)
            #expect(symbolRows.allSatisfy { y in (2..<10).allSatisfy { m[y][$0] } && !m[y][10] && m[y][w - 3] })
            // Rows of codewords are equally tall.
            var runs: [Int] = []
            for y in symbolRows { if y == 2 || m[y] != m[y - 1] { runs.append(1) } else { runs[runs.count - 1] += 1 } }
            #expect(Set(runs).count == 1 && runs.count >= 3, "level \(level): \(runs)")
            #expect(try Self.read(image, .pdf417) == ["DL 4217 OBSCURA"], "level \(level)")
            areas.append(w * h)
        }
        #expect(areas == areas.sorted() && areas[2] > areas[0], "more correction needs more modules: \(areas)")
    }

    // MARK: Parameters

    @Test func documentedDefaultsAndNoImageWithoutAMessage() throws {
        let expected: [String: [String: Double]] = [
            "CIAztecCodeGenerator": ["inputCorrectionLevel": 23, "inputLayers": 0, "inputCompactStyle": 0],
            "CICode128BarcodeGenerator": ["inputQuietSpace": 7, "inputBarcodeHeight": 32],
            "CIPDF417BarcodeGenerator": [
                "inputMinWidth": 0, "inputMaxWidth": 0, "inputMinHeight": 0, "inputMaxHeight": 0,
                "inputDataColumns": 0, "inputRows": 0, "inputPreferredAspectRatio": 0, "inputCompactionMode": 0,
                "inputCompactStyle": 0, "inputCorrectionLevel": 2, "inputAlwaysSpecifyCompaction": 0,
            ],
        ]
        for (name, keys) in expected {
            let filter = try #require(CIFilter(name: name), "\(name)")
            for (key, value) in keys { #expect(filter.value(forKey: key) as? Double == value, "\(name) \(key)") }
            #expect(Set(filter.inputKeys) == Set(keys.keys), "\(name)")
            #expect(filter.outputImage == nil, "\(name) without a message")
        }
    }

    @Test func typedBuildersSetTheirKeys() throws {
        let aztec = CIFilter.aztecCodeGenerator()
        (aztec.message, aztec.correctionLevel, aztec.layers, aztec.compactStyle) = (Data([1, 2]), 40, 3, 1)
        #expect(aztec.value(forKey: "inputMessage") as? Data == Data([1, 2]))
        #expect(aztec.value(forKey: "inputCorrectionLevel") as? Float == 40)
        #expect(aztec.value(forKey: "inputLayers") as? Float == 3)
        #expect(aztec.value(forKey: "inputCompactStyle") as? Float == 1)
        let code = CIFilter.code128BarcodeGenerator()
        (code.message, code.quietSpace, code.barcodeHeight) = (Data([65]), 2, 50)
        #expect(code.value(forKey: "inputQuietSpace") as? Float == 2)
        #expect(code.value(forKey: "inputBarcodeHeight") as? Float == 50)
        #expect(code.message == Data([65]))
        let pdf = CIFilter.pdf417BarcodeGenerator()
        (pdf.minWidth, pdf.maxWidth, pdf.minHeight, pdf.maxHeight) = (60, 500, 20, 200)
        (pdf.dataColumns, pdf.rows, pdf.preferredAspectRatio, pdf.compactionMode) = (4, 10, 3, 2)
        (pdf.compactStyle, pdf.correctionLevel, pdf.alwaysSpecifyCompaction) = (1, 6, 1)
        let set: [String: Float] = [
            "inputMinWidth": 60, "inputMaxWidth": 500, "inputMinHeight": 20, "inputMaxHeight": 200,
            "inputDataColumns": 4, "inputRows": 10, "inputPreferredAspectRatio": 3, "inputCompactionMode": 2,
            "inputCompactStyle": 1, "inputCorrectionLevel": 6, "inputAlwaysSpecifyCompaction": 1,
        ]
        for (key, value) in set { #expect(pdf.value(forKey: key) as? Float == value, "\(key)") }
        #expect(pdf.rows == 10 && pdf.correctionLevel == 6)
    }
}
