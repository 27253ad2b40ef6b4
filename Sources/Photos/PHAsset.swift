import Foundation
import ObscuraAV

/// An object of the library (`PHObject`), known by its local identifier.
open class PHObject: NSObject, @unchecked Sendable {
    /// The identifier the library knows it by (`UUID/L0/001`).
    public let localIdentifier: String

    init(localIdentifier: String) {
        self.localIdentifier = localIdentifier
        super.init()
    }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? PHObject)?.localIdentifier == localIdentifier
    }

    open override var hash: Int { localIdentifier.hashValue }
}

/// A photo or video in the library (`PHAsset`).
open class PHAsset: PHObject, @unchecked Sendable {
    let record: PhotoLibraryStore.Record

    init(_ record: PhotoLibraryStore.Record) {
        self.record = record
        super.init(localIdentifier: record.identifier)
    }

    public var mediaType: PHAssetMediaType { PHAssetMediaType(rawValue: record.mediaType) ?? .unknown }
    public var mediaSubtypes: PHAssetMediaSubtype { PHAssetMediaSubtype(rawValue: record.mediaSubtypes) }
    /// The picture's or the video's size, upright, in pixels (0 for a video the movie reader cannot open).
    public var pixelWidth: Int { record.pixelWidth }
    public var pixelHeight: Int { record.pixelHeight }
    public var creationDate: Date? { record.creationDate }
    public var modificationDate: Date? { record.creationDate }
    /// A video's length, seconds; 0 for a photo.
    public var duration: TimeInterval { record.duration }
    public var isFavorite: Bool { record.isFavorite }
    /// Its place in the order assets were added.
    var order: Int { record.order }

    /// The assets of `mediaType`, in the order they were added unless `options` sort them.
    open class func fetchAssets(with mediaType: PHAssetMediaType, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        fetch(options) { $0.mediaType == mediaType.rawValue }
    }

    /// Every asset, in the order they were added unless `options` sort them.
    open class func fetchAssets(with options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        fetch(options) { _ in true }
    }

    /// The assets with these identifiers, in the order given.
    open class func fetchAssets(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?)
        -> PHFetchResult<PHAsset>
    {
        let records = readable()
        let found = identifiers.compactMap { id in records.first { $0.identifier == id } }
        return PHFetchResult(found.map(PHAsset.init))
    }

    /// The library's records the app may see: none without read access (Capture rules §26 rule 2).
    static func readable() -> [PhotoLibraryStore.Record] {
        PHPhotoLibrary.mayRead ? PhotoLibraryStore.shared.records() : []
    }

    /// The readable records `keep` keeps, in the order `order` gives (the order they were added by default) unless
    /// `options` sort them, capped by `fetchLimit`.
    static func fetch(
        _ options: PHFetchOptions?, order: ((PhotoLibraryStore.Record) -> Int?)? = nil,
        _ keep: (PhotoLibraryStore.Record) -> Bool
    ) -> PHFetchResult<PHAsset> {
        var records = readable().filter(keep)
        if let order { records.sort { (order($0) ?? $0.order) < (order($1) ?? $1.order) } }
        if let sort = options?.sortDescriptors?.first, let key = SortKeys.key(of: sort) {
            records.sort { a, b in
                let (x, y) = sort.ascending ? (a, b) : (b, a)
                switch key {
                case "creationDate", "modificationDate": return x.creationDate < y.creationDate
                case "pixelWidth": return x.pixelWidth < y.pixelWidth
                case "pixelHeight": return x.pixelHeight < y.pixelHeight
                case "duration": return x.duration < y.duration
                default: return x.order < y.order
                }
            }
        }
        if let limit = options?.fetchLimit, limit > 0 { records = Array(records.prefix(limit)) }
        return PHFetchResult(records.map(PHAsset.init))
    }
}

/// How a fetch sorts and limits (`PHFetchOptions`).
open class PHFetchOptions: @unchecked Sendable {
    /// The order: the first descriptor, by `creationDate`, `modificationDate`, `pixelWidth`, `pixelHeight` or
    /// `duration` (Capture rules §26 rule 5); by default, and for other keys, the order assets were added.
    public var sortDescriptors: [NSSortDescriptor]?
    /// At most this many; 0 for no limit.
    public var fetchLimit = 0

    public init() {}
}

/// The objects a fetch found (`PHFetchResult`), an ordered list fixed when fetched.
open class PHFetchResult<ObjectType: AnyObject>: @unchecked Sendable, Sequence {
    private let objects: [ObjectType]

    init(_ objects: [ObjectType]) { self.objects = objects }

    public var count: Int { objects.count }
    public var firstObject: ObjectType? { objects.first }
    public var lastObject: ObjectType? { objects.last }
    public subscript(index: Int) -> ObjectType { objects[index] }
    public func object(at index: Int) -> ObjectType { objects[index] }
    public func objects(at indexes: IndexSet) -> [ObjectType] { indexes.map { objects[$0] } }
    /// Whether an equal object is in the result (`isEqual(_:)`: Photos objects are equal when their identifiers are).
    public func contains(_ anObject: ObjectType) -> Bool {
        objects.contains { ($0 as? NSObject)?.isEqual(anObject) ?? ($0 === anObject) }
    }

    public func enumerateObjects(_ block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void) {
        var stop = ObjCBool(false)
        for (index, object) in objects.enumerated() {
            block(object, index, &stop)
            if stop.boolValue { return }
        }
    }

    public func makeIterator() -> IndexingIterator<[ObjectType]> { objects.makeIterator() }
}

/// One file of an asset (`PHAssetResource`).
open class PHAssetResource: @unchecked Sendable {
    let asset: PhotoLibraryStore.Record
    let resource: PhotoLibraryStore.Resource

    init(asset: PhotoLibraryStore.Record, resource: PhotoLibraryStore.Resource) {
        self.asset = asset
        self.resource = resource
    }

    public var type: PHAssetResourceType { PHAssetResourceType(rawValue: resource.type) ?? .photo }
    public var assetLocalIdentifier: String { asset.identifier }
    public var uniformTypeIdentifier: String { resource.uniformTypeIdentifier }
    public var originalFilename: String { resource.originalFilename }

    /// The resources of `asset`, in the order they were added.
    open class func assetResources(for asset: PHAsset) -> [PHAssetResource] {
        asset.record.resources.map { PHAssetResource(asset: asset.record, resource: $0) }
    }

    /// The resource's file in the library.
    var url: URL { PhotoLibraryStore.shared.url(of: resource, asset: asset.identifier) }
}

/// Options for reading a resource (`PHAssetResourceRequestOptions`): the library is on this machine, so nothing
/// comes over the network.
open class PHAssetResourceRequestOptions: @unchecked Sendable {
    public var isNetworkAccessAllowed = false
    public init() {}
}

/// Reads resources' bytes (`PHAssetResourceManager`).
open class PHAssetResourceManager: @unchecked Sendable {
    private static let manager = PHAssetResourceManager()
    public typealias DataRequestID = Int32
    private let lock = NSLock()
    private var nextID: DataRequestID = 1

    public init() {}

    open class func `default`() -> PHAssetResourceManager { manager }

    /// Hands the resource's bytes to `handler`, then calls `completionHandler`, both on another queue.
    @discardableResult
    open func requestData(
        for resource: PHAssetResource, options: PHAssetResourceRequestOptions?,
        dataReceivedHandler handler: @escaping (Data) -> Void,
        completionHandler: @escaping ((any Error)?) -> Void
    ) -> DataRequestID {
        let id = lock.withLock {
            defer { nextID += 1 }
            return nextID
        }
        let calls = UncheckedSendable((handler, completionHandler))
        DispatchQueue.global().async {
            guard let data = try? Data(contentsOf: resource.url) else {
                calls.value.1(PHPhotosError.make(.missingResource, "The resource's file is gone."))
                return
            }
            calls.value.0(data)
            calls.value.1(nil)
        }
        return id
    }

    /// Writes the resource's bytes to `fileURL`, which must not exist yet, then calls `completionHandler`.
    open func writeData(
        for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?,
        completionHandler: @escaping ((any Error)?) -> Void
    ) {
        let completion = UncheckedSendable(completionHandler)
        DispatchQueue.global().async {
            do {
                try FileManager.default.copyItem(at: resource.url, to: fileURL)
                completion.value(nil)
            } catch {
                completion.value(error)
            }
        }
    }

    /// Writes the resource's bytes to `fileURL`.
    open func writeData(for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?)
        async throws
    {
        try FileManager.default.copyItem(at: resource.url, to: fileURL)
    }
}

/// The keys of sort descriptors made by name. swift-corelibs-foundation has no key-value coding, so it marks
/// `NSSortDescriptor(key:ascending:)` unavailable; Photos brings the initialiser back, as fetches are sorted by name
/// (`NSSortDescriptor(key: "creationDate", ascending: false)`), and keeps each descriptor's key here.
enum SortKeys {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var keys: [ObjectIdentifier: String] = [:]

    static func record(_ key: String?, for descriptor: NSSortDescriptor) {
        lock.withLock { keys[ObjectIdentifier(descriptor)] = key }
    }

    static func key(of descriptor: NSSortDescriptor) -> String? { lock.withLock { keys[ObjectIdentifier(descriptor)] } }
}

extension NSSortDescriptor {
    /// A descriptor sorting by the property named `key`, as apps sort photo-library fetches.
    public convenience init(key: String?, ascending: Bool) {
        self.init(keyPath: \PHAsset.order, ascending: ascending)
        SortKeys.record(key, for: self)
    }

    /// The name of the property sorted by, for descriptors made by name.
    public var key: String? { SortKeys.key(of: self) }
}
