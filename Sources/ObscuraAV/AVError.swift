import Foundation

/// `AVFoundationErrorDomain`.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"

/// An AVFoundation error (`AVError`), with Apple's codes.
public struct AVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Error codes (AVError.h).
    public enum Code: Int, Sendable, Hashable {
        case unknown = -11800
        case outOfMemory = -11801
        case sessionNotRunning = -11803
        case deviceAlreadyUsedByAnotherSession = -11804
        case mediaServicesWereReset = -11819
        case deviceNotConnected = -11814
        case sessionConfigurationChanged = -11866
        case sessionHardwareCostOverage = -11872
        case applicationIsNotAuthorizedToUseDevice = -11852
    }

    /// The code.
    public let code: Code

    public init(_ code: Code) { self.code = code }

    /// `AVFoundationErrorDomain`.
    public static var errorDomain: String { AVFoundationErrorDomain }

    /// The message a person sees; -11819 reads "Cannot Complete Action" (spec §1.3 [O]).
    public var localizedDescription: String {
        switch code {
        case .mediaServicesWereReset: return "Cannot Complete Action"
        case .sessionNotRunning: return "Cannot Record"
        default: return "The operation could not be completed"
        }
    }

    public var description: String {
        "Error Domain=\(AVFoundationErrorDomain) Code=\(code.rawValue) \"\(localizedDescription)\""
    }
}
