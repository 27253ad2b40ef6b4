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
nonisolated(unsafe) public let kCGImageAuxiliaryDataTypeDisparity: CFString = "kCGImageAuxiliaryDataTypeDisparity"
/// `kCGImageAuxiliaryDataTypeDepth`: the auxiliary image of a photo that holds depth.
nonisolated(unsafe) public let kCGImageAuxiliaryDataTypeDepth: CFString = "kCGImageAuxiliaryDataTypeDepth"
/// `kCGImageAuxiliaryDataInfoData`: the map's bytes, rows `BytesPerRow` apart.
nonisolated(unsafe) public let kCGImageAuxiliaryDataInfoData: CFString = "kCGImageAuxiliaryDataInfoData"
/// `kCGImageAuxiliaryDataInfoDataDescription`: `Width`, `Height`, `BytesPerRow`, `PixelFormat`.
nonisolated(unsafe) public let kCGImageAuxiliaryDataInfoDataDescription: CFString = "kCGImageAuxiliaryDataInfoDataDescription"
/// `kCGImageAuxiliaryDataInfoMetadata`: accuracy, quality, filtering and calibration.
nonisolated(unsafe) public let kCGImageAuxiliaryDataInfoMetadata: CFString = "kCGImageAuxiliaryDataInfoMetadata"
/// `kCGImageAuxiliaryDataTypePortraitEffectsMatte`: the auxiliary image that holds a portrait effects matte.
nonisolated(unsafe) public let kCGImageAuxiliaryDataTypePortraitEffectsMatte: CFString = "kCGImageAuxiliaryDataTypePortraitEffectsMatte"
/// `kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte`: the auxiliary image of a hair matte.
nonisolated(unsafe) public let kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte: CFString =
    "kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte"
/// `kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte`: the auxiliary image of a skin matte.
nonisolated(unsafe) public let kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte: CFString =
    "kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte"
/// `kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte`: the auxiliary image of a teeth matte.
nonisolated(unsafe) public let kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte: CFString =
    "kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte"
/// `kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte`: the auxiliary image of a glasses matte.
nonisolated(unsafe) public let kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte: CFString =
    "kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte"
