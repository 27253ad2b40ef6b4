import Foundation
import Imaging

/// How footage shown as the whole scene reaches the camera's outputs.
public enum FootageMode: String, Sendable, Hashable, CaseIterable {
    /// The camera films a screen showing the footage, through its own exposure, noise, colour and lens (the
    /// default).
    case physics
    /// The outputs deliver the footage itself, resized to the active format (`CoverResize`): the clip's
    /// frames at the stream's times, with no exposure, noise, white balance, focus, zoom or lens.
    case direct
}

/// Footage chosen as the whole scene: where it came from, how it is shown, and what direct mode and depth
/// outputs read from it.
///
/// Held by reference, like `ScreenMovie`: its frames are large, and two scenes showing the same footage are
/// equal when they show the same one.
public final class Footage: Sendable, Hashable {
    /// The footage's path, as given.
    public let path: String
    /// How the outputs see it.
    public let mode: FootageMode
    /// The frames at the footage's own size, for direct mode; nil in physics mode, where the screen's
    /// reduced frames suffice.
    public let frames: DecodedMovie?
    /// The depth that goes with the footage, if one was given.
    public let depth: FootageDepth?
    /// The size of the screen showing the footage in physics mode, metres (`FootageScene`).
    public let screenSize: (width: Double, height: Double)

    /// Footage to show.
    public init(
        path: String, mode: FootageMode, frames: DecodedMovie?, depth: FootageDepth?,
        screenSize: (width: Double, height: Double)
    ) {
        precondition(mode == .physics || frames != nil, "direct mode needs the footage's frames")
        self.path = path
        self.mode = mode
        self.frames = frames
        self.depth = depth
        self.screenSize = screenSize
    }

    /// Where a camera pixel sees the footage on the screen in physics mode: (across, down) in 0…1 of the
    /// footage for the pixel's ray `(right, down)` per metre of distance ((u − cx)/fx, (v − cy)/fy), nil off
    /// the screen. The screen faces the device `FootageScene.screenDistance` away.
    public func screenPosition(right: Double, down: Double) -> (x: Double, y: Double)? {
        let x = right * FootageScene.screenDistance / screenSize.width + 0.5
        let y = down * FootageScene.screenDistance / screenSize.height + 0.5
        return (0..<1).contains(x) && (0..<1).contains(y) ? (x, y) : nil
    }

    /// What direct mode means for what the outputs deliver, in words for `explain`.
    public static let directModeSummary =
        "Footage in direct mode: video frames, photos and code readings are the footage's own frames at the "
        + "stream's time, resized to the size delivered (scaled to cover, centred, cropped); exposure, white "
        + "balance, focus, zoom, flash and torch are kept as state and change no pixel."

    /// How the footage is named in reports and caches: the path alone for plain footage, else the path with
    /// the mode and the depth, so that the same clip shown two ways never shares a cached picture.
    public var reference: String {
        var extras: [String] = []
        if mode != .physics { extras.append("mode: \(mode.rawValue)") }
        if let depth { extras.append("depth: \(depth.path)") }
        return extras.isEmpty ? path : "\(path) {\(extras.joined(separator: ", "))}"
    }

    /// The frame shown at `index` (an index into the screen's movie), resized to `width`×`height`
    /// (`CoverResize.resized`); direct mode only.
    public func frame(_ index: Int, width: Int, height: Int) -> PixelPlane<UInt8>? {
        guard let frames else { return nil }
        let frame = frames.frames[min(max(index, 0), frames.frames.count - 1)]
        return CoverResize.resized(frame, width: width, height: height)
    }

    public static func == (a: Footage, b: Footage) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Depth given with footage: one 16-bit greyscale PNG, or a folder of them numbered like a picture sequence,
/// each value a distance in millimetres, 0 where nothing was measured.
///
/// A single picture holds for every frame; a folder holds one picture per frame of the footage, matched by
/// order (the footage's frame k goes with the k-th picture). Each picture has the footage's aspect, so that
/// the resize that fills a format (`CoverResize`) crops both alike.
public struct FootageDepth: Sendable {
    /// The depth's path, as given.
    public let path: String
    /// The distances, millimetres, one plane per frame (a single one for a still).
    public let frames: [PixelPlane<UInt16>]

    /// A depth sequence.
    public init(path: String, frames: [PixelPlane<UInt16>]) {
        precondition(!frames.isEmpty, "depth needs a picture")
        self.path = path
        self.frames = frames
    }

    /// The distances in metres for footage frame `index`, resized to `width`×`height` by the nearest sample
    /// (`CoverResize.nearest`); NaN where the picture holds 0.
    public func metres(frame index: Int, width: Int, height: Int) -> [Float] {
        let plane = frames.count == 1 ? frames[0] : frames[min(max(index, 0), frames.count - 1)]
        let resized = CoverResize.nearest(plane, width: width, height: height)
        return resized.packedElements.map { $0 == 0 ? .nan : Float($0) / 1000 }
    }

    /// The distances in metres at footage positions, for footage frame `index`: each position is (across, down)
    /// in 0…1 of the footage, nil where no footage is seen; the nearest sample is taken, NaN where the picture
    /// holds 0 or no footage is seen.
    public func metres(frame index: Int, at positions: [(x: Double, y: Double)?]) -> [Float] {
        let plane = frames.count == 1 ? frames[0] : frames[min(max(index, 0), frames.count - 1)]
        return positions.map { position in
            guard let (x, y) = position, (0..<1).contains(x), (0..<1).contains(y) else { return .nan }
            let value = plane[Int(x * Double(plane.width)), Int(y * Double(plane.height))]
            return value == 0 ? .nan : Float(value) / 1000
        }
    }

    /// Reads a depth picture or folder for footage of `width`×`height` with `frameCount` frames. Errors name the
    /// file at fault.
    public static func read(_ path: String, footageWidth width: Int, footageHeight height: Int, frameCount: Int)
        throws -> FootageDepth
    {
        var folder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &folder) else {
            throw FootageError(path: path, reason: "no such depth file or folder")
        }
        let files: [String]
        if folder.boolValue {
            files = try FootageScene.numberedPictures(in: path)
            guard files.count == 1 || files.count == frameCount else {
                throw FootageError(
                    path: path,
                    reason: "the folder holds \(files.count) depth pictures for footage of \(frameCount) frames; give "
                        + "one per frame, or a single picture for all of them")
            }
        } else {
            files = [path]
        }
        var planes: [PixelPlane<UInt16>] = []
        for file in files {
            let plane = try picture(file)
            if let first = planes.first, first.width != plane.width || first.height != plane.height {
                throw FootageError(
                    path: file,
                    reason: "\(plane.width)x\(plane.height) differs from the first depth picture's "
                        + "\(first.width)x\(first.height)")
            }
            // The same aspect within half a pixel: a depth picture made at another aspect would be cropped
            // differently from the footage and lie beside the wrong pixels.
            let expected = Double(plane.height) * Double(width) / Double(height)
            if planes.isEmpty, abs(Double(plane.width) - expected) > 0.5 + Double(plane.width) * 0.001 {
                throw FootageError(
                    path: file,
                    reason: "the depth picture is \(plane.width)x\(plane.height), not the footage's aspect "
                        + "(\(width)x\(height)); make it at the footage's aspect")
            }
            planes.append(plane)
        }
        return FootageDepth(path: path, frames: planes)
    }

    /// One depth picture: 16-bit greyscale, millimetres.
    private static func picture(_ file: String) throws -> PixelPlane<UInt16> {
        let image: PNGImage
        do {
            image = try PictureFile.read(file, maximumPixels: 1 << 24).image
        } catch {
            throw FootageError(path: file, reason: error.message)
        }
        guard case let .sixteenBit(plane) = image.pixels, image.channels == 1 else {
            throw FootageError(
                path: file,
                reason: "a depth picture is a 16-bit greyscale PNG of millimetres; this one has \(image.bitDepth)-bit "
                    + "samples and \(image.channels) channel(s)")
        }
        return plane
    }
}
