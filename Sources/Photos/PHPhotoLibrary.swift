import Foundation
import ObscuraAV

/// The photo library (`PHPhotoLibrary`): its authorization, and the change blocks that add assets to it
/// (Capture rules §26).
open class PHPhotoLibrary: @unchecked Sendable {
    private static let library = PHPhotoLibrary()
    /// The change blocks of `performChanges(_:completionHandler:)` run here, one after another.
    private static let changes = DispatchQueue(label: "PHPhotoLibrary changes")
    private static let lock = NSLock()
    nonisolated(unsafe) private static var granted: [PHAccessLevel: PHAuthorizationStatus] = [:]

    private init() {}

    /// The shared library.
    open class func shared() -> PHPhotoLibrary { library }

    /// The status of read and write access.
    open class func authorizationStatus() -> PHAuthorizationStatus { authorizationStatus(for: .readWrite) }

    /// The status of `accessLevel`: `.notDetermined` until it is asked for (rule 2).
    open class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        lock.withLock {
            if let status = granted[accessLevel] { return status }
            // Read and write access covers adding.
            if accessLevel == .addOnly, let readWrite = granted[.readWrite] { return readWrite }
            return .notDetermined
        }
    }

    /// Asks for read and write access; the answer comes on another queue.
    open class func requestAuthorization(_ handler: @escaping (PHAuthorizationStatus) -> Void) {
        requestAuthorization(for: .readWrite, handler: handler)
    }

    /// Asks for `accessLevel`; the answer comes on another queue.
    open class func requestAuthorization(
        for accessLevel: PHAccessLevel, handler: @escaping (PHAuthorizationStatus) -> Void
    ) {
        let status = answer(accessLevel)
        let handler = UncheckedSendable(handler)
        DispatchQueue.global().async { handler.value(status) }
    }

    /// Asks for `accessLevel` and returns the answer.
    open class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus {
        answer(accessLevel)
    }

    /// The person's answer to the prompt for `accessLevel`, asked once: `OBSCURA_PHOTO_LIBRARY_ACCESS` says it
    /// (`authorized`, `limited`, `denied` or `restricted`; authorized when unset), and `limited` applies to read and
    /// write access only (rule 2).
    static func answer(_ accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        lock.withLock {
            if let status = granted[accessLevel] { return status }
            let said = ProcessInfo.processInfo.environment["OBSCURA_PHOTO_LIBRARY_ACCESS"] ?? "authorized"
            var status: PHAuthorizationStatus
            switch said {
            case "denied": status = .denied
            case "restricted": status = .restricted
            case "limited": status = .limited
            case "authorized": status = .authorized
            default:
                // A misspelt answer must not pass unnoticed.
                FileHandle.standardError.write(
                    Data(
                        ("OBSCURA_PHOTO_LIBRARY_ACCESS=\(said) is none of authorized, limited, denied or restricted; "
                            + "the library is authorized\n").utf8))
                status = .authorized
            }
            if accessLevel == .addOnly && status == .limited { status = .authorized }
            granted[accessLevel] = status
            return status
        }
    }

    /// Whether assets may be added: prompting, where nothing was asked yet, as the first change does on a phone.
    static var mayAdd: Bool {
        let status =
            authorizationStatus(for: .addOnly) == .notDetermined
            ? answer(.addOnly) : authorizationStatus(for: .addOnly)
        return status == .authorized || status == .limited
    }

    /// Whether the app may read the library (read and write access, full or limited).
    static var mayRead: Bool {
        let status = authorizationStatus(for: .readWrite)
        return status == .authorized || status == .limited
    }

    /// Runs `changeBlock` on the library's queue, then commits what it asked for, and calls `completionHandler` on
    /// another queue with whether it did and why not.
    open func performChanges(
        _ changeBlock: @escaping () -> Void,
        completionHandler: ((Bool, (any Error)?) -> Void)? = nil
    ) {
        // The app's closures cross to the library's queue and back, as Photos hands them over.
        let work = UncheckedSendable((changeBlock, completionHandler))
        Self.changes.async {
            let outcome = UncheckedSendable(Result { try Self.run(work.value.0) })
            DispatchQueue.global().async {
                switch outcome.value {
                case .success: work.value.1?(true, nil)
                case let .failure(error): work.value.1?(false, error)
                }
            }
        }
    }

    /// Runs `changeBlock` and commits what it asked for; throws why it could not.
    open func performChanges(_ changeBlock: @escaping () -> Void) async throws {
        let block = UncheckedSendable(changeBlock)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            performChanges(block.value) { _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Runs `changeBlock` on the calling thread and commits what it asked for; throws why it could not.
    open func performChangesAndWait(_ changeBlock: () -> Void) throws {
        try Self.changes.sync { try Self.run(changeBlock) }
    }

    /// One change block: its requests gathered while it runs, checked, then committed together (rule 3).
    private static func run(_ changeBlock: () -> Void) throws {
        let transaction = ChangeTransaction()
        ChangeTransaction.current = transaction
        changeBlock()
        ChangeTransaction.current = nil
        guard !transaction.requests.isEmpty || !transaction.collectionRequests.isEmpty else { return }
        guard mayAdd else {
            throw PHPhotosError.make(.accessUserDenied, "The person denied access to the photo library.")
        }
        // Albums belong to read and write access: add-only access adds assets and nothing else (rule 6).
        guard transaction.collectionRequests.isEmpty || mayRead else {
            throw PHPhotosError.make(.accessUserDenied, "Albums need read and write access to the photo library.")
        }
        try transaction.commit(to: PhotoLibraryStore.shared)
    }
}

/// The requests a change block makes, gathered while it runs.
final class ChangeTransaction: @unchecked Sendable {
    var requests: [PHAssetCreationRequest] = []
    /// The albums made or changed, in the order asked.
    var collectionRequests: [PHAssetCollectionChangeRequest] = []

    private static let key = "PHChangeTransaction"

    /// The transaction of the change block running on this thread, if any.
    static var current: ChangeTransaction? {
        get { Thread.current.threadDictionary[key] as? ChangeTransaction }
        set { Thread.current.threadDictionary[key] = newValue }
    }

    /// The transaction a request may be made in; outside a change block, raises as Photos does (rule 3).
    static func required(_ method: String) -> ChangeTransaction {
        guard let current else {
            NSException(
                name: .internalInconsistencyException,
                reason:
                    "This method can only be called from inside of -[PHPhotoLibrary performChanges:completionHandler:] or -[PHPhotoLibrary performChangesAndWait:error:] (\(method))",
                userInfo: nil
            ).raise()
        }
        return current
    }

    /// Checks every request, stages its files, and adds them all to `store`, or none; then makes and changes the
    /// albums, whose assets may be the ones just added (Capture rules §26 rule 6).
    func commit(to store: PhotoLibraryStore) throws {
        // The albums are worked out first, so that an album request that cannot be met adds no asset either.
        var known = Set(store.records().map(\.identifier))
        for request in requests { if let id = request.placeholderForCreatedAsset?.localIdentifier { known.insert(id) } }
        var albums = store.albums()
        for request in collectionRequests {
            let album = try request.applied(known: known)
            if let index = albums.firstIndex(where: { $0.identifier == album.identifier }) {
                albums[index] = album
            } else {
                albums.append(album)
            }
        }
        try commitAssets(to: store)
        if !collectionRequests.isEmpty { try store.commitAlbums(albums) }
    }

    private func commitAssets(to store: PhotoLibraryStore) throws {
        guard !requests.isEmpty else { return }
        let staging = try store.makeStaging()
        defer { try? FileManager.default.removeItem(at: staging) }
        var records: [PhotoLibraryStore.Record] = []
        var moves: [(from: URL, to: URL)] = []
        for request in requests {
            let (record, pending) = try request.stage(into: staging)
            records.append(record)
            moves += pending
        }
        // Files the app asked to have moved leave their place only once every request is good, and go back if the
        // commit fails.
        var done: [(from: URL, to: URL)] = []
        do {
            for move in moves {
                try FileManager.default.moveItem(at: move.from, to: move.to)
                done.append(move)
            }
            try store.commit(records, staging: staging)
        } catch {
            for move in done { try? FileManager.default.moveItem(at: move.to, to: move.from) }
            throw error
        }
    }
}
