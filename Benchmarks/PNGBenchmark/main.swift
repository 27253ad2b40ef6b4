// Release-build benchmark of the PNG encoder on a real picture; run by tools/bench-png.sh; not part of the tests.
//
// Run: PNGBenchmark FILE.png [runs] [level] [OUT.png]
// Decodes FILE (a camera photo, e.g. the Constant Color scenario's), encodes it `runs` times at zlib `level`
// (default 1, the photo path) keeping its colour space and text, and prints the median wall time, the size and an
// FNV-1a digest of the bytes; OUT, when given, receives the encoded file for checking with other decoders.
import Dispatch
import Foundation
import Imaging

/// FNV-1a of the bytes. A plain loop in a nonisolated function: a closure passed to `reduce` from top-level code
/// (main-actor isolated) pays an executor check per byte, which here costs several times the encoding itself.
nonisolated func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}

let arguments = CommandLine.arguments
guard arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: PNGBenchmark FILE.png [runs] [level] [OUT.png]\n".utf8))
    exit(2)
}
let runs = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 5) : 5
let level = arguments.count > 3 ? Int(arguments[3]) : 1
do {
    let image = try PNG.read(contentsOf: arguments[1])
    var times: [Double] = []
    var bytes: [UInt8] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        bytes = try PNG.encode(image, compressionLevel: level)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let digest = fnv1a(bytes)
    let sorted = times.sorted()
    print(String(format: "%dx%d level %@: median %.3f s (min %.3f) over %d runs, %d bytes, digest %016llx",
        image.width, image.height, level.map(String.init) ?? "default", sorted[sorted.count / 2], sorted[0], runs,
        bytes.count, digest))
    if arguments.count > 4 { try AtomicFile.write(bytes, to: arguments[4]) }
} catch {
    FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
    exit(2)
}
