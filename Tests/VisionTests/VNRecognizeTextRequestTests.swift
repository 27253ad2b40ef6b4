import AVFoundation
import CoreImage
import ExternalTools
import Foundation
import Obscura
import ObscuraTesting
import Testing
import Vision

/// Text read from what the camera imaged (spec §22.4): the phone-number-card scene, a business card 85 × 55 mm
/// square to the camera 0.25 m away, photographed through the capture API on an iPhone 15 Pro and read as a
/// number-reading app reads it. The reference for where the text lies is the card's layout (`tools/
/// make_text_textures.py`) projected through the photo's camera matrix, which knows nothing of the reader.
@Suite(.needs(.tesseract))
struct VNRecognizeTextRequestTests {
    /// The lines read from `image`, as apps collect them: each observation's best candidate.
    static func read(_ handler: VNImageRequestHandler, configure: (VNRecognizeTextRequest) -> Void = { _ in })
        throws -> [VNRecognizedText]
    {
        let request = VNRecognizeTextRequest()
        configure(request)
        try handler.perform([request])
        return (request.results ?? []).compactMap { $0.topCandidates(1).first }
    }

    /// Where a point of the card (millimetres from its top-left corner) appears, normalised with Vision's origin
    /// at the bottom left: the card's centre is 0.25 m straight ahead, its width along the picture's x.
    static func projected(_ photo: CodePhoto, mmFromLeft: Double, mmFromTop: Double) -> CGPoint {
        let x = (mmFromLeft - 42.5) / 1000, y = (27.5 - mmFromTop) / 1000
        let u = photo.cx + photo.fx * x / 0.25, v = photo.cy - photo.fy * y / 0.25
        return CGPoint(x: u / Double(photo.image.width), y: 1 - v / Double(photo.image.height))
    }

    /// A 1920 × 1080 photo of the scene in the current world, with its camera matrix.
    static func takePhoto() throws -> CodePhoto {
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = .hd1920x1080
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        defer { session.stopRunning() }
        let waiter = CapturedPrintTests.PhotoWaiter()
        output.capturePhoto(with: AVCapturePhotoSettings(), delegate: waiter)
        #expect(waiter.wait())
        let photo = try #require(waiter.photo)
        let k = try #require(photo.pixelIntrinsicMatrix)
        return CodePhoto(
            image: try #require(photo.cgImageRepresentation()), fx: Double(k.columns.0.x), fy: Double(k.columns.1.y),
            cx: Double(k.columns.2.x), cy: Double(k.columns.2.y))
    }

    @Test(.obscura(device: "iphone-15-pro", scene: "phone-number-card"))
    func aPhotographedCardIsReadWhereItIsPrinted() throws {
        let photo = try Self.takePhoto()
        let lines = try Self.read(VNImageRequestHandler(cgImage: photo.image, options: [:]))
        let strings = lines.map { $0.string }
        #expect(strings.contains("Harbour Lights Cafe"), "read: \(strings)")
        // The recogniser may space a line otherwise than it is printed ("8 to6"), as any reader may.
        #expect(strings.contains { $0.filter { $0 != " " } == "Opendaily8to6" }, "read: \(strings)")
        let number = try #require(lines.first { $0.string.contains("415-555-0134") }, "read: \(strings)")
        // In reading order: the café's name, printed at the top, first; the number, at the bottom, last.
        #expect(strings.first == "Harbour Lights Cafe" && strings.last == number.string, "read: \(strings)")
        #expect(number.confidence > 0.5)
        // The number is printed from 6 mm in, its capitals 5 mm tall standing on a baseline 42 mm down.
        let range = try #require(number.string.range(of: "415-555-0134"))
        let box = try #require(try number.boundingBox(for: range)).boundingBox
        let baseline = Self.projected(photo, mmFromLeft: 6, mmFromTop: 42)
        let capTop = Self.projected(photo, mmFromLeft: 6, mmFromTop: 37)
        #expect(abs(box.minX - baseline.x) < 0.005, "left edge \(box.minX), printed at \(baseline.x)")
        #expect(abs(box.minY - baseline.y) < 0.005, "bottom \(box.minY), baseline at \(baseline.y)")
        #expect(abs(box.maxY - capTop.y) < 0.005, "top \(box.maxY), capitals reach \(capTop.y)")
        // Characters keep their own places: the last four digits lie right of the area code, on the same line.
        let areaRange = try #require(number.string.range(of: "415"))
        let lastRange = try #require(number.string.range(of: "0134"))
        let area = try #require(try number.boundingBox(for: areaRange)).boundingBox
        let last = try #require(try number.boundingBox(for: lastRange)).boundingBox
        #expect(area.maxX < last.minX && abs(area.midY - last.midY) < 0.005)
        #expect(box.contains(CGPoint(x: area.midX, y: area.midY)) && box.contains(CGPoint(x: last.midX, y: last.midY)))
        // Custom words join the language's word list; without correction no list is loaded. Either way the card
        // reads the same.
        let handler = VNImageRequestHandler(cgImage: photo.image, options: [:])
        let withWords = try Self.read(handler) { $0.customWords = ["Harbour", "Cafe"] }
        #expect(withWords.map { $0.string }.contains("Harbour Lights Cafe"), "read: \(withWords.map { $0.string })")
        let uncorrected = try Self.read(handler) { $0.usesLanguageCorrection = false }
        #expect(uncorrected.contains { $0.string.contains("415-555-0134") }, "read: \(uncorrected.map { $0.string })")
        // A range outside the string is an error, as Apple documents.
        let other = "a longer string than the line"
        #expect(throws: NSError.self) { try number.boundingBox(for: other.startIndex..<other.endIndex) }
    }

    // A number reader on the camera's video frames, as Apple's RealtimeNumberReader sample runs it: fast, without
    // language correction, on a band across the frame, with the frame's buffer handed to Vision as it arrives. A
    // settled frame holds the detail a photo of its size does, so the card's 5 mm digits read from a 1080p frame.
    @Test(.obscura(device: "iphone-15-pro", scene: "phone-number-card"))
    func videoFramesAreReadInTheRegionOfInterest() throws {
        let frames = FrameCollector(count: 1)
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .hd1920x1080
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        ]
        output.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "frames"))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        defer { session.stopRunning() }
        #expect(frames.done.wait(timeout: .now() + 60) == .success)
        let buffer = try #require(frames.samples.first.flatMap(CMSampleBufferGetImageBuffer))
        // The number's capitals reach from 9.5 to 14.5 mm below the card's centre, from 0.42 to 0.45 of the
        // frame's height (0.19 m at 0.25 m); the line above it starts at 0.51.
        let band = CGRect(x: 0.2, y: 0.35, width: 0.6, height: 0.14)
        let lines = try Self.read(VNImageRequestHandler(cvPixelBuffer: buffer, orientation: .up, options: [:])) {
            $0.recognitionLevel = .fast
            $0.usesLanguageCorrection = false
            $0.regionOfInterest = band
        }
        #expect(lines.map { $0.string } == ["415-555-0134"], "read: \(lines.map { $0.string })")
        // The wall above the card holds no text, and none is read from its noise.
        let above = try Self.read(VNImageRequestHandler(cvPixelBuffer: buffer, orientation: .up, options: [:])) {
            $0.regionOfInterest = CGRect(x: 0, y: 0.8, width: 1, height: 0.2)
        }
        #expect(above.isEmpty, "read: \(above.map { $0.string })")
    }

    // A large minimumTextHeight (a fraction of the image's height) reads a smaller copy: text well below it is
    // lost, as Apple describes the trade-off; none (0) reads the whole picture.
    @Test(.obscura(device: "iphone-15-pro", scene: "phone-number-card"))
    func textFarBelowTheMinimumHeightIsLost() throws {
        let photo = try Self.takePhoto()
        let handler = VNImageRequestHandler(cgImage: photo.image, options: [:])
        // The capitals are 5 mm at 0.25 m, about 2.6 % of the picture's height; a minimum of a quarter of it
        // reduces the copy eightfold, leaving them 3 or 4 pixels tall.
        let coarse = try Self.read(handler) { $0.minimumTextHeight = 0.25 }
        #expect(!coarse.contains { $0.string.contains("555") }, "read: \(coarse.map { $0.string })")
        let all = try Self.read(handler) { $0.minimumTextHeight = 0 }
        #expect(all.contains { $0.string.contains("415-555-0134") }, "read: \(all.map { $0.string })")
    }

    // Text rectangles are the words where they are printed (spec §22.4 rule 16): the number is one word of 12
    // characters at the card's layout projected, its characters left to right inside it; without
    // reportCharacterBoxes no characters are given.
    @Test(.obscura(device: "iphone-15-pro", scene: "phone-number-card"))
    func textRectanglesAreTheWords() throws {
        let photo = try Self.takePhoto()
        let handler = VNImageRequestHandler(cgImage: photo.image, options: [:])
        let request = VNDetectTextRectanglesRequest()
        request.reportCharacterBoxes = true
        try handler.perform([request])
        let words = try #require(request.results)
        // Three words of the name, four or five of the hours (the reader may run "to 6" together), one number.
        #expect((8...9).contains(words.count), "\(words.count) words")
        let number = try #require(words.min { $0.boundingBox.minY < $1.boundingBox.minY })
        let baseline = Self.projected(photo, mmFromLeft: 6, mmFromTop: 42)
        #expect(abs(number.boundingBox.minX - baseline.x) < 0.005, "left edge \(number.boundingBox.minX)")
        #expect(abs(number.boundingBox.minY - baseline.y) < 0.005, "bottom \(number.boundingBox.minY)")
        let characters = try #require(number.characterBoxes)
        #expect(characters.count == 12)
        let centres = characters.map { $0.boundingBox.midX }
        #expect(zip(centres, centres.dropFirst()).allSatisfy { $0 < $1 })
        let word = number.boundingBox.insetBy(dx: -0.001, dy: -0.001)
        #expect(characters.allSatisfy { word.contains($0.boundingBox) })
        // Reading order: the name's first word, at the top left, comes first.
        let first = try #require(words.first)
        #expect(
            first.boundingBox.minY > number.boundingBox.maxY && first.boundingBox.minX < number.boundingBox.minX + 0.005
        )
        let plain = VNDetectTextRectanglesRequest()
        try handler.perform([plain])
        #expect(plain.results?.count == words.count)
        #expect(plain.results?.allSatisfy { $0.characterBoxes == nil } == true)
    }

    /// What a request's handlers heard, in order.
    final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [(fraction: Double?, error: (any Error)?)] = []
        var all: [(fraction: Double?, error: (any Error)?)] { lock.withLock { events } }
        func note(_ fraction: Double?, _ error: (any Error)?) { lock.withLock { events.append((fraction, error)) } }
    }

    // A reading app shows a progress bar (spec §22.4 rule 17): the handler hears fractions that grow to 1, with no
    // error, all before the completion handler, and the text is read all the same.
    @Test(.obscura(device: "iphone-15-pro", scene: "phone-number-card"))
    func progressGrowsToOneBeforeTheCompletionHandler() throws {
        let photo = try Self.takePhoto()
        let heard = Progress()
        let request = VNRecognizeTextRequest { _, error in heard.note(nil, error) }
        #expect(!request.indeterminate)
        request.progressHandler = { _, fraction, error in heard.note(fraction, error) }
        try VNImageRequestHandler(cgImage: photo.image, options: [:]).perform([request])
        let events = heard.all
        let fractions = events.compactMap(\.fraction)
        #expect(fractions.count >= 2, "\(fractions)")
        #expect(
            zip(fractions, fractions.dropFirst()).allSatisfy { $0 < $1 }
                && fractions.allSatisfy { (0...1).contains($0) })
        #expect(fractions.last == 1)
        #expect(events.last?.fraction == nil && events.allSatisfy { $0.error == nil }, "the completion comes last")
        #expect(request.results?.contains { $0.topCandidates(1).first?.string == "Harbour Lights Cafe" } == true)
    }

    // Cancelling stops the reading: the request fails with requestCancelled and has no results; the next perform
    // of the same request reads again.
    @Test(.obscura(device: "iphone-15-pro", scene: "phone-number-card"))
    func cancellingStopsTheReading() throws {
        let photo = try Self.takePhoto()
        let handler = VNImageRequestHandler(cgImage: photo.image, options: [:])
        let heard = Progress()
        let request = VNRecognizeTextRequest { _, error in heard.note(nil, error) }
        // The user taps Cancel once the bar has moved: here, from the handler itself, the first time it is called.
        request.progressHandler = { request, fraction, _ in
            if heard.all.isEmpty { request.cancel() }
            heard.note(fraction, nil)
        }
        let error = try #require(#expect(throws: NSError.self) { try handler.perform([request]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.requestCancelled.rawValue)
        #expect(request.results == nil)
        let completion = try #require(heard.all.last?.error as? NSError)
        #expect(completion.code == VNErrorCode.requestCancelled.rawValue)
        #expect(!heard.all.contains { $0.fraction == 1 }, "a cancelled reading does not finish")

        request.progressHandler = { _, _, _ in }
        try handler.perform([request])
        #expect(request.results?.isEmpty == false)
    }

    @Test func defaultsLanguagesAndRevisions() throws {
        let request = VNRecognizeTextRequest()
        #expect(request.recognitionLevel == .accurate)
        #expect(request.recognitionLanguages == ["en-US"])
        #expect(request.usesLanguageCorrection)
        #expect(request.customWords.isEmpty)
        #expect(request.minimumTextHeight == 1.0 / 32)
        #expect(!request.automaticallyDetectsLanguage)
        #expect(VNRecognizeTextRequest.supportedRevisions == IndexSet([1, 2, 3]))
        #expect(request.revision == VNRecognizeTextRequestRevision3)
        #expect(try request.supportedRecognitionLanguages().contains("en-US"))
        // A language whose trained data is not installed fails the request, naming it.
        let klingon = VNRecognizeTextRequest()
        klingon.recognitionLanguages = ["tlh"]
        var white: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_32BGRA, nil, &white) == kCVReturnSuccess)
        let handler = VNImageRequestHandler(cvPixelBuffer: try #require(white), options: [:])
        let error = try #require(#expect(throws: NSError.self) { try handler.perform([klingon]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.invalidArgument.rawValue)
        #expect(error.localizedDescription.contains("tlh"))
        #expect(klingon.results == nil)
    }
}

/// Without libtesseract a text request fails, saying what to install, and nothing crashes (spec §22.4 rule 15).
/// These run where the library is absent; `.ci/run` hides it in a private mount namespace and runs them again.
@Suite(.enabled(if: !ExternalTool.tesseract.isPresent, "libtesseract is present"))
struct VNRecognizeTextRequestAbsenceTests {
    @Test func theRequestFailsNamingThePackages() throws {
        let request = VNRecognizeTextRequest()
        #expect(try request.supportedRecognitionLanguages().isEmpty)
        var white: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_32BGRA, nil, &white) == kCVReturnSuccess)
        let handler = VNImageRequestHandler(cvPixelBuffer: try #require(white), options: [:])
        let error = try #require(#expect(throws: NSError.self) { try handler.perform([request]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.unsupportedRequest.rawValue)
        #expect(error.localizedDescription.contains("tesseract-ocr-eng"))
        #expect(request.results == nil)
    }
}
