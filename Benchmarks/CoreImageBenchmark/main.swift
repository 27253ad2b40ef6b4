// Release-build benchmark of the CoreImage module on a 12 MP frame, not part of the test suite:
// `swift run -c release CoreImageBenchmark [runs]`. Prints one `name median_ms cpu_ms` line per case:
// - `scanner_warp`: the scanner's own perspective correction (`PerspectiveCorrection.rectify` on
//   8-bit RGB, as `obscura image scan` and `AVCapturePhoto.printScan` run it);
// - `ci_perspective_correction`: `CIPerspectiveCorrection` of the same quadrilateral, from a `CGImage`
//   to a `CGImage` through `CIContext.createCGImage`;
// - `ci_three_colour_filters`: exposure, colour controls and a colour matrix on the same frame,
//   rendered to a `CGImage` (one fused pass over the pixels, then the 8-bit encoding);
// - `ci_raw_development`: a 12 MP Bayer DNG's bytes through `CIRAWFilter(imageData:identifierHint:)` to a
//   `CGImage` (reading the file, the demosaic, the colour matrix and tone, then the 8-bit encoding);
// - `ci_bloom`, `ci_twirl`, `ci_median`, `ci_comic_effect`, `ci_hue_blend`: filters that camera and photo-editing apps
//   apply to a whole photo, each from the `CGImage` to a `CGImage` (a Gaussian blur and a screen; a warp; a 3 × 3
//   median; halftone screens and Sobel outlines; a non-separable blend of the photo over itself turned upside down).
import CoreImage
import Foundation
import Imaging

let width = 4032, height = 3024
let runs = CommandLine.arguments.count > 1 ? max(1, Int(CommandLine.arguments[1]) ?? 5) : 5

var rgb = UInt8Image(width: width, height: height, channels: 3)
var rgbx = [UInt8](repeating: 255, count: 4 * width * height)
rgb.withUnsafeMutableBufferPointer { buffer in
    for y in 0..<height {
        for x in 0..<width {
            let hash = (x &* 73_856_093) ^ (y &* 19_349_663)
            let v = [UInt8(truncatingIfNeeded: 40 + (x * 150) / width + (hash & 15)),
                     UInt8(truncatingIfNeeded: 60 + (y * 120) / height + ((hash >> 4) & 15)),
                     UInt8(truncatingIfNeeded: 30 + ((x + y) * 100) / (width + height) + ((hash >> 8) & 15))]
            for c in 0..<3 {
                buffer[(y * width + x) * 3 + c] = v[c]
                rgbx[(y * width + x) * 4 + c] = v[c]
            }
        }
    }
}
let cgImage = CGImage(
    width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 4 * width,
    space: CGColorSpace(name: CGColorSpace.sRGB)!, bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue),
    provider: CGDataProvider(data: Data(rgbx) as CFData)!, decode: nil, shouldInterpolate: true, intent: .defaultIntent)!

// A print seen at an angle: corners in top-left pixel coordinates for the scanner, y up for Core Image.
let corners: [SIMD2<Double>] = [SIMD2(420, 380), SIMD2(3650, 520), SIMD2(3500, 2700), SIMD2(300, 2550)]

/// CPU time of the whole process (all threads, user + system), in milliseconds.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// Prints `name median_wall_ms median_cpu_ms`: a busy machine inflates the wall time far more than the CPU time.
func median(_ name: String, _ body: () -> Void) {
    // A second argument runs only the cases whose names contain it.
    if CommandLine.arguments.count > 2, !name.contains(CommandLine.arguments[2]) { return }
    body()
    var times: [Double] = [], cpu: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds, startCPU = cpuMilliseconds()
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        cpu.append(cpuMilliseconds() - startCPU)
    }
    times.sort()
    cpu.sort()
    print(name, String(format: "%.1f %.1f", times[times.count / 2], cpu[cpu.count / 2]))
}

median("scanner_warp") { _ = PerspectiveCorrection.rectify(rgb, corners: corners) }

let context = CIContext()
let image = CIImage(cgImage: cgImage)
median("ci_perspective_correction") {
    let f = CIFilter.perspectiveCorrection()
    f.inputImage = image
    let y = { (p: SIMD2<Double>) in CGPoint(x: p.x, y: Double(height) - p.y) }
    f.topLeft = y(corners[0])
    f.topRight = y(corners[1])
    f.bottomRight = y(corners[2])
    f.bottomLeft = y(corners[3])
    let out = f.outputImage!
    _ = context.createCGImage(out, from: out.extent)
}

median("ci_three_colour_filters") {
    let out = image.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 0.5])
        .applyingFilter("CIColorControls", parameters: [kCIInputSaturationKey: 1.2, kCIInputContrastKey: 1.1])
        .applyingFilter("CIColorMatrix", parameters: ["inputBiasVector": CIVector(x: 0.01, y: 0, z: 0, w: 0)])
    _ = context.createCGImage(out, from: out.extent)
}

// The same frame as an RGGB mosaic above a black level of 64 (12-bit white), in a DNG with linear sRGB as its
// camera space.
let dngBytes: Data = {
    var samples = [UInt16](repeating: 0, count: width * height)
    rgb.withUnsafeBufferPointer { buffer in
        for y in 0..<height {
            for x in 0..<width {
                let c = (y & 1) + (x & 1)  // RGGB: 0 red, 1 green, 2 blue
                samples[y * width + x] = 64 + UInt16(buffer[(y * width + x) * 3 + c]) * 15
            }
        }
    }
    let exif = ExifMetadata(
        make: "Benchmark", model: "Benchmark", software: "", orientation: 1, exposureTimeSeconds: 0.01, fNumber: 1.8,
        iso: 100, focalLengthMM: 6.8, focalLength35mmEquivalentMM: 24, flashFired: false, pixelWidth: width,
        pixelHeight: height, isSRGB: false)
    let sRGBFromXYZ = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]
    return Data(
        DNGFile(
            exif: exif, width: width, height: height, samples: samples, blackLevel: 64, whiteLevel: 4095,
            xyzToCamera: sRGBFromXYZ, asShotNeutral: SIMD3(1, 1, 1), uniqueCameraModel: "Benchmark"
        ).bytes)
}()
median("ci_raw_development") {
    let out = CIRAWFilter(imageData: dngBytes, identifierHint: "com.adobe.raw-image")!.outputImage!
    _ = context.createCGImage(out, from: out.extent)
}

/// A filter of the typed builders on the frame, rendered to a `CGImage` over the frame's extent.
func render(_ filter: some CIFilterProtocol) {
    guard let out = filter.outputImage else { fatalError("no image") }
    _ = context.createCGImage(out, from: image.extent)
}
median("ci_bloom") {
    let f = CIFilter.bloom()
    f.inputImage = image
    render(f)
}
median("ci_twirl") {
    let f = CIFilter.twirlDistortion()
    f.inputImage = image
    f.center = CGPoint(x: width / 2, y: height / 2)
    f.radius = 1200
    render(f)
}
median("ci_median") {
    let f = CIFilter.median()
    f.inputImage = image
    render(f)
}
median("ci_comic_effect") {
    let f = CIFilter.comicEffect()
    f.inputImage = image
    render(f)
}
median("ci_hue_blend") {
    let f = CIFilter.hueBlendMode()
    f.inputImage = image
    f.backgroundImage = image.transformed(by: CGAffineTransform(scaleX: 1, y: -1).translatedBy(x: 0, y: -CGFloat(height)))
    render(f)
}
