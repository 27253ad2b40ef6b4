import Foundation
import ImageIO
import ObscuraAV

/// What stands for an object a change block creates, until the change is committed (`PHObjectPlaceholder`).
open class PHObjectPlaceholder: PHObject, @unchecked Sendable {}

/// Options for one resource of a new asset (`PHAssetResourceCreationOptions`).
open class PHAssetResourceCreationOptions: @unchecked Sendable {
    /// The file name the resource keeps in the library; by default the file's own, or one made up for data.
    public var originalFilename: String?
    /// The resource's type identifier (`public.heic`, `com.apple.quicktime-movie`, …); by default read from the
    /// data or the file's extension.
    public var uniformTypeIdentifier: String?
    /// Whether a file resource is moved into the library rather than copied.
    public var shouldMoveFile = false

    public init() {}
}

/// A request, made in a change block, to create an asset (`PHAssetChangeRequest`).
open class PHAssetChangeRequest: @unchecked Sendable {
    /// The asset's creation date; the commit's time when nil.
    public var creationDate: Date?
    /// Whether the asset is a favourite.
    public var isFavorite = false
    /// The placeholder whose `localIdentifier` the asset will have.
    public let placeholderForCreatedAsset: PHObjectPlaceholder?

    init() {
        placeholderForCreatedAsset = PHObjectPlaceholder(localIdentifier: "\(UUID().uuidString)/L0/001")
    }

    /// A request to create a photo from the image file at `fileURL`; raises outside a change block.
    open class func creationRequestForAssetFromImage(atFileURL fileURL: URL) -> Self? {
        let request = PHAssetCreationRequest.make("+[PHAssetChangeRequest creationRequestForAssetFromImageAtFileURL:]")
        request.addResource(with: .photo, fileURL: fileURL, options: nil)
        return request as? Self
    }

    /// A request to create a video from the movie file at `fileURL`; raises outside a change block.
    open class func creationRequestForAssetFromVideo(atFileURL fileURL: URL) -> Self? {
        let request = PHAssetCreationRequest.make("+[PHAssetChangeRequest creationRequestForAssetFromVideoAtFileURL:]")
        request.addResource(with: .video, fileURL: fileURL, options: nil)
        return request as? Self
    }
}

/// A request, made in a change block, to create an asset from its resources (`PHAssetCreationRequest`).
///
/// The resources are checked when the change is committed (Capture rules §26 rule 4): one primary resource, a photo
/// or a video; a paired video only beside a photo; photo data that decodes as an image; files that exist.
open class PHAssetCreationRequest: PHAssetChangeRequest, @unchecked Sendable {
    /// One resource as it was added.
    struct Added {
        let type: PHAssetResourceType
        let source: Source
        let options: PHAssetResourceCreationOptions?
        enum Source {
            case data(Data)
            case file(URL)
        }
    }

    private var added: [Added] = []

    /// A request in the running change block.
    static func make(_ method: String) -> PHAssetCreationRequest {
        let transaction = ChangeTransaction.required(method)
        let request = PHAssetCreationRequest()
        transaction.requests.append(request)
        return request
    }

    /// A request to create an asset from resources added next; raises outside a change block.
    open class func forAsset() -> PHAssetCreationRequest { make("+[PHAssetCreationRequest creationRequestForAsset]") }

    /// Whether the library can make an asset of these resource types (rule 4).
    open class func supportsAssetResourceTypes(_ types: [NSNumber]) -> Bool {
        let kinds = types.compactMap { PHAssetResourceType(rawValue: $0.intValue) }
        return kinds.count == types.count && (try? AssetPlan(types: kinds)) != nil
    }

    /// Adds a resource held in memory.
    open func addResource(with type: PHAssetResourceType, data: Data, options: PHAssetResourceCreationOptions?) {
        added.append(Added(type: type, source: .data(data), options: options))
    }

    /// Adds a resource from a file, copied (or moved, as `options` say) into the library when the change commits.
    open func addResource(with type: PHAssetResourceType, fileURL: URL, options: PHAssetResourceCreationOptions?) {
        added.append(Added(type: type, source: .file(fileURL), options: options))
    }

    /// Checks the resources and writes the asset's folder into `staging`: its record, and the files still to be moved
    /// into it (those added with `shouldMoveFile`).
    func stage(into staging: URL) throws -> (PhotoLibraryStore.Record, [(from: URL, to: URL)]) {
        let plan = try AssetPlan(types: added.map(\.type))
        let identifier = placeholderForCreatedAsset?.localIdentifier ?? "\(UUID().uuidString)/L0/001"
        let folder = staging.appendingPathComponent(PhotoLibraryStore.folderName(identifier))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var record = PhotoLibraryStore.Record(
            identifier: identifier, order: 0, mediaType: plan.mediaType.rawValue, mediaSubtypes: plan.subtypes.rawValue,
            creationDate: creationDate ?? Date(), pixelWidth: 0, pixelHeight: 0, duration: 0, isFavorite: isFavorite,
            resources: [])
        var moves: [(from: URL, to: URL)] = []
        for (index, resource) in added.enumerated() {
            let facts = try ResourceFacts(resource)
            let name = facts.originalFilename
            let file = "\(index)-\(name)"
            let destination = folder.appendingPathComponent(file)
            switch resource.source {
            case let .data(data): try data.write(to: destination)
            case let .file(url):
                if resource.options?.shouldMoveFile == true {
                    moves.append((url, destination))
                } else {
                    try FileManager.default.copyItem(at: url, to: destination)
                }
            }
            if resource.type == plan.primary {
                (record.pixelWidth, record.pixelHeight, record.duration) = (facts.width, facts.height, facts.duration)
            }
            record.resources.append(
                PhotoLibraryStore.Resource(
                    type: resource.type.rawValue, originalFilename: name,
                    uniformTypeIdentifier: facts.uniformTypeIdentifier, file: file))
        }
        return (record, moves)
    }
}

/// What a set of resource types makes: its primary resource, and the asset's kind (Capture rules §26 rule 4).
struct AssetPlan {
    let primary: PHAssetResourceType
    let mediaType: PHAssetMediaType
    let subtypes: PHAssetMediaSubtype

    init(types: [PHAssetResourceType]) throws {
        let photos = types.filter { $0 == .photo }.count, videos = types.filter { $0 == .video }.count
        guard photos + videos == 1, types.filter({ $0 == .pairedVideo }).count <= 1 else {
            throw PHPhotosError.make(
                .changeNotSupported, "An asset needs one photo or one video resource; it has \(photos + videos).")
        }
        if types.contains(.photoProxy) {
            throw PHPhotosError.make(.changeNotSupported, "Deferred photo proxies cannot be finished here.")
        }
        if types.contains(.pairedVideo) && photos != 1 {
            throw PHPhotosError.make(.changeNotSupported, "A paired video needs a photo beside it.")
        }
        primary = photos == 1 ? .photo : .video
        mediaType = photos == 1 ? .image : .video
        subtypes = types.contains(.pairedVideo) ? .photoLive : []
    }
}

/// What the library reads from one resource: its name, type, and for the primary one its size and length.
struct ResourceFacts {
    var originalFilename: String
    var uniformTypeIdentifier: String
    var width = 0, height = 0
    var duration = 0.0

    init(_ resource: PHAssetCreationRequest.Added) throws {
        let bytes: Data
        var name: String
        switch resource.source {
        case let .data(data):
            bytes = data
            name = ""
        case let .file(url):
            guard let data = try? Data(contentsOf: url), !data.isEmpty else {
                throw PHPhotosError.make(.missingResource, "There is no file at \(url.path).")
            }
            bytes = data
            name = url.lastPathComponent
        }
        let isPicture: Bool =
            switch resource.type {
            case .photo, .alternatePhoto, .fullSizePhoto, .adjustmentBasePhoto: true
            default: false
            }
        var type = resource.options?.uniformTypeIdentifier
        if isPicture {
            // A picture must decode: its properties give its type and its upright size.
            guard let source = CGImageSourceCreateWithData(bytes as CFData, nil),
                let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any],
                let w = properties[kCGImagePropertyPixelWidth as String] as? Int,
                let h = properties[kCGImagePropertyPixelHeight as String] as? Int
            else {
                throw PHPhotosError.make(.invalidResource, "The \(resource.type) resource is not an image file.")
            }
            let orientation = properties[kCGImagePropertyOrientation as String] as? Int ?? 1
            (width, height) = orientation >= 5 ? (h, w) : (w, h)
            type = type ?? CGImageSourceGetType(source).map { $0 as String }
        }
        if resource.type == .video, case let .file(url) = resource.source {
            // A movie's size and length, where FFmpeg's libraries can read it.
            let movie = AVURLAsset(url: url)
            if movie.isPlayable {
                duration = movie.duration.seconds
                let size = movie.tracks.first { $0.mediaType == .video }?.naturalSize ?? .zero
                (width, height) = (Int(size.width), Int(size.height))
            }
        }
        uniformTypeIdentifier = type ?? Self.type(ofExtension: (name as NSString).pathExtension, resource.type)
        if name.isEmpty {
            name =
                "\(Self.stem(resource.type))_\(UUID().uuidString.prefix(8)).\(Self.fileExtension(uniformTypeIdentifier))"
        }
        originalFilename = resource.options?.originalFilename ?? name
    }

    static func stem(_ type: PHAssetResourceType) -> String {
        switch type {
        case .video, .pairedVideo, .fullSizeVideo, .fullSizePairedVideo, .adjustmentBaseVideo,
            .adjustmentBasePairedVideo:
            "VID"
        default: "IMG"
        }
    }

    static func type(ofExtension ext: String, _ type: PHAssetResourceType) -> String {
        switch ext.lowercased() {
        case "heic": "public.heic"
        case "jpg", "jpeg": "public.jpeg"
        case "png": "public.png"
        case "dng": "com.adobe.raw-image"
        case "mov": "com.apple.quicktime-movie"
        case "mp4": "public.mpeg-4"
        default: stem(type) == "VID" ? "com.apple.quicktime-movie" : "public.data"
        }
    }

    static func fileExtension(_ uniformType: String) -> String {
        switch uniformType {
        case "public.heic": "HEIC"
        case "public.jpeg": "JPG"
        case "public.png": "PNG"
        case "com.adobe.raw-image": "DNG"
        case "public.mpeg-4": "MP4"
        case "com.apple.quicktime-movie": "MOV"
        default: "DAT"
        }
    }
}
