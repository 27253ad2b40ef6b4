import Foundation
import FuzzDriver
import Scenarios

/// A sandbox of ours for each input: the scenario's own file in `sandbox/in`, its output in `sandbox/out`,
/// and a guard file beside them. Relative references in the input resolve inside the sandbox rather
/// than to whatever sits in the working directory; catalogue names still resolve.
let sandbox: String = {
    let path = NSTemporaryDirectory() + "obscura-fuzz-scenario-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path + "/in", withIntermediateDirectories: true)
    return path
}()
let scenarioFile = sandbox + "/in/fuzz.scenario.yaml"
let guardFile = sandbox + "/guard.txt"

/// libFuzzer entry: any bytes as a scenario file, loaded and, when it loads, run against a fresh output
/// folder as `obscura run --out` runs it. A thrown error is the expected outcome for bad input; a trap,
/// a hang, runaway memory, or any file written outside the output folder (the guard file changed, or a
/// new entry beside the output) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    guard let scenario = try? ScenarioLoader.load(text: text, file: scenarioFile) else { return 0 }
    let fm = FileManager.default
    try? fm.removeItem(atPath: sandbox + "/out")
    try? Data("guard".utf8).write(to: URL(fileURLWithPath: guardFile))
    let before = Set((try? fm.contentsOfDirectory(atPath: sandbox)) ?? [])
    if let output = try? OutputDirectory(path: sandbox + "/out", force: true) {
        if (try? ScenarioRunner.run(scenario, output: output)) != nil, (try? output.commit()) != nil {
        } else {
            output.discard()
        }
    }
    let after = Set((try? fm.contentsOfDirectory(atPath: sandbox)) ?? [])
    // Only the output folder may appear beside the scenario's folder.
    if !after.subtracting(before).subtracting(["out"]).isEmpty || fm.contents(atPath: guardFile) != Data("guard".utf8) {
        fatalError("a scenario wrote outside its output folder: \(after.subtracting(before).sorted())")
    }
    return 0
}

/// Hands the command line to libFuzzer, which runs the entry above until a limit or a finding.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzScenario))
    }
}
