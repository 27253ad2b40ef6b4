import ArgumentParser
import Devices
import Foundation
import ObscuraSupport

/// `obscura devices`: the virtual-device catalogue.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List, show and lint the virtual devices in DeviceProfiles/.",
        discussion: """
            The catalogue directory is, in order: --profiles, $\(DeviceCatalog.environmentVariable), a \
            DeviceProfiles/ folder above the current directory, one above the obscura executable, else the \
            catalogue built into obscura.
            """,
        subcommands: [List.self, Show.self, Lint.self],
        defaultSubcommand: List.self
    )

    /// The catalogue option shared by the subcommands.
    struct CatalogOptions: ParsableArguments {
        @Option(name: .long, help: "The DeviceProfiles directory.")
        var profiles: String?

        func catalog() throws -> DeviceCatalog {
            do {
                return try DeviceCatalog(directory: profiles)
            } catch {
                throw CommandFailure.badInput("\(error)")
            }
        }
    }

    /// `obscura devices list`: id, name, cameras, key features.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the devices in the catalogue.")
        @OptionGroup var options: CatalogOptions
        @Flag(help: "Print JSON with sorted keys.")
        var json = false

        func run() throws {
            let catalog = try options.catalog()
            let profiles: [DeviceProfile]
            do {
                profiles = try catalog.loadAll()
            } catch {
                throw CommandFailure.badInput("\(error)")
            }
            if json {
                try printJSON(profiles.map { profile in
                    let summary = DeviceSummary(profile)
                    return DeviceListEntry(
                        id: profile.id, name: profile.name, isDefault: profile.id == DeviceCatalog.defaultDeviceID,
                        cameras: profile.cameras.map(\.id), features: summary.featureList)
                })
                return
            }
            for profile in profiles {
                let summary = DeviceSummary(profile)
                let marker = profile.id == DeviceCatalog.defaultDeviceID ? " (default)" : ""
                print("\(profile.id)\(marker)  \(profile.name)")
                print("  cameras:  \(summary.cameraList)")
                print("  features: \(summary.featureList.joined(separator: ", "))")
            }
        }
    }

    /// `obscura devices show ID [--json]`: the capability matrix.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a device's capability matrix.")
        @OptionGroup var options: CatalogOptions
        @Argument(help: "A device id (e.g. iphone-15-pro) or a path to a profile.", completion: Completions.devices)
        var device: String
        @Flag(help: "Print JSON with sorted keys.")
        var json = false

        func run() throws {
            let profile: DeviceProfile
            do {
                profile = try options.catalog().profile(device)
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure.badInput("\(error)")
            }
            let matrix = CapabilityMatrix(profile)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                guard let data = try? encoder.encode(matrix), let text = String(data: data, encoding: .utf8) else {
                    throw CommandFailure.outputFailed("cannot encode the capability matrix as JSON")
                }
                print(JSONText.escapingInvisibleControls(text))
            } else {
                print(matrix.text, terminator: "")
            }
        }
    }

    /// `obscura devices lint [FILE…]`: every problem, `file:line:column: message`; exit 1 if any.
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check profiles for impossible combinations (default: the whole catalogue).")
        @OptionGroup var options: CatalogOptions
        @Argument(help: "Profile files to check.")
        var files: [String] = []
        @Flag(help: "Print the problems as JSON (file, line, column, message) with sorted keys.")
        var json = false

        func run() throws {
            let paths = files.isEmpty ? try options.catalog().profilePaths : files
            var count = 0
            var found: [LintProblem] = []
            for path in paths {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw CommandFailure.badInput("\(path): no such file")
                }
                for problem in DeviceProfileLint.problems(inFile: path) {
                    count += 1
                    if json {
                        found.append(LintProblem(file: problem.location.file, line: problem.location.line,
                                                 column: problem.location.column, message: problem.message))
                    } else {
                        // Unbuffered, so the problems precede the summary that goes to standard error.
                        FileHandle.standardOutput.write(Data((problem.description + "\n").utf8))
                    }
                }
            }
            if json {
                try printJSON(LintReport(checked: paths.count, problems: found))
            }
            if count > 0 {
                throw CommandFailure.checkFailed(
                    "\(count) problem\(count == 1 ? "" : "s") in \(paths.count) profile(s)")
            }
            if !json { print("\(paths.count) profile(s) checked, no problems") }
        }
    }
}

private struct DeviceListEntry: Encodable {
    var id: String
    var name: String
    var isDefault: Bool
    var cameras: [String]
    var features: [String]

    enum CodingKeys: String, CodingKey { case id, name, isDefault = "is_default", cameras, features }
}

private struct LintProblem: Encodable {
    var file: String
    var line: Int
    var column: Int
    var message: String
}

private struct LintReport: Encodable {
    var checked: Int
    var problems: [LintProblem]
}
