import Foundation
import ObscuraAV

extension AVPortraitEffectsMatte {
    /// Reads the portrait effects matte embedded in a photo file written by
    /// `AVCapturePhoto.fileDataRepresentation()` (HEIC or JPEG) when the settings'
    /// `embedsPortraitEffectsMatteInPhoto` was true.
    ///
    /// An **Obscura extension**, not part of Apple's API: on Apple platforms the same is done with
    /// ImageIO (`CGImageSourceCopyAuxiliaryDataInfoAtIndex` for
    /// `kCGImageAuxiliaryDataTypePortraitEffectsMatte`, then
    /// `init(fromDictionaryRepresentation:)`). HEIC files hold the coverage exactly; JPEG files
    /// within a few steps. Throws when the data holds no portrait effects matte or it does not decode.
    public convenience init(fromFileData data: Data) throws {
        let type = kCGImageAuxiliaryDataTypePortraitEffectsMatte as String
        guard let dictionary = try MatteFileCoding.dictionary(in: [UInt8](data), auxiliaryDataType: type) else {
            throw MatteDataError.malformed("the file holds no portrait effects matte")
        }
        try self.init(fromDictionaryRepresentation: dictionary)
    }
}

extension AVSemanticSegmentationMatte {
    /// Reads the semantic segmentation matte of a type embedded in a photo file written by
    /// `AVCapturePhoto.fileDataRepresentation()` (HEIC or JPEG) when the settings'
    /// `embedsSemanticSegmentationMattesInPhoto` was true.
    ///
    /// An **Obscura extension**, not part of Apple's API: on Apple platforms the same is done with
    /// ImageIO (`CGImageSourceCopyAuxiliaryDataInfoAtIndex` for the type's auxiliary-data type, then
    /// `init(fromImageSourceAuxiliaryDataType:dictionaryRepresentation:)`). Throws when the data
    /// holds no matte of that type or it does not decode.
    public convenience init(fromFileData data: Data, matteType: MatteType) throws {
        let types: [MatteType: CFString] = [
            .hair: kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte,
            .skin: kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte,
            .teeth: kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte,
            .glasses: kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte,
        ]
        guard let type = types[matteType],
            let dictionary = try MatteFileCoding.dictionary(in: [UInt8](data), auxiliaryDataType: type as String)
        else { throw MatteDataError.malformed("the file holds no \(matteType.rawValue) matte") }
        try self.init(fromImageSourceAuxiliaryDataType: type, dictionaryRepresentation: dictionary)
    }
}
