import CoreVideo
import ExternalTools
import Foundation
import Testing
import Vision

/// Object tracking as camera apps run it (spec §22.6): a face found once, then followed frame by frame with one
/// `VNSequenceRequestHandler`, each frame's request continuing from the observation the last one returned. The
/// frames are drawn, so where the face truly is in each is known.
@Suite struct VNTrackObjectRequestTests {
    /// The drawn face's centre in frame `k`: it drifts 5 pixels right and 2 up a frame.
    static func centre(_ k: Int) -> SIMD2<Double> { SIMD2(110 + 5 * Double(k), 130 - 2 * Double(k)) }

    static func frame(_ k: Int, face: Bool = true) throws -> CVPixelBuffer {
        try DrawnFace(
            width: 320, height: 240, faces: face ? [DrawnFace.Face(centre: centre(k), halfWidth: 45)] : []
        ).pixelBuffer()
    }

    /// The centre of a normalised box (origin at the bottom left) in the frame's pixels (origin at the top left).
    static func pixelCentre(_ box: CGRect) -> SIMD2<Double> {
        SIMD2(Double(box.midX) * 320, (1 - Double(box.midY)) * 240)
    }

    // The app's own box around the face on the first frame (as a tap or a detector gives it), then fifteen frames:
    // the box moves as the face does, to within two pixels, keeps the first observation's identity, and the tracker
    // is sure of it.
    @Test func aMovingFaceIsFollowed() throws {
        let first = VNDetectedObjectObservation(
            boundingBox: CGRect(
                x: (110 - 50) / 320.0, y: 1 - (130 + 60) / 240.0, width: 100 / 320.0, height: 120 / 240.0))
        let sequence = VNSequenceRequestHandler()
        var last = first
        let start = Self.pixelCentre(first.boundingBox)
        for k in 0...15 {
            let request = VNTrackObjectRequest(detectedObjectObservation: last)
            try sequence.perform([request], on: try Self.frame(k))
            let result = try #require(request.results?.first)
            #expect(request.results?.count == 1)
            #expect(result.uuid == first.uuid, "a tracker's results share its identity")
            let moved = Self.pixelCentre(result.boundingBox) - start
            let truth = Self.centre(k) - Self.centre(0)
            #expect(abs(moved.x - truth.x) <= 2 && abs(moved.y - truth.y) <= 2, "frame \(k): \(moved) vs \(truth)")
            #expect(result.confidence > 0.8, "frame \(k): \(result.confidence)")
            #expect(abs(result.boundingBox.width - first.boundingBox.width) < 0.03)
            last = result
        }
    }

    // Apple's face-tracking sample's loop: the same request, its input observation replaced by its last result
    // while the tracker is sure, and ended (isLastFrame) once it is not: when the face leaves the frame the
    // confidence falls below the sample's 0.3 cut.
    @Test func theTrackerLosesAFaceThatLeaves() throws {
        let first = VNDetectedObjectObservation(
            boundingBox: CGRect(
                x: (110 - 50) / 320.0, y: 1 - (130 + 60) / 240.0, width: 100 / 320.0, height: 120 / 240.0))
        let request = VNTrackObjectRequest(detectedObjectObservation: first)
        request.trackingLevel = .fast
        let sequence = VNSequenceRequestHandler()
        for k in 0..<4 {
            try sequence.perform([request], on: try Self.frame(k))
            let result = try #require(request.results?.first)
            #expect(result.confidence > 0.8)
            request.inputObservation = result
        }
        try sequence.perform([request], on: try Self.frame(4, face: false))
        let lost = try #require(request.results?.first)
        #expect(lost.confidence < 0.3, "\(lost.confidence)")
        request.isLastFrame = true
        try sequence.perform([request], on: try Self.frame(5, face: false))
        // The tracker ended with that frame: the same observation now begins a new one, on this frame.
        request.isLastFrame = false
        request.inputObservation = lost
        try sequence.perform([request], on: try Self.frame(6))
        let restarted = try #require(request.results?.first)
        let (a, b) = (restarted.boundingBox, lost.boundingBox)
        #expect(abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9 && abs(a.width - b.width) < 1e-9)
        #expect(restarted.confidence == 1)
    }

    // A document scanner's live view: the print found once by the rectangle request, then its corners followed as
    // it slides 4 pixels right and 3 down a frame, each within two pixels of where it was drawn, with the first
    // observation's identity; when the print is gone the tracker says so with no confidence.
    @Test func aSlidingPrintsCornersAreFollowed() throws {
        let print = VNDetectRectanglesRequestTests.print
        func frame(_ k: Int, print shown: Bool = true) -> Drawing {
            Drawing(
                width: 400, height: 300, shapes: shown ? [print.map { $0 + SIMD2(4 * Double(k), 3 * Double(k)) }] : [])
        }
        let detect = VNDetectRectanglesRequestTests.scannerRequest()
        try VNImageRequestHandler(cvPixelBuffer: try frame(0).pixelBuffer(), options: [:]).perform([detect])
        var last = try #require(detect.results?.first)
        let identity = last.uuid
        let sequence = VNSequenceRequestHandler()
        for k in 1...8 {
            let request = VNTrackRectangleRequest(rectangleObservation: last)
            try sequence.perform([request], on: try frame(k).pixelBuffer())
            let found = try #require(request.results?.first)
            #expect(found.uuid == identity && found.confidence > 0.5)
            let truth = print.map {
                Drawing.normalised($0 + SIMD2(4 * Double(k), 3 * Double(k)), width: 400, height: 300)
            }
            for (corner, want) in zip([found.topLeft, found.topRight, found.bottomRight, found.bottomLeft], truth) {
                expectNear(corner, want, 0.006, "frame \(k)")
            }
            last = found
        }
        let request = VNTrackRectangleRequest(rectangleObservation: last)
        try sequence.perform([request], on: try frame(9, print: false).pixelBuffer())
        #expect(request.results?.first?.confidence == 0)
    }

    @Test func defaultsAndRevisions() {
        let request = VNTrackObjectRequest(detectedObjectObservation: VNDetectedObjectObservation(boundingBox: .zero))
        #expect(request.trackingLevel == .accurate && !request.isLastFrame)
        #expect(request.revision == VNTrackObjectRequestRevision2)
        #expect(VNTrackObjectRequest.supportedRevisions == IndexSet([1, 2]))
        #expect(request.results == nil)
    }
}
