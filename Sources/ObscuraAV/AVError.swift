import Foundation

/// `AVFoundationErrorDomain`.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"

/// An AVFoundation error (`AVError`), with Apple's codes.
public struct AVError: Error, Hashable, @unchecked Sendable, CustomStringConvertible, CustomNSError {
    /// Error codes (AVError.h).
    public enum Code: Int, Sendable, Hashable {
        case unknown = -11800
        case outOfMemory = -11801
        case sessionNotRunning = -11803
        case deviceAlreadyUsedByAnotherSession = -11804
        case noDataCaptured = -11805
        case diskFull = -11807
        case deviceWasDisconnected = -11808
        case deviceInUseByAnotherApplication = -11815
        case sessionWasInterrupted = -11818
        case deviceIsNotAvailableInBackground = -11837
        case maximumDurationReached = -11810
        case maximumFileSizeReached = -11811
        case mediaServicesWereReset = -11819
        case deviceNotConnected = -11814
        case sessionConfigurationChanged = -11806
        case sessionHardwareCostOverage = -11872
        case applicationIsNotAuthorizedToUseDevice = -11852
        case fileAlreadyExists = -11823
        case encoderNotFound = -11834
        case decodeFailed = -11821
        case fileFormatNotRecognized = -11828
        case operationNotSupportedForAsset = -11838
        case torchLevelUnavailable = -11846
        case maximumStillImageCaptureRequestsExceeded = -11830
        case exportFailed = -11820
        case invalidVideoComposition = -11841
    }

    /// The code.
    public let code: Code
    /// Extra facts, under `AVError…Key` names (`AVErrorRecordingSuccessfullyFinishedKey`, …).
    public let userInfo: [String: Any]

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    /// The AVFoundation error an `NSError` stands for, as Apple's samples make one from a session's runtime error
    /// (`AVError(_nsError: notification.userInfo?[AVCaptureSessionErrorKey] as! NSError)`). As with any bridged
    /// error on Apple's platforms, the error must be of `AVFoundationErrorDomain`, or the program stops; a code
    /// Obscura never reports reads as `.unknown` (spec §1.3 [D]).
    public init(_nsError error: NSError) {
        precondition(
            error.domain == AVFoundationErrorDomain,
            "AVError(_nsError:) takes an error of \(AVFoundationErrorDomain), not \(error.domain)")
        var info: [String: Any] = [:]
        for (key, value) in error.userInfo where key != NSLocalizedDescriptionKey { info[key] = value }
        self.init(Code(rawValue: error.code) ?? .unknown, userInfo: info)
    }

    public static func == (a: AVError, b: AVError) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `AVFoundationErrorDomain`.
    public static var errorDomain: String { AVFoundationErrorDomain }

    /// The message a person sees; -11819 reads "Cannot Complete Action" (spec §1.3 [O]).
    public var localizedDescription: String {
        switch code {
        case .mediaServicesWereReset: return "Cannot Complete Action"
        case .sessionNotRunning, .noDataCaptured, .diskFull, .fileAlreadyExists: return "Cannot Record"
        case .maximumDurationReached: return "Recording Stopped"
        case .maximumFileSizeReached: return "Recording Stopped"
        case .encoderNotFound: return "Cannot Encode"
        case .decodeFailed: return "Cannot Decode"
        case .fileFormatNotRecognized: return "Cannot Open"
        case .operationNotSupportedForAsset, .invalidVideoComposition: return "Operation Stopped"
        case .exportFailed: return "Cannot Complete Export"
        default: return "The operation could not be completed"
        }
    }

    public var description: String {
        "Error Domain=\(AVFoundationErrorDomain) Code=\(code.rawValue) \"\(localizedDescription)\""
    }
}

/// An `AVError` is an `NSError` of `AVFoundationErrorDomain` and back, as on Apple's platforms, where it is
/// a bridged error type: `userInfo[AVCaptureSessionErrorKey] as? NSError`, `as! NSError` and `as? AVError`
/// all work, with Apple's domain, code and userInfo (spec §1.3 [D]).
extension AVError: _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = NSError

    public func _bridgeToObjectiveC() -> NSError {
        var info = userInfo
        if info[NSLocalizedDescriptionKey] == nil { info[NSLocalizedDescriptionKey] = localizedDescription }
        return NSError(domain: AVFoundationErrorDomain, code: code.rawValue, userInfo: info)
    }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout AVError?) {
        result = AVError(bridging: source)
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout AVError?) -> Bool {
        result = AVError(bridging: source)
        return result != nil
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> AVError {
        source.flatMap(AVError.init(bridging:)) ?? AVError(.unknown)
    }

    /// The error an `NSError` of `AVFoundationErrorDomain` with a known code stands for.
    init?(bridging error: NSError) {
        guard error.domain == AVFoundationErrorDomain, Code(rawValue: error.code) != nil else { return nil }
        self.init(_nsError: error)
    }
}

extension AVError.Code {
    /// A code matches an error that is an `AVError` with that code, so `catch AVError.diskFull` works as with the
    /// error types Swift imports from Apple's headers.
    public static func ~= (code: Self, error: any Error) -> Bool { (error as? AVError)?.code == code }
}

extension AVError {
    /// The codes as members of the error type, as Swift imports them (`AVError.torchLevelUnavailable`).
    public static var unknown: Code { .unknown }
    public static var outOfMemory: Code { .outOfMemory }
    public static var sessionNotRunning: Code { .sessionNotRunning }
    public static var deviceAlreadyUsedByAnotherSession: Code { .deviceAlreadyUsedByAnotherSession }
    public static var noDataCaptured: Code { .noDataCaptured }
    public static var diskFull: Code { .diskFull }
    public static var deviceWasDisconnected: Code { .deviceWasDisconnected }
    public static var deviceInUseByAnotherApplication: Code { .deviceInUseByAnotherApplication }
    public static var sessionWasInterrupted: Code { .sessionWasInterrupted }
    public static var deviceIsNotAvailableInBackground: Code { .deviceIsNotAvailableInBackground }
    public static var maximumDurationReached: Code { .maximumDurationReached }
    public static var maximumFileSizeReached: Code { .maximumFileSizeReached }
    public static var mediaServicesWereReset: Code { .mediaServicesWereReset }
    public static var deviceNotConnected: Code { .deviceNotConnected }
    public static var sessionConfigurationChanged: Code { .sessionConfigurationChanged }
    public static var sessionHardwareCostOverage: Code { .sessionHardwareCostOverage }
    public static var applicationIsNotAuthorizedToUseDevice: Code { .applicationIsNotAuthorizedToUseDevice }
    public static var fileAlreadyExists: Code { .fileAlreadyExists }
    public static var encoderNotFound: Code { .encoderNotFound }
    public static var decodeFailed: Code { .decodeFailed }
    public static var fileFormatNotRecognized: Code { .fileFormatNotRecognized }
    public static var torchLevelUnavailable: Code { .torchLevelUnavailable }
    public static var exportFailed: Code { .exportFailed }

    /// `errorCode` of `CustomNSError`: Apple's code, so `(error as NSError).code` reads it.
    public var errorCode: Int { code.rawValue }
    /// `errorUserInfo` of `CustomNSError`.
    public var errorUserInfo: [String: Any] { userInfo }
}

/// `AVErrorRecordingSuccessfullyFinishedKey`: whether a recording that ended with an error still
/// produced a playable file (a `Bool`).
public let AVErrorRecordingSuccessfullyFinishedKey = "AVErrorRecordingSuccessfullyFinishedKey"
/// `AVErrorTimeKey`: the recorded duration when a recording stopped (a `CMTime`).
public let AVErrorTimeKey = "AVErrorTimeKey"
/// `AVErrorFileSizeKey`: the file size when a recording stopped (an `Int64`).
public let AVErrorFileSizeKey = "AVErrorFileSizeKey"
