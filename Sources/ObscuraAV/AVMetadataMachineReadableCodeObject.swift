import Foundation
import Scenes

extension AVMetadataObject.ObjectType {
    /// QR code.
    public static let qr = Self(rawValue: "org.iso.QRCode")
    /// EAN-13 (including UPC-A).
    public static let ean13 = Self(rawValue: "org.gs1.EAN-13")
    /// EAN-8.
    public static let ean8 = Self(rawValue: "org.gs1.EAN-8")
    /// Code 128.
    public static let code128 = Self(rawValue: "org.iso.Code128")
    /// Code 39.
    public static let code39 = Self(rawValue: "org.iso.Code39")
    /// Code 93.
    public static let code93 = Self(rawValue: "com.intermec.Code93")
    /// PDF417.
    public static let pdf417 = Self(rawValue: "org.iso.PDF417")
    /// Aztec.
    public static let aztec = Self(rawValue: "org.iso.Aztec")
    /// Data Matrix.
    public static let dataMatrix = Self(rawValue: "org.iso.DataMatrix")
    /// UPC-E.
    public static let upce = Self(rawValue: "org.gs1.UPC-E")
    /// Interleaved 2 of 5.
    public static let interleaved2of5 = Self(rawValue: "org.ansi.Interleaved2of5")
    /// ITF-14.
    public static let itf14 = Self(rawValue: "org.gs1.ITF14")
    /// Code 39 with its modulo-43 check character.
    public static let code39Mod43 = Self(rawValue: "org.iso.Code39Mod43")
    /// Codabar (iOS 15.4).
    public static let codabar = Self(rawValue: "Codabar")
    /// GS1 DataBar (iOS 15.4); read from pictures, scenes cannot print it.
    public static let gs1DataBar = Self(rawValue: "org.gs1.GS1DataBar")
    /// GS1 DataBar Expanded (iOS 15.4); read from pictures, scenes cannot print it.
    public static let gs1DataBarExpanded = Self(rawValue: "org.gs1.GS1DataBarExpanded")
    /// GS1 DataBar Limited (iOS 15.4): not read here, so never available.
    public static let gs1DataBarLimited = Self(rawValue: "org.gs1.GS1DataBarLimited")
    /// Micro QR (iOS 15.4); read from pictures, scenes cannot print it.
    public static let microQR = Self(rawValue: "org.iso.MicroQR")
    /// Micro PDF417 (iOS 15.4): not read here, so never available.
    public static let microPDF417 = Self(rawValue: "org.iso.MicroPDF417")

    /// The machine-readable code types a camera's metadata output detects (spec §16 [D]).
    static let machineReadableCodes: [Self] = [
        .qr, .ean13, .ean8, .code128, .code39, .code93, .pdf417, .aztec, .dataMatrix, .upce, .interleaved2of5,
        .itf14, .code39Mod43, .codabar, .gs1DataBar, .gs1DataBarExpanded, .microQR,
    ]

    /// The type of a scene's printed code.
    init(_ symbology: CodeAnnotation.Symbology) {
        switch symbology {
        case .qr: self = .qr
        case .ean13: self = .ean13
        case .ean8: self = .ean8
        case .code128: self = .code128
        case .code39: self = .code39
        case .code93: self = .code93
        case .pdf417: self = .pdf417
        case .aztec: self = .aztec
        case .dataMatrix: self = .dataMatrix
        case .upce: self = .upce
        case .interleaved2of5: self = .interleaved2of5
        case .itf14: self = .itf14
        case .code39Mod43: self = .code39Mod43
        case .codabar: self = .codabar
        }
    }
}

/// A barcode found in a video frame (`AVMetadataMachineReadableCodeObject`): its decoded text
/// and the four corners of the printed code, in the same normalised coordinates as `bounds`.
open class AVMetadataMachineReadableCodeObject: AVMetadataObject, @unchecked Sendable {
    /// The decoded payload.
    public let stringValue: String?
    /// The code's corners, clockwise from the printed code's top-left corner (spec §16 [I]).
    public let corners: [CGPoint]

    init(
        type: ObjectType, time: CMTime, duration: CMTime, bounds: CGRect, corners: [CGPoint], stringValue: String?,
        name: String
    ) {
        self.stringValue = stringValue
        self.corners = corners
        super.init(type: type, time: time, duration: duration, bounds: bounds, name: name)
    }
}
