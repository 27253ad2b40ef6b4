// Release-build benchmark of the sensor renderer: a violets-like scene at 4032×3024 with flash and
// warm ambient light. Prints the median wall time of several runs and the peak resident memory.
//
// Run: tools/bench-render.sh [runs] [width height]   (a smaller size scales the camera, e.g. for callgrind)
// A fourth argument `checksum` also prints a hash of the last frame's electrons, DN and depth.
import Foundation
import Scenes
import Sensor
import Spectra

func peakResidentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return .nan }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? .nan
        return kb / 1024
    }
    return .nan
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let arguments = CommandLine.arguments
let runs = arguments.count > 1 ? max(1, Int(arguments[1]) ?? 5) : 5
let scene = try BenchmarkScene.violetsScene()
var cam = BenchmarkScene.camera()
if arguments.count > 3, let w = Int(arguments[2]), let h = Int(arguments[3]), w > 0, h > 0 {
    cam = cam.scaled(toWidth: w, height: h)
}
let flash = BenchmarkScene.flash
let options = RenderOptions(keepsComponents: false)
let exposure = Exposure(time: 1.0 / 30, iso: 200, flash: true, seed: 7)

var full: [Double] = []
var cached: [Double] = []
var lastFrame: RawFrame?
for run in 0..<runs {
    // Drop the previous frame first: the benchmark measures one frame alive at a time.
    lastFrame = nil
    var renderer: Renderer?
    let tFull = seconds {
        let r = Renderer(scene: scene, camera: cam, flash: flash, options: options)
        lastFrame = r.render(exposure)
        renderer = r
    }
    let tCached = seconds {
        lastFrame = nil
        var e = exposure
        e.frameIndex = UInt64(run + 1)
        e.flash = false
        lastFrame = renderer?.render(e)
    }
    full.append(tFull)
    cached.append(tCached)
    print(String(format: "run %d: full frame %.3f s, second frame from cached geometry %.3f s", run + 1, tFull, tCached))
}
func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
let green = lastFrame.map { TestStats.meanGreen($0) } ?? 0
print(String(format: "%d×%d, %d objects, flash + ambient: median full %.3f s, median cached %.3f s, peak RSS %.0f MB",
             cam.width, cam.height, scene.objects.count, median(full), median(cached), peakResidentMegabytes()))
print(String(format: "(mean green of last frame: %.1f e⁻; threads: %d)", green, ProcessInfo.processInfo.activeProcessorCount))
if arguments.count > 4, arguments[4] == "checksum", let f = lastFrame {
    // Compare versions bit for bit: any change in a pixel's electrons, code or depth changes this.
    print(String(format: "(last frame checksum: %016llx)", BenchmarkScene.checksum(f)))
}

enum TestStats {
    static func meanGreen(_ f: RawFrame) -> Double {
        var s = 0.0
        for i in stride(from: 1, to: f.electrons.count, by: 3) { s += Double(f.electrons[i]) }
        return s / Double(f.width * f.height)
    }
}
