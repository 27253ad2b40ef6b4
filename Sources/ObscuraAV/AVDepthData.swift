import Devices
import Foundation
import Imaging
import Sensor

/// A depth or disparity map with its metadata (spec §9).
///
/// Disparity is in 1/metres (normalised: pixel shift / (focal length in pixels × baseline)),
/// depth in metres; one is the reciprocal of the other. Holes are NaN unless the map was
/// filtered. Maps carry the lens distortion of their image: use `cameraCalibrationData` to
/// rectify them before doing geometry (spec §9 [D]).
public final class AVDepthData: NSObject, @unchecked Sendable {
    /// How far the values can be trusted (spec §9 [D]).
    public enum Accuracy: Int, Sendable, Hashable {
        /// Ordering is right, scale is not (the dual camera is always relative).
        case relative = 0
        /// Real-world metres (TrueDepth, LiDAR).
        case absolute = 1
    }

    /// Whether the map holds too many invalid values (spec §9 [D]).
    public enum Quality: Int, Sendable, Hashable {
        case low = 0
        case high = 1
    }

    package let map: DepthMap
    /// A dropped frame's shell: format and calibration, but no pixels worth reading (spec §7 [D]).
    let isShell: Bool
    private let lock = NSLock()
    private var buffer: CVPixelBuffer?

    package init(map: DepthMap, isShell: Bool) {
        self.map = map
        self.isShell = isShell
        super.init()
    }

    /// The four depth types, in Apple's constants (spec §9 [D]).
    static let depthTypes: [OSType] = [
        kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_DepthFloat16,
        kCVPixelFormatType_DepthFloat32,
    ]

    static func pixelFormat(_ type: OSType) -> DepthPixelFormat? {
        DepthPixelFormat.allCases.first { $0.fourCharCode == type }
    }

    /// `'hdis'`, `'fdis'`, `'hdep'` or `'fdep'`.
    public var depthDataType: OSType { map.format.fourCharCode }

    /// The map as a single-channel float buffer of `depthDataType`.
    public var depthDataMap: CVPixelBuffer {
        lock.withLock {
            if let buffer { return buffer }
            let values = isShell ? PixelPlane<Float>(width: map.width, height: map.height, channels: 1, repeating: 0)
                : map.float32Plane
            // The four formats always have a layout, so this cannot fail.
            guard let made = DepthBufferCoding.buffer(values, pixelFormat: depthDataType) else {
                preconditionFailure("no buffer layout for depth type \(fourCharString(depthDataType))")
            }
            buffer = made
            return made
        }
    }

    /// The types this data converts to: all four (spec §9 [I]).
    public var availableDepthDataTypes: [OSType] { Self.depthTypes }

    /// The data in another of the four types; 1/x between disparity and depth. Any other type
    /// raises `NSInvalidArgumentException` (spec §9 [D], §13 N14).
    public func converting(toDepthDataType depthDataType: OSType) -> Self {
        guard let target = Self.pixelFormat(depthDataType) else {
            Violation.unsupportedDepthDataType(depthDataType).raise()
        }
        return Self(map: map.converting(to: target), isShell: isShell)
    }

    /// Whether holes were filled and values smoothed (spec §9 [D]).
    public var isDepthDataFiltered: Bool { map.isFiltered }

    /// Relative or absolute (spec §9 [D]).
    public var depthDataAccuracy: Accuracy { map.accuracy == .absolute ? .absolute : .relative }

    /// High, or low when too many values are invalid (spec §9 [D]).
    public var depthDataQuality: Quality { map.quality == .high ? .high : .low }

    /// The calibration of the camera whose image the map belongs to; may be nil (spec §9 [D]).
    public var cameraCalibrationData: AVCameraCalibrationData? { map.calibration.map(AVCameraCalibrationData.init) }

    /// The data turned or mirrored, map and calibration alike (spec §9 [D]).
    public func applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> Self {
        guard let o = ExifOrientation(rawValue: Int(exifOrientation.rawValue)) else {
            preconditionFailure("every CGImagePropertyOrientation is an EXIF orientation")
        }
        return Self(map: map.applying(o), isShell: isShell)
    }

    /// The same metadata around other pixels; the result has no calibration (spec §9 [D]).
    public func replacingDepthDataMap(with pixelBuffer: CVPixelBuffer) throws -> Self {
        guard let format = Self.pixelFormat(pixelBuffer.pixelFormat), let plane = DepthBufferCoding.plane(of: pixelBuffer)
        else { throw DepthDataError.malformed("the pixel buffer is not in one of the four depth formats") }
        let out = DepthMap(
            width: plane.width, height: plane.height, format: format, values: plane.packedElements,
            accuracy: map.accuracy, quality: map.quality, isFiltered: map.isFiltered, calibration: nil)
        return Self(map: out, isShell: false)
    }

    /// The data as an image auxiliary-data dictionary, the form files store (spec §9 [D]).
    ///
    /// `kCGImageAuxiliaryDataInfoData` holds the rows, little-endian, `BytesPerRow` apart;
    /// `kCGImageAuxiliaryDataInfoDataDescription` holds `Width`, `Height`, `BytesPerRow` and
    /// `PixelFormat`; `kCGImageAuxiliaryDataInfoMetadata` holds Obscura's plain dictionary of
    /// accuracy, quality, filtering and calibration (where Apple writes XMP). The output type
    /// is `kCGImageAuxiliaryDataTypeDisparity` or `…Depth`, matching the data.
    public func dictionaryRepresentation(forAuxiliaryDataType outAuxDataType: UnsafeMutablePointer<NSString?>?)
        -> [AnyHashable: Any]?
    {
        let type = map.isDisparity ? kCGImageAuxiliaryDataTypeDisparity : kCGImageAuxiliaryDataTypeDepth
        outAuxDataType?.pointee = type
        return DepthDataRepresentation.dictionary(of: map)
    }

    /// Data from an auxiliary-data dictionary; throws when it is malformed (spec §9 [D]).
    public convenience init(fromDictionaryRepresentation imageSourceAuxDataInfoDictionary: [AnyHashable: Any])
        throws
    {
        self.init(map: try DepthDataRepresentation.map(from: imageSourceAuxDataInfoDictionary), isShell: false)
    }

    public override var description: String {
        "<AVDepthData: '\(fourCharString(depthDataType))' \(map.width)x\(map.height), "
            + "\(depthDataAccuracy == .absolute ? "absolute" : "relative"), filtered \(isDepthDataFiltered)>"
    }
}

/// Why an auxiliary-data dictionary or a photo file holds no readable depth.
package enum DepthDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key or value that is missing or wrong.
    case malformed(String)

    package var description: String {
        switch self {
        case .malformed(let what): return "malformed depth data: \(what)"
        }
    }
}
