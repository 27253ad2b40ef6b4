import Foundation
import Imaging
import ObscuraAV

/// Objects whose elements Photos can take in a change request (`NSFastEnumeration`, which swift-corelibs-foundation
/// lacks): arrays, `NSArray`s and fetch results of assets or placeholders.
public protocol NSFastEnumeration {}
extension NSArray: NSFastEnumeration {}
extension Array: NSFastEnumeration {}
extension PHFetchResult: NSFastEnumeration {}

/// The local identifiers of the Photos objects in `objects`, in order.
func objectIdentifiers(_ objects: any NSFastEnumeration) -> [String] {
    let elements: [Any]
    switch objects {
    case let array as NSArray: elements = array.map { $0 }
    case let array as [Any]: elements = array
    case let result as PHFetchResult<PHAsset>: elements = Array(result)
    case let result as PHFetchResult<PHObject>: elements = Array(result)
    default: elements = []
    }
    return elements.compactMap { ($0 as? PHObject)?.localIdentifier }
}

/// The kinds of collection (`PHAssetCollectionType`).
public enum PHAssetCollectionType: Int, Sendable, Hashable {
    case album = 1
    case smartAlbum = 2
    case moment = 3
}

/// The subtypes of collection (`PHAssetCollectionSubtype`), with Apple's numbers.
public enum PHAssetCollectionSubtype: Int, Sendable, Hashable {
    case albumRegular = 2
    case albumSyncedEvent = 3
    case albumSyncedFaces = 4
    case albumSyncedAlbum = 5
    case albumImported = 6
    case albumMyPhotoStream = 100
    case albumCloudShared = 101
    case smartAlbumGeneric = 200
    case smartAlbumPanoramas = 201
    case smartAlbumVideos = 202
    case smartAlbumFavorites = 203
    case smartAlbumTimelapses = 204
    case smartAlbumAllHidden = 205
    case smartAlbumRecentlyAdded = 206
    case smartAlbumBursts = 207
    case smartAlbumSlomoVideos = 208
    case smartAlbumUserLibrary = 209
    case smartAlbumSelfPortraits = 210
    case smartAlbumScreenshots = 211
    case smartAlbumDepthEffect = 212
    case smartAlbumLivePhotos = 213
    case smartAlbumAnimated = 214
    case smartAlbumLongExposures = 215
    case smartAlbumUnableToUpload = 216
    case smartAlbumRAW = 217
    case smartAlbumCinematic = 218
    case smartAlbumSpatial = 219
    case any = 9_223_372_036_854_775_807
}

/// A collection of the library (`PHCollection`): an album here.
open class PHCollection: PHObject, @unchecked Sendable {
    /// The title a person sees.
    public let localizedTitle: String?

    init(localIdentifier: String, title: String?) {
        localizedTitle = title
        super.init(localIdentifier: localIdentifier)
    }

    /// Whether the collection holds assets: an album does.
    open var canContainAssets: Bool { true }
    /// Whether it holds other collections: an album does not.
    open var canContainCollections: Bool { false }

    /// The collections at the top of the library: the albums the app or the person made, oldest first (Capture
    /// rules §26 rule 6).
    open class func fetchTopLevelUserCollections(with options: PHFetchOptions?) -> PHFetchResult<PHCollection> {
        PHFetchResult(PHAssetCollection.albums(options).map { $0 as PHCollection })
    }
}

/// An album (`PHAssetCollection`): one the app made (`.album`, `.albumRegular`), or the library's own list of every
/// asset (`.smartAlbum`, `.smartAlbumUserLibrary`, "Recents").
open class PHAssetCollection: PHCollection, @unchecked Sendable {
    public let assetCollectionType: PHAssetCollectionType
    public let assetCollectionSubtype: PHAssetCollectionSubtype
    /// The assets' identifiers, in album order; nil for the library's own list, which holds every asset.
    let members: [String]?

    init(album: PhotoLibraryStore.Album) {
        assetCollectionType = .album
        assetCollectionSubtype = .albumRegular
        members = album.assets
        super.init(localIdentifier: album.identifier, title: album.title)
    }

    private init(userLibrary: ()) {
        assetCollectionType = .smartAlbum
        assetCollectionSubtype = .smartAlbumUserLibrary
        members = nil
        super.init(localIdentifier: Self.userLibraryIdentifier, title: "Recents")
    }

    static let userLibraryIdentifier = "A0000000-0000-0000-0000-000000000209/L0/040"

    /// How many assets the album holds.
    open var estimatedAssetCount: Int { members?.count ?? PHAsset.readable().count }
    /// The first and last assets' dates, for moments; nil here.
    open var startDate: Date? { nil }
    open var endDate: Date? { nil }

    /// The albums of `type` and `subtype`: the app's albums in the order they were made, or the library's own list
    /// of every asset; `fetchLimit` caps the count. Nothing without read access.
    open class func fetchAssetCollections(
        with type: PHAssetCollectionType, subtype: PHAssetCollectionSubtype, options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        var found: [PHAssetCollection] = []
        if type == .album, subtype == .any || subtype == .albumRegular { found = albums(options) }
        if type == .smartAlbum, subtype == .any || subtype == .smartAlbumUserLibrary, PHPhotoLibrary.mayRead {
            found = [PHAssetCollection(userLibrary: ())]
        }
        return PHFetchResult(found)
    }

    /// The albums with these identifiers, in the order given.
    open class func fetchAssetCollections(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?)
        -> PHFetchResult<PHAssetCollection>
    {
        let all = albums(nil) + (PHPhotoLibrary.mayRead ? [PHAssetCollection(userLibrary: ())] : [])
        return PHFetchResult(identifiers.compactMap { id in all.first { $0.localIdentifier == id } })
    }

    /// The albums of `type` that hold `asset`.
    open class func fetchAssetCollectionsContaining(
        _ asset: PHAsset, with type: PHAssetCollectionType, options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        let all = fetchAssetCollections(with: type, subtype: .any, options: nil)
        return PHFetchResult(all.filter { $0.members?.contains(asset.localIdentifier) ?? true })
    }

    /// The app's albums in the order they were made, capped by `fetchLimit`.
    static func albums(_ options: PHFetchOptions?) -> [PHAssetCollection] {
        guard PHPhotoLibrary.mayRead else { return [] }
        let found = PhotoLibraryStore.shared.albums().map(PHAssetCollection.init(album:))
        guard let limit = options?.fetchLimit, limit > 0 else { return found }
        return Array(found.prefix(limit))
    }
}

extension PHAsset {
    /// The assets the album holds now (the collection object is a snapshot; its album is read again), in album order
    /// unless `options` sort them.
    public class func fetchAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?)
        -> PHFetchResult<PHAsset>
    {
        guard assetCollection.members != nil else { return fetchAssets(with: options) }
        let members =
            PhotoLibraryStore.shared.albums().first { $0.identifier == assetCollection.localIdentifier }?.assets ?? []
        let place = Dictionary(members.enumerated().map { ($1, $0) }) { first, _ in first }
        return fetch(options, order: { place[$0.identifier] }) { place[$0.identifier] != nil }
    }
}

/// A request, made in a change block, to make an album or change what it holds (`PHAssetCollectionChangeRequest`;
/// Capture rules §26 rule 6).
open class PHAssetCollectionChangeRequest: @unchecked Sendable {
    /// The album changed, or nil for one being made.
    let album: PhotoLibraryStore.Album?
    /// The album's title.
    public var title: String
    /// The placeholder whose `localIdentifier` a new album will have.
    public let placeholderForCreatedAssetCollection: PHObjectPlaceholder
    private(set) var added: [String] = []
    private(set) var removed: [String] = []

    private init(album: PhotoLibraryStore.Album?, title: String, _ method: String) {
        self.album = album
        self.title = title
        placeholderForCreatedAssetCollection = PHObjectPlaceholder(
            localIdentifier: album?.identifier ?? "\(UUID().uuidString)/L0/040")
        ChangeTransaction.required(method).collectionRequests.append(self)
    }

    /// A request to make an album titled `title`; raises outside a change block.
    open class func creationRequestForAssetCollection(withTitle title: String) -> PHAssetCollectionChangeRequest {
        PHAssetCollectionChangeRequest(
            album: nil, title: title, "+[PHAssetCollectionChangeRequest creationRequestForAssetCollectionWithTitle:]")
    }

    /// A request to change `assetCollection`; nil for the library's own list, which no app changes. Raises outside a
    /// change block.
    public convenience init?(for assetCollection: PHAssetCollection) {
        guard
            let album = PhotoLibraryStore.shared.albums().first(where: {
                $0.identifier == assetCollection.localIdentifier
            })
        else { return nil }
        self.init(
            album: album, title: album.title, "+[PHAssetCollectionChangeRequest changeRequestForAssetCollection:]")
    }

    /// The same, with the album's assets as the app fetched them.
    public convenience init?(for assetCollection: PHAssetCollection, assets: PHFetchResult<PHAsset>) {
        self.init(for: assetCollection)
    }

    /// Adds assets (or the placeholders of assets made in the same change block) at the album's end; an asset the
    /// album holds already stays where it is.
    open func addAssets(_ assets: any NSFastEnumeration) {
        added += objectIdentifiers(assets)
    }

    /// Takes assets out of the album (they stay in the library).
    open func removeAssets(_ assets: any NSFastEnumeration) {
        removed += objectIdentifiers(assets)
    }

    /// The album as it will be once the change is committed; throws when an asset added is neither in the library
    /// nor made in the same change block.
    func applied(known: Set<String>) throws -> PhotoLibraryStore.Album {
        var assets = album?.assets ?? []
        for id in added where !assets.contains(id) {
            guard known.contains(id) else {
                throw PHPhotosError.make(.identifierNotFound, "No asset has the identifier \(id).")
            }
            assets.append(id)
        }
        assets.removeAll { removed.contains($0) }
        return PhotoLibraryStore.Album(
            identifier: placeholderForCreatedAssetCollection.localIdentifier, title: title, assets: assets)
    }
}
