import ArgumentParser
import Foundation
import Imaging

/// The file format of a picture `obscura render` writes: chosen from the output's extension, or named
/// with `--format`, so `--out photo.jpg` holds a JPEG and never PNG bytes under a JPEG name.
enum PictureFormat: String, CaseIterable, ExpressibleByArgument {
    case png, jpeg, heic

    /// The extensions that name the format, the usual one first.
    var extensions: [String] {
        switch self {
        case .png: return ["png"]
        case .jpeg: return ["jpg", "jpeg"]
        case .heic: return ["heic", "heif"]
        }
    }

    /// Whether this machine can write the format: HEIC needs libheif with an HEVC encoder, loaded at
    /// run time (`HEIF.isAvailable`).
    var isAvailable: Bool { self != .heic || HEIF.isAvailable }

    /// The formats this machine can write, as an error lists them: `png (.png), jpeg (.jpg, .jpeg)`.
    static var availableList: String {
        allCases.filter(\.isAvailable).map { format in
            "\(format.rawValue) (\(format.extensions.map { "." + $0 }.joined(separator: ", ")))"
        }.joined(separator: ", ")
    }

    /// The format for `path`: `explicit` when given, else the one its extension names; PNG for standard
    /// output and for a name without an extension. An extension of no writable format, or a format this
    /// machine cannot write, is refused naming the formats it can.
    static func choose(for path: String, explicit: PictureFormat?, option: String) throws -> PictureFormat {
        let chosen: PictureFormat
        if let explicit {
            chosen = explicit
        } else if let suffix = fileExtension(path) {
            guard let found = allCases.first(where: { $0.extensions.contains(suffix.lowercased()) }) else {
                throw CommandFailure.badInput(
                    "\(option) \(path): cannot write '.\(suffix)' pictures; the formats available are "
                        + "\(availableList) (or name one with --format)")
            }
            chosen = found
        } else {
            chosen = .png
        }
        guard chosen.isAvailable else {
            throw CommandFailure.badInput(
                "\(option) \(path): \(chosen.rawValue) cannot be written here (libheif with an HEVC encoder is "
                    + "missing: apt-get install libheif1); the formats available are "
                    + availableList)
        }
        return chosen
    }

    /// The extension of the last path component, without the dot; nil for none (or standard output).
    static func fileExtension(_ path: String) -> String? {
        guard path != OutputFiles.standardOutput else { return nil }
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let suffix = String(name[name.index(after: dot)...])
        return suffix.isEmpty ? nil : suffix
    }

    /// The quality an encoder is given: AVCapturePhoto's default `AVVideoQualityKey` of 0.9, as libjpeg's
    /// 90 and, by the photo path's mapping of q to libheif's 50·q, libheif's 45 (see `AVCapturePhoto`'s file
    /// formats), so a rendered JPEG or HEIC matches a photo's.
    static let jpegQuality = 90
    static let heicQuality = 45
}
