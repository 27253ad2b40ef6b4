import CoreVideo
import Foundation
import Testing
import Vision

/// Bad input fails the request with Apple's error domain and codes; the completion handler hears of it.
@Suite struct VNErrorTests {
    static func card() throws -> CVPixelBuffer {
        try Drawing(
            width: 200, height: 150, shapes: [[SIMD2(50, 35), SIMD2(150, 35), SIMD2(150, 115), SIMD2(50, 115)]]
        ).pixelBuffer()
    }

    @Test func regionOfInterestOutsideTheImageFails() throws {
        var heard: (any Error)?
        var calls = 0
        let request = VNDetectRectanglesRequest { _, error in
            calls += 1
            heard = error
        }
        request.regionOfInterest = CGRect(x: 0.5, y: 0.5, width: 0.6, height: 0.4)
        let error = try #require(
            #expect(throws: NSError.self) { try VNImageRequestHandler(cvPixelBuffer: Self.card()).perform([request]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.invalidArgument.rawValue)
        #expect(calls == 1 && (heard as NSError?)?.code == VNErrorCode.invalidArgument.rawValue)
        #expect(request.results == nil)
    }

    @Test func aRegionThatCoversNoPixelIsAnEmptyImage() throws {
        let request = VNDetectRectanglesRequest()
        request.regionOfInterest = CGRect(x: 0.2, y: 0.2, width: 1e-6, height: 0.5)
        let error = try #require(
            #expect(throws: NSError.self) { try VNImageRequestHandler(cvPixelBuffer: Self.card()).perform([request]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.invalidImage.rawValue)
    }

    @Test func aDepthBufferIsNotAnImageToSearch() throws {
        var made: CVPixelBuffer?
        let status = CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_DepthFloat32, nil, &made)
        #expect(status == kCVReturnSuccess)
        let depth = try #require(made)
        let request = VNDetectRectanglesRequest()
        let error = try #require(
            #expect(throws: NSError.self) { try VNImageRequestHandler(cvPixelBuffer: depth).perform([request]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.invalidFormat.rawValue)
    }

    @Test func anUnknownRevisionFails() throws {
        let request = VNDetectRectanglesRequest()
        request.revision = 2
        let error = try #require(
            #expect(throws: NSError.self) { try VNImageRequestHandler(cvPixelBuffer: Self.card()).perform([request]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.unsupportedRevision.rawValue)
    }

    @Test func aFailingRequestDoesNotStopTheOthers() throws {
        let bad = VNDetectRectanglesRequest()
        bad.regionOfInterest = CGRect(x: -0.5, y: 0, width: 1, height: 1)
        var goodCalls = 0
        let good = VNDetectRectanglesRequest { _, error in
            goodCalls += 1
            #expect(error == nil)
        }
        good.minimumAspectRatio = 0.3
        good.maximumAspectRatio = 1
        #expect(throws: NSError.self) { try VNImageRequestHandler(cvPixelBuffer: Self.card()).perform([bad, good]) }
        #expect(goodCalls == 1 && good.results?.count == 1)
    }

    @Test func errorCodesHaveApplesValues() {
        #expect(VNErrorDomain == "com.apple.Vision")
        #expect(VNErrorCode.invalidFormat.rawValue == 2 && VNErrorCode.invalidImage.rawValue == 13)
        #expect(VNErrorCode.invalidArgument.rawValue == 14 && VNErrorCode.unsupportedRevision.rawValue == 16)
    }
}
