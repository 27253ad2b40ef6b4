import Imaging

// ImageIO's image property keys (`kCGImageProperty…`, CGImageProperties.h), whose values name the entries of a
// photo's `metadata` and of `CIImage.properties`. Numbers in those dictionaries are `NSNumber`s, so a reader may
// take one as the type it expects, as on iOS: `photo.metadata[kCGImagePropertyOrientation as String] as? UInt32`.

/// The EXIF orientation, 1…8 (`CGImagePropertyOrientation`).
public let kCGImagePropertyOrientation = ImageProperties.orientation
/// The stored picture's width in pixels.
public let kCGImagePropertyPixelWidth = ImageProperties.pixelWidth
/// The stored picture's height in pixels.
public let kCGImagePropertyPixelHeight = ImageProperties.pixelHeight
/// Bits per component.
public let kCGImagePropertyDepth = ImageProperties.depth
/// The colour model (`kCGImagePropertyColorModelRGB`).
public let kCGImagePropertyColorModel = ImageProperties.colorModel
/// The RGB colour model.
public let kCGImagePropertyColorModelRGB = "RGB"
/// The name of the picture's ICC profile.
public let kCGImagePropertyProfileName = ImageProperties.profileName
/// The Exif dictionary.
public let kCGImagePropertyExifDictionary = ImageProperties.exifDictionary
/// The TIFF dictionary.
public let kCGImagePropertyTIFFDictionary = ImageProperties.tiffDictionary
/// The DNG dictionary (RAW photos).
public let kCGImagePropertyDNGDictionary = "{DNG}"
/// Apple's maker note dictionary: in a Live Photo's still, key `"17"` holds the content identifier its movie carries.
public let kCGImagePropertyMakerAppleDictionary = "{MakerApple}"

// The DNG dictionary's keys: the DNG tags of the same names (`DNGFile.dngDictionary`).
/// DNG: the version of the specification the file follows (four numbers).
public let kCGImagePropertyDNGVersion = "DNGVersion"
/// DNG: the oldest specification version a reader must know (four numbers).
public let kCGImagePropertyDNGBackwardVersion = "DNGBackwardVersion"
/// DNG: the camera model, unique among makers.
public let kCGImagePropertyDNGUniqueCameraModel = "UniqueCameraModel"
/// DNG: the sensor value of no light.
public let kCGImagePropertyDNGBlackLevel = "BlackLevel"
/// DNG: the sensor value at saturation.
public let kCGImagePropertyDNGWhiteLevel = "WhiteLevel"
/// DNG: the light the first colour matrix was calibrated under (Exif LightSource code; 21 is D65).
public let kCGImagePropertyDNGCalibrationIlluminant1 = "CalibrationIlluminant1"
/// DNG: the light the second colour matrix was calibrated under (17 is Standard light A).
public let kCGImagePropertyDNGCalibrationIlluminant2 = "CalibrationIlluminant2"
/// DNG: XYZ to camera under the first calibration light (nine numbers, row by row).
public let kCGImagePropertyDNGColorMatrix1 = "ColorMatrix1"
/// DNG: XYZ to camera under the second calibration light.
public let kCGImagePropertyDNGColorMatrix2 = "ColorMatrix2"
/// DNG: the camera's values of a neutral under the light of the shot (three numbers).
public let kCGImagePropertyDNGAsShotNeutral = "AsShotNeutral"
/// DNG: the stops a developer adds to reach the camera's intended brightness.
public let kCGImagePropertyDNGBaselineExposure = "BaselineExposure"
/// DNG: the opcodes applied after linearisation, as the file stores them (`Data`): here the lens shading's gain map.
public let kCGImagePropertyDNGOpcodeList2 = "OpcodeList2"

/// Exif: exposure time, seconds.
public let kCGImagePropertyExifExposureTime = "ExposureTime"
/// Exif: f-number.
public let kCGImagePropertyExifFNumber = "FNumber"
/// Exif: ISO sensitivities (an array).
public let kCGImagePropertyExifISOSpeedRatings = "ISOSpeedRatings"
/// Exif: the flash's state (bit 0: fired).
public let kCGImagePropertyExifFlash = "Flash"
/// Exif: the lens's focal length, millimetres.
public let kCGImagePropertyExifFocalLength = "FocalLength"
/// Exif: the focal length on a 36 × 24 mm frame with the same angle of view, millimetres.
public let kCGImagePropertyExifFocalLenIn35mmFilm = "FocalLenIn35mmFilm"
/// Exif: the picture's width.
public let kCGImagePropertyExifPixelXDimension = "PixelXDimension"
/// Exif: the picture's height.
public let kCGImagePropertyExifPixelYDimension = "PixelYDimension"
/// Exif: 1 for sRGB, 65535 for another space.
public let kCGImagePropertyExifColorSpace = "ColorSpace"
/// Exif: the Exif version, as an array of its digits.
public let kCGImagePropertyExifVersion = "ExifVersion"
/// Exif: the lens's make.
public let kCGImagePropertyExifLensMake = "LensMake"
/// Exif: the lens's model.
public let kCGImagePropertyExifLensModel = "LensModel"
/// Exif: when the photo was taken.
public let kCGImagePropertyExifDateTimeOriginal = "DateTimeOriginal"
/// Exif: when the photo was stored digitally.
public let kCGImagePropertyExifDateTimeDigitized = "DateTimeDigitized"
/// Exif: the exposure bias, EV.
public let kCGImagePropertyExifExposureBiasValue = "ExposureBiasValue"
/// Exif: the brightness, APEX.
public let kCGImagePropertyExifBrightnessValue = "BrightnessValue"

/// TIFF: the camera's maker.
public let kCGImagePropertyTIFFMake = "Make"
/// TIFF: the camera's model.
public let kCGImagePropertyTIFFModel = "Model"
/// TIFF: the orientation, as the top-level one.
public let kCGImagePropertyTIFFOrientation = "Orientation"
/// TIFF: the software that wrote the picture.
public let kCGImagePropertyTIFFSoftware = "Software"
/// TIFF: when the picture was written.
public let kCGImagePropertyTIFFDateTime = "DateTime"

/// The GPS dictionary: where and when a photo was taken, as apps add it with a file customizer
/// (`AVCapturePhotoFileDataRepresentationCustomizer`).
public let kCGImagePropertyGPSDictionary = ImageProperties.gpsDictionary
/// GPS: the version of the GPS tags, as bytes.
public let kCGImagePropertyGPSVersion = "GPSVersion"
/// GPS: latitude in degrees, always positive; `LatitudeRef` says north ("N") or south ("S").
public let kCGImagePropertyGPSLatitude = "Latitude"
public let kCGImagePropertyGPSLatitudeRef = "LatitudeRef"
/// GPS: longitude in degrees, always positive; `LongitudeRef` says east ("E") or west ("W").
public let kCGImagePropertyGPSLongitude = "Longitude"
public let kCGImagePropertyGPSLongitudeRef = "LongitudeRef"
/// GPS: altitude in metres; `AltitudeRef` 0 above sea level, 1 below.
public let kCGImagePropertyGPSAltitude = "Altitude"
public let kCGImagePropertyGPSAltitudeRef = "AltitudeRef"
/// GPS: the UTC time, "HH:mm:ss.SS", and the date, "yyyy:MM:dd".
public let kCGImagePropertyGPSTimeStamp = "TimeStamp"
public let kCGImagePropertyGPSDateStamp = "DateStamp"
/// GPS: speed and its unit ("K" km/h, "M" mph, "N" knots).
public let kCGImagePropertyGPSSpeed = "Speed"
public let kCGImagePropertyGPSSpeedRef = "SpeedRef"
/// GPS: the direction the camera faced, and whether it is true ("T") or magnetic ("M") north.
public let kCGImagePropertyGPSImgDirection = "ImgDirection"
public let kCGImagePropertyGPSImgDirectionRef = "ImgDirectionRef"
/// GPS: the bearing to the destination, and its reference.
public let kCGImagePropertyGPSDestBearing = "DestBearing"
public let kCGImagePropertyGPSDestBearingRef = "DestBearingRef"
/// GPS: the horizontal position error in metres.
public let kCGImagePropertyGPSHPositioningError = "HPositioningError"

/// The quality key of image file options (`CIContext`'s representations, `CGImageDestination`), 0…1.
public let kCGImageDestinationLossyCompressionQuality = "kCGImageDestinationLossyCompressionQuality"
/// Whether a picture has an alpha channel (ImageIO's `kCGImagePropertyHasAlpha`).
public let kCGImagePropertyHasAlpha = ImageProperties.hasAlpha
/// A file's size in bytes, among the container's properties (`kCGImagePropertyFileSize`).
public let kCGImagePropertyFileSize = "FileSize"
