import Foundation
import Imaging

/// Mattes stored in a photo's file beside its pixels, as iPhones store them: in HEIC each is an
/// auxiliary image of the primary one, named by Apple's auxiliary-type URN in its `auxC` property;
/// in JPEG each is one more MPF image after the depth image, grey at libjpeg quality 100, with XMP
/// naming the same URN. HEIC stores the coverage exactly (lossless HEVC); JPEG may move a value by a
/// few steps.
///
/// The XMP is ours (namespace `urn:obscura:matte:1.0`, prefix `matte`, properties
/// AuxiliaryImageType and AuxiliaryDataType); Apple writes XMP of its own namespaces there.
package enum MatteFileCoding {
    static let namespace = "urn:obscura:matte:1.0"

    /// Apple's auxiliary-image URN for an ImageIO auxiliary-data type of a matte; nil for any other type.
    package static func auxiliaryImageType(_ auxiliaryDataType: String) -> String? {
        let urns: [(type: CFString, urn: String)] = [
            (kCGImageAuxiliaryDataTypePortraitEffectsMatte, "urn:com:apple:photo:2018:aux:portraiteffectsmatte"),
            (kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte, "urn:com:apple:photo:2019:aux:semantichairmatte"),
            (kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte, "urn:com:apple:photo:2019:aux:semanticskinmatte"),
            (kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte, "urn:com:apple:photo:2019:aux:semanticteethmatte"),
            (kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte, "urn:com:apple:photo:2020:aux:semanticglassesmatte"),
        ]
        return urns.first { $0.type as String == auxiliaryDataType }?.urn
    }

    /// One matte to store: its coverage and its auxiliary-data type.
    struct Embedded {
        let plane: PixelPlane<UInt8>
        let auxiliaryDataType: String
    }

    /// The XMP packet naming a stored matte's type.
    static func xmp(_ matte: Embedded) -> [UInt8] {
        let urn = auxiliaryImageType(matte.auxiliaryDataType) ?? ""
        let packet = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about="" xmlns:matte="\(namespace)"
                matte:AuxiliaryImageType="\(urn)"
                matte:AuxiliaryDataType="\(matte.auxiliaryDataType)"/>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
        return Array(packet.utf8)
    }

    /// The HEIC auxiliary image of one matte's coverage, for a file writer outside the capture path (Core
    /// Image's matte options); nil for a type that is not a matte's.
    package static func heifAuxiliary(_ plane: PixelPlane<UInt8>, auxiliaryDataType: String) -> HEIF.AuxiliaryImage? {
        heifAuxiliaries([Embedded(plane: plane, auxiliaryDataType: auxiliaryDataType)]).first
    }

    /// The HEIC auxiliary images of mattes.
    static func heifAuxiliaries(_ mattes: [Embedded]) -> [HEIF.AuxiliaryImage] {
        mattes.compactMap { m in
            auxiliaryImageType(m.auxiliaryDataType).map { HEIF.AuxiliaryImage(pixels: m.plane, type: $0, xmp: xmp(m)) }
        }
    }

    static let xmpHeader = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// The JPEG MPF images of mattes: grey at quality 100 with their XMP; nil when one does not encode.
    static func jpegImages(_ mattes: [Embedded]) -> [[UInt8]]? {
        var out: [[UInt8]] = []
        for m in mattes {
            let segment = JPEG.Segment(marker: 0xE1, data: xmpHeader + xmp(m))
            guard let encoded = try? JPEG.encode(m.plane, quality: 100, segments: [segment]) else { return nil }
            out.append(encoded)
        }
        return out
    }

    /// The coverage of the matte of an auxiliary-data type stored in a photo file (HEIC or JPEG); nil
    /// when the file holds none of that type. Throws when the file or the stored image does not decode.
    package static func plane(in file: [UInt8], auxiliaryDataType: String) throws -> PixelPlane<UInt8>? {
        guard let urn = auxiliaryImageType(auxiliaryDataType) else { return nil }
        if file.starts(with: [0xFF, 0xD8]) {
            let marker = Array("matte:AuxiliaryImageType=\"\(urn)\"".utf8)
            for image in MultiPictureFormat.images(in: file) ?? [] {
                let xmp = JPEG.applicationSegments(image)?.first { $0.data.starts(with: xmpHeader) }
                guard let xmp, xmp.data.firstRange(of: marker) != nil else { continue }
                return try JPEG.decodeGrey(Array(image))
            }
            return nil
        }
        if file.count > 12, Array(file[4..<8]) == Array("ftyp".utf8) {
            return try HEIF.auxiliaryImage(in: file, type: urn)?.pixels
        }
        return nil
    }

    /// The auxiliary-data dictionary (`kCGImageAuxiliaryDataInfoData` and its description) of the
    /// matte of a type stored in a photo file, as ImageIO hands it out; nil when there is none.
    package static func dictionary(in file: [UInt8], auxiliaryDataType: String) throws -> [AnyHashable: Any]? {
        try plane(in: file, auxiliaryDataType: auxiliaryDataType).map(MatteRepresentation.dictionary(of:))
    }
}
