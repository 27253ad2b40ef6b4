import AVFoundation
import Foundation
import Photos
import Testing

extension DropIn {
    /// A camera app's own album, as such apps keep one: find it among the albums by its title, make it when it is
    /// missing, and save each capture into the library and the album in one change block (Capture rules §26 rule 6).
    @Suite struct PhotoAlbumIdiomTests {
        /// The album titled `title`, found the way apps look for it: enumerating the albums.
        static func album(titled title: String) -> PHAssetCollection? {
            var found: PHAssetCollection?
            let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
            albums.enumerateObjects { collection, _, stop in
                if collection.localizedTitle == title {
                    found = collection
                    stop.pointee = true
                }
            }
            return found
        }

        /// The album titled `title`, made first if there is none.
        static func ensureAlbum(titled title: String) throws -> PHAssetCollection {
            if let album = album(titled: title) { return album }
            var placeholder: PHObjectPlaceholder?
            try PHPhotoLibrary.shared().performChangesAndWait {
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                placeholder = request.placeholderForCreatedAssetCollection
            }
            let identifier = try #require(placeholder?.localIdentifier)
            return try #require(
                PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObject)
        }

        /// Saves `data` as a photo and adds it to `album` in the same change block; returns the new asset's
        /// identifier and the outcome.
        static func save(_ data: Data, to album: PHAssetCollection) -> (String?, Bool, (any Error)?) {
            let done = DispatchSemaphore(value: 0)
            let outcome = PhotoLibraryIdiomTests.Outcome()
            nonisolated(unsafe) var identifier: String?
            PHPhotoLibrary.shared().performChanges({
                let creation = PHAssetCreationRequest.forAsset()
                creation.addResource(with: .photo, data: data, options: nil)
                guard let placeholder = creation.placeholderForCreatedAsset,
                    let albumChange = PHAssetCollectionChangeRequest(for: album)
                else { return }
                identifier = placeholder.localIdentifier
                albumChange.addAssets([placeholder] as NSArray)
            }) { success, error in
                outcome.set(success, error)
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
            let (success, error) = outcome.value
            return (identifier, success, error)
        }

        @Test func capturesGoIntoTheAppsOwnAlbum() throws {
            PhotoLibraryIdiomTests.authorize()
            let title = "Obscura \(UUID().uuidString.prefix(8))"
            #expect(Self.album(titled: title) == nil)
            let album = try Self.ensureAlbum(titled: title)
            #expect(album.localizedTitle == title && album.assetCollectionType == .album)
            #expect(album.assetCollectionSubtype == .albumRegular && album.estimatedAssetCount == 0)
            // Looking again finds the same album rather than making another.
            #expect(try Self.ensureAlbum(titled: title) == album)
            #expect(
                PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
                    .filter { $0.localizedTitle == title }.count == 1)

            let data = try #require(try PhotoSessionRig().captureOne().fileDataRepresentation())
            let before = PHAsset.fetchAssets(with: nil).count
            let (first, saved, error) = Self.save(data, to: album)
            #expect(saved && error == nil, "\(String(describing: error))")
            let (second, savedAgain, _) = Self.save(data, to: album)
            #expect(savedAgain)
            #expect(PHAsset.fetchAssets(with: nil).count == before + 2)

            // The album holds the two, in the order they were added; the library's own list holds everything.
            let inAlbum = PHAsset.fetchAssets(in: try #require(Self.album(titled: title)), options: nil)
            #expect(inAlbum.map(\.localIdentifier) == [first, second].compactMap { $0 })
            #expect(try #require(Self.album(titled: title)).estimatedAssetCount == 2)
            let recents = try #require(
                PHAssetCollection.fetchAssetCollections(
                    with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: nil
                )
                .firstObject)
            #expect(PHAsset.fetchAssets(in: recents, options: nil).count == before + 2)
            let asset = try #require(inAlbum.firstObject)
            #expect(
                PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .album, options: nil).contains(album))

            // Taken out of the album, the photo stays in the library.
            try PHPhotoLibrary.shared().performChangesAndWait {
                PHAssetCollectionChangeRequest(for: album)?.removeAssets(PHAsset.fetchAssets(in: album, options: nil))
            }
            #expect(PHAsset.fetchAssets(in: try #require(Self.album(titled: title)), options: nil).count == 0)
            #expect(PHAsset.fetchAssets(with: nil).count == before + 2)
        }

        /// A change that adds an asset the library does not have (the placeholder of a creation that failed) fails
        /// whole: the photo made in the same block is not added either.
        @Test func anAlbumChangeThatCannotBeMetAddsNothing() throws {
            PhotoLibraryIdiomTests.authorize()
            let album = try Self.ensureAlbum(titled: "Obscura \(UUID().uuidString.prefix(8))")
            var stale: PHObjectPlaceholder?
            #expect(throws: (any Error).self) {
                try PHPhotoLibrary.shared().performChangesAndWait {
                    let creation = PHAssetCreationRequest.forAsset()
                    creation.addResource(with: .photo, data: Data("not a picture".utf8), options: nil)
                    stale = creation.placeholderForCreatedAsset
                }
            }
            let data = try #require(try PhotoSessionRig().captureOne().fileDataRepresentation())
            let before = PHAsset.fetchAssets(with: nil).count
            #expect(throws: (any Error).self) {
                try PHPhotoLibrary.shared().performChangesAndWait {
                    let creation = PHAssetCreationRequest.forAsset()
                    creation.addResource(with: .photo, data: data, options: nil)
                    let added = [creation.placeholderForCreatedAsset, stale].compactMap { $0 }
                    PHAssetCollectionChangeRequest(for: album)?.addAssets(added as NSArray)
                }
            }
            #expect(PHAsset.fetchAssets(with: nil).count == before)
            #expect(PHAsset.fetchAssets(in: album, options: nil).count == 0)
        }
    }
}
