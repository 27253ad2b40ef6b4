import AVFoundation
import Foundation
import Testing

extension DropIn {
    /// An app that frames what stands out in the viewfinder: a metadata output asking for salient objects, as
    /// object-tracking camera code asks for them, with Apple's names only (spec §16 rule 3).
    @Suite struct SalientObjectIdiomTests {
        final class Collector: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
            private let lock = NSLock()
            private var seen: [[AVMetadataSalientObject]] = []
            let arrived = DispatchSemaphore(value: 0)

            var deliveries: [[AVMetadataSalientObject]] { lock.withLock { seen } }

            func metadataOutput(
                _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                from connection: AVCaptureConnection
            ) {
                let salient = metadataObjects.compactMap { $0 as? AVMetadataSalientObject }
                guard !salient.isEmpty else { return }
                lock.withLock { seen.append(salient) }
                arrived.signal()
            }
        }

        // The default scene's plant stands in the middle of a plain room: every delivery frames it, clear of the
        // frame's edges, and it keeps its identifier from one delivery to the next.
        @Test func theSubjectIsFramedAndKeepsItsIdentifier() throws {
            let session = AVCaptureSession()
            let output = AVCaptureMetadataOutput()
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            let camera = try #require(AVCaptureDevice.default(for: .video))
            let input = try AVCaptureDeviceInput(device: camera)
            if session.canAddInput(input) { session.addInput(input) }
            if session.canAddOutput(output) { session.addOutput(output) }
            session.commitConfiguration()
            let collector = Collector()
            output.setMetadataObjectsDelegate(collector, queue: DispatchQueue(label: "salient objects"))
            #expect(output.availableMetadataObjectTypes.contains(.salientObject))
            output.metadataObjectTypes = [.salientObject]
            session.startRunning()
            for _ in 0..<4 { #expect(collector.arrived.wait(timeout: .now() + 60) == .success) }
            session.stopRunning()
            let deliveries = collector.deliveries
            #expect(deliveries.count >= 4)
            let firstIDs = Set(deliveries.first?.map(\.objectID) ?? [])
            for objects in deliveries {
                #expect((1...3).contains(objects.count))
                let frame = objects.dropFirst().reduce(objects[0].bounds) { $0.union($1.bounds) }
                #expect(frame.minX > 0 && frame.minY > 0 && frame.maxX < 1 && frame.maxY < 1, "\(frame)")
                #expect(abs(frame.midX - 0.5) < 0.2 && abs(frame.midY - 0.5) < 0.2, "\(frame)")
                #expect(Set(objects.map(\.objectID)) == firstIDs)
                #expect(objects.allSatisfy { $0.type == .salientObject })
            }
        }
    }
}
