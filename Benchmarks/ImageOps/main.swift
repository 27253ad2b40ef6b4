// Release-build benchmark of the image operations on a 12 MP RGB image; run by tools/bench-imageops.sh, which
// puts OpenCV's timings for the same operations beside these. Prints one `name median_ms cpu_ms` line per
// operation: the median wall time, and the median CPU time of the whole process (all threads, user + system) over
// the same runs, which a busy machine inflates far less than the wall time.
import Dispatch
import Foundation
import Imaging

let width = 4032, height = 3024
let runs = CommandLine.arguments.count > 1 ? max(1, Int(CommandLine.arguments[1]) ?? 7) : 7

/// The same test image as the Python side: a smooth gradient plus a hash pattern, 8-bit RGB.
func testImage() -> UInt8Image {
    var image = UInt8Image(width: width, height: height, channels: 3)
    image.withUnsafeMutableBufferPointer { buffer in
        for y in 0..<height {
            for x in 0..<width {
                let hash = (x &* 73_856_093) ^ (y &* 19_349_663)
                let i = (y * width + x) * 3
                buffer[i] = UInt8(truncatingIfNeeded: 40 + (x * 150) / width + (hash & 15))
                buffer[i + 1] = UInt8(truncatingIfNeeded: 60 + (y * 120) / height + ((hash >> 4) & 15))
                buffer[i + 2] = UInt8(truncatingIfNeeded: 30 + ((x + y) * 100) / (width + height) + ((hash >> 8) & 15))
            }
        }
    }
    return image
}

/// Output → source homography of the warp: a print-scanner-like perspective (same numbers as the Python side).
let outputToSource = Homography(entries: [0.92, 0.06, 120, -0.04, 0.95, 90, 0.00002, 0.000015, 1])

/// User + system CPU time of the process so far, in milliseconds.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec) / 1e3
    return user + Double(usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_stime.tv_usec) / 1e3
}

/// Median wall and CPU milliseconds of `runs` calls, after one warm-up call.
func median(_ body: () -> Void) -> (wall: Double, cpu: Double) {
    body()
    var times: [Double] = [], cpu: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds, cpuStart = cpuMilliseconds()
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        cpu.append(cpuMilliseconds() - cpuStart)
    }
    return (times.sorted()[times.count / 2], cpu.sorted()[cpu.count / 2])
}

let image = testImage()
var sink = 0
let warp = median {
    let out = image.warpedPerspective(outputToSource, width: width, height: height)
    sink &+= Int(out[width / 2, height / 2, 0])
}
let stretch = median {
    let out = ContrastStretch(clip: 0.01).apply(to: image)
    sink &+= Int(out[width / 3, height / 3, 1])
}
print(String(format: "warp %.2f %.2f", warp.wall, warp.cpu))
print(String(format: "stretch %.2f %.2f", stretch.wall, stretch.cpu))
// Printed so the optimiser keeps the results; not a figure to compare.
FileHandle.standardError.write(Data("sink \(sink)\n".utf8))
