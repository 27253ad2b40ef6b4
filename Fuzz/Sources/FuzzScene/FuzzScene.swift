import Foundation
import FuzzDriver
import Scenes

/// An empty directory of our own, so texture paths in the input resolve to nothing rather than to whatever sits in
/// the working directory.
let emptyDirectory: String = {
    let path = NSTemporaryDirectory() + "obscura-fuzz-scene-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// libFuzzer entry: any bytes as a scene file. A thrown error is the expected outcome for bad input; only a trap,
/// a hang or runaway memory is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    _ = try? SceneLoader.load(text: text, file: "fuzz.yaml", baseDirectory: emptyDirectory)
    return 0
}

/// Hands the command line to libFuzzer, which runs the entry above until a limit or a finding.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzScene))
    }
}
