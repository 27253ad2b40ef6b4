import AVFoundation
import CoreImage
import ExternalTools
import Foundation
import Testing

extension DropIn {
    /// Without zxing-cpp the app sees a camera that reads no barcodes: faces and salient objects are still
    /// offered, no machine-readable type is, asking for one raises as any unavailable type does, and the
    /// stream runs on without a code (spec §16). These run where the library is absent; `.ci/run`
    /// hides it in a private mount namespace and runs this suite again.
    @Suite(.enabled(if: !ExternalTool.zxing.isPresent, "zxing-cpp is present"))
    struct CodeReaderAbsenceTests {
        @Test func noCodeTypeIsOfferedAndTheStreamRuns() throws {
            let rig = try ScannerRig()
            let output = rig.metadataOutput
            let codes: [AVMetadataObject.ObjectType] = [
                .qr, .ean13, .ean8, .code128, .code39, .code93, .pdf417, .aztec, .dataMatrix, .upce,
                .interleaved2of5, .itf14,
            ]
            #expect(output.availableMetadataObjectTypes.contains(.face))
            #expect(codes.allSatisfy { !output.availableMetadataObjectTypes.contains($0) })
            // The scanner idiom asks only for what is available, and so asks for nothing.
            output.metadataObjectTypes = codes.filter(output.availableMetadataObjectTypes.contains)
            #expect(output.metadataObjectTypes.isEmpty)
            output.metadataObjectTypes = [.face]
            let frames = FrameCounter()
            rig.videoOutput.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "frames"))
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            for _ in 0..<3 { #expect(frames.frames.wait(timeout: .now() + 60) == .success) }
        }

        /// Core Image's QR code generator, which zxing-cpp draws, gives no image rather than a wrong one.
        @Test func theQRCodeGeneratorGivesNoImage() throws {
            let filter = try #require(CIFilter(name: "CIQRCodeGenerator"))
            filter.setValue(Data("https://example.com".utf8), forKey: "inputMessage")
            #expect(filter.outputImage == nil)
        }

        /// So do the Aztec, Code 128 and PDF417 generators.
        @Test func theOtherBarcodeGeneratorsGiveNoImage() throws {
            for name in ["CIAztecCodeGenerator", "CICode128BarcodeGenerator", "CIPDF417BarcodeGenerator"] {
                let filter = try #require(CIFilter(name: name))
                filter.setValue(Data("OBSCURA".utf8), forKey: "inputMessage")
                #expect(filter.outputImage == nil, "\(name)")
            }
        }
    }
}

extension DropIn {
    /// Without OpenCV's face cascade the app sees a camera that finds no faces: `.face` is not offered, the
    /// scanner idiom that asks only for what is available asks for the rest, and the stream runs on (spec §16
    /// rule 1). These run where the cascade is absent; `.ci/run` hides it in a private mount namespace and runs
    /// this suite again.
    @Suite(.enabled(if: !ExternalTool.faceCascade.isPresent, "OpenCV's face cascade is present"))
    struct MetadataFaceAbsenceTests {
        @Test func noFaceIsOfferedAndTheStreamRuns() throws {
            let rig = try ScannerRig()
            let output = rig.metadataOutput
            #expect(!output.availableMetadataObjectTypes.contains(.face))
            #expect(output.availableMetadataObjectTypes.contains(.humanBody))
            output.metadataObjectTypes = [.face, .humanBody].filter(output.availableMetadataObjectTypes.contains)
            #expect(output.metadataObjectTypes == [.humanBody])
            let frames = FrameCounter()
            rig.videoOutput.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "frames"))
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            for _ in 0..<3 { #expect(frames.frames.wait(timeout: .now() + 60) == .success) }
        }
    }
}
