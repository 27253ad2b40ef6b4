/// A Bayer RAW photo as a Digital Negative file (Adobe DNG Specification 1.4), the file a phone's RAW capture
/// gives: one big-endian TIFF image of the sensor's values, uncompressed, with what a raw developer needs to turn
/// them into colour.
///
/// The image is IFD0 itself (NewSubFileType 0, the main image), a colour filter array (PhotometricInterpretation
/// 32803) of 16-bit samples in one strip, with TIFF/EP's 2 × 2 CFAPattern and DNG's tags:
/// - BlackLevel and WhiteLevel, the sensor's values for no light and for clipping;
/// - ColorMatrix1 under CalibrationIlluminant1 D65 (21): the matrix from CIE XYZ (D65 white, Y = 1) to the
///   camera's own RGB, which DNG asks of every colour file; and, where given, ColorMatrix2 under
///   CalibrationIlluminant2 (a phone's files carry one for Standard light A, 17), which a developer blends with the
///   first by the white's colour temperature;
/// - AsShotNeutral, the camera RGB of the white the photo was balanced for, which the developer divides by;
/// - OpcodeList2, where there are gain maps (`GainMap`): the lens shading a developer takes out of the linear values
///   before demosaicing, as a phone's DNG carries it;
/// - BaselineExposure, where not zero: how many stops the camera's own rendering brightens the sensor's values
///   (a phone's processed photo puts mid-grey higher than its share of the well), so a developer matches it;
/// - the photo's Exif (exposure, f-number, ISO, focal length) in an Exif IFD, and Make, Model and Orientation in
///   IFD0, as on a processed photo.
///
/// With a preview, IFD0 holds it instead (NewSubFileType 1, a JPEG: Compression 7, PhotometricInterpretation
/// YCbCr) beside the file's own tags, and the raw image moves to the IFD that IFD0's SubIFDs tag names, the layout
/// DNG describes for a file with a preview.
public struct DNGFile: Sendable {
    /// Make, model, orientation and the exposure.
    public var exif: ExifMetadata
    public var width: Int, height: Int
    /// Row-major sensor values, `width × height`.
    public var samples: [UInt16]
    /// Which colour (0 red, 1 green, 2 blue) each site of the 2 × 2 repeat has, row by row: RGGB is `[0, 1, 1, 2]`.
    public var cfaPattern: [UInt8]
    public var blackLevel: Int, whiteLevel: Int
    /// ColorMatrix1: XYZ under its calibration light to camera RGB, row-major.
    public var xyzToCamera: [Double]
    /// CalibrationIlluminant1: the Exif LightSource code of the light ColorMatrix1 was made under (21, D65).
    public var calibrationIlluminant1: Int
    /// ColorMatrix2 and CalibrationIlluminant2, a second calibration under another light, where the file has one.
    public var secondCalibration: (illuminant: Int, xyzToCamera: [Double])?
    /// AsShotNeutral: the camera RGB of the photo's white.
    public var asShotNeutral: SIMD3<Double>
    /// UniqueCameraModel: the name a developer files the camera's colour under.
    public var uniqueCameraModel: String
    /// BaselineExposure, in stops (0: the tag is left out, as DNG's default).
    public var baselineExposure: Double
    /// OpcodeList2's gain maps, applied to the linear values before demosaicing (none: the tag is left out).
    public var gainMaps: [GainMap]
    /// A preview of the developed photo: a baseline JPEG's bytes and its size.
    public var preview: (jpeg: [UInt8], width: Int, height: Int)?

    public init(
        exif: ExifMetadata, width: Int, height: Int, samples: [UInt16], cfaPattern: [UInt8] = [0, 1, 1, 2],
        blackLevel: Int, whiteLevel: Int, xyzToCamera: [Double], asShotNeutral: SIMD3<Double>,
        uniqueCameraModel: String, baselineExposure: Double = 0, calibrationIlluminant1: Int = 21,
        secondCalibration: (illuminant: Int, xyzToCamera: [Double])? = nil, gainMaps: [GainMap] = [],
        preview: (jpeg: [UInt8], width: Int, height: Int)? = nil
    ) {
        self.gainMaps = gainMaps
        precondition(samples.count == width * height && xyzToCamera.count == 9 && cfaPattern.count == 4)
        precondition(secondCalibration.map { $0.xyzToCamera.count == 9 } ?? true)
        self.calibrationIlluminant1 = calibrationIlluminant1
        self.secondCalibration = secondCalibration
        self.exif = exif
        self.width = width
        self.height = height
        self.samples = samples
        self.cfaPattern = cfaPattern
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.xyzToCamera = xyzToCamera
        self.asShotNeutral = asShotNeutral
        self.uniqueCameraModel = uniqueCameraModel
        self.baselineExposure = baselineExposure
        self.preview = preview
    }

    /// The file's bytes.
    public var bytes: [UInt8] {
        let stripBytes = width * height * 2
        // The file's own tags, which DNG keeps in IFD0 whatever image IFD0 holds.
        var file: [TIFFEntry] = [
            .ascii(0x010F, exif.make), .ascii(0x0110, exif.model),
            .short(0x0112, UInt16(clamping: exif.orientation)), .ascii(0x0131, exif.software),
            .long(0x8769, 0),  // ExifIFDPointer, patched below
            // DNGVersion, and DNGBackwardVersion: 1.3, which defines opcode lists, where a gain map must be applied.
            .bytes(0xC612, [1, 4, 0, 0]), .bytes(0xC613, gainMaps.isEmpty ? [1, 1, 0, 0] : [1, 3, 0, 0]),
            .ascii(0xC614, uniqueCameraModel),
            .signedRationals(0xC621, xyzToCamera.map(Self.signedRational)),  // ColorMatrix1
            .rationals(0xC628, [asShotNeutral.x, asShotNeutral.y, asShotNeutral.z].map(Self.rational)),
            .short(0xC65A, UInt16(clamping: calibrationIlluminant1)),
        ]
        if let second = secondCalibration {
            file.append(.signedRationals(0xC622, second.xyzToCamera.map(Self.signedRational)))  // ColorMatrix2
            file.append(.short(0xC65B, UInt16(clamping: second.illuminant)))  // CalibrationIlluminant2
        }
        if baselineExposure != 0 { file.append(.signedRationals(0xC62A, [Self.signedRational(baselineExposure)])) }
        var raw: [TIFFEntry] = [
            .long(0x00FE, 0),  // NewSubFileType: the main image
            .long(0x0100, UInt32(width)), .long(0x0101, UInt32(height)),  // ImageWidth, ImageLength
            .short(0x0102, 16), .short(0x0103, 1),  // BitsPerSample, Compression: none
            .short(0x0106, 32803),  // PhotometricInterpretation: colour filter array
            .long(0x0111, 0),  // StripOffsets, patched below
            .short(0x0115, 1), .long(0x0116, UInt32(height)),  // SamplesPerPixel, RowsPerStrip
            .long(0x0117, UInt32(stripBytes)), .short(0x011C, 1),  // StripByteCounts, PlanarConfiguration
            .shorts(0x828D, [2, 2]), .bytes(0x828E, cfaPattern),  // CFARepeatPatternDim, CFAPattern (TIFF/EP)
            .bytes(0xC616, [0, 1, 2]), .short(0xC617, 1),  // CFAPlaneColor RGB, CFALayout rectangular
            .long(0xC61A, UInt32(clamping: blackLevel)), .long(0xC61D, UInt32(clamping: whiteLevel)),
        ]
        // OpcodeList2 belongs to the raw image's IFD.
        if !gainMaps.isEmpty { raw.append(.undefined(0xC741, Self.opcodeList(gainMaps))) }
        var out: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        func patch(_ field: Int?, _ value: Int) {
            guard let field else { return }
            TIFFEntry.patch(&out, field: field, value)
        }
        func align() { if out.count % 2 == 1 { out.append(0) } }
        let first: (bytes: [UInt8], valueFields: [UInt16: Int])
        let rawFields: [UInt16: Int]
        if let preview {
            let previewTags: [TIFFEntry] = [
                .long(0x00FE, 1),  // NewSubFileType: a reduced-resolution image
                .long(0x0100, UInt32(preview.width)), .long(0x0101, UInt32(preview.height)),
                .shorts(0x0102, [8, 8, 8]), .short(0x0103, 7),  // BitsPerSample, Compression: JPEG
                .short(0x0106, 6),  // PhotometricInterpretation: YCbCr
                .long(0x0111, 0), .short(0x0115, 3), .long(0x0116, UInt32(preview.height)),
                .long(0x0117, UInt32(preview.jpeg.count)), .short(0x011C, 1),
                .long(0x014A, 0),  // SubIFDs: the raw image's IFD, patched below
            ]
            first = TIFFEntry.ifd(file + previewTags, start: 8)
            out += first.bytes
            align()
            patch(first.valueFields[0x014A], out.count)
            let rawIFD = TIFFEntry.ifd(raw, start: out.count)
            rawFields = rawIFD.valueFields
            out += rawIFD.bytes
            align()
            patch(first.valueFields[0x0111], out.count)
            out += preview.jpeg
        } else {
            first = TIFFEntry.ifd(file + raw, start: 8)
            rawFields = first.valueFields
            out += first.bytes
        }
        align()
        patch(first.valueFields[0x8769], out.count)
        out += TIFFEntry.ifd(exif.exifEntries, start: out.count).bytes
        align()
        patch(rawFields[0x0111], out.count)
        // The byte order the header names ("MM") holds for the samples too.
        let start = out.count
        out += [UInt8](repeating: 0, count: stripBytes)
        out.withUnsafeMutableBufferPointer { bytes in
            for (i, sample) in samples.enumerated() {
                bytes[start + 2 * i] = UInt8(sample >> 8)
                bytes[start + 2 * i + 1] = UInt8(truncatingIfNeeded: sample)
            }
        }
        return out
    }

    /// A matrix entry to four decimals, as raw developers read them.
    private static func signedRational(_ value: Double) -> (Int32, Int32) {
        (Int32(clamping: Int((value * 10_000).rounded())), 10_000)
    }

    /// A neutral's component to six decimals.
    private static func rational(_ value: Double) -> (UInt32, UInt32) {
        (UInt32(clamping: Int((max(value, 0) * 1_000_000).rounded())), 1_000_000)
    }
}
