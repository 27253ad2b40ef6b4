import Foundation
import Imaging
import Sensor

/// Depth stored as an 8-bit grey image beside a photo (the JPEG MPF second image, the HEIC
/// auxiliary depth image), with what `AVDepthData(fromDictionaryRepresentation:)` needs in XMP.
///
/// Codes: 0 marks a hole (NaN); 16…255 map linearly onto the map's finite range
/// [minimum, maximum], written in the XMP. A code therefore stands for (maximum − minimum) / 239
/// of depth or disparity, and a decoded value lies within half of that of the original where the
/// image is stored losslessly (HEIC). JPEG is lossy even at quality 100: a code may move by a few
/// steps, and any code below 8 reads as a hole, so the gap between 0 and 16 absorbs ringing at
/// hole edges.
///
/// XMP properties (namespace `urn:obscura:depth:1.0`, prefix `depth`): AuxiliaryDataType,
/// PixelFormat (the four-character code as a number), Minimum, Maximum, Accuracy (0 relative,
/// 1 absolute), Quality (0 low, 1 high), Filtered, and CameraCalibration as the calibration
/// dictionary in JSON. Apple writes its own XMP namespace; this one is ours.
package enum DepthImageCoding {
    static let holeCode: UInt8 = 0
    static let firstCode: UInt8 = 16
    static let holeThreshold: UInt8 = 8
    package static let namespace = "urn:obscura:depth:1.0"

    /// The grey image and XMP packet of depth (metres) or disparity (1/metres) values given row by row, as a
    /// file writer outside the capture path stores them (Core Image's `depthImage` and `disparityImage`
    /// options): 32-bit, relative accuracy, no calibration.
    package static func encode(values: [Float], width: Int, height: Int, disparity: Bool)
        -> (image: PixelPlane<UInt8>, xmp: [UInt8])
    {
        encode(
            DepthMap(
                width: width, height: height, format: disparity ? .disparityFloat32 : .depthFloat32, values: values,
                accuracy: .relative))
    }

    /// The grey image and its XMP packet.
    static func encode(_ map: DepthMap) -> (image: PixelPlane<UInt8>, xmp: [UInt8]) {
        let finite = map.values.filter(\.isFinite)
        let low = finite.min() ?? 0
        let high = finite.max() ?? 0
        let steps = Float(255 - Int(firstCode))
        let scale = high > low ? steps / (high - low) : 0
        let image = PixelPlane<UInt8>(width: map.width, height: map.height, elements: map.values.map { v in
            guard v.isFinite else { return holeCode }
            return firstCode + UInt8(min(steps, max(0, ((v - low) * scale).rounded())))
        })
        let auxiliaryType = map.isDisparity ? kCGImageAuxiliaryDataTypeDisparity as String : kCGImageAuxiliaryDataTypeDepth as String
        var properties: [(String, String)] = [
            ("AuxiliaryDataType", auxiliaryType),
            ("PixelFormat", String(map.format.fourCharCode)),
            // Shortest round-trip decimal forms, so the range survives exactly.
            ("Minimum", "\(low)"), ("Maximum", "\(high)"),
            ("Accuracy", map.accuracy == .absolute ? "1" : "0"),
            ("Quality", map.quality == .high ? "1" : "0"),
            ("Filtered", map.isFiltered ? "True" : "False"),
        ]
        if let c = map.calibration,
            let json = try? JSONSerialization.data(
                withJSONObject: DepthDataRepresentation.calibrationDictionary(c), options: [.sortedKeys])
        {
            properties.append(("CameraCalibration", String(decoding: json, as: UTF8.self)))
        }
        let attributes = properties.map { "depth:\($0.0)=\"\(escaped($0.1))\"" }.joined(separator: "\n    ")
        let packet = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about="" xmlns:depth="\(namespace)"
                \(attributes)/>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
        return (image, Array(packet.utf8))
    }

    /// The auxiliary-data dictionary (as `AVDepthData.dictionaryRepresentation` gives it) of a
    /// stored depth image and its XMP.
    package static func dictionary(image: PixelPlane<UInt8>, xmp: [UInt8]) throws -> [AnyHashable: Any] {
        let p = properties(in: String(decoding: xmp, as: UTF8.self))
        guard let code = p["PixelFormat"].flatMap(UInt32.init), let format = AVDepthData.pixelFormat(code),
            let low = p["Minimum"].flatMap(Float.init), let high = p["Maximum"].flatMap(Float.init)
        else { throw DepthDataError.malformed("the depth image's XMP lacks PixelFormat, Minimum or Maximum") }
        let step = (high - low) / Float(255 - Int(firstCode))
        let values = image.packedElements.map { c -> Float in
            c < holeThreshold ? .nan : low + Float(max(c, firstCode) - firstCode) * step
        }
        var calibration: CameraCalibration?
        if let json = p["CameraCalibration"] {
            guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
                throw DepthDataError.malformed("CameraCalibration in the depth XMP is not a JSON object")
            }
            calibration = try DepthDataRepresentation.calibration(from: object)
        }
        let map = DepthMap(
            width: image.width, height: image.height, format: format, values: values,
            accuracy: p["Accuracy"] == "1" ? .absolute : .relative, quality: p["Quality"] == "0" ? .low : .high,
            isFiltered: p["Filtered"] == "True", calibration: calibration)
        return DepthDataRepresentation.dictionary(of: map)
    }

    /// `depth:Name="value"` attributes of the packet, unescaped.
    static func properties(in xmp: String) -> [String: String] {
        var out: [String: String] = [:]
        var rest = xmp[...]
        while let r = rest.range(of: "depth:") {
            rest = rest[r.upperBound...]
            guard let eq = rest.range(of: "=\""), let close = rest[eq.upperBound...].firstIndex(of: "\"") else { break }
            let name = String(rest[..<eq.lowerBound])
            if name.allSatisfy({ $0.isLetter }) { out[name] = unescaped(String(rest[eq.upperBound..<close])) }
            rest = rest[close...]
        }
        return out
    }

    private static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    private static func unescaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
