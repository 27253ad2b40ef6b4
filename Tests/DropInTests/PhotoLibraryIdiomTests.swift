import AVFoundation
import Foundation
import Photos
import Testing

extension DropIn {
    /// Saving to the photo library as Apple's AVCam sample saves a capture: authorization first, then one change
    /// block whose creation request adds the photo's data with its type, and a completion handler that hears how it
    /// went. Then the app reads the library back as a gallery screen does (Capture rules §26).
    @Suite struct PhotoLibraryIdiomTests {
        /// Saves `data` as a photo, as AVCam's photo capture processor does, and returns the outcome.
        static func save(_ data: Data, type: String?, extra: ((PHAssetCreationRequest) -> Void)? = nil) -> (
            Bool, (any Error)?
        ) {
            let done = DispatchSemaphore(value: 0)
            let outcome = Outcome()
            PHPhotoLibrary.shared().performChanges({
                let options = PHAssetResourceCreationOptions()
                options.uniformTypeIdentifier = type
                let creationRequest = PHAssetCreationRequest.forAsset()
                creationRequest.addResource(with: .photo, data: data, options: options)
                extra?(creationRequest)
            }) { success, error in
                outcome.set(success, error)
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
            return outcome.value
        }

        final class Outcome: @unchecked Sendable {
            private let lock = NSLock()
            private var stored: (Bool, (any Error)?) = (false, nil)
            var value: (Bool, (any Error)?) { lock.withLock { stored } }
            func set(_ success: Bool, _ error: (any Error)?) { lock.withLock { stored = (success, error) } }
        }

        final class Bytes: @unchecked Sendable {
            private let lock = NSLock()
            private var stored = Data()
            var data: Data { lock.withLock { stored } }
            func append(_ chunk: Data) { lock.withLock { stored.append(chunk) } }
        }

        /// The newest image asset, as a gallery sorts them.
        static func newestImage() -> PHAsset? {
            let options = PHFetchOptions()
            options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
            return PHAsset.fetchAssets(with: .image, options: options).firstObject
        }

        /// Asks for read and write access, as an app with a gallery screen does before it saves or reads, and waits
        /// for the answer.
        static func authorize() {
            let asked = DispatchSemaphore(value: 0)
            PHPhotoLibrary.requestAuthorization { status in
                #expect(status == .authorized)
                asked.signal()
            }
            #expect(asked.wait(timeout: .now() + 10) == .success)
            #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .authorized)
        }

        @Test func aCapturedPhotoIsSavedAndReadBack() throws {
            Self.authorize()

            let photo = try PhotoSessionRig().captureOne()
            let data = try #require(photo.fileDataRepresentation())
            let before = PHAsset.fetchAssets(with: .image, options: nil).count
            let (success, error) = Self.save(data, type: "public.jpeg")
            #expect(success && error == nil, "\(String(describing: error))")

            #expect(PHAsset.fetchAssets(with: .image, options: nil).count == before + 1)
            let asset = try #require(Self.newestImage())
            #expect(asset.mediaType == .image && asset.mediaSubtypes.isEmpty)
            #expect(asset.pixelWidth == 640 && asset.pixelHeight == 480)
            let resources = PHAssetResource.assetResources(for: asset)
            let resource = try #require(resources.first)
            #expect(resources.count == 1 && resource.type == .photo && resource.uniformTypeIdentifier == "public.jpeg")
            #expect(resource.assetLocalIdentifier == asset.localIdentifier)
            // The bytes come back as they were saved.
            let received = Outcome()
            let read = DispatchSemaphore(value: 0)
            let bytes = Bytes()
            PHAssetResourceManager.default().requestData(
                for: resource, options: nil, dataReceivedHandler: { chunk in bytes.append(chunk) }
            ) { error in
                received.set(error == nil, error)
                read.signal()
            }
            #expect(read.wait(timeout: .now() + 10) == .success)
            #expect(received.value.0 && bytes.data == data)
            #expect(PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).count == 1)
        }

        // A Live Photo: the photo and its movie, the movie moved into the library (AVCam sets `shouldMoveFile`).
        @Test func aLivePhotoKeepsItsPairedMovie() throws {
            Self.authorize()
            let photo = try PhotoSessionRig().captureOne()
            let data = try #require(photo.fileDataRepresentation())
            let movie = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString).mov")
            try Data("a companion movie's bytes".utf8).write(to: movie)
            var identifier: String?
            try PHPhotoLibrary.shared().performChangesAndWait {
                let creationRequest = PHAssetCreationRequest.forAsset()
                creationRequest.addResource(with: .photo, data: data, options: nil)
                let options = PHAssetResourceCreationOptions()
                options.shouldMoveFile = true
                creationRequest.addResource(with: .pairedVideo, fileURL: movie, options: options)
                creationRequest.isFavorite = true
                identifier = creationRequest.placeholderForCreatedAsset?.localIdentifier
            }
            #expect(!FileManager.default.fileExists(atPath: movie.path), "the movie was moved into the library")
            let id = try #require(identifier)
            let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject)
            #expect(asset.mediaSubtypes.contains(.photoLive) && asset.isFavorite)
            let types = PHAssetResource.assetResources(for: asset).map(\.type)
            #expect(types == [.photo, .pairedVideo])
            #expect(PHAssetResource.assetResources(for: asset).last?.originalFilename == movie.lastPathComponent)
        }

        // A change that cannot be made adds nothing: a creation request whose photo is not an image fails the whole
        // block with invalidResource (3302), its good request included, and the movie it would have moved stays.
        @Test func aBadResourceFailsTheWholeChange() throws {
            Self.authorize()
            let photo = try PhotoSessionRig().captureOne()
            let data = try #require(photo.fileDataRepresentation())
            let movie = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString).mov")
            try Data("a movie".utf8).write(to: movie)
            #expect(Self.save(data, type: nil).0)
            let before = PHAsset.fetchAssets(with: nil).count
            #expect(before >= 1, "the library is read")
            let error = try #require(
                #expect(throws: (any Error).self) {
                    try PHPhotoLibrary.shared().performChangesAndWait {
                        let good = PHAssetCreationRequest.forAsset()
                        good.addResource(with: .photo, data: data, options: nil)
                        let options = PHAssetResourceCreationOptions()
                        options.shouldMoveFile = true
                        good.addResource(with: .pairedVideo, fileURL: movie, options: options)
                        PHAssetCreationRequest.forAsset().addResource(
                            with: .photo, data: Data("not a picture".utf8), options: nil)
                    }
                })
            let ns = error as NSError
            #expect(ns.domain == PHPhotosErrorDomain && ns.code == PHPhotosError.Code.invalidResource.rawValue)
            #expect(PHAsset.fetchAssets(with: nil).count == before)
            #expect(FileManager.default.fileExists(atPath: movie.path))
            // A paired movie without a photo is no asset either.
            #expect(
                !PHAssetCreationRequest.supportsAssetResourceTypes([
                    NSNumber(value: PHAssetResourceType.pairedVideo.rawValue)
                ]))
            #expect(PHAssetCreationRequest.supportsAssetResourceTypes([1, 9].map { NSNumber(value: $0) }))
        }

        // The async form of a change, as the SwiftUI AVCam writes it.
        @Test func theAsyncChangeSavesToo() async throws {
            #expect(await PHPhotoLibrary.requestAuthorization(for: .addOnly) == .authorized)
            #expect(await PHPhotoLibrary.requestAuthorization(for: .readWrite) == .authorized)
            let photo = try PhotoSessionRig().captureOne()
            let data = try #require(photo.fileDataRepresentation())
            let before = PHAsset.fetchAssets(with: .image, options: nil).count
            try await PHPhotoLibrary.shared().performChanges {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, data: data, options: nil)
            }
            #expect(PHAsset.fetchAssets(with: .image, options: nil).count == before + 1)
        }
    }
}
