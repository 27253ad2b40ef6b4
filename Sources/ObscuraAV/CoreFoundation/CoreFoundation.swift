import Foundation

// The CoreFoundation names that capture code passes around, on Linux where Foundation keeps
// CoreFoundation to itself. Each CF type is the Foundation class it is toll-free bridged to on
// Apple's platforms, so the casts iOS code writes (`attrs as CFDictionary`, `key as String`,
// `value as? Data`) are Foundation's own bridging and behave as they do there.
//
// Linux Foundation does not mark `NSString` Sendable, so the `CFString` key constants elsewhere are
// `nonisolated(unsafe)`: each is an immutable string that nothing ever mutates.

/// `CFTypeRef`: any CoreFoundation object.
public typealias CFTypeRef = AnyObject
/// `CFPropertyList`: a string, number, date, data, array or dictionary.
public typealias CFPropertyList = AnyObject
/// `CFString`, bridged to `NSString` and `String`.
public typealias CFString = NSString
/// `CFDictionary`, bridged to `NSDictionary` and Swift dictionaries.
public typealias CFDictionary = NSDictionary
/// `CFMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// `CFArray`, bridged to `NSArray` and Swift arrays.
public typealias CFArray = NSArray
/// `CFData`, bridged to `NSData` and `Data`.
public typealias CFData = NSData
/// `CFMutableData`, bridged to `NSMutableData`.
public typealias CFMutableData = NSMutableData
/// `CFURL`, bridged to `NSURL` and `URL`.
public typealias CFURL = NSURL
/// `CFNumber`, bridged to `NSNumber`.
public typealias CFNumber = NSNumber
/// `CFBoolean`, which Foundation represents as an `NSNumber`.
public typealias CFBoolean = NSNumber
/// `CFIndex`.
public typealias CFIndex = Int
/// `CFTimeInterval`: seconds.
public typealias CFTimeInterval = Double

/// A string key hashes as the same key whether it is held as a `String` or as an `NSString` (`CFString`), as on
/// Apple's platforms, where Foundation gives `NSString` this conformance. Linux Foundation gives it to `NSNumber`
/// only, so without it `info[kCGImageAuxiliaryDataInfoData]` would miss in an `[AnyHashable: Any]` read back from a
/// `CFDictionary`, whose bridged keys are `String`s, and a `[CFString: Any]` literal would not be found by its
/// string keys.
extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    public func _toCustomAnyHashable() -> AnyHashable? { AnyHashable(self as String) }
}

/// `CFAllocator`: where CoreFoundation objects get their memory. Obscura has one allocator, Swift's,
/// so every allocator argument is accepted and none changes anything.
public final class CFAllocator: @unchecked Sendable {
    init() {}
}

/// `kCFAllocatorDefault`: NULL, which CoreFoundation reads as the default allocator.
public let kCFAllocatorDefault: CFAllocator? = nil

/// `kCFBooleanTrue`.
public let kCFBooleanTrue: CFBoolean = NSNumber(value: true)
/// `kCFBooleanFalse`.
public let kCFBooleanFalse: CFBoolean = NSNumber(value: false)

/// `CFDataCreateMutable`: an empty growable data object, as iOS code makes one for
/// `CGImageDestinationCreateWithData`; the capacity is a hint, as in CoreFoundation (0: no limit).
public func CFDataCreateMutable(_ allocator: CFAllocator?, _ capacity: CFIndex) -> CFMutableData! {
    NSMutableData(capacity: max(capacity, 0))
}

/// `CFDataCreate`: a data object holding a copy of `length` bytes.
public func CFDataCreate(_ allocator: CFAllocator?, _ bytes: UnsafePointer<UInt8>!, _ length: CFIndex) -> CFData! {
    guard let bytes, length > 0 else { return NSData() }
    return NSData(bytes: bytes, length: length)
}

/// `CFDataGetLength`: the number of bytes.
public func CFDataGetLength(_ theData: CFData!) -> CFIndex { theData.length }

/// `CFDataGetBytePtr`: the bytes, valid while the data object lives and is not changed.
public func CFDataGetBytePtr(_ theData: CFData!) -> UnsafePointer<UInt8>! {
    theData.length == 0 ? nil : theData.bytes.assumingMemoryBound(to: UInt8.self)
}

/// `CFAbsoluteTime`: seconds since 1 January 2001, 00:00 UTC.
public typealias CFAbsoluteTime = CFTimeInterval
/// `kCFAbsoluteTimeIntervalSince1970`: the seconds from 1970 to 2001.
public let kCFAbsoluteTimeIntervalSince1970: CFTimeInterval = 978_307_200
/// `CFAbsoluteTimeGetCurrent`: the current time, as apps time their frame processing with it.
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime { Date().timeIntervalSinceReferenceDate }

/// `CGFloat(truncating:)`, which Foundation on Apple's platforms has and Foundation on Linux lacks: the number's
/// value as a `CGFloat`, as iOS code reads a scale or size out of a settings dictionary.
extension CGFloat {
    public init(truncating number: NSNumber) { self.init(number.doubleValue) }
}
