import Foundation
import Imaging

/// A soft mask of the people in a photo, made with it when depth and the matte were both asked
/// for (`AVCapturePhoto.portraitEffectsMatte`).
///
/// `mattingImage` is a `kCVPixelFormatType_OneComponent8` buffer whose values are linear coverage:
/// 255 where a person fills the pixel, 0 where no person is, and in between at edges, where a pixel
/// is partly person. It is smaller than the photo (half its width and height on the emulated phones,
/// as their profiles record) and, like depth, stored as the sensor saw the scene: apply the photo's
/// Exif orientation with `applyingExifOrientation(_:)` to show it upright. See the Capture rules
/// article's photo-output rules for when one is delivered.
public final class AVPortraitEffectsMatte: NSObject, @unchecked Sendable {
    let plane: PixelPlane<UInt8>
    private let lock = NSLock()
    private var buffer: CVPixelBuffer?

    init(plane: PixelPlane<UInt8>) {
        self.plane = plane
        super.init()
    }

    /// A matte from an image file's auxiliary-data dictionary
    /// (`kCGImageAuxiliaryDataTypePortraitEffectsMatte`); throws when it is malformed.
    public convenience init(fromDictionaryRepresentation imageSourceAuxDataInfoDictionary: [AnyHashable: Any]) throws {
        self.init(plane: try MatteRepresentation.plane(from: imageSourceAuxDataInfoDictionary))
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
        Self(plane: MatteRepresentation.oriented(plane, exifOrientation))
    }

    /// A matte around other pixels; throws unless the buffer is `kCVPixelFormatType_OneComponent8`.
    public func replacingPortraitEffectsMatte(with pixelBuffer: CVPixelBuffer) throws -> Self {
        guard let replaced = MatteRepresentation.plane(of: pixelBuffer) else {
            throw MatteDataError.malformed("the pixel buffer is not kCVPixelFormatType_OneComponent8")
        }
        return Self(plane: replaced)
    }

    /// The matte as an image auxiliary-data dictionary, the form files store; the type is
    /// `kCGImageAuxiliaryDataTypePortraitEffectsMatte`.
    public func dictionaryRepresentation(forAuxiliaryDataType outAuxDataType: UnsafeMutablePointer<NSString?>?)
        -> [AnyHashable: Any]?
    {
        outAuxDataType?.pointee = kCGImageAuxiliaryDataTypePortraitEffectsMatte
        return MatteRepresentation.dictionary(of: plane)
    }

    public override var description: String { "<AVPortraitEffectsMatte: \(plane.width)x\(plane.height)>" }
}
