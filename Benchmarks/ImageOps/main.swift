// Release-build benchmark of the image operations on a 12 MP RGB image; run by tools/bench-imageops.sh, which
// puts OpenCV's timings for the same operations beside these. Prints one `name median_ms` line per operation.
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

func median(_ body: () -> Void) -> Double {
    body()  // warm-up
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    return times[times.count / 2]
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
print("warp \(String(format: "%.2f", warp))")
print("stretch \(String(format: "%.2f", stretch))")
FileHandle.standardError.write(Data("checksum \(sink)\n".utf8))
