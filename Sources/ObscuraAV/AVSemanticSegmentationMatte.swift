import Devices
import Foundation
import Imaging

/// A soft mask of one kind of thing on the people in a photo: their hair, skin, teeth or glasses
/// (`AVCapturePhoto.semanticSegmentationMatte(for:)`).
///
/// Like `AVPortraitEffectsMatte`, its `mattingImage` is `kCVPixelFormatType_OneComponent8` linear
/// coverage, smaller than the photo and stored as the sensor saw the scene.
public final class AVSemanticSegmentationMatte: NSObject, @unchecked Sendable {
    /// A kind of semantic segmentation matte.
    public struct MatteType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The hair of every person in view.
        public static let hair = MatteType(rawValue: "AVSemanticSegmentationMatteTypeHair")
        /// The skin of every person in view.
        public static let skin = MatteType(rawValue: "AVSemanticSegmentationMatteTypeSkin")
        /// The teeth of every person in view.
        public static let teeth = MatteType(rawValue: "AVSemanticSegmentationMatteTypeTeeth")
        /// The eyeglasses and sunglasses of every person in view.
        public static let glasses = MatteType(rawValue: "AVSemanticSegmentationMatteTypeGlasses")

        /// The ImageIO auxiliary-data type files store this matte under; nil for an unknown type.
        var auxiliaryDataType: String? {
            switch self {
            case .hair: return kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte as String
            case .skin: return kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte as String
            case .teeth: return kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte as String
            case .glasses: return kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte as String
            default: return nil
            }
        }

        static let known: [MatteType] = [.hair, .skin, .teeth, .glasses]

        /// The type a camera profile names.
        init(_ type: MatteSupport.SemanticType) {
            switch type {
            case .hair: self = .hair
            case .skin: self = .skin
            case .teeth: self = .teeth
            case .glasses: self = .glasses
            }
        }
    }

    /// The kind of matte; fixed for the object's life.
    public let matteType: MatteType
    let plane: PixelPlane<UInt8>
    private let lock = NSLock()
    private var buffer: CVPixelBuffer?

    init(matteType: MatteType, plane: PixelPlane<UInt8>) {
        self.matteType = matteType
        self.plane = plane
        super.init()
    }

    /// A matte from an image file's auxiliary-data type and dictionary; throws when the type is not
    /// one of the four semantic segmentation matte types, or the dictionary is malformed.
    public convenience init(
        fromImageSourceAuxiliaryDataType imageSourceAuxiliaryDataType: CFString,
        dictionaryRepresentation imageSourceAuxiliaryDataInfoDictionary: [AnyHashable: Any]
    ) throws {
        guard let type = MatteType.known.first(where: { $0.auxiliaryDataType == imageSourceAuxiliaryDataType as String }) else {
            throw MatteDataError.malformed("\(imageSourceAuxiliaryDataType) is not a semantic segmentation matte type")
        }
        self.init(matteType: type, plane: try MatteRepresentation.plane(from: imageSourceAuxiliaryDataInfoDictionary))
    }

    /// `kCVPixelFormatType_OneComponent8`, the only format a matte comes in.
    public var pixelFormatType: OSType { kCVPixelFormatType_OneComponent8 }

    /// The matte's coverage, one byte a pixel.
    public var mattingImage: CVPixelBuffer {
        lock.withLock {
            if let buffer { return buffer }
            let made = MatteRepresentation.buffer(plane)
            buffer = made
            return made
        }
    }

    /// The matte turned or mirrored into an orientation, as a photo with that Exif orientation is shown.
    public func applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> Self {
        Self(matteType: matteType, plane: MatteRepresentation.oriented(plane, exifOrientation))
    }

    /// A matte of the same type around other pixels; throws unless the buffer is
    /// `kCVPixelFormatType_OneComponent8`.
    public func replacingSemanticSegmentationMatte(with pixelBuffer: CVPixelBuffer) throws -> Self {
        guard let replaced = MatteRepresentation.plane(of: pixelBuffer) else {
            throw MatteDataError.malformed("the pixel buffer is not kCVPixelFormatType_OneComponent8")
        }
        return Self(matteType: matteType, plane: replaced)
    }

    /// The matte as an image auxiliary-data dictionary, with its ImageIO type
    /// (`kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte` and so on).
    public func dictionaryRepresentation(forAuxiliaryDataType outAuxDataType: UnsafeMutablePointer<NSString?>?)
        -> [AnyHashable: Any]?
    {
        guard let type = matteType.auxiliaryDataType else { return nil }
        outAuxDataType?.pointee = NSString(string: type)
        return MatteRepresentation.dictionary(of: plane)
    }

    public override var description: String {
        "<AVSemanticSegmentationMatte: \(matteType.rawValue) \(plane.width)x\(plane.height)>"
    }
}
