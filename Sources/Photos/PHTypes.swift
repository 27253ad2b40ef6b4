import Foundation

/// Whether the app may use the photo library (`PHAuthorizationStatus`).
public enum PHAuthorizationStatus: Int, Sendable, Hashable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
    case limited = 4
}

/// What the app asks to do with the library (`PHAccessLevel`).
public enum PHAccessLevel: Int, Sendable, Hashable {
    case addOnly = 1
    case readWrite = 2
}

/// An asset's kind (`PHAssetMediaType`).
public enum PHAssetMediaType: Int, Sendable, Hashable {
    case unknown = 0
    case image = 1
    case video = 2
    case audio = 3
}

/// An asset's variants (`PHAssetMediaSubtype`).
public struct PHAssetMediaSubtype: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let photoPanorama = PHAssetMediaSubtype(rawValue: 1 << 0)
    public static let photoHDR = PHAssetMediaSubtype(rawValue: 1 << 1)
    public static let photoScreenshot = PHAssetMediaSubtype(rawValue: 1 << 2)
    public static let photoLive = PHAssetMediaSubtype(rawValue: 1 << 3)
    public static let photoDepthEffect = PHAssetMediaSubtype(rawValue: 1 << 4)
    public static let videoStreamed = PHAssetMediaSubtype(rawValue: 1 << 16)
    public static let videoHighFrameRate = PHAssetMediaSubtype(rawValue: 1 << 17)
    public static let videoTimelapse = PHAssetMediaSubtype(rawValue: 1 << 18)
    public static let videoCinematic = PHAssetMediaSubtype(rawValue: 1 << 21)
}

/// The role of one file of an asset (`PHAssetResourceType`).
public enum PHAssetResourceType: Int, Sendable, Hashable {
    case photo = 1
    case video = 2
    case audio = 3
    case alternatePhoto = 4
    case fullSizePhoto = 5
    case fullSizeVideo = 6
    case adjustmentData = 7
    case adjustmentBasePhoto = 8
    case pairedVideo = 9
    case fullSizePairedVideo = 10
    case adjustmentBasePairedVideo = 11
    case adjustmentBaseVideo = 12
    case photoProxy = 19
}

/// The domain of the library's errors (`PHPhotosErrorDomain`).
public let PHPhotosErrorDomain = "PHPhotosErrorDomain"

/// The library's errors (`PHPhotosError`), with Apple's codes.
public struct PHPhotosError: Error, Sendable, Hashable {
    public enum Code: Int, Sendable, Hashable {
        case internalError = -1
        case userCancelled = 3072
        case libraryVolumeOffline = 3114
        case identifierNotFound = 3201
        case multipleIdentifiersFound = 3202
        case changeNotSupported = 3300
        case operationInterrupted = 3301
        case invalidResource = 3302
        case missingResource = 3303
        case notEnoughSpace = 3305
        case requestNotSupportedForAsset = 3306
        case accessRestricted = 3310
        case accessUserDenied = 3311
    }

    public let code: Code
    public static var errorDomain: String { PHPhotosErrorDomain }

    public static let internalError = Code.internalError
    public static let identifierNotFound = Code.identifierNotFound
    public static let changeNotSupported = Code.changeNotSupported
    public static let invalidResource = Code.invalidResource
    public static let missingResource = Code.missingResource
    public static let accessUserDenied = Code.accessUserDenied

    /// The error as Foundation carries it: `PHPhotosErrorDomain`, the code, and why.
    static func make(_ code: Code, _ reason: String) -> NSError {
        NSError(domain: PHPhotosErrorDomain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: reason])
    }
}
