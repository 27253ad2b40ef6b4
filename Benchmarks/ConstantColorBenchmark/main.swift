// Release-build benchmark of a 12 MP Constant Color capture end to end: metering, both frames,
// registration, processing, confidence map and the PNG bytes of photo and map. Run by
// tools/bench-constant-color.sh; not part of the test suite.
//
// Run: tools/bench-constant-color.sh [runs] [width height]   (a smaller size scales the camera, e.g. for callgrind)
// The scene is hand-on-desk unless OBSCURA_SCENE names another in Scenes/.
import Devices
import Foundation
import ISP
import Imaging
import Scenes

/// FNV-1a of the photo's PNG bytes: equal digests show a change left the output alone. A plain loop in a
/// nonisolated function, outside the timed part: a `reduce` closure in top-level (main-actor) code pays an
/// executor check per byte, about 6 G instructions for an 18 MB photo.
nonisolated func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}

let arguments = CommandLine.arguments
let runs = arguments.count > 1 ? max(1, Int(arguments[1]) ?? 3) : 3
var size = (width: 4032, height: 3024)
if arguments.count > 3, let w = Int(arguments[2]), let h = Int(arguments[3]), w > 0, h > 0 { size = (w, h) }
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
do {
    let profile = try DeviceCatalog(directory: root.appendingPathComponent("DeviceProfiles").path).profile("iphone-15-pro")
    let camera = try profile.camera(ofType: .builtInWideAngleCamera)
    let pipeline = try ConstantColorPipeline(
        device: profile, camera: camera, width: size.width, height: size.height, settings: .init(developsFallback: false))
    let sceneName = ProcessInfo.processInfo.environment["OBSCURA_SCENE"] ?? "hand-on-desk"
    let scene = try SceneLoader(directory: root.appendingPathComponent("Scenes").path).scene(sceneName)
    var times: [Double] = []
    for run in 0..<runs {
        let start = Date()
        let result = pipeline.capture(scene: scene, seed: UInt64(run))
        let beforePNG = Date()
        let photo = try PNG.encode(PNGImage(pixels: result.photo, colorSpace: .displayP3), compressionLevel: 1)
        let map = try PNG.encode(PNGImage(pixels: result.confidenceMap.plane))
        let end = Date()
        let t = end.timeIntervalSince(start)
        times.append(t)
        let digest = fnv1a(photo)
        print(String(format: "run %d: %.3f s (%d + %d PNG bytes, confidence %.3f, photo digest %016llx)", run, t,
            photo.count, map.count, result.centerWeightedMeanConfidence, digest))
        // Per-stage breakdown: rendering (the Sensor target) versus the pipeline's own processing.
        // CPU time beside wall time: their ratio is how many cores the stage kept busy.
        var stages = result.diagnostics.stageSeconds.map { ($0.name, $0.seconds, $0.cpuSeconds) }
        stages.append(("PNG", end.timeIntervalSince(beforePNG), .nan))
        print(stages.map { String(format: "  %@ %.3f s (CPU %.3f s)", $0.0, $0.1, $0.2) }.joined(separator: "\n"))
    }
    times.sort()
    print(String(format: "median %.3f s over %d runs", times[times.count / 2], runs))
} catch {
    FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
    exit(2)
}
