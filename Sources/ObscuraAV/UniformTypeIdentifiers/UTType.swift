import Foundation

/// A uniform type identifier (UniformTypeIdentifiers' `UTType`): what kind of data a file or buffer holds, with its
/// filename extension and MIME type, as camera code names the files it writes (`URL.appendingPathExtension(for:
/// .quickTimeMovie)` in Apple's camera sample) and the types ImageIO and the capture outputs take
/// (`UTType.jpeg.identifier`).
///
/// The types are the system-declared ones capture and image code meets: data and content, images (JPEG, HEIC, HEIF,
/// PNG, TIFF, GIF, camera RAW and DNG), movies (QuickTime, MPEG-4, M4V), audio (MPEG-4 audio, WAV), text and JSON,
/// and Live Photos, each with Apple's identifier, preferred extension and MIME type and its place in the conformance
/// tree. A type outside that set (an app's own exported or imported types) is not known here: the initialisers
/// return nil for it.
public struct UTType: Hashable, Sendable, CustomStringConvertible {
    /// The type's identifier, such as `public.jpeg`.
    public let identifier: String

    private var entry: Entry? { Self.byIdentifier[identifier] }

    private init(known identifier: String) { self.identifier = identifier }

    /// The type with this identifier; nil for one not declared here.
    public init?(_ identifier: String) {
        guard Self.byIdentifier[identifier] != nil else { return nil }
        self.identifier = identifier
    }

    /// The type of files with this extension (compared without case) that conforms to `supertype`; nil when none does.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        let wanted = filenameExtension.lowercased()
        guard let entry = Self.entries.first(where: { $0.extensions.contains(wanted) }) else { return nil }
        let type = UTType(known: entry.identifier)
        guard type.conforms(to: supertype) else { return nil }
        self = type
    }

    /// The type with this MIME type (compared without case) that conforms to `supertype`; nil when none does.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        let wanted = mimeType.lowercased()
        guard let entry = Self.entries.first(where: { $0.mimeTypes.contains(wanted) }) else { return nil }
        let type = UTType(known: entry.identifier)
        guard type.conforms(to: supertype) else { return nil }
        self = type
    }

    /// The extension files of this type take, without the dot (`jpeg`, `mov`); nil for an abstract type.
    public var preferredFilenameExtension: String? { entry?.extensions.first }
    /// The MIME type data of this type is sent as; nil when there is none.
    public var preferredMIMEType: String? { entry?.mimeTypes.first }
    /// Every extension and MIME type of the type, by tag class (`filenameExtension`, `mimeType`).
    public var tags: [UTTagClass: [String]] {
        var tags: [UTTagClass: [String]] = [:]
        if let entry, !entry.extensions.isEmpty { tags[.filenameExtension] = entry.extensions }
        if let entry, !entry.mimeTypes.isEmpty { tags[.mimeType] = entry.mimeTypes }
        return tags
    }
    /// A name for people, such as "JPEG image".
    public var localizedDescription: String? { entry?.name }
    /// Whether the system declares the type: every type here is declared.
    public var isDeclared: Bool { true }
    /// Whether the type was made up for an unknown tag: never here.
    public var isDynamic: Bool { false }
    /// Whether the identifier is in Apple's public domain (`public.`).
    public var isPublic: Bool { identifier.hasPrefix("public.") }

    /// The types this one conforms to, directly or through its parents, itself excluded.
    public var supertypes: Set<UTType> {
        var found = Set<UTType>()
        var pending = entry?.parents ?? []
        while let parent = pending.popLast() {
            guard found.insert(UTType(known: parent)).inserted else { continue }
            pending += Self.byIdentifier[parent]?.parents ?? []
        }
        return found
    }

    /// Whether this type is `type` or one of its descendants.
    public func conforms(to type: UTType) -> Bool { self == type || supertypes.contains(type) }
    /// Whether `type` conforms to this one.
    public func isSupertype(of type: UTType) -> Bool { type.conforms(to: self) }
    /// Whether this type conforms to `type` and is not it.
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }

    public var description: String { identifier }
}

/// The class of a type's tag (`UTTagClass`).
public struct UTTagClass: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")
}

extension UTType {
    /// One declared type: its identifier, name, parents, extensions (preferred first) and MIME types.
    private struct Entry: Sendable {
        let identifier: String
        let name: String
        let parents: [String]
        var extensions: [String] = []
        var mimeTypes: [String] = []
    }

    /// The declarations, with Apple's identifiers, tags and conformances.
    private static let entries: [Entry] = [
        Entry(identifier: "public.item", name: "item", parents: []),
        Entry(identifier: "public.content", name: "content", parents: ["public.item"]),
        Entry(identifier: "public.data", name: "data", parents: ["public.item"]),
        Entry(identifier: "public.image", name: "image", parents: ["public.data", "public.content"]),
        Entry(
            identifier: "public.jpeg", name: "JPEG image", parents: ["public.image"],
            extensions: ["jpeg", "jpg", "jpe"], mimeTypes: ["image/jpeg", "image/jpg"]),
        Entry(
            identifier: "public.png", name: "PNG image", parents: ["public.image"], extensions: ["png"],
            mimeTypes: ["image/png"]),
        Entry(
            identifier: "public.heif", name: "HEIF image", parents: ["public.image"], extensions: ["heif"],
            mimeTypes: ["image/heif"]),
        Entry(
            identifier: "public.heic", name: "HEIF image", parents: ["public.image"], extensions: ["heic"],
            mimeTypes: ["image/heic"]),
        Entry(
            identifier: "public.tiff", name: "TIFF image", parents: ["public.image"], extensions: ["tiff", "tif"],
            mimeTypes: ["image/tiff"]),
        Entry(
            identifier: "com.compuserve.gif", name: "GIF image", parents: ["public.image"], extensions: ["gif"],
            mimeTypes: ["image/gif"]),
        Entry(identifier: "public.camera-raw-image", name: "raw image", parents: ["public.image"]),
        Entry(
            identifier: "com.adobe.raw-image", name: "DNG image", parents: ["public.camera-raw-image"],
            extensions: ["dng"], mimeTypes: ["image/x-adobe-dng"]),
        Entry(identifier: "com.apple.live-photo", name: "Live Photo", parents: ["public.content"]),
        Entry(
            identifier: "public.audiovisual-content", name: "audiovisual content",
            parents: ["public.data", "public.content"]),
        Entry(identifier: "public.movie", name: "movie", parents: ["public.audiovisual-content"]),
        Entry(identifier: "public.video", name: "video", parents: ["public.movie"]),
        Entry(
            identifier: "com.apple.quicktime-movie", name: "QuickTime movie", parents: ["public.movie"],
            extensions: ["mov", "qt"], mimeTypes: ["video/quicktime"]),
        Entry(
            identifier: "public.mpeg-4", name: "MPEG-4 movie", parents: ["public.movie"], extensions: ["mp4", "mpeg4"],
            mimeTypes: ["video/mp4", "video/mp4v"]),
        Entry(
            identifier: "com.apple.m4v-video", name: "MPEG-4 movie", parents: ["public.mpeg-4"], extensions: ["m4v"],
            mimeTypes: ["video/x-m4v"]),
        Entry(identifier: "public.audio", name: "audio", parents: ["public.audiovisual-content"]),
        Entry(
            identifier: "public.mpeg-4-audio", name: "MPEG-4 audio", parents: ["public.mpeg-4", "public.audio"],
            extensions: ["m4a"], mimeTypes: ["audio/mp4", "audio/x-m4a"]),
        Entry(
            identifier: "com.microsoft.waveform-audio", name: "Waveform audio", parents: ["public.audio"],
            extensions: ["wav", "wave"], mimeTypes: ["audio/vnd.wave", "audio/wav", "audio/x-wav"]),
        Entry(identifier: "public.text", name: "text", parents: ["public.data", "public.content"]),
        Entry(
            identifier: "public.plain-text", name: "plain text", parents: ["public.text"], extensions: ["txt", "text"],
            mimeTypes: ["text/plain"]),
        Entry(
            identifier: "public.json", name: "JSON", parents: ["public.text"], extensions: ["json"],
            mimeTypes: ["application/json"]),
    ]

    private static let byIdentifier: [String: Entry] = Dictionary(
        uniqueKeysWithValues: entries.map { ($0.identifier, $0) })

    public static let item = UTType(known: "public.item")
    public static let content = UTType(known: "public.content")
    public static let data = UTType(known: "public.data")
    public static let image = UTType(known: "public.image")
    public static let jpeg = UTType(known: "public.jpeg")
    public static let png = UTType(known: "public.png")
    public static let heif = UTType(known: "public.heif")
    public static let heic = UTType(known: "public.heic")
    public static let tiff = UTType(known: "public.tiff")
    public static let gif = UTType(known: "com.compuserve.gif")
    public static let rawImage = UTType(known: "public.camera-raw-image")
    public static let livePhoto = UTType(known: "com.apple.live-photo")
    public static let audiovisualContent = UTType(known: "public.audiovisual-content")
    public static let movie = UTType(known: "public.movie")
    public static let video = UTType(known: "public.video")
    public static let quickTimeMovie = UTType(known: "com.apple.quicktime-movie")
    public static let mpeg4Movie = UTType(known: "public.mpeg-4")
    public static let appleProtectedMPEG4Video = UTType(known: "com.apple.m4v-video")
    public static let audio = UTType(known: "public.audio")
    public static let mpeg4Audio = UTType(known: "public.mpeg-4-audio")
    public static let wav = UTType(known: "com.microsoft.waveform-audio")
    public static let text = UTType(known: "public.text")
    public static let plainText = UTType(known: "public.plain-text")
    public static let json = UTType(known: "public.json")
}

extension URL {
    /// The URL with the preferred extension of `contentType` added (`movie` becomes `movie.mov` for a QuickTime movie);
    /// unchanged for a type without one.
    public func appendingPathExtension(for contentType: UTType) -> URL {
        guard let ext = contentType.preferredFilenameExtension else { return self }
        return appendingPathExtension(ext)
    }

    /// Adds the preferred extension of `contentType`, as `appendingPathExtension(for:)` does.
    public mutating func appendPathExtension(for contentType: UTType) {
        self = appendingPathExtension(for: contentType)
    }

    /// The URL with `partialName` added as a path component, with the preferred extension of `contentType` unless the
    /// name already has an extension of that type.
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL {
        let added = appendingPathComponent(partialName)
        if let existing = UTType(filenameExtension: added.pathExtension), existing.conforms(to: contentType) {
            return added
        }
        return added.appendingPathExtension(for: contentType)
    }
}
