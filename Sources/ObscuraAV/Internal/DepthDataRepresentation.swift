import Devices
import Foundation
import Sensor

/// The auxiliary-data dictionary of a depth map (spec §9) and its serialised form inside photo
/// files.
///
/// Metadata keys (Obscura's, where Apple writes XMP): `DepthDataAccuracy` (0 relative,
/// 1 absolute), `DepthDataQuality` (0 low, 1 high), `DepthDataFiltered` (Bool) and, when known,
/// `CameraCalibration`, a dictionary of `fx fy cx cy referenceWidth referenceHeight rotation
/// (9 numbers, row by row) translationMM (3) pixelSizeMM lookupTable inverseLookupTable
/// distortionCenter (2)`.
enum DepthDataRepresentation {
    static func dictionary(of map: DepthMap) -> [AnyHashable: Any] {
        let half = map.format.isHalfPrecision
        let bytesPerRow = map.width * (half ? 2 : 4)
        var data = Data(capacity: bytesPerRow * map.height)
        for v in map.values {
            if half {
                withUnsafeBytes(of: Float16(v).bitPattern.littleEndian) { data.append(contentsOf: $0) }
            } else {
                withUnsafeBytes(of: v.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            }
        }
        var metadata: [String: Any] = [
            "DepthDataAccuracy": map.accuracy == .absolute ? 1 : 0,
            "DepthDataQuality": map.quality == .high ? 1 : 0,
            "DepthDataFiltered": map.isFiltered,
        ]
        if let c = map.calibration { metadata["CameraCalibration"] = calibrationDictionary(c) }
        return [
            kCGImageAuxiliaryDataInfoData: data,
            kCGImageAuxiliaryDataInfoDataDescription: [
                "Width": map.width, "Height": map.height, "BytesPerRow": bytesPerRow,
                "PixelFormat": Int(map.format.fourCharCode),
            ] as [String: Any],
            kCGImageAuxiliaryDataInfoMetadata: metadata,
        ]
    }

    static func map(from dictionary: [AnyHashable: Any]) throws -> DepthMap {
        guard let data = dictionary[kCGImageAuxiliaryDataInfoData] as? Data else {
            throw DepthDataError.malformed("no \(kCGImageAuxiliaryDataInfoData)")
        }
        guard let description = dictionary[kCGImageAuxiliaryDataInfoDataDescription] as? [String: Any],
            let width = int(description["Width"]), let height = int(description["Height"]),
            let bytesPerRow = int(description["BytesPerRow"]), let code = int(description["PixelFormat"])
        else { throw DepthDataError.malformed("\(kCGImageAuxiliaryDataInfoDataDescription) lacks a key") }
        guard let format = AVDepthData.pixelFormat(OSType(truncatingIfNeeded: code)) else {
            throw DepthDataError.malformed("PixelFormat \(code) is not a depth format")
        }
        let size = format.isHalfPrecision ? 2 : 4
        guard width > 0, height > 0, bytesPerRow >= width * size, data.count >= bytesPerRow * height else {
            throw DepthDataError.malformed("\(width)x\(height) at \(bytesPerRow) bytes per row needs more data")
        }
        var values = [Float](repeating: .nan, count: width * height)
        data.withUnsafeBytes { raw in
            for y in 0..<height {
                for x in 0..<width {
                    let at = y * bytesPerRow + x * size
                    if size == 2 {
                        let bits = UInt16(raw[at]) | UInt16(raw[at + 1]) << 8
                        values[y * width + x] = Float(Float16(bitPattern: bits))
                    } else {
                        var bits: UInt32 = 0
                        for k in 0..<4 { bits |= UInt32(raw[at + k]) << (8 * UInt32(k)) }
                        values[y * width + x] = Float(bitPattern: bits)
                    }
                }
            }
        }
        let metadata = dictionary[kCGImageAuxiliaryDataInfoMetadata] as? [String: Any] ?? [:]
        let calibration = try (metadata["CameraCalibration"] as? [String: Any]).map(calibration(from:))
        return DepthMap(
            width: width, height: height, format: format, values: values,
            accuracy: int(metadata["DepthDataAccuracy"]) == 1 ? .absolute : .relative,
            quality: int(metadata["DepthDataQuality"]) == 0 ? .low : .high,
            isFiltered: metadata["DepthDataFiltered"] as? Bool ?? false, calibration: calibration)
    }

    static func calibrationDictionary(_ c: CameraCalibration) -> [String: Any] {
        [
            "fx": c.fx, "fy": c.fy, "cx": c.cx, "cy": c.cy, "referenceWidth": c.referenceWidth,
            "referenceHeight": c.referenceHeight, "rotation": c.rotation.flatMap { [$0.x, $0.y, $0.z] },
            "translationMM": [c.translationMM.x, c.translationMM.y, c.translationMM.z], "pixelSizeMM": c.pixelSizeMM,
            "lookupTable": c.lookupTable, "inverseLookupTable": c.inverseLookupTable,
            "distortionCenter": [c.distortionCenter.x, c.distortionCenter.y],
        ]
    }

    static func calibration(from d: [String: Any]) throws -> CameraCalibration {
        func number(_ key: String) throws -> Double {
            guard let v = double(d[key]) else { throw DepthDataError.malformed("CameraCalibration lacks \(key)") }
            return v
        }
        func numbers(_ key: String, count: Int? = nil) throws -> [Double] {
            guard let a = d[key] as? [Any] else { throw DepthDataError.malformed("CameraCalibration lacks \(key)") }
            let v = a.compactMap(double)
            guard v.count == a.count, count == nil || v.count == count else {
                throw DepthDataError.malformed("CameraCalibration \(key) has the wrong count")
            }
            return v
        }
        let r = try numbers("rotation", count: 9)
        let t = try numbers("translationMM", count: 3)
        let c = try numbers("distortionCenter", count: 2)
        return CameraCalibration(
            fx: try number("fx"), fy: try number("fy"), cx: try number("cx"), cy: try number("cy"),
            referenceWidth: try number("referenceWidth"), referenceHeight: try number("referenceHeight"),
            rotation: [SIMD3(r[0], r[1], r[2]), SIMD3(r[3], r[4], r[5]), SIMD3(r[6], r[7], r[8])],
            translationMM: SIMD3(t[0], t[1], t[2]), pixelSizeMM: try number("pixelSizeMM"),
            lookupTable: try numbers("lookupTable"), inverseLookupTable: try numbers("inverseLookupTable"),
            distortionCenter: SIMD2(c[0], c[1]))
    }

    private static func int(_ value: Any?) -> Int? {
        if let v = value as? Int { return v }
        if let v = value as? NSNumber { return v.intValue }
        if let v = value as? Double { return Int(v) }
        return nil
    }

    private static func double(_ value: Any?) -> Double? {
        if let v = value as? Double { return v }
        if let v = value as? Int { return Double(v) }
        if let v = value as? NSNumber { return v.doubleValue }
        return nil
    }
}
