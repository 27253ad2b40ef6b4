import CaptureRules
import Foundation

/// A family of metadata keys: the format-independent common keys, or a container's own.
public struct AVMetadataKeySpace: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Keys that mean the same in every container.
    public static let common = AVMetadataKeySpace("comn")
    /// QuickTime metadata ('mdta' keys such as `com.apple.quicktime.location.ISO6709`), what an iPhone's movies
    /// carry.
    public static let quickTimeMetadata = AVMetadataKeySpace("mdta")
    /// QuickTime user data ('udta').
    public static let quickTimeUserData = AVMetadataKeySpace("udta")
    /// ISO user data.
    public static let isoUserData = AVMetadataKeySpace("uiso")
    /// iTunes metadata.
    public static let iTunes = AVMetadataKeySpace("itsk")
    /// ID3 tags.
    public static let id3 = AVMetadataKeySpace("org.id3")
}

/// The data type of a UTF-8 text value (Core Media's base data types).
nonisolated(unsafe) public let kCMMetadataBaseDataType_UTF8: CFString = "com.apple.metadata.datatype.UTF-8"

/// A container's metadata format.
public struct AVMetadataFormat: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// QuickTime metadata ('mdta' items), what an iPhone's movies carry.
    public static let quickTimeMetadata = AVMetadataFormat("com.apple.quicktime.mdta")
    /// QuickTime user data ('udta').
    public static let quickTimeUserData = AVMetadataFormat("com.apple.quicktime.udta")
    /// ISO user data.
    public static let isoUserData = AVMetadataFormat("org.mp4ra")
    /// iTunes metadata.
    public static let iTunesMetadata = AVMetadataFormat("com.apple.itunes")
    /// ID3 tags.
    public static let id3Metadata = AVMetadataFormat("org.id3")
}

/// A metadata key within its key space.
public struct AVMetadataKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let commonKeyTitle = AVMetadataKey("title")
    public static let commonKeyCreator = AVMetadataKey("creator")
    public static let commonKeySubject = AVMetadataKey("subject")
    public static let commonKeyDescription = AVMetadataKey("description")
    public static let commonKeyPublisher = AVMetadataKey("publisher")
    public static let commonKeyContributor = AVMetadataKey("contributor")
    public static let commonKeyCreationDate = AVMetadataKey("creationDate")
    public static let commonKeyLastModifiedDate = AVMetadataKey("lastModifiedDate")
    public static let commonKeyType = AVMetadataKey("type")
    public static let commonKeyFormat = AVMetadataKey("format")
    public static let commonKeyIdentifier = AVMetadataKey("identifier")
    public static let commonKeySource = AVMetadataKey("source")
    public static let commonKeyLanguage = AVMetadataKey("language")
    public static let commonKeyRelation = AVMetadataKey("relation")
    public static let commonKeyLocation = AVMetadataKey("location")
    public static let commonKeyCopyrights = AVMetadataKey("copyrights")
    public static let commonKeyAlbumName = AVMetadataKey("albumName")
    public static let commonKeyAuthor = AVMetadataKey("author")
    public static let commonKeyArtist = AVMetadataKey("artist")
    public static let commonKeyArtwork = AVMetadataKey("artwork")
    public static let commonKeyMake = AVMetadataKey("make")
    public static let commonKeyModel = AVMetadataKey("model")
    public static let commonKeySoftware = AVMetadataKey("software")

    public static let quickTimeMetadataKeyLocationISO6709 = AVMetadataKey("com.apple.quicktime.location.ISO6709")
    public static let quickTimeMetadataKeyTitle = AVMetadataKey("com.apple.quicktime.title")
    public static let quickTimeMetadataKeyDescription = AVMetadataKey("com.apple.quicktime.description")
    public static let quickTimeMetadataKeyComment = AVMetadataKey("com.apple.quicktime.comment")
    public static let quickTimeMetadataKeyAuthor = AVMetadataKey("com.apple.quicktime.author")
    public static let quickTimeMetadataKeyArtist = AVMetadataKey("com.apple.quicktime.artist")
    public static let quickTimeMetadataKeyCopyright = AVMetadataKey("com.apple.quicktime.copyright")
    public static let quickTimeMetadataKeyCreationDate = AVMetadataKey("com.apple.quicktime.creationdate")
    public static let quickTimeMetadataKeyMake = AVMetadataKey("com.apple.quicktime.make")
    public static let quickTimeMetadataKeyModel = AVMetadataKey("com.apple.quicktime.model")
    public static let quickTimeMetadataKeySoftware = AVMetadataKey("com.apple.quicktime.software")
    public static let quickTimeMetadataKeyKeywords = AVMetadataKey("com.apple.quicktime.keywords")
    public static let quickTimeMetadataKeyDisplayName = AVMetadataKey("com.apple.quicktime.displayname")
    public static let quickTimeMetadataKeyContentIdentifier = AVMetadataKey("com.apple.quicktime.content.identifier")
}

/// A key space and key in one string, `keySpace/key`, as Apple forms identifiers.
public struct AVMetadataIdentifier: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    private static func of(_ space: AVMetadataKeySpace, _ key: AVMetadataKey) -> AVMetadataIdentifier {
        AVMetadataIdentifier("\(space.rawValue == "comn" ? "common" : space.rawValue)/\(key.rawValue)")
    }

    public static let commonIdentifierTitle = of(.common, .commonKeyTitle)
    public static let commonIdentifierDescription = of(.common, .commonKeyDescription)
    public static let commonIdentifierCreationDate = of(.common, .commonKeyCreationDate)
    public static let commonIdentifierLocation = of(.common, .commonKeyLocation)
    public static let commonIdentifierCopyrights = of(.common, .commonKeyCopyrights)
    public static let commonIdentifierAuthor = of(.common, .commonKeyAuthor)
    public static let commonIdentifierArtist = of(.common, .commonKeyArtist)
    public static let commonIdentifierMake = of(.common, .commonKeyMake)
    public static let commonIdentifierModel = of(.common, .commonKeyModel)
    public static let commonIdentifierSoftware = of(.common, .commonKeySoftware)

    public static let quickTimeMetadataLocationISO6709 = of(.quickTimeMetadata, .quickTimeMetadataKeyLocationISO6709)
    public static let quickTimeMetadataTitle = of(.quickTimeMetadata, .quickTimeMetadataKeyTitle)
    public static let quickTimeMetadataDescription = of(.quickTimeMetadata, .quickTimeMetadataKeyDescription)
    public static let quickTimeMetadataComment = of(.quickTimeMetadata, .quickTimeMetadataKeyComment)
    public static let quickTimeMetadataAuthor = of(.quickTimeMetadata, .quickTimeMetadataKeyAuthor)
    public static let quickTimeMetadataArtist = of(.quickTimeMetadata, .quickTimeMetadataKeyArtist)
    public static let quickTimeMetadataCopyright = of(.quickTimeMetadata, .quickTimeMetadataKeyCopyright)
    public static let quickTimeMetadataCreationDate = of(.quickTimeMetadata, .quickTimeMetadataKeyCreationDate)
    public static let quickTimeMetadataMake = of(.quickTimeMetadata, .quickTimeMetadataKeyMake)
    public static let quickTimeMetadataModel = of(.quickTimeMetadata, .quickTimeMetadataKeyModel)
    public static let quickTimeMetadataSoftware = of(.quickTimeMetadata, .quickTimeMetadataKeySoftware)
    public static let quickTimeMetadataKeywords = of(.quickTimeMetadata, .quickTimeMetadataKeyKeywords)
    public static let quickTimeMetadataDisplayName = of(.quickTimeMetadata, .quickTimeMetadataKeyDisplayName)
    public static let quickTimeMetadataContentIdentifier = of(
        .quickTimeMetadata, .quickTimeMetadataKeyContentIdentifier)
}

/// One metadata item of a movie: an identifier (or a key space and key) and a value. Immutable; apps build
/// items with `AVMutableMetadataItem` and hand them to `AVCaptureMovieFileOutput.metadata` or
/// `AVAssetWriter.metadata`.
open class AVMetadataItem: NSObject, @unchecked Sendable {
    fileprivate var storedIdentifier: AVMetadataIdentifier?
    fileprivate var storedKeySpace: AVMetadataKeySpace?
    fileprivate var storedKey: (any NSCopying & NSObjectProtocol)?
    fileprivate var storedValue: (any NSCopying & NSObjectProtocol)?
    fileprivate var storedLanguageTag: String?
    fileprivate var storedDataType: String?

    override public init() {}

    /// The key space and key as one identifier; formed from them when only they were set.
    public var identifier: AVMetadataIdentifier? {
        if let storedIdentifier { return storedIdentifier }
        guard let space = storedKeySpace, let key = storedKey else { return nil }
        return AVMetadataItem.identifier(forKey: key, keySpace: space)
    }
    /// The key space, from the identifier when only it was set.
    public var keySpace: AVMetadataKeySpace? {
        if let storedKeySpace { return storedKeySpace }
        guard let parts = storedIdentifier?.rawValue.split(separator: "/", maxSplits: 1), parts.count == 2 else {
            return nil
        }
        return parts[0] == "common" ? .common : AVMetadataKeySpace(String(parts[0]))
    }
    /// The key, from the identifier when only it was set.
    public var key: (any NSCopying & NSObjectProtocol)? {
        if let storedKey { return storedKey }
        guard let parts = storedIdentifier?.rawValue.split(separator: "/", maxSplits: 1), parts.count == 2 else {
            return nil
        }
        return NSString(string: String(parts[1]))
    }
    public var value: (any NSCopying & NSObjectProtocol)? { storedValue }
    /// An IETF BCP 47 language tag for the value.
    public var extendedLanguageTag: String? { storedLanguageTag }
    /// The value's data type, a `kCMMetadataBaseDataType_…` string, if set.
    public var dataType: String? { storedDataType }
    /// The value as text: a string as it is, a number in decimal, a date in ISO 8601.
    public var stringValue: String? {
        switch storedValue {
        case let s as NSString: return s as String
        case let n as NSNumber: return n.stringValue
        case let d as NSDate: return ISO8601DateFormatter().string(from: d as Date)
        default: return nil
        }
    }
    public var numberValue: NSNumber? { storedValue as? NSNumber }
    public var dateValue: Date? {
        switch storedValue {
        case let d as NSDate: return d as Date
        case let s as NSString: return ISO8601DateFormatter().date(from: s as String)
        default: return nil
        }
    }
    public var dataValue: Data? { (storedValue as? NSData).map { $0 as Data } }

    /// The identifier of a key in a key space (nil when the key is not a string or number).
    public class func identifier(
        forKey key: Any, keySpace: AVMetadataKeySpace
    ) -> AVMetadataIdentifier? {
        guard let text = keyText(key) else { return nil }
        return AVMetadataIdentifier("\(keySpace == .common ? "common" : keySpace.rawValue)/\(text)")
    }

    /// A key as text: a string as it is, a number in decimal; nil for any other kind of key.
    static func keyText(_ key: Any?) -> String? {
        switch key {
        case let s as String: s
        case let s as NSString: s as String
        case let n as NSNumber: n.stringValue
        case let k as AVMetadataKey: k.rawValue
        default: nil
        }
    }
}

/// A metadata item whose fields the app sets.
open class AVMutableMetadataItem: AVMetadataItem, @unchecked Sendable {
    override public init() {}

    override public var identifier: AVMetadataIdentifier? {
        get { super.identifier }
        set { storedIdentifier = newValue }
    }
    override public var keySpace: AVMetadataKeySpace? {
        get { super.keySpace }
        set { storedKeySpace = newValue }
    }
    override public var key: (any NSCopying & NSObjectProtocol)? {
        get { super.key }
        set { storedKey = newValue }
    }
    override public var value: (any NSCopying & NSObjectProtocol)? {
        get { super.value }
        set { storedValue = newValue }
    }
    override public var extendedLanguageTag: String? {
        get { super.extendedLanguageTag }
        set { storedLanguageTag = newValue }
    }
    override public var dataType: String? {
        get { super.dataType }
        set { storedDataType = newValue }
    }
}

extension AVMetadataItem {
    /// The common keys and the QuickTime metadata keys a phone's movies carry them under, each way round.
    static let commonCounterparts: [(common: AVMetadataKey, quickTime: AVMetadataKey)] = [
        (.commonKeyTitle, .quickTimeMetadataKeyTitle), (.commonKeyDescription, .quickTimeMetadataKeyDescription),
        (.commonKeyCreationDate, .quickTimeMetadataKeyCreationDate),
        (.commonKeyLocation, .quickTimeMetadataKeyLocationISO6709), (.commonKeyCopyrights, .quickTimeMetadataKeyCopyright),
        (.commonKeyAuthor, .quickTimeMetadataKeyAuthor), (.commonKeyArtist, .quickTimeMetadataKeyArtist),
        (.commonKeyMake, .quickTimeMetadataKeyMake), (.commonKeyModel, .quickTimeMetadataKeyModel),
        (.commonKeySoftware, .quickTimeMetadataKeySoftware),
    ]

    /// An item read from a file: a key in a key space and its text.
    convenience init(keySpace: AVMetadataKeySpace, key: String, text: String) {
        self.init()
        storedKeySpace = keySpace
        storedKey = NSString(string: key)
        storedValue = NSString(string: text)
        storedDataType = kCMMetadataBaseDataType_UTF8 as String
    }

    /// The common key the item stands for: its own key in the common key space, or the common counterpart of a
    /// QuickTime metadata key (nil where there is none; Capture rules §25 rule 5).
    public var commonKey: AVMetadataKey? {
        guard let space = keySpace, let text = Self.keyText(key) else { return nil }
        switch space {
        case .common: return AVMetadataKey(text)
        case .quickTimeMetadata: return Self.commonCounterparts.first { $0.quickTime.rawValue == text }?.common
        default: return nil
        }
    }

    /// The items of `metadataItems` with `key` in `keySpace`; a nil key or key space matches any. In the common key
    /// space an item matches by its `commonKey`, whatever key space it was stored in (Capture rules §25 rule 5).
    public class func metadataItems(
        from metadataItems: [AVMetadataItem], withKey key: Any?, keySpace: AVMetadataKeySpace?
    ) -> [AVMetadataItem] {
        let wanted = keyText(key)
        return metadataItems.filter { item in
            if keySpace == .common {
                guard let common = item.commonKey else { return false }
                return key == nil || common.rawValue == wanted
            }
            if let keySpace, item.keySpace != keySpace { return false }
            return key == nil || (wanted != nil && keyText(item.key) == wanted)
        }
    }

    /// The items of `metadataItems` whose identifier is `identifier`; a common identifier (`.commonIdentifier…`)
    /// also matches the items whose `commonKey` it names (Capture rules §25 rule 5).
    public class func metadataItems(
        from metadataItems: [AVMetadataItem], filteredByIdentifier identifier: AVMetadataIdentifier
    ) -> [AVMetadataItem] {
        let common = identifier.rawValue.hasPrefix("common/") ? String(identifier.rawValue.dropFirst(7)) : nil
        return metadataItems.filter { item in
            item.identifier == identifier || (common != nil && item.commonKey?.rawValue == common)
        }
    }

    /// The QuickTime metadata key an item is written under in a movie, with its text (spec §20 rule 15):
    /// QuickTime metadata keys as they are, and the common keys a phone's movies carry as their
    /// `com.apple.quicktime.` counterparts; nil for other key spaces and for values that are not text, numbers or
    /// dates.
    var quickTimeEntry: (key: String, value: String)? {
        guard let space = keySpace, let key = Self.keyText(key), let text = stringValue
        else { return nil }
        switch space {
        case .quickTimeMetadata: return (key, text)
        case .common:
            return Self.commonCounterparts.first { $0.common.rawValue == key }.map { ($0.quickTime.rawValue, text) }
        default: return nil
        }
    }

    /// The entries of `items` a movie carries, in order; each one left out is traced.
    static func quickTimeEntries(_ items: [AVMetadataItem], for what: String) -> [(key: String, value: String)] {
        items.compactMap { item in
            if let entry = item.quickTimeEntry { return entry }
            Emulation.shared.record(
                TraceEntry(
                    section: "§20", rule: 15, outcome: .decided,
                    sentence: "\(what): metadata item \(item.identifier?.rawValue ?? "without identifier") is left "
                        + "out: only QuickTime metadata and common keys with text, number or date values are written."))
            return nil
        }
    }
}
