import Foundation

/// Depth embedded in an Obscura photo file: a private ancillary PNG chunk named `obDP`.
///
/// PNG (ISO/IEC 15948 §5.4) reads the name's case bits: `o` lower case, ancillary (a decoder
/// that does not know it skips it); `b` lower case, private; `D` upper case, the reserved bit;
/// `P` upper case, unsafe to copy, since the depth belongs to these very pixels and an editor
/// that changes them must drop it. The chunk sits just before `IEND`.
///
/// Its data is the auxiliary-data type (`kCGImageAuxiliaryDataTypeDisparity` or `…Depth`) in
/// UTF-8, one zero byte, then `AVDepthData.dictionaryRepresentation(forAuxiliaryDataType:)` as an
/// XML property list: its writer orders dictionary keys, where the binary writer follows the
/// dictionary's hash order, which changes from process to process, and the same capture must give
/// the same bytes. Apple's HEIF and JPEG files hold an auxiliary image plus XMP instead
/// (spec §9 [T W17]); this is the PNG equivalent Obscura writes and reads.
package enum PNGDepthChunk {
    static let type: [UInt8] = Array("obDP".utf8)

    /// The PNG with the chunk inserted before `IEND`; nil if the bytes are not a PNG or the
    /// dictionary cannot be serialised.
    static func embedding(_ depth: AVDepthData, in png: Data) -> Data? {
        var auxType: NSString?
        guard let dictionary = depth.dictionaryRepresentation(forAuxiliaryDataType: &auxType),
            let plist = try? PropertyListSerialization.data(
                fromPropertyList: stringKeyed(dictionary), format: .xml, options: 0),
            let iend = chunks(png)?.first(where: { $0.type == Array("IEND".utf8) })
        else { return nil }
        var payload = Data((auxType.map { String($0) } ?? kCGImageAuxiliaryDataTypeDisparity as String).utf8)
        payload.append(0)
        payload.append(plist)
        guard payload.count < Int(Int32.max) else { return nil }
        var chunk = Data()
        appendBigEndian(UInt32(payload.count), to: &chunk)
        let typeAndData = Data(type) + payload
        chunk.append(typeAndData)
        appendBigEndian(crc32(typeAndData), to: &chunk)
        var out = png.prefix(iend.start)
        out.append(chunk)
        out.append(png[iend.start...])
        return Data(out)
    }

    /// The auxiliary type and dictionary of the file's `obDP` chunk; nil if it has none.
    package static func dictionary(in file: Data) throws -> (type: String, dictionary: [AnyHashable: Any])? {
        guard let list = chunks(file) else { throw DepthDataError.malformed("the data is not a PNG file") }
        guard let chunk = list.first(where: { $0.type == type }) else { return nil }
        let payload = file.subdata(in: chunk.dataRange)
        guard crc32(Data(type) + payload) == chunk.crc else { throw DepthDataError.malformed("obDP chunk CRC mismatch") }
        guard let zero = payload.firstIndex(of: 0), let name = String(data: payload[..<zero], encoding: .utf8) else {
            throw DepthDataError.malformed("obDP chunk lacks its auxiliary-data type")
        }
        let plist = payload[payload.index(after: zero)...]
        guard let object = try? PropertyListSerialization.propertyList(from: Data(plist), options: [], format: nil),
            let dictionary = object as? [String: Any]
        else { throw DepthDataError.malformed("obDP chunk does not hold a property-list dictionary") }
        return (name, Dictionary(uniqueKeysWithValues: dictionary.map { (AnyHashable($0.key), $0.value) }))
    }

    private struct Chunk {
        let start: Int
        let type: [UInt8]
        let dataRange: Range<Int>
        let crc: UInt32
    }

    /// The chunks of a PNG byte stream (ISO/IEC 15948 §5.3), or nil if the signature or layout is wrong.
    private static func chunks(_ data: Data) -> [Chunk]? {
        let bytes = [UInt8](data)
        let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
        var at = 8
        var out: [Chunk] = []
        func word(_ i: Int) -> UInt32 { bytes[i..<i + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        while at + 12 <= bytes.count {
            let length = Int(word(at))
            guard length <= bytes.count - at - 12 else { return nil }
            let type = Array(bytes[at + 4..<at + 8])
            out.append(
                Chunk(start: at, type: type, dataRange: at + 8..<at + 8 + length, crc: word(at + 8 + length)))
            at += 12 + length
            if type == Array("IEND".utf8) { return out }
        }
        return nil
    }

    private static func stringKeyed(_ d: [AnyHashable: Any]) -> [String: Any] {
        Dictionary(uniqueKeysWithValues: d.map { ("\($0.key.base)", $0.value) })
    }

    private static func appendBigEndian(_ v: UInt32, to data: inout Data) {
        data.append(contentsOf: [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)])
    }

    /// CRC-32 of ISO 3309 / ITU-T V.42 as PNG uses it (ISO/IEC 15948 Annex D): polynomial
    /// 0xEDB88320 reflected, initial and final value all ones.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
