import ArgumentParser
import Foundation
import ObscuraSupport
import Scenarios

/// `obscura report`: work on the reports that runs wrote.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work on run reports: join the folders of sharded runs into one.",
        subcommands: [Merge.self]
    )

    /// `obscura report merge OUT DIR…`.
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join the output folders of several runs (e.g. --shard jobs) into one report.",
            discussion: """
                Each DIR is a folder `obscura run` wrote: one scenario's folder, or a folder of scenario folders \
                (several files, or --shard). OUT receives every scenario's folder, report.json listing them all, an \
                index report.html and junit.xml, whose test cases keep the times and file paths of the runs (from each \
                folder's run.json). Two scenarios of one name are refused, and so is an OUT that is, holds or lies \
                inside a DIR. OUT appears only when complete; --force replaces an existing OUT. Scenario files a run could not run (its errors.json) are carried over \
                into OUT's errors.json, index and junit.xml. Exits 1 when a merged scenario failed and 2 when a \
                merged run could not run a scenario file, as obscura run does, and 3 when OUT cannot be written.
                """)

        @Argument(help: "The folder to write.", completion: .directory) var out: String
        @Argument(help: "Folders written by obscura run.", completion: .directory) var directories: [String]
        @Flag(help: "Replace what an earlier run wrote in the output folder (listed in its manifest).") var force = false

        func run() throws {
            guard !directories.isEmpty else { throw CommandFailure.badInput("no folders to merge; give one or more") }
            try OutputFiles.checkFolderApart((out, "OUT"), inputs: directories.map { ($0, "the merged folder") })
            var found: [(result: ScenarioResult, folder: String)] = []
            var problems: [JUnitReport.Problem] = []
            for directory in directories {
                found += try Self.scenarioFolders(in: directory)
                problems += try Self.problems(in: directory)
            }
            // In the order one run of all the files keeps (`Shard.select`): the paths as given, byte by byte.
            func order(_ r: ScenarioResult) -> [UInt8] { Array((r.givenFile ?? r.file).utf8) }
            found.sort { a, b in
                order(a.result) == order(b.result)
                    ? a.result.name < b.result.name : order(a.result).lexicographicallyPrecedes(order(b.result))
            }
            var seen: [String: String] = [:]
            for (result, folder) in found {
                if let first = seen[result.name] {
                    throw CommandFailure.badInput(
                        "\(first) and \(folder) both hold scenario \(TextExcerpt.quoted(result.name)); merge them apart")
                }
                seen[result.name] = folder
            }
            let output: OutputDirectory
            do {
                output = try OutputDirectory(path: out, force: force)
            } catch {
                throw CommandFailure.outputFailed("\(error)")
            }
            do {
                for (result, folder) in found {
                    let target = try output.nested(result.name)
                    for file in try Self.files(under: folder) {
                        let bytes = try Self.read(folder + "/" + file)
                        try target.write(bytes, to: file)
                    }
                }
                let results = found.map(\.result)
                try output.write(try JSONReport.encode(results, alwaysList: true), to: "report.json")
                let index = HTMLReport.renderIndex(results.map { ($0, $0.name + "/report.html") }, problems: problems)
                try output.write(Array(index.utf8), to: "report.html")
                try output.write(Array(JUnitReport.render(results, problems: problems).utf8), to: "junit.xml")
                if !problems.isEmpty {
                    try output.write(try JUnitReport.encodeProblems(problems), to: JUnitReport.problemsFileName)
                }
                try output.commit()
            } catch let refusal as OutputDirectory.Refusal {
                output.discard()
                throw CommandFailure.outputFailed(refusal.message)
            } catch {
                output.discard()
                throw error
            }
            let failed = found.filter { !$0.result.passed }.count
            let unrun = problems.isEmpty ? "" : ", \(problems.count) could not be run"
            say("merged \(found.count) scenarios from \(directories.count) folders into \(out) "
                + "(\(failed) failed\(unrun))")
            say("  report: \(out)/report.html")
            say("  junit:  \(out)/junit.xml")
            var verdicts: [String] = []
            if !problems.isEmpty {
                verdicts.append(
                    "\(problems.count) scenario files could not be run: "
                        + problems.map(\.file).joined(separator: ", "))
            }
            if failed > 0 {
                let names = found.filter { !$0.result.passed }.map(\.result.name)
                verdicts.append("\(failed) of \(found.count) merged scenarios failed: \(names.joined(separator: ", "))")
            }
            guard verdicts.isEmpty else {
                let message = verdicts.joined(separator: "\n")
                throw problems.isEmpty ? CommandFailure.checkFailed(message) : CommandFailure.badInput(message)
            }
        }

        /// The scenario files the run that wrote `directory` could not run (its errors.json), if it lists any.
        static func problems(in directory: String) throws -> [JUnitReport.Problem] {
            let path = directory + "/" + JUnitReport.problemsFileName
            guard FileManager.default.fileExists(atPath: path) else { return [] }
            return try decoding(path, "a list of obscura run", JUnitReport.decodeProblems)
        }

        /// The scenario folders of `directory`: itself, when its report.json holds one scenario; else
        /// its subfolders that hold one.
        static func scenarioFolders(in directory: String) throws -> [(result: ScenarioResult, folder: String)] {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
                throw CommandFailure.badInput("\(directory): no such folder")
            }
            let own = directory + "/report.json"
            if FileManager.default.fileExists(atPath: own) {
                let results = try decode(own)
                if results.count == 1, !isListReport(own) { return [(timed(results[0], folder: directory), directory)] }
            }
            var found: [(ScenarioResult, String)] = []
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() {
                let folder = directory + "/" + name
                let report = folder + "/report.json"
                guard FileManager.default.fileExists(atPath: report) else { continue }
                let results = try decode(report)
                guard results.count == 1, !isListReport(report) else { continue }
                found.append((timed(results[0], folder: folder), folder))
            }
            if found.isEmpty && !FileManager.default.fileExists(atPath: own) {
                throw CommandFailure.badInput("\(directory): no report.json here or in its folders; is it a run's output?")
            }
            return found
        }

        /// `result` with the times and given path of the run that wrote `folder` (its run.json), when there.
        static func timed(_ result: ScenarioResult, folder: String) -> ScenarioResult {
            guard let bytes = try? read(folder + "/" + RunRecord.fileName), let record = RunRecord.decode(bytes) else {
                return result
            }
            return record.applied(to: result)
        }

        /// Whether a report.json is a folder's list (which may hold a single scenario).
        static func isListReport(_ path: String) -> Bool {
            guard let bytes = try? read(path) else { return false }
            return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "[")
        }

        static func decode(_ path: String) throws -> [ScenarioResult] {
            try decoding(path, "a report of obscura run", JSONReport.decode)
        }

        /// The file at `path` read by `decode`; a file it cannot read is bad input, named as not `what`.
        static func decoding<T>(_ path: String, _ what: String, _ decode: ([UInt8]) throws -> T) throws -> T {
            do {
                return try decode(try read(path))
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure.badInput("\(path): not \(what) (\(error))")
            }
        }

        static func read(_ path: String) throws -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandFailure.badInput("\(path): cannot be read")
            }
            return [UInt8](data)
        }

        /// Regular files below `folder`, relative to it, sorted; symbolic links are not followed.
        static func files(under folder: String) throws -> [String] {
            guard let walker = FileManager.default.enumerator(atPath: folder) else {
                throw CommandFailure.badInput("\(folder): cannot be listed")
            }
            var files: [String] = []
            while let relative = walker.nextObject() as? String {
                let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + relative)
                if attributes?[.type] as? FileAttributeType == .typeRegular { files.append(relative) }
            }
            return files.sorted()
        }
    }
}
