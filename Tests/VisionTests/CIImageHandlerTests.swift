import CoreImage
import Foundation
import Testing
import Vision

/// A Core Image image reaches the requests as its rendered extent: a drawn print is found where it was drawn,
/// whether the image came straight from the picture or through a filter, and an empty image fails the request.
@Suite struct CIImageHandlerTests {
    @Test func aCIImagesPrintIsFoundWhereItWasDrawn() throws {
        let drawing = Drawing(width: 400, height: 300, shapes: [VNDetectRectanglesRequestTests.print])
        let truth = VNDetectRectanglesRequestTests.print.map { Drawing.normalised($0, width: 400, height: 300) }
        let image = CIImage(cgImage: try drawing.cgImage())
        // A colour filter keeps every edge where it is: the print is found in the filtered image too.
        let darker = image.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: -0.5])
        for input in [image, darker] {
            let request = VNDetectRectanglesRequestTests.scannerRequest()
            try VNImageRequestHandler(ciImage: input).perform([request])
            let found = try #require(VNDetectRectanglesRequestTests.rectangles(request).first)
            for (got, want) in zip([found.topLeft, found.topRight, found.bottomRight, found.bottomLeft], truth) {
                expectNear(got, want)
            }
        }
    }

    @Test func anEmptyCIImageIsAnInvalidImage() throws {
        let request = VNDetectRectanglesRequest()
        let error = try #require(
            #expect(throws: NSError.self) { try VNImageRequestHandler(ciImage: CIImage.empty()).perform([request]) })
        #expect(error.domain == VNErrorDomain && error.code == VNErrorCode.invalidImage.rawValue)
        #expect(request.results == nil)
    }
}
