import AVFoundation
import CoreImage
import ExternalTools
import Foundation
import Obscura
import ObscuraTesting
import Testing
import Vision

/// A photo of a scene with printed codes, taken through the capture API at 640 × 480, as a scanning app takes one.
struct CodePhoto {
    let image: CGImage
    /// The photo's camera matrix: focal lengths and principal point in its pixels, origin top-left.
    let fx: Double, fy: Double, cx: Double, cy: Double

    /// Takes a photo of the scene in the current world.
    static func take() throws -> CodePhoto {
        let photo = try CapturedPrintTests.capture(AVCapturePhotoSettings())
        let k = try #require(photo.pixelIntrinsicMatrix)
        return CodePhoto(
            image: try #require(photo.cgImageRepresentation()), fx: Double(k.columns.0.x), fy: Double(k.columns.1.y),
            cx: Double(k.columns.2.x), cy: Double(k.columns.2.y))
    }

    /// Writes a scene of one code printed on a white label of `size` metres, square to the camera `distance` metres
    /// away on its optical axis, and returns its path.
    static func labelScene(type: String, value: String, size: String, distance: Double = 0.3) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vision-codes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("label.yaml")
        try """
        description: One \(type) label \(distance) m in front of the camera.
        device: {position_m: [0.0, 0.0, \(distance)], look_at_m: [0.0, 0.0, 0.0]}
        ambient: {spectrum: {cct_k: 5000}, lux: 500, direction: [0.2, 1.0, 0.4], diffuse_fraction: 0.7}
        materials:
          - {name: paper, reflectance: 0.85}
          - {name: wall, reflectance: 0.5}
        objects:
          - {name: wall, shape: plane, size_m: [4.0, 3.0], position_m: [0.0, 0.0, -1.0], material: wall}
          - {name: label, shape: plane, size_m: \(size), material: paper, code: {type: \(type), value: "\(value)"}}
        """.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

/// `VNDetectBarcodesRequest` on photos of printed codes: the capture API's pixels, read by the request, checked
/// against what was printed and where the scene's geometry puts it.
@Suite(.needs(.zxing)) struct VNDetectBarcodesRequestTests {
    static func codes(_ request: VNDetectBarcodesRequest) -> [VNBarcodeObservation] { request.results ?? [] }

    /// The QR card of `qr-on-desk`: "https://example.com" (19 bytes) needs a version 2 symbol, 25 modules, printed
    /// with a 4-module quiet zone over the 0.08 m card, so the symbol spans 0.08 · 25 / 33 m, centred on the optical
    /// axis 0.3 m from the camera, square to it. Its corners through the photo's camera matrix, in stored pixels
    /// (origin top-left), clockwise from the printed top-left.
    static func projectedQRCorners(_ photo: CodePhoto) -> [SIMD2<Double>] {
        let half = 0.08 * 25 / 33 / 2, depth = 0.3
        let (hx, hy) = (photo.fx * half / depth, photo.fy * half / depth)
        return [
            SIMD2(photo.cx - hx, photo.cy - hy), SIMD2(photo.cx + hx, photo.cy - hy),
            SIMD2(photo.cx + hx, photo.cy + hy), SIMD2(photo.cx - hx, photo.cy + hy),
        ]
    }

    /// One module of the QR symbol, in pixels.
    static func qrModule(_ photo: CodePhoto) -> Double { photo.fx * (0.08 / 33) / 0.3 }

    @Test func defaultsAreEverySupportedSymbology() throws {
        let request = VNDetectBarcodesRequest()
        let supported = try request.supportedSymbologies()
        let readable: Set<VNBarcodeSymbology> = [
            .aztec, .code39, .code93, .code128, .dataMatrix, .ean8, .ean13, .i2of5, .itf14, .pdf417, .qr, .upce,
            .code39Checksum, .codabar, .gs1DataBar, .gs1DataBarExpanded, .microQR,
        ]
        #expect(Set(supported) == readable)
        #expect(request.symbologies == supported)
        #expect(VNDetectBarcodesRequest.supportedRevisions.contains(VNDetectBarcodesRequestRevision4))
        #expect(request.revision == VNDetectBarcodesRequest.defaultRevision)
        #expect(VNBarcodeSymbology.qr.rawValue == "VNBarcodeSymbologyQR")
        // Setting the revision resets the symbologies to every one the request supports (Apple's documented note).
        request.symbologies = [.qr]
        request.revision = VNDetectBarcodesRequestRevision3
        #expect(request.symbologies == supported)
    }

    // spec §22.3 rule 8: the QR card is read from the photo's pixels, its corners where the card's plane projects.
    @Test(.obscura(device: "iphone-15-pro", scene: "qr-on-desk"))
    func aQRCodeInACapturedPhotoIsReadWhereItsPlaneProjects() throws {
        let photo = try CodePhoto.take()
        let request = VNDetectBarcodesRequest()
        try VNImageRequestHandler(cgImage: photo.image, options: [:]).perform([request])
        let qr = try #require(Self.codes(request).first { $0.symbology == .qr })
        #expect(qr.payloadStringValue == "https://example.com")
        #expect(qr.payloadData == Data("https://example.com".utf8))
        #expect(qr.confidence == 1)
        let (w, h) = (photo.image.width, photo.image.height)
        let truth = Self.projectedQRCorners(photo).map { Drawing.normalised($0, width: w, height: h) }
        // zxing-cpp places a corner within about a module of the symbol's edge (on each axis; the shorter side's
        // normalisation is the looser one).
        let tolerance = 1.5 * Self.qrModule(photo) / Double(min(w, h))
        let corners = [qr.topLeft, qr.topRight, qr.bottomRight, qr.bottomLeft]
        let names = ["top left", "top right", "bottom right", "bottom left"]
        for (corner, (want, name)) in zip(corners, zip(truth, names)) { expectNear(corner, want, tolerance, name) }
        // Origin at the bottom left: the printed top edge lies above the bottom one.
        #expect(qr.topLeft.y > qr.bottomLeft.y && qr.topRight.x > qr.topLeft.x)
        let box = qr.boundingBox
        #expect(corners.allSatisfy { box.insetBy(dx: -1e-9, dy: -1e-9).contains($0) })
        #expect(abs(box.minX - corners.map(\.x).min()!) < 1e-9 && abs(box.maxY - corners.map(\.y).max()!) < 1e-9)
    }

    // spec §22.1 rule 2, §22.3 rule 8: with an orientation, the corners are those of the upright picture, and keep
    // naming the symbol's own corners: turned a quarter, the printed top-left shows at the upright top-right.
    @Test(.obscura(device: "iphone-15-pro", scene: "qr-on-desk"), arguments: [CGImagePropertyOrientation.right, .down])
    func orientationTurnsTheCorners(_ orientation: CGImagePropertyOrientation) throws {
        let photo = try CodePhoto.take()
        let request = VNDetectBarcodesRequest()
        request.symbologies = [.qr]
        try VNImageRequestHandler(cgImage: photo.image, orientation: orientation, options: [:]).perform([request])
        let qr = try #require(Self.codes(request).first)
        #expect(qr.payloadStringValue == "https://example.com")
        let (w, h) = (Double(photo.image.width), Double(photo.image.height))
        let turns = orientation == .right
        let (uw, uh) = turns ? (photo.image.height, photo.image.width) : (photo.image.width, photo.image.height)
        let truth = Self.projectedQRCorners(photo).map {
            let upright = VNDetectRectanglesRequestTests.upright($0, orientation, w: w, h: h)
            return Drawing.normalised(upright, width: uw, height: uh)
        }
        let tolerance = 1.5 * Self.qrModule(photo) / Double(min(uw, uh))
        for (corner, want) in zip([qr.topLeft, qr.topRight, qr.bottomRight, qr.bottomLeft], truth) {
            expectNear(corner, want, tolerance, "\(orientation)")
        }
        if orientation == .right { #expect(qr.topLeft.x > 0.5 && qr.topLeft.y > 0.5) }
    }

    // spec §22.3 rule 9: only the symbologies asked for are read. The EAN-13 label beside the card, its modules under
    // a pixel at this distance, is not read either.
    @Test(.obscura(device: "iphone-15-pro", scene: "qr-on-desk"))
    func symbologiesLimitWhatIsRead() throws {
        let photo = try CodePhoto.take()
        let handler = VNImageRequestHandler(cgImage: photo.image, options: [:])
        let eanOnly = VNDetectBarcodesRequest()
        eanOnly.symbologies = [.ean13]
        let matrixCodes = VNDetectBarcodesRequest()
        matrixCodes.symbologies = [.dataMatrix, .aztec]
        let unread = VNDetectBarcodesRequest()
        unread.symbologies = [.codabar, .microQR]
        let both = VNDetectBarcodesRequest()
        both.symbologies = [.ean13, .qr]
        try handler.perform([eanOnly, matrixCodes, unread, both])
        #expect(eanOnly.results?.isEmpty == true)
        #expect(matrixCodes.results?.isEmpty == true)
        #expect(unread.results?.isEmpty == true)
        #expect(both.results?.map(\.symbology) == [.qr])
    }

    // spec §22.1 rule 4: a region of interest that leaves the card out finds nothing; one around it normalises the
    // corners to itself.
    @Test(.obscura(device: "iphone-15-pro", scene: "qr-on-desk"))
    func regionOfInterestLimitsTheSearch() throws {
        let photo = try CodePhoto.take()
        let handler = VNImageRequestHandler(cgImage: photo.image, options: [:])
        let corner = VNDetectBarcodesRequest()
        corner.regionOfInterest = CGRect(x: 0, y: 0, width: 0.3, height: 0.3)
        let around = VNDetectBarcodesRequest()
        let roi = CGRect(x: 0.25, y: 0.2, width: 0.5, height: 0.6)
        around.regionOfInterest = roi
        try handler.perform([corner, around])
        #expect(corner.results?.isEmpty == true)
        let qr = try #require(around.results?.first)
        let (w, h) = (photo.image.width, photo.image.height)
        let truth = Self.projectedQRCorners(photo).map { Drawing.normalised($0, width: w, height: h) }
        let tolerance = 1.5 * Self.qrModule(photo) / min(Double(w) * roi.width, Double(h) * roi.height)
        for (got, want) in zip([qr.topLeft, qr.topRight, qr.bottomRight, qr.bottomLeft], truth) {
            let inRegion = CGPoint(x: (want.x - roi.minX) / roi.width, y: (want.y - roi.minY) / roi.height)
            expectNear(got, inRegion, tolerance, "normalised to the region")
        }
    }

    /// Linear and matrix codes on a label 0.3 m away (linear 0.3 m × 0.1 m, matrix 0.2 m square): what was printed,
    /// the symbology Vision names it by, and the text a reader gives back (numeric codes with their check digit).
    static let labels: [(scene: String, value: String, size: String, symbology: VNBarcodeSymbology, read: String)] = [
        ("ean13", "400638133393", "[0.30, 0.10]", .ean13, "4006381333931"),
        ("code128", "OBSCURA-128", "[0.30, 0.10]", .code128, "OBSCURA-128"),
        ("itf14", "1234567890123", "[0.30, 0.10]", .itf14, "12345678901231"),
        ("dataMatrix", "Obscura Data Matrix", "[0.20, 0.20]", .dataMatrix, "Obscura Data Matrix"),
    ]

    // spec §22.3 rule 8: other symbologies are read and named with Vision's names.
    @Test(arguments: 0..<4) func labelsAreReadWithTheirSymbology(_ index: Int) throws {
        let label = Self.labels[index]
        let scene = try CodePhoto.labelScene(type: label.scene, value: label.value, size: label.size)
        defer { try? FileManager.default.removeItem(atPath: (scene as NSString).deletingLastPathComponent) }
        try Emulator.shared.withWorld(device: "iphone-15-pro", scene: scene) {
            let photo = try CodePhoto.take()
            let request = VNDetectBarcodesRequest()
            try VNImageRequestHandler(cgImage: photo.image, options: [:]).perform([request])
            let code = try #require(Self.codes(request).first, "\(label.scene) was not read")
            #expect(code.symbology == label.symbology)
            #expect(code.payloadStringValue == label.read)
            #expect(code.payloadData == Data(label.read.utf8))
            // The label is centred on the optical axis.
            #expect(abs(code.boundingBox.midX - 0.5) < 0.05 && abs(code.boundingBox.midY - 0.5) < 0.05)
        }
    }
}

/// What does not need the reader: an empty image fails the request wherever it runs.
@Suite struct VNDetectBarcodesRequestImageTests {
    // spec §22.1 rule 3: an image with no pixels is `invalidImage`, with or without zxing-cpp.
    @Test func anEmptyImageThrows() throws {
        let request = VNDetectBarcodesRequest()
        let error = try #require(
            #expect(throws: NSError.self) { try VNImageRequestHandler(ciImage: CIImage.empty()).perform([request]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.invalidImage.rawValue)
        #expect(request.results == nil)
    }
}

/// Without zxing-cpp the request supports no symbology and finds nothing, and nothing crashes (spec §22.3 rule 10).
/// These run where the library is absent; `.ci/run` hides it in a private mount namespace and runs them again.
@Suite(.enabled(if: !ExternalTool.zxing.isPresent, "zxing-cpp is present"))
struct VNDetectBarcodesRequestAbsenceTests {
    @Test(.obscura(device: "iphone-15-pro"))
    func nothingIsSupportedAndNothingIsFound() throws {
        let request = VNDetectBarcodesRequest()
        #expect(try request.supportedSymbologies().isEmpty)
        #expect(request.symbologies.isEmpty)
        let photo = try CodePhoto.take()
        try VNImageRequestHandler(cgImage: photo.image, options: [:]).perform([request])
        #expect(request.results?.isEmpty == true)
        let asked = VNDetectBarcodesRequest()
        asked.symbologies = [.qr]
        try VNImageRequestHandler(cgImage: photo.image, options: [:]).perform([asked])
        #expect(asked.results?.isEmpty == true)
    }
}
