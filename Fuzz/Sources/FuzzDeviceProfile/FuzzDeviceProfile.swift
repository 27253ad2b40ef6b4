import Foundation
import FuzzDriver
import Devices

/// libFuzzer entry: any bytes as a device profile. A thrown error is the expected outcome for bad input; only a
/// trap, a hang or runaway memory is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceProfile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    if let profile = try? DeviceProfileLoader.load(text: text, file: "fuzz.yaml") {
        // The lint pass reads every cross-reference the loader accepted, so it runs on whatever loaded.
        _ = DeviceProfileLint.problems(in: profile)
    }
    return 0
}

/// Hands the command line to libFuzzer, which runs the entry above until a limit or a finding.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzDeviceProfile))
    }
}
