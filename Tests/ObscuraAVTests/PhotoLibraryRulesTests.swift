import Foundation
import Obscura
import Photos
import Testing

/// The photo library's rules that only the control module can watch (Capture rules §26): a creation request made
/// outside a change block raises, as Photos does, and a change lands in the library's folder whole.
@Suite struct PhotoLibraryRulesTests {
    @Test func aRequestOutsideAChangeBlockRaises() {
        let exception = Emulator.catchException { _ = PHAssetCreationRequest.forAsset() }
        #expect(exception?.name == .internalInconsistencyException)
        #expect(exception?.reason?.contains("performChanges") == true)
    }

    // An empty change block changes nothing and succeeds; a block whose only asset has two photos fails with
    // changeNotSupported.
    @Test func emptyAndImpossibleChanges() throws {
        try PHPhotoLibrary.shared().performChangesAndWait {}
        let error = try #require(
            #expect(throws: (any Error).self) {
                try PHPhotoLibrary.shared().performChangesAndWait {
                    let request = PHAssetCreationRequest.forAsset()
                    request.addResource(with: .photo, data: Data([1]), options: nil)
                    request.addResource(with: .photo, data: Data([2]), options: nil)
                }
            })
        #expect((error as NSError).code == PHPhotosError.Code.changeNotSupported.rawValue)
    }
}
