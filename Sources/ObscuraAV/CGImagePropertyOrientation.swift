import Foundation

/// The EXIF / TIFF orientation of an image (`CGImagePropertyOrientation`, ImageIO), numbered as
/// the EXIF `Orientation` tag (EXIF 2.32 tag 0x0112): where row 0 and column 0 of the stored
/// image belong when the picture is shown upright.
public enum CGImagePropertyOrientation: UInt32, Sendable, Hashable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8
}

/// `kCGImageAuxiliaryDataTypeDisparity`: the auxiliary image of a photo that holds disparity.
public let kCGImageAuxiliaryDataTypeDisparity = "kCGImageAuxiliaryDataTypeDisparity"
/// `kCGImageAuxiliaryDataTypeDepth`: the auxiliary image of a photo that holds depth.
public let kCGImageAuxiliaryDataTypeDepth = "kCGImageAuxiliaryDataTypeDepth"
/// `kCGImageAuxiliaryDataInfoData`: the map's bytes, rows `BytesPerRow` apart.
public let kCGImageAuxiliaryDataInfoData = "kCGImageAuxiliaryDataInfoData"
/// `kCGImageAuxiliaryDataInfoDataDescription`: `Width`, `Height`, `BytesPerRow`, `PixelFormat`.
public let kCGImageAuxiliaryDataInfoDataDescription = "kCGImageAuxiliaryDataInfoDataDescription"
/// `kCGImageAuxiliaryDataInfoMetadata`: accuracy, quality, filtering and calibration.
public let kCGImageAuxiliaryDataInfoMetadata = "kCGImageAuxiliaryDataInfoMetadata"
/// `kCGImageAuxiliaryDataTypePortraitEffectsMatte`: the auxiliary image that holds a portrait effects matte.
public let kCGImageAuxiliaryDataTypePortraitEffectsMatte = "kCGImageAuxiliaryDataTypePortraitEffectsMatte"
/// `kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte`: the auxiliary image of a hair matte.
public let kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte =
    "kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte"
/// `kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte`: the auxiliary image of a skin matte.
public let kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte =
    "kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte"
/// `kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte`: the auxiliary image of a teeth matte.
public let kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte =
    "kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte"
/// `kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte`: the auxiliary image of a glasses matte.
public let kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte =
    "kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte"
