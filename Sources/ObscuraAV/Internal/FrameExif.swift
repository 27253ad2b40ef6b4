import Devices
import Foundation
import Imaging
import Sensor

/// The `{Exif}` attachment iOS puts on every video data output buffer, which light-meter and scene code reads
/// (`CMCopyDictionaryOfAttachments`, `kCGImagePropertyExifDictionary`): the exposure the frame was taken with, the
/// lens, and the APEX values, numbers as `NSNumber` (spec §15).
///
/// APEX (ASA PH2.5-1960): Ev = Av + Tv = Bv + Sv, with Av = 2 log₂ N, Tv = −log₂ t and Sv = log₂(ISO / 3.125); the
/// brightness Bv = log₂(B / (0.3 K)), B the metered luminance in cd/m² and K = 11.4 the reflected-light meter
/// constant. The camera's metering says which exposure would put the scene at auto-exposure's target; its Av + Tv −
/// Sv is then the scene's Bv, with the exposure bias added back, since a biased target moves the metered exposure
/// and not the scene. A held exposure (custom or locked) still meters, so Bv follows the scene while the frame's own
/// exposure stays.
enum FrameExif {
    /// The attachment of a frame developed with `summary` by a lens of `optics`, `width × height` as delivered.
    static func dictionary(
        summary: LookSummary, optics: CameraOptics?, bias: Double, width: Int, height: Int, manualExposure: Bool,
        manualWhiteBalance: Bool
    ) -> [String: Any] {
        let taken = summary.exposure, metered = summary.metered
        var exif: [String: Any] = [
            "ExposureTime": NSNumber(value: taken.time),
            "ISOSpeedRatings": [NSNumber(value: Int(taken.iso.rounded()))],
            "ShutterSpeedValue": NSNumber(value: timeValue(taken.time)),
            "ExposureBiasValue": NSNumber(value: bias),
            "Flash": NSNumber(value: 0),
            "MeteringMode": NSNumber(value: 5),  // pattern
            "SensingMethod": NSNumber(value: 2),  // one-chip colour area sensor
            "ExposureMode": NSNumber(value: manualExposure ? 1 : 0),
            "WhiteBalance": NSNumber(value: manualWhiteBalance ? 1 : 0),
            "PixelXDimension": NSNumber(value: width),
            "PixelYDimension": NSNumber(value: height),
        ]
        if let optics {
            exif["FNumber"] = NSNumber(value: optics.fNumber)
            exif["ApertureValue"] = NSNumber(value: apertureValue(optics.fNumber))
            exif["FocalLength"] = NSNumber(value: optics.focalLengthMM)
            exif["FocalLenIn35mmFilm"] = NSNumber(value: Int(optics.focalLength35mmEquivalentMM.rounded()))
            exif["BrightnessValue"] = NSNumber(
                value: brightnessValue(fNumber: optics.fNumber, time: metered.time, iso: metered.iso, bias: bias))
        }
        return exif
    }

    /// Av = 2 log₂ N.
    static func apertureValue(_ fNumber: Double) -> Double { 2 * log2(fNumber) }

    /// Tv = −log₂ t.
    static func timeValue(_ seconds: Double) -> Double { -log2(seconds) }

    /// Sv = log₂(ISO / 3.125).
    static func speedValue(_ iso: Double) -> Double { log2(iso / 3.125) }

    /// Bv = Av + Tv − Sv of the metered exposure, with the bias the metering aimed by added back.
    static func brightnessValue(fNumber: Double, time: Double, iso: Double, bias: Double) -> Double {
        apertureValue(fNumber) + timeValue(time) - speedValue(iso) + bias
    }
}
