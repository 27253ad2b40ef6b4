import Foundation
import ObscuraAV

/// A barcode found in an image (`VNBarcodeObservation`): the rectangle of its symbol, its symbology and what it
/// says.
///
/// The corners are normalised to the processed image (or to the request's region of interest), origin at the
/// bottom left, and named by the symbol's own orientation: `topLeft` is the corner the symbol was printed with at
/// its top left (a QR code's is the finder pattern opposite its missing one), so a code turned in the picture has
/// its corners turned with it, as the capture output's code corners are (our choice: Apple does not say). For
/// linear codes the reader locates the line it decoded along, so the top and bottom corners may coincide.
/// `confidence` is 1: the reader reports a code only once its check digits or error correction agree.
open class VNBarcodeObservation: VNRectangleObservation, @unchecked Sendable {
    /// The symbology of the code.
    public let symbology: VNBarcodeSymbology
    /// The payload as text (UTF-8, or the character set the symbol declares); UPC-A reads as EAN-13, with a
    /// leading zero.
    public let payloadStringValue: String?
    /// The payload's bytes as the symbol encodes them, before any conversion of character set; nil where the
    /// reader's library does not give them.
    public let payloadData: Data?

    init(
        requestRevision: Int, symbology: VNBarcodeSymbology, payloadStringValue: String?, payloadData: Data?,
        corners: [CGPoint]
    ) {
        self.symbology = symbology
        self.payloadStringValue = payloadStringValue
        self.payloadData = payloadData
        super.init(
            requestRevision: requestRevision, topLeft: corners[0], topRight: corners[1], bottomRight: corners[2],
            bottomLeft: corners[3], confidence: 1)
    }
}
