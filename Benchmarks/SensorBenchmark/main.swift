// Release-build benchmark of the sensor renderer: a violets-like scene at 4032×3024 with flash and
// warm ambient light. Prints the median wall time of several runs and the peak resident memory.
//
// Run: tools/bench-render.sh [runs] [width height]   (a smaller size scales the camera, e.g. for callgrind)
// A fourth argument `checksum` also prints a hash of the last frame's electrons, DN and depth.
import Foundation
import Scenes
import Sensor
import Spectra

/// A smooth reflectance rising from `low` to `high` around `edge` nm (a logistic step).
func step(_ low: Double, _ high: Double, edge: Double, width: Double = 25) -> Spectrum {
    Spectrum { l in low + (high - low) / (1 + exp(-(l - edge) / width)) }
}

func violetsScene() throws -> Scene {
    let terracotta = Material(name: "terracotta", reflectance: step(0.06, 0.45, edge: 590), specularStrength: 0.02, roughness: 0.7)
    let soil = Material(name: "soil", reflectance: step(0.03, 0.08, edge: 600))
    let leaf = Material(
        name: "leaf",
        reflectance: Spectrum { l in 0.04 + 0.12 * exp(-0.5 * ((l - 550) / 30) * ((l - 550) / 30)) + 0.4 / (1 + exp(-(l - 710) / 10)) },
        specularStrength: 0.04, roughness: 0.35)
    let petal = Material(
        name: "violet petal",
        reflectance: Spectrum { l in 0.05 + 0.45 * exp(-0.5 * ((l - 430) / 30) * ((l - 430) / 30)) + 0.35 / (1 + exp(-(l - 650) / 20)) })
    let table = Material(name: "table", reflectance: step(0.10, 0.40, edge: 580, width: 40), specularStrength: 0.04, roughness: 0.3)
    let wall = Material.neutral("wall", reflectance: 0.7)

    var objects: [SceneObject] = [
        SceneObject(
            name: "wall", shape: .plane(width: 6, height: 4), transform: Transform(position: Vector3(0, 1.2, -1.2)),
            surface: .uniform(wall)),
        SceneObject(
            name: "table", shape: .plane(width: 3, height: 2),
            transform: Transform(position: Vector3(0, 0, 0), rotation: Rotation(axis: Vector3(1, 0, 0), radians: -Double.pi / 2)),
            surface: .uniform(table)),
        SceneObject(
            name: "pot", shape: .box(width: 0.16, height: 0.14, depth: 0.16), transform: Transform(position: Vector3(0, 0.07, 0)),
            surface: .uniform(terracotta)),
        SceneObject(
            name: "soil", shape: .disc(radius: 0.075),
            transform: Transform(position: Vector3(0, 0.1405, 0), rotation: Rotation(axis: Vector3(1, 0, 0), radians: -Double.pi / 2)),
            surface: .uniform(soil)),
        SceneObject(
            name: "chart", shape: .plane(width: 0.2794, height: 0.1905),
            transform: Transform(position: Vector3(0.3, 0.0952, -0.15), rotation: Rotation(yawDegrees: -15)),
            surface: Cards.colorChecker()),
    ]
    // Leaves: tilted discs in a rosette; flowers: small spheres above them.
    for i in 0..<18 {
        let a = Double(i) * 2 * Double.pi / 18
        let r = 0.06 + 0.03 * Double(i % 3)
        objects.append(
            SceneObject(
                name: "leaf \(i)", shape: .disc(radius: 0.035),
                transform: Transform(
                    position: Vector3(r * cos(a), 0.17 + 0.01 * Double(i % 2), r * sin(a)),
                    rotation: Rotation(axis: Vector3(-sin(a), 0, cos(a)), radians: -1.1)),
                surface: .uniform(leaf)))
    }
    for i in 0..<12 {
        let a = Double(i) * 2 * Double.pi / 12 + 0.2
        let r = 0.035 + 0.02 * Double(i % 2)
        objects.append(
            SceneObject(
                name: "flower \(i)", shape: .sphere(radius: 0.014),
                transform: Transform(position: Vector3(r * cos(a), 0.215 + 0.01 * Double(i % 3), r * sin(a))),
                surface: .uniform(petal)))
    }
    let room = AmbientLight(
        spectrum: try Illuminants.make(cct: 2800), illuminance: 150, direction: Vector3(-0.4, 1, 0.5),
        diffuseFraction: 0.6)
    return Scene(
        objects: objects, ambient: room,
        device: DevicePlacement(position: Vector3(0, 0.45, 0.55), lookAt: Vector3(0.05, 0.12, 0)))
}

func camera() -> CameraModel {
    func g(_ c: Double, _ s: Double) -> Spectrum { Spectrum { l in 0.6 * exp(-0.5 * ((l - c) / s) * ((l - c) / s)) } }
    return CameraModel(
        width: 4032, height: 3024, fx: 3292, fy: 3292, cx: 2016, cy: 1512,
        distortion: LensDistortion(lookupTable: (0..<42).map { 0.012 * pow(Double($0) / 41, 2) }, center: SIMD2(2010.5, 1519)),
        fNumber: 1.8, pixelPitchMicrometres: 1.22, quantumEfficiency: (g(600, 30), g(535, 35), g(460, 25)))
}

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
let scene = try violetsScene()
var cam = camera()
if arguments.count > 3, let w = Int(arguments[2]), let h = Int(arguments[3]), w > 0, h > 0 {
    cam = cam.scaled(toWidth: w, height: h)
}
let flash = FlashModel(modules: [
    .init(spectrum: Illuminants.cie(.b5), intensityCandela: 180, positionInCamera: Vector3(0.0095, 0, 0))
])
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
    print(String(format: "(last frame checksum: %016llx)", TestStats.checksum(f)))
}

enum TestStats {
    /// FNV-1a over the bit patterns of electrons, DN and depth.
    static func checksum(_ f: RawFrame) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ v: UInt64) { h = (h ^ v) &* 0x0000_0100_0000_01B3 }
        for e in f.electrons { mix(UInt64(e.bitPattern)) }
        for d in f.dn { mix(UInt64(d)) }
        for d in f.depth { mix(UInt64(d.bitPattern)) }
        return h
    }

    static func meanGreen(_ f: RawFrame) -> Double {
        var s = 0.0
        for i in stride(from: 1, to: f.electrons.count, by: 3) { s += Double(f.electrons[i]) }
        return s / Double(f.width * f.height)
    }
}
