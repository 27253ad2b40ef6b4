import Foundation
import FuzzDriver
import Scenarios

/// The scenario's own file sits in an empty directory of ours, so relative references in the input resolve to
/// nothing rather than to whatever sits in the working directory; catalogue names still resolve.
let scenarioFile: String = {
    let path = NSTemporaryDirectory() + "obscura-fuzz-scenario-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path + "/fuzz.scenario.yaml"
}()

/// libFuzzer entry: any bytes as a scenario file. A thrown error is the expected outcome for bad input; only a
/// trap, a hang or runaway memory is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    _ = try? ScenarioLoader.load(text: text, file: scenarioFile)
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
