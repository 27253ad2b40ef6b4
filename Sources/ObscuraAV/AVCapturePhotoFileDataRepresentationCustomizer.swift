import Foundation
import Imaging

/// Replaces or strips what a photo's file carries beside its pixels (`AVCapturePhotoFileDataRepresentationCustomizer`),
/// as apps do to add a location, remove private metadata or write edited depth (spec §5).
///
/// Each method is optional, as in Apple's protocol: one the customizer does not implement keeps what the file
/// would hold. Returning the photo's own value keeps it too, nil strips it, and anything else replaces it.
public protocol AVCapturePhotoFileDataRepresentationCustomizer: NSObjectProtocol {
    /// The file's metadata: a dictionary of ImageIO's keys (`photo.metadata` to keep it).
    func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]?
    /// The file's depth (`photo.depthData` to keep it).
    func replacementDepthData(for photo: AVCapturePhoto) -> AVDepthData?
    /// The file's portrait effects matte (`photo.portraitEffectsMatte` to keep it).
    func replacementPortraitEffectsMatte(for photo: AVCapturePhoto) -> AVPortraitEffectsMatte?
    /// The file's semantic segmentation matte of a type the photo has (`photo.semanticSegmentationMatte(for:)` to
    /// keep it).
    func replacementSemanticSegmentationMatte(
        ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType, for photo: AVCapturePhoto
    ) -> AVSemanticSegmentationMatte?
}

extension AVCapturePhotoFileDataRepresentationCustomizer {
    public func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]? { photo.metadata }
    public func replacementDepthData(for photo: AVCapturePhoto) -> AVDepthData? { photo.depthData }
    public func replacementPortraitEffectsMatte(for photo: AVCapturePhoto) -> AVPortraitEffectsMatte? {
        photo.portraitEffectsMatte
    }
    public func replacementSemanticSegmentationMatte(
        ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType, for photo: AVCapturePhoto
    ) -> AVSemanticSegmentationMatte? {
        photo.semanticSegmentationMatte(for: semanticSegmentationMatteType)
    }
}

extension AVCapturePhoto {
    /// The photo's file with what `customizer` replaces or strips (spec §5): the metadata (its `{TIFF}`, `{Exif}`
    /// and `{GPS}` tags, written as Exif; nil writes none), the depth, and the mattes. The customizer is asked
    /// once for each, before the file is written, on the calling thread. A PNG photo takes the depth only (its
    /// metadata is Obscura's own text); a RAW photo's file is unchanged. Nil when the photo could not be rendered.
    public func fileDataRepresentation(with customizer: any AVCapturePhotoFileDataRepresentationCustomizer) -> Data? {
        guard let r = rendered else { return nil }
        let depth = replacedDepth(customizer)
        if isRawPhoto { return fileDataRepresentation() }
        var contents = defaultContents(r)
        contents.depth = depth?.map
        contents.mattes = replacedMattes(customizer)
        contents.exif = replacedExif(customizer, default: contents.exif)
        switch extras.fileFormat {
        case .png: return pngFileData(depth: depth)
        case .jpeg(let quality): return jpegFileData(r, quality: quality, contents: contents)
        case .heic(let quality): return heicFileData(r, quality: quality, contents: contents)
        }
    }

    /// The depth to write: the settings' when the customizer hands back the photo's own.
    private func replacedDepth(_ customizer: any AVCapturePhotoFileDataRepresentationCustomizer) -> AVDepthData? {
        guard let replacement = customizer.replacementDepthData(for: self) else { return nil }
        if let own = extras.depth?.map, replacement.map == own { return extras.embedsDepth ? replacement : nil }
        return replacement
    }

    /// The Exif to write: the file's own when the customizer hands back the photo's metadata unchanged.
    private func replacedExif(
        _ customizer: any AVCapturePhotoFileDataRepresentationCustomizer, default own: [UInt8]?
    ) -> [UInt8]? {
        guard let replacement = customizer.replacementMetadata(for: self) else { return nil }
        if NSDictionary(dictionary: replacement).isEqual(to: metadata) { return own }
        return ImageProperties.exifTIFF(from: replacement)
    }

    /// The mattes to write, in the order the file keeps them: the portrait matte, then each semantic type the
    /// photo has. A matte handed back unchanged is written as the settings say.
    private func replacedMattes(
        _ customizer: any AVCapturePhotoFileDataRepresentationCustomizer
    ) -> [MatteFileCoding.Embedded] {
        guard !isRawPhoto, let mattes = extras.mattes else { return [] }
        var out: [MatteFileCoding.Embedded] = []
        if let replacement = customizer.replacementPortraitEffectsMatte(for: self) {
            let own = mattes.portraitPlane
            if replacement.plane != own || extras.embedsPortraitMatte {
                out.append(.init(plane: replacement.plane, auxiliaryDataType: kCGImageAuxiliaryDataTypePortraitEffectsMatte as String))
            }
        }
        for type in mattes.semanticTypes {
            guard let replacement = customizer.replacementSemanticSegmentationMatte(ofType: type, for: self),
                let auxiliary = type.auxiliaryDataType
            else { continue }
            if replacement.plane != mattes.semanticPlane(type) || extras.embedsSemanticMattes {
                out.append(.init(plane: replacement.plane, auxiliaryDataType: auxiliary))
            }
        }
        return out
    }
}
