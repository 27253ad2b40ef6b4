import Foundation

/// A DNG's tags as ImageIO's property dictionaries name them (the `{DNG}` dictionary, `kCGImagePropertyDNG…`), and a
/// raw image rebuilt from a Bayer mosaic and such a dictionary, as a RAW pixel buffer and its photo's metadata give
/// them.
extension DNGFile {
    /// The `{DNG}` dictionary of a raw image's levels and colour: BlackLevel, WhiteLevel, CFAPattern (TIFF/EP's
    /// notation, 0 red, 1 green, 2 blue), AsShotNeutral, ColorMatrix1 with CalibrationIlluminant1, ColorMatrix2 with
    /// CalibrationIlluminant2 where there is a second calibration, BaselineExposure, UniqueCameraModel, and
    /// OpcodeList2's bytes (as DNG stores them) where there are gain maps. Numbers are `NSNumber`s, the opcode list
    /// `Data`. A file's properties add its DNG versions (`properties(bytes:)`).
    public static func dngDictionary(
        blackLevel: Int, whiteLevel: Int, cfaPattern: [UInt8], asShotNeutral: SIMD3<Double>, xyzToCamera: [Double],
        calibrationIlluminant1: Int, secondCalibration: (illuminant: Int, xyzToCamera: [Double])?,
        baselineExposure: Double, uniqueCameraModel: String, gainMaps: [GainMap]
    ) -> [String: Any] {
        var dng: [String: Any] = [
            "BlackLevel": NSNumber(value: blackLevel), "WhiteLevel": NSNumber(value: whiteLevel),
            "CFAPattern": cfaPattern.map { NSNumber(value: $0) },
            "AsShotNeutral": [asShotNeutral.x, asShotNeutral.y, asShotNeutral.z].map { NSNumber(value: $0) },
            "ColorMatrix1": xyzToCamera.map { NSNumber(value: $0) },
            "CalibrationIlluminant1": NSNumber(value: calibrationIlluminant1),
            "BaselineExposure": NSNumber(value: baselineExposure),
            "UniqueCameraModel": uniqueCameraModel,
        ]
        if let second = secondCalibration {
            dng["ColorMatrix2"] = second.xyzToCamera.map { NSNumber(value: $0) }
            dng["CalibrationIlluminant2"] = NSNumber(value: second.illuminant)
        }
        if !gainMaps.isEmpty { dng["OpcodeList2"] = Data(opcodeList(gainMaps)) }
        return dng
    }

    /// The file's properties as ImageIO names them, for a DNG's `bytes` read as this file: what its TIFF and Exif
    /// tags say (`ImageProperties.exif(tiff:)`), the raw image's size and 16-bit depth, and the `{DNG}` dictionary
    /// (`dngDictionary`) with the file's DNGVersion and DNGBackwardVersion.
    public func properties(bytes: [UInt8]) -> [String: Any] {
        var out = ImageProperties.exif(tiff: bytes)
        out[ImageProperties.pixelWidth] = NSNumber(value: width)
        out[ImageProperties.pixelHeight] = NSNumber(value: height)
        out[ImageProperties.colorModel] = "RGB"
        out[ImageProperties.depth] = NSNumber(value: 16)
        var dng = Self.dngDictionary(
            blackLevel: blackLevel, whiteLevel: whiteLevel, cfaPattern: cfaPattern, asShotNeutral: asShotNeutral,
            xyzToCamera: xyzToCamera, calibrationIlluminant1: calibrationIlluminant1,
            secondCalibration: secondCalibration, baselineExposure: baselineExposure,
            uniqueCameraModel: uniqueCameraModel, gainMaps: gainMaps)
        dng["DNGVersion"] = [1, 4, 0, 0].map { NSNumber(value: $0) }
        dng["DNGBackwardVersion"] = (gainMaps.isEmpty ? [1, 1, 0, 0] : [1, 3, 0, 0]).map { NSNumber(value: $0) }
        out["{DNG}"] = dng
        return out
    }

    /// A raw image from a Bayer mosaic (`width × height` sensor values, row-major, in the 2 × 2 `cfaPattern`) and
    /// the photo properties that describe it: the `{DNG}` dictionary (`dngDictionary`'s keys) and the picture's
    /// `Orientation`, with Make and Model from `{TIFF}` where given.
    ///
    /// BlackLevel, WhiteLevel, ColorMatrix1 and AsShotNeutral are required; the rest take DNG's defaults (no
    /// second calibration, BaselineExposure 0, CalibrationIlluminant1 unknown, no gain maps). A CFAPattern given
    /// must be the mosaic's. Throws `ReadError.damaged` naming the key that is missing or impossible.
    public init(mosaic samples: [UInt16], width: Int, height: Int, cfaPattern: [UInt8], properties: [String: Any])
        throws(ReadError)
    {
        guard width >= 2, height >= 2, samples.count == width * height else {
            throw .damaged("a \(width) × \(height) mosaic of \(samples.count) samples")
        }
        guard let dng = properties["{DNG}"] as? [String: Any] else { throw .damaged("no {DNG} properties") }
        func number(_ key: String) -> Double? { Self.number(dng[key]) }
        func numbers(_ key: String, count: Int) throws(ReadError) -> [Double]? {
            guard let value = dng[key] else { return nil }
            guard let list = ImageProperties.numbers(value), list.count == count else {
                throw .damaged("{DNG} \(key) is not \(count) numbers")
            }
            return list
        }
        guard let black = number("BlackLevel"), let white = number("WhiteLevel") else {
            throw .damaged("{DNG} has no BlackLevel or WhiteLevel")
        }
        guard black >= 0, white > black, white <= 65535, black == black.rounded(), white == white.rounded() else {
            throw .damaged("{DNG} levels black \(black), white \(white)")
        }
        guard let matrix = try numbers("ColorMatrix1", count: 9) else { throw .damaged("{DNG} has no ColorMatrix1") }
        guard let neutral = try numbers("AsShotNeutral", count: 3) else {
            throw .damaged("{DNG} has no AsShotNeutral")
        }
        guard neutral.allSatisfy({ $0 > 0 }) else { throw .damaged("{DNG} AsShotNeutral \(neutral)") }
        if let pattern = try numbers("CFAPattern", count: 4), pattern != cfaPattern.map(Double.init) {
            throw .damaged("{DNG} CFAPattern \(pattern.map(Int.init)) is not the mosaic's \(cfaPattern)")
        }
        var second: (illuminant: Int, xyzToCamera: [Double])?
        if let matrix2 = try numbers("ColorMatrix2", count: 9) {
            second = (Int(number("CalibrationIlluminant2") ?? 0), matrix2)
        }
        var maps: [GainMap] = []
        if let list = dng["OpcodeList2"] {
            let bytes: [UInt8]
            switch list {
            case let data as Data: bytes = [UInt8](data)
            case let array as [UInt8]: bytes = array
            default: throw .damaged("{DNG} OpcodeList2 is not data")
            }
            maps = try Self.gainMaps(inOpcodeList: bytes)
        }
        let tiff = properties[ImageProperties.tiffDictionary] as? [String: Any] ?? [:]
        let orientation = Self.number(properties[ImageProperties.orientation] ?? tiff["Orientation"]) ?? 1
        let exif = ExifMetadata(
            make: tiff["Make"] as? String ?? "", model: tiff["Model"] as? String ?? "", software: "",
            orientation: (1...8).contains(Int(orientation)) ? Int(orientation) : 1, exposureTimeSeconds: 0,
            fNumber: 0, iso: 0, focalLengthMM: 0, focalLength35mmEquivalentMM: nil, flashFired: false,
            pixelWidth: width, pixelHeight: height, isSRGB: false)
        self.init(
            exif: exif, width: width, height: height, samples: samples, cfaPattern: cfaPattern,
            blackLevel: Int(black), whiteLevel: Int(white), xyzToCamera: matrix,
            asShotNeutral: SIMD3(neutral[0], neutral[1], neutral[2]),
            uniqueCameraModel: dng["UniqueCameraModel"] as? String ?? "", baselineExposure: number("BaselineExposure") ?? 0,
            calibrationIlluminant1: Int(number("CalibrationIlluminant1") ?? 0), secondCalibration: second,
            gainMaps: maps)
    }

    /// A property's single number (`ImageProperties.numbers`); nil where it is none, or a list of several.
    static func number(_ value: Any?) -> Double? {
        guard let value, let list = ImageProperties.numbers(value), list.count == 1 else { return nil }
        return list[0]
    }
}
