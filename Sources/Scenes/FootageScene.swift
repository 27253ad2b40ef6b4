import Foundation
import Imaging

/// Footage as the whole scene: a movie, a picture or a folder of numbered pictures, shown on a screen
/// that fills the camera's field of view in an otherwise dark room.
///
/// The screen is the plane `screenDistance` in front of the device, facing it, its top edge up: what a camera
/// sees through its pixel (u, v) at that distance, (u − cx)/fx right and (v − cy)/fy down of the centre, is the
/// footage at those offsets over the screen's width and height from the screen's centre (`Footage.screenSize`).
///
/// The camera sees the footage through its own physics: its exposure, noise, colour and lens. The
/// screen stands 1 m in front of the device, sized so that the footage covers the whole view of a
/// camera whose horizontal and vertical fields of view are given (the footage's aspect is kept, so a
/// view of another aspect sees it cropped, as a phone filling its screen with a video does). Depth
/// cameras would see a flat plane there; the scene says it is footage (`Scene.footage`), so depth outputs
/// report no depth for it unless depth pictures come with it (`FootageDepth`), which they then deliver.
///
/// In direct mode (`FootageMode.direct`) the screen is still there for what measures the scene (the 3A
/// loops), but the outputs deliver the footage's own frames, resized to the active format (`Footage`).
public enum FootageScene {
    /// Movie files, by extension (lower case).
    public static let movieExtensions: Set<String> = ["y4m", "mp4", "mov", "m4v", "mkv", "webm", "avi"]
    /// Picture files, by extension (lower case).
    public static let pictureExtensions: Set<String> = ["png", "jpg", "jpeg", "heic", "heif"]
    /// The frame rate of a folder of numbered pictures.
    public static let sequenceRate = 30.0
    /// The screen's white, cd/m²: an office monitor's.
    public static let nits = 200.0
    /// How far the screen stands in front of the device, metres.
    public static let screenDistance = 1.0

    /// Whether a scene reference names footage rather than a scene: a movie or picture file, or a folder.
    public static func isFootage(_ reference: String) -> Bool {
        let ext = (reference as NSString).pathExtension.lowercased()
        if movieExtensions.contains(ext) || pictureExtensions.contains(ext) { return true }
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: reference, isDirectory: &folder) && folder.boolValue
            && !reference.hasSuffix(".yaml")
    }

    /// The footage's frames and times, each frame reduced to `storedWidth` or less (`MovieFile.reduced`).
    public static func movie(_ path: String, storedWidth: Int = MovieFile.maximumStoredWidth) throws -> DecodedMovie {
        var folder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &folder), folder.boolValue {
            return try sequence(path, storedWidth: storedWidth)
        }
        let ext = (path as NSString).pathExtension.lowercased()
        if pictureExtensions.contains(ext) {
            let still = try picture(path)
            return DecodedMovie(
                width: still.width, height: still.height, frames: [MovieFile.reduced(still, toWidth: storedWidth)],
                presentationTimes: [0], duration: 1)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw FootageError(path: path, reason: "no such file")
        }
        do {
            return try MovieFile.read(path, storedWidth: storedWidth)
        } catch {
            throw FootageError(path: path, reason: error.message)
        }
    }

    /// A scene showing footage on a screen that fills a view of these fields of view (degrees), in `mode`,
    /// with the depth pictures at `depth` if given (`FootageDepth`).
    public static func scene(
        footage path: String, mode: FootageMode = .physics, depth: String? = nil, horizontalFieldOfView: Double,
        verticalFieldOfView: Double
    ) throws -> Scene {
        // Direct mode delivers the footage's own pixels, so it keeps the frames whole; the screen the 3A loops
        // meter shows them reduced, as in physics mode.
        let whole = mode == .direct ? try movie(path, storedWidth: 1 << 30) : nil
        let decoded =
            try whole.map { movie in
                var reduced = movie
                reduced.frames = movie.frames.map { MovieFile.reduced($0, toWidth: MovieFile.maximumStoredWidth) }
                return reduced
            } ?? movie(path)
        let depthPictures = try depth.map {
            try FootageDepth.read(
                $0, footageWidth: decoded.width, footageHeight: decoded.height, frameCount: decoded.frames.count)
        }
        let aspect = Double(decoded.width) / Double(decoded.height)
        // At 1 m, the view spans 2·tan(fov/2); the screen covers both spans with the footage's aspect, and
        // 2 % more, so lens distortion at the corners shows no edge.
        let viewWidth = 2 * tan(horizontalFieldOfView / 2 * .pi / 180)
        let viewHeight = 2 * tan(verticalFieldOfView / 2 * .pi / 180)
        let width = max(viewWidth, viewHeight * aspect) * 1.02
        let movie = ScreenMovie(movie: decoded, nits: nits, loops: true)
        let screen = SceneObject(
            name: "footage", shape: .plane(width: width, height: width / aspect), transform: Transform(position: .zero),
            surface: movie.surface(frame: 0), movie: movie)
        var scene = Scene(
            objects: [screen], ambient: nil,
            device: DevicePlacement(position: Vector3(0, 0, screenDistance), lookAt: .zero))
        scene.footage = Footage(
            path: path, mode: mode, frames: whole, depth: depthPictures,
            screenSize: (width: width, height: width / aspect))
        return scene
    }

    /// A picture file as 8-bit RGB.
    private static func picture(_ path: String) throws -> PixelPlane<UInt8> {
        do {
            let image = try PictureFile.read(path, maximumPixels: 1 << 24).image
            return rgb(image)
        } catch {
            throw FootageError(path: path, reason: error.message)
        }
    }

    /// The paths of the pictures of a folder whose names hold a number, in the order of their numbers.
    public static func numberedPictures(in folder: String) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let numbered: [(Int, String)] = names.compactMap { name in
            guard pictureExtensions.contains((name as NSString).pathExtension.lowercased()) else { return nil }
            let digits = (name as NSString).deletingPathExtension.filter(\.isNumber)
            return Int(digits).map { ($0, name) }
        }.sorted { $0.0 < $1.0 }
        guard !numbered.isEmpty else {
            throw FootageError(path: folder, reason: "the folder holds no numbered PNG, JPEG or HEIC pictures")
        }
        return numbered.map { (folder as NSString).appendingPathComponent($0.1) }
    }

    /// The pictures of a folder whose names hold a number, in the order of their numbers, at `sequenceRate`.
    private static func sequence(_ folder: String, storedWidth: Int) throws -> DecodedMovie {
        let numbered = try numberedPictures(in: folder)
        let first = try picture(numbered[0])
        let (w, h) = (first.width, first.height)
        do {
            try MovieFile.checkBound(frames: numbered.count, width: w, height: h, maximumPixels: MovieFile.maximumPixels)
        } catch {
            throw FootageError(path: folder, reason: error.message)
        }
        var frames: [PixelPlane<UInt8>] = []
        for path in numbered {
            let frame = frames.isEmpty ? first : try picture(path)
            // Each picture is checked against the first: a sequence is one size.
            guard frame.width == w, frame.height == h else {
                throw FootageError(path: path, reason: "\(frame.width)x\(frame.height) differs from the first picture's \(w)x\(h)")
            }
            frames.append(MovieFile.reduced(frame, toWidth: storedWidth))
        }
        return DecodedMovie(
            width: w, height: h, frames: frames, presentationTimes: frames.indices.map { Double($0) / sequenceRate },
            duration: Double(frames.count) / sequenceRate)
    }

    /// 8-bit RGB of any picture: grey expanded, alpha dropped, 16-bit samples rounded to 8.
    static func rgb(_ image: PNGImage) -> PixelPlane<UInt8> {
        let channels = image.channels
        return PixelPlane<UInt8>(width: image.width, height: image.height, channels: 3) { x, y, c in
            let channel = channels < 3 ? 0 : c
            switch image.pixels {
            case let .eightBit(plane): return plane[x, y, channel]
            case let .sixteenBit(plane): return UInt8((Int(plane[x, y, channel]) + 128) / 257)
            }
        }
    }
}

/// Footage that could not be read: the path and why.
public struct FootageError: Error, CustomStringConvertible, Sendable {
    /// The footage's path.
    public let path: String
    /// What went wrong.
    public let reason: String

    /// An error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
