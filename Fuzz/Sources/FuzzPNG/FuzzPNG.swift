import Foundation
import FuzzDriver
import Imaging

/// libFuzzer entry: any bytes as a PNG file. `PNGError` is the expected outcome for damaged data; only a trap, a
/// hang or runaway memory is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    _ = try? PNG.decode(bytes)
    return 0
}

/// Hands the command line to libFuzzer, which runs the entry above until a limit or a finding.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzPNG))
    }
}
