import Foundation
import Imaging

/// Where the photo library keeps its assets: a folder of this machine (Capture rules §26 rule 1).
///
/// Each asset is a folder named by its identifier, holding its resources' files and `asset.json`, which records what
/// the asset is. A change is written into a hidden staging folder first and renamed into place only once every
/// request of the change block has been checked, so a change either lands whole or leaves the library as it was.
final class PhotoLibraryStore: @unchecked Sendable {
    /// One asset's record.
    struct Record: Codable, Sendable {
        var identifier: String
        /// Its place in the order assets were added.
        var order: Int
        var mediaType: Int
        var mediaSubtypes: UInt
        var creationDate: Date
        var pixelWidth: Int
        var pixelHeight: Int
        var duration: Double
        var isFavorite: Bool
        var resources: [Resource]
    }

    /// One file of an asset.
    struct Resource: Codable, Sendable {
        var type: Int
        var originalFilename: String
        var uniformTypeIdentifier: String
        /// The file's name in the asset's folder.
        var file: String
    }

    /// The process's library: in the folder `OBSCURA_PHOTO_LIBRARY` names, where it stays; otherwise in a folder of
    /// the temporary directory for this process alone, removed when the process exits.
    static let shared: PhotoLibraryStore = {
        if let path = ProcessInfo.processInfo.environment["OBSCURA_PHOTO_LIBRARY"], !path.isEmpty {
            return PhotoLibraryStore(folder: URL(fileURLWithPath: path, isDirectory: true))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "obscura-photo-library-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        atexit { try? FileManager.default.removeItem(at: PhotoLibraryStore.shared.folder) }
        return PhotoLibraryStore(folder: folder)
    }()

    let folder: URL
    private let lock = NSLock()

    init(folder: URL) { self.folder = folder }

    /// Every asset's record, in the order they were added.
    func records() -> [Record] {
        lock.withLock {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.compactMap { name in
                let url = folder.appendingPathComponent(name).appendingPathComponent("asset.json")
                guard let data = try? Data(contentsOf: url) else { return nil }
                return try? JSONDecoder().decode(Record.self, from: data)
            }
            .sorted { $0.order < $1.order }
        }
    }

    /// The file of `resource` of the asset `identifier`.
    func url(of resource: Resource, asset identifier: String) -> URL {
        folder.appendingPathComponent(Self.folderName(identifier)).appendingPathComponent(resource.file)
    }

    /// The folder of an asset: its identifier's UUID.
    static func folderName(_ identifier: String) -> String {
        String(identifier.prefix { $0 != "/" })
    }

    /// Adds the assets staged in `staging` (one folder each, named as the asset's, with its `asset.json` still to
    /// be written from `records`), numbering them after the assets already there, all or none.
    func commit(_ records: [Record], staging: URL) throws {
        try lock.withLock {
            let fm = FileManager.default
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            let existing = (try? fm.contentsOfDirectory(atPath: folder.path))?.filter { !$0.hasPrefix(".") } ?? []
            var moved: [URL] = []
            do {
                for (offset, var record) in records.enumerated() {
                    record.order = existing.count + offset
                    let name = Self.folderName(record.identifier)
                    let staged = staging.appendingPathComponent(name)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    try encoder.encode(record).write(to: staged.appendingPathComponent("asset.json"))
                    let destination = folder.appendingPathComponent(name)
                    try fm.moveItem(at: staged, to: destination)
                    moved.append(destination)
                }
            } catch {
                // Nothing half-added: what already moved goes again.
                for url in moved { try? fm.removeItem(at: url) }
                throw error
            }
        }
    }

    /// An album the app made: its title and its assets' identifiers in album order.
    struct Album: Codable, Sendable {
        var identifier: String
        var title: String
        var assets: [String]
    }

    /// Where the albums are kept: one file beside the assets' folders, its name hidden from the asset listing.
    private var albumsFile: URL { folder.appendingPathComponent(".albums.json") }

    /// The albums, in the order they were made.
    func albums() -> [Album] {
        lock.withLock {
            guard let data = try? Data(contentsOf: albumsFile) else { return [] }
            return (try? JSONDecoder().decode([Album].self, from: data)) ?? []
        }
    }

    /// Replaces the albums with `albums`, in one atomic write.
    func commitAlbums(_ albums: [Album]) throws {
        try lock.withLock {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                try AtomicFile.write([UInt8](try encoder.encode(albums)), to: albumsFile.path)
            } catch let error as AtomicFileError {
                throw PHPhotosError.make(.internalError, "The albums could not be saved: \(error.description)")
            }
        }
    }

    /// A fresh staging folder inside the library's folder (so that committing is a rename on one volume).
    func makeStaging() throws -> URL {
        let url = folder.appendingPathComponent(".staging-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
