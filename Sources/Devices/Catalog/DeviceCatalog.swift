import Foundation
import ObscuraSupport

/// The device profiles in a `DeviceProfiles/` directory.
///
/// The directory is found, in order: an explicit path; the `OBSCURA_PROFILES` environment
/// variable; a `DeviceProfiles/` folder found walking up from the current directory; one found
/// walking up from the running executable's directory; the copy compiled into the package (`BundledData`).
public struct DeviceCatalog: Sendable {
    /// The catalogue's directory.
    public let directory: String
    /// The profile documented as the default device.
    public static let defaultDeviceID = "iphone-15-pro"
    /// The environment variable naming the catalogue directory.
    public static let environmentVariable = "OBSCURA_PROFILES"

    /// A catalogue rooted at an explicit or discovered directory.
    public init(directory explicit: String? = nil) throws {
        guard let found = DeviceCatalog.locate(explicit: explicit) else {
            throw ProjectFolder.notFound(
                named: "DeviceProfiles", explicit: explicit, variable: DeviceCatalog.environmentVariable)
        }
        directory = found
    }

    /// The directory search described on the type, without loading anything.
    public static func locate(
        explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executable: String? = CommandLine.arguments.first
    ) -> String? {
        ProjectFolder.locate(
            named: "DeviceProfiles", explicit: explicit, variable: environmentVariable, environment: environment,
            currentDirectory: currentDirectory, executable: executable)
    }

    /// The profile files, sorted by name.
    public var profilePaths: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map {
            (directory as NSString).appendingPathComponent($0)
        }
    }

    /// The profile ids (file names without `.yaml`), sorted.
    public var ids: [String] {
        profilePaths.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
    }

    /// Loads every profile; throws all located errors of all files together.
    public func loadAll() throws -> [DeviceProfile] {
        var errors = ErrorCollector()
        let profiles = profilePaths.compactMap { path in errors.attempt { try DeviceProfileLoader.load(path: path) } }
        try errors.throwIfAny()
        return profiles
    }

    /// Loads a profile by id (`iphone-7-plus`) or by a path to a `.yaml` file.
    public func profile(_ idOrPath: String) throws -> DeviceProfile {
        if idOrPath.hasSuffix(".yaml") || idOrPath.contains("/") {
            return try DeviceProfileLoader.load(path: idOrPath)
        }
        let path = (directory as NSString).appendingPathComponent(idOrPath + ".yaml")
        guard FileManager.default.fileExists(atPath: path) else {
            var message = "no device \(TextExcerpt.quoted(idOrPath)) in \(directory)"
            if let guess = EditDistance.suggestion(for: idOrPath, among: ids) {
                message += "; did you mean '\(guess)'?"
            }
            message += " (available: \(ids.joined(separator: ", ")))"
            throw LocatedError(.whole(directory), message)
        }
        return try DeviceProfileLoader.load(path: path)
    }
}
