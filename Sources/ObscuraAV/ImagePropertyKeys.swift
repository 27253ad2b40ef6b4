import Imaging

// ImageIO's image property keys (`kCGImageProperty…`, CGImageProperties.h), whose values name the entries of a
// photo's `metadata` and of `CIImage.properties`. Numbers in those dictionaries are `NSNumber`s, so a reader may
// take one as the type it expects, as on iOS: `photo.metadata[kCGImagePropertyOrientation as String] as? UInt32`.

/// The EXIF orientation, 1…8 (`CGImagePropertyOrientation`).
nonisolated(unsafe) public let kCGImagePropertyOrientation: CFString = ImageProperties.orientation as CFString
/// The stored picture's width in pixels.
nonisolated(unsafe) public let kCGImagePropertyPixelWidth: CFString = ImageProperties.pixelWidth as CFString
/// The stored picture's height in pixels.
nonisolated(unsafe) public let kCGImagePropertyPixelHeight: CFString = ImageProperties.pixelHeight as CFString
/// Bits per component.
nonisolated(unsafe) public let kCGImagePropertyDepth: CFString = ImageProperties.depth as CFString
/// The colour model (`kCGImagePropertyColorModelRGB`).
nonisolated(unsafe) public let kCGImagePropertyColorModel: CFString = ImageProperties.colorModel as CFString
/// The RGB colour model.
nonisolated(unsafe) public let kCGImagePropertyColorModelRGB: CFString = "RGB"
/// The name of the picture's ICC profile.
nonisolated(unsafe) public let kCGImagePropertyProfileName: CFString = ImageProperties.profileName as CFString
/// The Exif dictionary.
nonisolated(unsafe) public let kCGImagePropertyExifDictionary: CFString = ImageProperties.exifDictionary as CFString
/// The TIFF dictionary.
nonisolated(unsafe) public let kCGImagePropertyTIFFDictionary: CFString = ImageProperties.tiffDictionary as CFString
/// The DNG dictionary (RAW photos).
nonisolated(unsafe) public let kCGImagePropertyDNGDictionary: CFString = "{DNG}"
/// Apple's maker note dictionary: in a Live Photo's still, key `"17"` holds the content identifier its movie carries.
nonisolated(unsafe) public let kCGImagePropertyMakerAppleDictionary: CFString = "{MakerApple}"

// The DNG dictionary's keys: the DNG tags of the same names (`DNGFile.dngDictionary`).
/// DNG: the version of the specification the file follows (four numbers).
nonisolated(unsafe) public let kCGImagePropertyDNGVersion: CFString = "DNGVersion"
/// DNG: the oldest specification version a reader must know (four numbers).
nonisolated(unsafe) public let kCGImagePropertyDNGBackwardVersion: CFString = "DNGBackwardVersion"
/// DNG: the camera model, unique among makers.
nonisolated(unsafe) public let kCGImagePropertyDNGUniqueCameraModel: CFString = "UniqueCameraModel"
/// DNG: the sensor value of no light.
nonisolated(unsafe) public let kCGImagePropertyDNGBlackLevel: CFString = "BlackLevel"
/// DNG: the sensor value at saturation.
nonisolated(unsafe) public let kCGImagePropertyDNGWhiteLevel: CFString = "WhiteLevel"
/// DNG: the light the first colour matrix was calibrated under (Exif LightSource code; 21 is D65).
nonisolated(unsafe) public let kCGImagePropertyDNGCalibrationIlluminant1: CFString = "CalibrationIlluminant1"
/// DNG: the light the second colour matrix was calibrated under (17 is Standard light A).
nonisolated(unsafe) public let kCGImagePropertyDNGCalibrationIlluminant2: CFString = "CalibrationIlluminant2"
/// DNG: XYZ to camera under the first calibration light (nine numbers, row by row).
nonisolated(unsafe) public let kCGImagePropertyDNGColorMatrix1: CFString = "ColorMatrix1"
/// DNG: XYZ to camera under the second calibration light.
nonisolated(unsafe) public let kCGImagePropertyDNGColorMatrix2: CFString = "ColorMatrix2"
/// DNG: the camera's values of a neutral under the light of the shot (three numbers).
nonisolated(unsafe) public let kCGImagePropertyDNGAsShotNeutral: CFString = "AsShotNeutral"
/// DNG: the stops a developer adds to reach the camera's intended brightness.
nonisolated(unsafe) public let kCGImagePropertyDNGBaselineExposure: CFString = "BaselineExposure"
/// DNG: the opcodes applied after linearisation, as the file stores them (`Data`): here the lens shading's gain map.
nonisolated(unsafe) public let kCGImagePropertyDNGOpcodeList2: CFString = "OpcodeList2"

/// Exif: exposure time, seconds.
nonisolated(unsafe) public let kCGImagePropertyExifExposureTime: CFString = "ExposureTime"
/// Exif: f-number.
nonisolated(unsafe) public let kCGImagePropertyExifFNumber: CFString = "FNumber"
/// Exif: ISO sensitivities (an array).
nonisolated(unsafe) public let kCGImagePropertyExifISOSpeedRatings: CFString = "ISOSpeedRatings"
/// Exif: the flash's state (bit 0: fired).
nonisolated(unsafe) public let kCGImagePropertyExifFlash: CFString = "Flash"
/// Exif: the lens's focal length, millimetres.
nonisolated(unsafe) public let kCGImagePropertyExifFocalLength: CFString = "FocalLength"
/// Exif: the focal length on a 36 × 24 mm frame with the same angle of view, millimetres.
nonisolated(unsafe) public let kCGImagePropertyExifFocalLenIn35mmFilm: CFString = "FocalLenIn35mmFilm"
/// Exif: the picture's width.
nonisolated(unsafe) public let kCGImagePropertyExifPixelXDimension: CFString = "PixelXDimension"
/// Exif: the picture's height.
nonisolated(unsafe) public let kCGImagePropertyExifPixelYDimension: CFString = "PixelYDimension"
/// Exif: 1 for sRGB, 65535 for another space.
nonisolated(unsafe) public let kCGImagePropertyExifColorSpace: CFString = "ColorSpace"
/// Exif: the Exif version, as an array of its digits.
nonisolated(unsafe) public let kCGImagePropertyExifVersion: CFString = "ExifVersion"
/// Exif: the lens's make.
nonisolated(unsafe) public let kCGImagePropertyExifLensMake: CFString = "LensMake"
/// Exif: the lens's model.
nonisolated(unsafe) public let kCGImagePropertyExifLensModel: CFString = "LensModel"
/// Exif: when the photo was taken.
nonisolated(unsafe) public let kCGImagePropertyExifDateTimeOriginal: CFString = "DateTimeOriginal"
/// Exif: when the photo was stored digitally.
nonisolated(unsafe) public let kCGImagePropertyExifDateTimeDigitized: CFString = "DateTimeDigitized"
/// Exif: the exposure bias, EV.
nonisolated(unsafe) public let kCGImagePropertyExifExposureBiasValue: CFString = "ExposureBiasValue"
/// Exif: the brightness, APEX.
nonisolated(unsafe) public let kCGImagePropertyExifBrightnessValue: CFString = "BrightnessValue"

/// TIFF: the camera's maker.
nonisolated(unsafe) public let kCGImagePropertyTIFFMake: CFString = "Make"
/// TIFF: the camera's model.
nonisolated(unsafe) public let kCGImagePropertyTIFFModel: CFString = "Model"
/// TIFF: the orientation, as the top-level one.
nonisolated(unsafe) public let kCGImagePropertyTIFFOrientation: CFString = "Orientation"
/// TIFF: the software that wrote the picture.
nonisolated(unsafe) public let kCGImagePropertyTIFFSoftware: CFString = "Software"
/// TIFF: when the picture was written.
nonisolated(unsafe) public let kCGImagePropertyTIFFDateTime: CFString = "DateTime"

/// The GPS dictionary: where and when a photo was taken, as apps add it with a file customizer
/// (`AVCapturePhotoFileDataRepresentationCustomizer`).
nonisolated(unsafe) public let kCGImagePropertyGPSDictionary: CFString = ImageProperties.gpsDictionary as CFString
/// GPS: the version of the GPS tags, as bytes.
nonisolated(unsafe) public let kCGImagePropertyGPSVersion: CFString = "GPSVersion"
/// GPS: latitude in degrees, always positive; `LatitudeRef` says north ("N") or south ("S").
nonisolated(unsafe) public let kCGImagePropertyGPSLatitude: CFString = "Latitude"
nonisolated(unsafe) public let kCGImagePropertyGPSLatitudeRef: CFString = "LatitudeRef"
/// GPS: longitude in degrees, always positive; `LongitudeRef` says east ("E") or west ("W").
nonisolated(unsafe) public let kCGImagePropertyGPSLongitude: CFString = "Longitude"
nonisolated(unsafe) public let kCGImagePropertyGPSLongitudeRef: CFString = "LongitudeRef"
/// GPS: altitude in metres; `AltitudeRef` 0 above sea level, 1 below.
nonisolated(unsafe) public let kCGImagePropertyGPSAltitude: CFString = "Altitude"
nonisolated(unsafe) public let kCGImagePropertyGPSAltitudeRef: CFString = "AltitudeRef"
/// GPS: the UTC time, "HH:mm:ss.SS", and the date, "yyyy:MM:dd".
nonisolated(unsafe) public let kCGImagePropertyGPSTimeStamp: CFString = "TimeStamp"
nonisolated(unsafe) public let kCGImagePropertyGPSDateStamp: CFString = "DateStamp"
/// GPS: speed and its unit ("K" km/h, "M" mph, "N" knots).
nonisolated(unsafe) public let kCGImagePropertyGPSSpeed: CFString = "Speed"
nonisolated(unsafe) public let kCGImagePropertyGPSSpeedRef: CFString = "SpeedRef"
/// GPS: the direction the camera faced, and whether it is true ("T") or magnetic ("M") north.
nonisolated(unsafe) public let kCGImagePropertyGPSImgDirection: CFString = "ImgDirection"
nonisolated(unsafe) public let kCGImagePropertyGPSImgDirectionRef: CFString = "ImgDirectionRef"
/// GPS: the bearing to the destination, and its reference.
nonisolated(unsafe) public let kCGImagePropertyGPSDestBearing: CFString = "DestBearing"
nonisolated(unsafe) public let kCGImagePropertyGPSDestBearingRef: CFString = "DestBearingRef"
/// GPS: the horizontal position error in metres.
nonisolated(unsafe) public let kCGImagePropertyGPSHPositioningError: CFString = "HPositioningError"

/// The quality key of image file options (`CIContext`'s representations, `CGImageDestination`), 0…1.
nonisolated(unsafe) public let kCGImageDestinationLossyCompressionQuality: CFString =
    "kCGImageDestinationLossyCompressionQuality"
/// Whether a picture has an alpha channel (ImageIO's `kCGImagePropertyHasAlpha`).
nonisolated(unsafe) public let kCGImagePropertyHasAlpha: CFString = ImageProperties.hasAlpha as CFString
/// A file's size in bytes, among the container's properties (`kCGImagePropertyFileSize`).
nonisolated(unsafe) public let kCGImagePropertyFileSize: CFString = "FileSize"
