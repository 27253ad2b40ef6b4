import Foundation

/// An Objective-C exception, as AVFoundation raises it for API-contract violations (spec §0).
///
/// swift-corelibs-foundation has `NSExceptionName` but no `NSException`; this class fills the gap
/// with Apple's shape. Raising goes through the emulator: by default it traps with the text Apple
/// prints for an uncaught exception; inside `Emulation.catchException` it is recorded instead.
open class NSException: @unchecked Sendable, CustomStringConvertible {
    /// The exception's name, e.g. `.invalidArgumentException`.
    public let name: NSExceptionName
    /// Why it was raised, in Apple's wording (`*** -[Class selector] message`).
    public let reason: String?
    /// Extra information. Obscura adds the rule that fired under `ObscuraRule`.
    public let userInfo: [AnyHashable: Any]?

    /// An exception from its parts.
    public init(name: NSExceptionName, reason: String?, userInfo: [AnyHashable: Any]?) {
        self.name = name
        self.reason = reason
        self.userInfo = userInfo
    }

    /// Raises the exception through the emulator.
    open func raise() -> Never {
        ExceptionRaiser.raise(self)
    }

    /// `name: reason`.
    open var description: String { "\(name.rawValue): \(reason ?? "")" }
}

extension NSExceptionName {
    /// `NSInvalidArgumentException`: an argument or the receiver's state breaks the contract.
    public static let invalidArgumentException = NSExceptionName(rawValue: "NSInvalidArgumentException")
    /// `NSGenericException`: e.g. a device property set without the configuration lock.
    public static let genericException = NSExceptionName(rawValue: "NSGenericException")
    /// `NSRangeException`: an index out of range.
    public static let rangeException = NSExceptionName(rawValue: "NSRangeException")
    /// `NSInternalInconsistencyException`.
    public static let internalInconsistencyException = NSExceptionName(
        rawValue: "NSInternalInconsistencyException")
}

/// `OSType`: a four-character code held big-endian in 32 bits (MacTypes.h).
public typealias OSType = UInt32
/// `FourCharCode`, the same as `OSType`.
public typealias FourCharCode = UInt32
