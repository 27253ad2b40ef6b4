import Foundation
import ObscuraAV

/// A kind of barcode (`VNBarcodeSymbology`), named as Apple names them; the raw value is the name of Apple's
/// constant (`VNBarcodeSymbologyQR` for `.qr`).
///
/// Every symbology Apple declares has its constant, so that code naming one compiles, but a request reads only
/// those `VNDetectBarcodesRequest.supportedSymbologies()` lists: the ones zxing-cpp reads for the capture API's
/// metadata output, and only where that library loads (see `VNDetectBarcodesRequest`).
public struct VNBarcodeSymbology: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Aztec.
    public static let aztec = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyAztec")
    /// Codabar.
    public static let codabar = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCodabar")
    /// Code 39.
    public static let code39 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode39")
    /// Code 39 with a check digit.
    public static let code39Checksum = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode39Checksum")
    /// Code 39 full ASCII.
    public static let code39FullASCII = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode39FullASCII")
    /// Code 39 full ASCII with a check digit.
    public static let code39FullASCIIChecksum = VNBarcodeSymbology(
        rawValue: "VNBarcodeSymbologyCode39FullASCIIChecksum")
    /// Code 93.
    public static let code93 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode93")
    /// Code 93i.
    public static let code93i = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode93i")
    /// Code 128.
    public static let code128 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode128")
    /// Data Matrix.
    public static let dataMatrix = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyDataMatrix")
    /// EAN-8.
    public static let ean8 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyEAN8")
    /// EAN-13 (UPC-A reads as EAN-13 with a leading zero).
    public static let ean13 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyEAN13")
    /// GS1 DataBar.
    public static let gs1DataBar = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyGS1DataBar")
    /// GS1 DataBar Expanded.
    public static let gs1DataBarExpanded = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyGS1DataBarExpanded")
    /// GS1 DataBar Limited.
    public static let gs1DataBarLimited = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyGS1DataBarLimited")
    /// Interleaved 2 of 5.
    public static let i2of5 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyI2of5")
    /// Interleaved 2 of 5 with a check digit.
    public static let i2of5Checksum = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyI2of5Checksum")
    /// ITF-14.
    public static let itf14 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyITF14")
    /// MicroPDF417.
    public static let microPDF417 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyMicroPDF417")
    /// Micro QR.
    public static let microQR = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyMicroQR")
    /// MSI Plessey.
    public static let msiPlessey = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyMSIPlessey")
    /// PDF417.
    public static let pdf417 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyPDF417")
    /// QR.
    public static let qr = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyQR")
    /// UPC-E.
    public static let upce = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyUPCE")
}

// The capitalised names the symbologies had before iOS 15, which scanners written then still use.
extension VNBarcodeSymbology {
    @available(iOS, deprecated: 15.0, renamed: "aztec")
    public static let Aztec = VNBarcodeSymbology.aztec
    @available(iOS, deprecated: 15.0, renamed: "code39")
    public static let Code39 = VNBarcodeSymbology.code39
    @available(iOS, deprecated: 15.0, renamed: "code39Checksum")
    public static let Code39Checksum = VNBarcodeSymbology.code39Checksum
    @available(iOS, deprecated: 15.0, renamed: "code39FullASCII")
    public static let Code39FullASCII = VNBarcodeSymbology.code39FullASCII
    @available(iOS, deprecated: 15.0, renamed: "code39FullASCIIChecksum")
    public static let Code39FullASCIIChecksum = VNBarcodeSymbology.code39FullASCIIChecksum
    @available(iOS, deprecated: 15.0, renamed: "code93")
    public static let Code93 = VNBarcodeSymbology.code93
    @available(iOS, deprecated: 15.0, renamed: "code93i")
    public static let Code93i = VNBarcodeSymbology.code93i
    @available(iOS, deprecated: 15.0, renamed: "code128")
    public static let Code128 = VNBarcodeSymbology.code128
    @available(iOS, deprecated: 15.0, renamed: "dataMatrix")
    public static let DataMatrix = VNBarcodeSymbology.dataMatrix
    @available(iOS, deprecated: 15.0, renamed: "ean8")
    public static let EAN8 = VNBarcodeSymbology.ean8
    @available(iOS, deprecated: 15.0, renamed: "ean13")
    public static let EAN13 = VNBarcodeSymbology.ean13
    @available(iOS, deprecated: 15.0, renamed: "i2of5")
    public static let I2of5 = VNBarcodeSymbology.i2of5
    @available(iOS, deprecated: 15.0, renamed: "i2of5Checksum")
    public static let I2of5Checksum = VNBarcodeSymbology.i2of5Checksum
    @available(iOS, deprecated: 15.0, renamed: "itf14")
    public static let ITF14 = VNBarcodeSymbology.itf14
    @available(iOS, deprecated: 15.0, renamed: "pdf417")
    public static let PDF417 = VNBarcodeSymbology.pdf417
    @available(iOS, deprecated: 15.0, renamed: "qr")
    public static let QR = VNBarcodeSymbology.qr
    @available(iOS, deprecated: 15.0, renamed: "upce")
    public static let UPCE = VNBarcodeSymbology.upce
}

extension VNBarcodeSymbology {
    /// The symbologies the capture API's code reader reads, in the metadata output's names, which Vision's
    /// mirror one for one (interleaved 2 of 5 is `.i2of5` here, `.interleaved2of5` there).
    static let readable: [(symbology: VNBarcodeSymbology, type: AVMetadataObject.ObjectType)] = [
        (.aztec, .aztec), (.code39, .code39), (.code93, .code93), (.code128, .code128), (.dataMatrix, .dataMatrix),
        (.ean8, .ean8), (.ean13, .ean13), (.i2of5, .interleaved2of5), (.itf14, .itf14), (.pdf417, .pdf417),
        (.qr, .qr), (.upce, .upce), (.code39Checksum, .code39Mod43), (.codabar, .codabar),
        (.gs1DataBar, .gs1DataBar), (.gs1DataBarExpanded, .gs1DataBarExpanded), (.microQR, .microQR),
    ]

    /// The metadata type the code reader reads this symbology as; nil for a symbology it does not read.
    var readerType: AVMetadataObject.ObjectType? { Self.readable.first { $0.symbology == self }?.type }

    /// The symbology of a metadata type the code reader reported.
    init?(readerType: AVMetadataObject.ObjectType) {
        guard let pair = Self.readable.first(where: { $0.type == readerType }) else { return nil }
        self = pair.symbology
    }
}
