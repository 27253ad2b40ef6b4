import Foundation
import Imaging
import ObscuraAV

/// The first revision of the barcode detector (`VNDetectBarcodesRequestRevision1`).
public let VNDetectBarcodesRequestRevision1 = 1
/// The second revision of the barcode detector (`VNDetectBarcodesRequestRevision2`).
public let VNDetectBarcodesRequestRevision2 = 2
/// The third revision of the barcode detector (`VNDetectBarcodesRequestRevision3`).
public let VNDetectBarcodesRequestRevision3 = 3
/// The fourth revision of the barcode detector (`VNDetectBarcodesRequestRevision4`).
public let VNDetectBarcodesRequestRevision4 = 4

/// Finds and reads barcodes in an image (`VNDetectBarcodesRequest`), one `VNBarcodeObservation` for each code read.
///
/// The reader is the capture API's own: zxing-cpp, which `AVCaptureMetadataOutput` reads codes with, here on the
/// luma of the upright image (or of its region of interest), so what a code looks like in the pixels (its size,
/// blur, angle and exposure) decides whether it is read. zxing-cpp is loaded when the program runs; where it is
/// missing, `supportedSymbologies()` is empty, `symbologies` starts empty, and performing the request finds
/// nothing, as a reader with no symbologies would. An image with no pixels still fails with
/// `VNErrorCode.invalidImage`.
///
/// The revisions differ on Apple's devices in the symbologies they know and how they locate linear codes; here
/// every revision runs the same reader with the same symbologies.
open class VNDetectBarcodesRequest: VNImageBasedRequest, @unchecked Sendable {
    /// The symbologies the request looks for; by default every one it supports (`supportedSymbologies()`). Those
    /// it does not support are never found. Setting `revision` resets this to every symbology the request
    /// supports, as Apple documents.
    public var symbologies: [VNBarcodeSymbology] = VNDetectBarcodesRequest.readableSymbologies

    /// The codes the last perform read, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNBarcodeObservation]? { super.results as? [VNBarcodeObservation] }

    /// The revision of the algorithm the request runs; setting it resets `symbologies`.
    public override var revision: Int {
        didSet { symbologies = Self.readableSymbologies }
    }

    /// The longest side of the reader's working copy: every frame of today's phones is read at full resolution,
    /// and larger images are box-averaged down by a whole factor.
    static let workingSize = 4096

    open override class var supportedRevisions: IndexSet {
        IndexSet([
            VNDetectBarcodesRequestRevision1, VNDetectBarcodesRequestRevision2, VNDetectBarcodesRequestRevision3,
            VNDetectBarcodesRequestRevision4,
        ])
    }

    /// The symbologies the request reads: none where zxing-cpp is missing.
    static var readableSymbologies: [VNBarcodeSymbology] {
        CodeReader.isAvailable ? VNBarcodeSymbology.readable.map(\.symbology) : []
    }

    /// The symbologies the request reads at its revision; empty where zxing-cpp did not load.
    public func supportedSymbologies() throws -> [VNBarcodeSymbology] { Self.readableSymbologies }

    /// The symbologies the request reads; empty where zxing-cpp did not load.
    @available(*, deprecated, message: "Use supportedSymbologies()")
    open class var supportedSymbologies: [VNBarcodeSymbology] { readableSymbologies }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        // The region is checked even when nothing can be read, so a bad one fails the same way everywhere
        // (spec §22.1 rule 4); without the reader nothing is found (spec §22.3 rule 10).
        let region = try image.region(regionOfInterest, workingSize: Self.workingSize)
        let types = symbologies.compactMap(\.readerType)
        guard CodeReader.isAvailable, !types.isEmpty else { return [] }
        let (width, height) = (region.plane.width, region.plane.height)
        // The reader takes 8-bit luma; the working copy holds it as 0…1.
        let luma = region.lumaBytes()
        // One observation per code, corners normalised to the region, origin at the bottom left (spec §22.3 rule 8).
        return CodeReader.read(luma: luma, width: width, height: height, types: types).compactMap { code in
            guard let symbology = VNBarcodeSymbology(readerType: code.type) else { return nil }
            return VNBarcodeObservation(
                requestRevision: revision, symbology: symbology, payloadStringValue: code.text,
                payloadData: code.payload.map { Data($0) },
                corners: code.corners.map { region.normalised(SIMD2(Double($0.x), Double($0.y))) })
        }
    }
}
