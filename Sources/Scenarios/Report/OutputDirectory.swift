import Foundation
import Imaging

/// The directory a run writes into. Nothing may be written outside it: relative paths with `..`
/// or a leading `/` are refused, and so is any path whose real location (after following symbolic
/// links) leaves the directory.
public struct OutputDirectory: Sendable {
    /// The directory's real path.
    public let root: String

    /// Why a directory cannot be used or a file cannot be written.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    /// Prepares `path`: refuses an existing, non-empty directory unless `force`; creates it.
    public init(path: String, force: Bool) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Refusal(message: "\(path) exists and is not a directory") }
            let contents = (try? fm.contentsOfDirectory(atPath: path)) ?? []
            if !contents.isEmpty && !force {
                throw Refusal(message: "\(path) already exists; pass --force to overwrite it, or choose --out")
            }
        }
        do {
            try fm.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw Refusal(message: "cannot create \(path): \(error.localizedDescription)")
        }
        root = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// Writes bytes atomically at a path relative to the directory; returns that relative path.
    @discardableResult
    public func write(_ bytes: [UInt8], to relative: String) throws -> String {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.hasPrefix("/"), !parts.contains(".."), !parts.contains(where: \.isEmpty) else {
            throw Refusal(message: "output path '\(relative)' leaves the output directory")
        }
        let target = URL(fileURLWithPath: root).appendingPathComponent(relative)
        let parent = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw Refusal(message: "cannot create \(parent.path): \(error.localizedDescription)")
        }
        // A symbolic link inside the directory may point anywhere: check where the file really lands.
        let realParent = parent.resolvingSymlinksInPath().standardizedFileURL.path
        let inside = realParent == root || realParent.hasPrefix(root + "/")
        let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: target.path)) != nil
        guard inside, !isLink else {
            throw Refusal(message: "output path '\(relative)' resolves outside the output directory")
        }
        do {
            try AtomicFile.write(bytes, to: target.path)
        } catch {
            throw Refusal(message: "\(error)")
        }
        return relative
    }
}
