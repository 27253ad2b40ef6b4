import Devices
import Foundation
import Imaging
import Scenes

/// Makes a run's record reproducible and free of the machine's details before any report is made.
///
/// Exception reasons name objects by address (`<AVCapturePhotoOutput: 0x55d0c8a3b2c0>`), which
/// differs from run to run; each address becomes a stable number in order of first appearance
/// (`<AVCapturePhotoOutput: #1>`). Paths lose the folders of this machine: the scenario's folder
/// is dropped (paths become relative to the scenario), and the scene folder, the device catalogue
/// and the working directory become `Scenes/`, `DeviceProfiles/` and relative paths. The reason
/// texts the API raises are not changed; only the record is. Our choice (reports).
enum ReportPrivacy {
    /// The result with addresses numbered and paths made relative.
    static func clean(_ result: ScenarioResult, scenario: Scenario) -> ScenarioResult {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every text of the record is rewritten alike by going through its JSON form; a record that
        // cannot be encoded (it would fail as report.json too) is returned as it is.
        guard let data = try? encoder.encode(result) else { return result }
        let text = rewrite(String(decoding: data, as: UTF8.self), prefixes: prefixes(for: scenario))
        return (try? JSONDecoder().decode(ScenarioResult.self, from: Data(text.utf8))) ?? result
    }

    /// Folder prefixes to replace, longest first, so the most specific one wins.
    static func prefixes(for scenario: Scenario) -> [(String, String)] {
        var pairs: [(String, String)] = []
        func add(_ folder: String?, _ replacement: String) {
            guard let folder, folder.hasPrefix("/"), folder.count > 1 else { return }
            pairs.append((folder + "/", replacement))
            if let real = FileConfinement.realPath(folder), real != folder { pairs.append((real + "/", replacement)) }
        }
        let scenarioFolder = FileConfinement.folder(of: scenario.file)
        let cwd = FileManager.default.currentDirectoryPath
        add(FileConfinement.resolved(scenarioFolder), "")
        if scenarioFolder.hasPrefix("/") { add(scenarioFolder, "") }
        add((try? SceneLoader())?.directory, "Scenes/")
        add((try? DeviceCatalog())?.directory, "DeviceProfiles/")
        add(cwd, "")
        // Relative forms of the scenario's folder as given (`Scenes/x.scenario.yaml` run from the checkout).
        if scenarioFolder != "." && !scenarioFolder.hasPrefix("/") { pairs.append((scenarioFolder + "/", "")) }
        return pairs.sorted { $0.0.count > $1.0.count }
    }

    /// `text` with addresses numbered and the prefixes replaced.
    static func rewrite(_ text: String, prefixes: [(String, String)]) -> String {
        var out = text
        for (prefix, replacement) in prefixes { out = out.replacingOccurrences(of: prefix, with: replacement) }
        return numberAddresses(out)
    }

    /// Replaces each `0x` with 9 to 16 hex digits (a pointer; four-character codes have 8) by `#n`.
    static func numberAddresses(_ text: String) -> String {
        var numbers: [Substring: Int] = [:]
        var out = ""
        var rest = text[...]
        while let range = rest.range(of: "0x") {
            out += rest[..<range.lowerBound]
            let digits = rest[range.upperBound...].prefix { $0.isHexDigit }
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : " "
            if (9...16).contains(digits.count) && !before.isLetter && !before.isNumber {
                let n = numbers[digits] ?? (numbers.count + 1)
                numbers[digits] = n
                out += "#\(n)"
                rest = rest[digits.endIndex...]
            } else {
                out += "0x"
                rest = rest[range.upperBound...]
            }
        }
        return out + rest
    }
}
