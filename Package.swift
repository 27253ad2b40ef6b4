// swift-tools-version:6.2
// Obscura: AVFoundation camera capture on Linux, with physics behind the pixels.
// The targets are layers (data, physics, ISP, API, CLI); dependencies point down only.
import PackageDescription

/// The modules that hold per-pixel kernels (spectra, images, the scene's geometry, the sensor model and
/// the ISP) are optimised in every configuration, so that a dependent's plain debug build, the way an
/// app's tests run, still takes a full-size photo in seconds. Their behaviour does not depend on the
/// configuration; only the speed does.
let kernelSwift: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]
let kernelC: [CSetting] = [.unsafeFlags(["-O2"], .when(configuration: .debug))]

let package = Package(
    name: "Obscura",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "obscura", targets: ["obscura"]),
        .library(name: "Spectra", targets: ["Spectra"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "ObscuraSupport", targets: ["ObscuraSupport"]),
        .library(name: "Devices", targets: ["Devices"]),
        .library(name: "Scenes", targets: ["Scenes"]),
        .library(name: "Sensor", targets: ["Sensor"]),
        .library(name: "ISP", targets: ["ISP"]),
        .library(name: "ObscuraAV", targets: ["ObscuraAV"]),
        .library(
            name: "AVFoundation",
            targets: [
                "AVFoundation", "CoreMedia", "CoreVideo", "QuartzCore", "simd", "UniformTypeIdentifiers",
                "MobileCoreServices", "CoreServices", "AVKit", "AVFAudio", "CoreGraphics",
            ]),
        .library(name: "CoreImage", targets: ["CoreImage"]),
        .library(name: "Vision", targets: ["Vision"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
        .library(name: "VideoToolbox", targets: ["VideoToolbox"]),
        .library(name: "Photos", targets: ["Photos"]),
        .library(name: "Obscura", targets: ["Obscura"]),
        .library(name: "ObscuraTesting", targets: ["ObscuraTesting"]),
        // Scenario files as a library: the loader's fuzz target (Fuzz/) links it without the CLI.
        .library(name: "Scenarios", targets: ["Scenarios"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // `swift package generate-documentation --target Obscura` builds the DocC catalogue.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C shim over libpng: setjmp/longjmp stay inside C, errors come back as codes.
        .target(
            name: "CPNG", cSettings: kernelC,
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
        ),
        // C shim over libjpeg-turbo, like CPNG: libjpeg's longjmp stays inside C.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // libheif loaded at run time (dlopen): HEIC exists only where libheif and its HEVC encoder do.
        .target(name: "CHEIF", linkerSettings: [.linkedLibrary("dl")]),
        // FFmpeg 5.1's libraries loaded at run time (dlopen): movies exist only where they load.
        .target(name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl")]),
        // zxing-cpp loaded at run time (dlopen) behind a C interface: barcodes are drawn on scene planes and
        // read from frames only where its headers were found at build time and its library loads.
        .target(name: "CZXing", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "Spectra", exclude: ["Data/PROVENANCE.md"], swiftSettings: kernelSwift),
        .target(name: "Imaging", dependencies: ["CPNG", "CJPEG", "CHEIF", "CFFmpeg"], swiftSettings: kernelSwift),
        // The device catalogue and seed scenes, compiled in by the EmbedData plugin so that the tool needs no
        // resource folder beside it; `DeviceProfiles/` and `Scenes/` at the top of the repository point into it.
        .target(name: "ObscuraData", exclude: ["DeviceProfiles", "Scenes"], plugins: ["EmbedData"]),
        .plugin(name: "EmbedData", capability: .buildTool(), dependencies: ["DataEmbedder"]),
        .executableTarget(name: "DataEmbedder", path: "Plugins/DataEmbedder"),
        // What every file format shares: YAML read into located nodes, `file:line:column` errors with
        // "did you mean" suggestions, and the search for the project's data folders.
        .target(
            name: "ObscuraSupport", dependencies: ["ObscuraData", .product(name: "Yams", package: "Yams")]),
        .target(name: "Devices", dependencies: ["Spectra", "ObscuraSupport"]),
        .target(
            name: "Scenes", dependencies: ["Spectra", "Imaging", "ObscuraSupport", "CZXing"], swiftSettings: kernelSwift),
        .target(name: "Sensor", dependencies: ["Spectra", "Imaging", "Devices", "Scenes"], swiftSettings: kernelSwift),
        .target(
            name: "ISP", dependencies: ["Spectra", "Imaging", "Devices", "Scenes", "Sensor"], swiftSettings: kernelSwift),
        // The rules the capture API enforces and the trace of their evaluation: named by the Obscura
        // module, never by the drop-in modules.
        .target(name: "CaptureRules"),
        // The mirrored capture API; it turns API state into Sensor renders and ISP requests.
        .target(
            name: "ObscuraAV",
            dependencies: [
                "Spectra", "Imaging", "Devices", "Scenes", "Sensor", "ISP", "CaptureRules", "CFFmpeg", "CZXing",
            ]),
        // Drop-in modules so iOS capture code compiles unchanged on Linux: each re-exports ObscuraAV.
        .target(name: "AVFoundation", dependencies: ["ObscuraAV", "CoreMedia", "CoreVideo", "QuartzCore"]),
        .target(name: "CoreMedia", dependencies: ["ObscuraAV", "CoreVideo"]),
        .target(name: "CoreVideo", dependencies: ["ObscuraAV"]),
        .target(name: "QuartzCore", dependencies: ["ObscuraAV"]),
        .target(name: "simd", dependencies: ["ObscuraAV"]),
        .target(name: "UniformTypeIdentifiers", dependencies: ["ObscuraAV"]),
        .target(name: "MobileCoreServices", dependencies: ["ObscuraAV"]),
        .target(name: "CoreServices", dependencies: ["ObscuraAV"]),
        .target(name: "AVKit", dependencies: ["AVFoundation"]),
        .target(name: "AVFAudio", dependencies: ["ObscuraAV"]),
        .target(name: "CoreGraphics", dependencies: ["ObscuraAV", "_Testing_CoreGraphics"]),
        .target(name: "_Testing_CoreGraphics"),
        // The submodule name of `import CoreImage.CIFilterBuiltins`, which Swift modules cannot declare.
        .target(name: "CCoreImageSubmodules"),
        // Core Image's names over Obscura's image operations: lazy recipes, evaluated by a context. Its
        // per-pixel kernels are optimised in every configuration, as the other kernel modules are.
        .target(
            name: "CoreImage",
            dependencies: [
                "ObscuraAV", "CoreVideo", "Obscura", "Imaging", "ISP", "Sensor", "Spectra", "Scenes", "_Testing_CoreImage",
                "CCoreImageSubmodules",
            ],
            swiftSettings: kernelSwift),
        // ImageIO's image sources and destinations over the photo files Obscura writes and reads.
        // Optimised in every configuration, as the kernel modules are: it converts and turns whole pictures.
        .target(
            name: "ImageIO", dependencies: ["ObscuraAV", "Obscura", "Imaging", "Sensor", "ISP"],
            swiftSettings: kernelSwift),
        // VideoToolbox's conversion of a pixel buffer to a CGImage, over Core Image's rendering.
        .target(name: "VideoToolbox", dependencies: ["ObscuraAV", "CoreVideo", "CoreImage", "Imaging"]),
        // PhotoKit's library: assets saved into a folder of this machine, fetched and read back.
        .target(name: "Photos", dependencies: ["ObscuraAV", "ImageIO", "Imaging"]),
        // The module Swift Testing's cross-import overlay for CoreImage names: empty, so that a test file importing
        // both Testing and the drop-in CoreImage builds (see its one source file).
        .target(name: "_Testing_CoreImage"),
        // Vision's requests on the images capture hands out, over Imaging's detectors. Optimised in every
        // configuration, as the kernel modules are: it reads every pixel of a frame into luma.
        .target(
            name: "Vision", dependencies: ["ObscuraAV", "CoreVideo", "CoreImage", "Imaging", "ISP", "Sensor"],
            swiftSettings: kernelSwift),
        // The control module for tests and tools (device, scene, seed, clock, traces); not a drop-in name.
        .target(name: "Obscura", dependencies: ["ObscuraAV", "CaptureRules", "Devices", "Scenes", "Imaging", "ISP"]),
        // Test helpers: a Swift Testing trait and an XCTest helper that scope a world to a test.
        .target(name: "ObscuraTesting", dependencies: ["Obscura"]),
        // Scenario files: steps driving ObscuraAV's public API, expectations, traces and reports.
        .target(
            name: "Scenarios",
            dependencies: ["ObscuraAV", "Obscura", "Spectra", "Imaging", "ObscuraSupport", "Devices", "Scenes", "ISP"]),
        .target(
            name: "ObscuraCLI",
            dependencies: [
                "Spectra", "Imaging", "ObscuraSupport", "Devices", "Scenes", "Sensor", "ISP", "Scenarios", "Obscura",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "obscura", dependencies: ["ObscuraCLI"]),
        // Release-build renderer benchmark, run by tools/bench-render.sh; not part of the test suite.
        .executableTarget(
            name: "SensorBenchmark", dependencies: ["Sensor", "Scenes", "Spectra"], path: "Benchmarks/SensorBenchmark"),
        // Release-build Constant Color benchmark, run by tools/bench-constant-color.sh.
        .executableTarget(
            name: "ConstantColorBenchmark", dependencies: ["ISP", "Devices", "Scenes", "Imaging"],
            path: "Benchmarks/ConstantColorBenchmark"),
        // Release-build image-operation benchmark against OpenCV, run by tools/bench-imageops.sh; not a test.
        .executableTarget(name: "ImageOpsBenchmark", dependencies: ["Imaging"], path: "Benchmarks/ImageOps"),
        // Release-build CoreImage benchmark (12 MP perspective correction against the scanner's warp, and a
        // chain of colour filters); not a test.
        .executableTarget(
            name: "CoreImageBenchmark", dependencies: ["CoreImage", "Imaging"], path: "Benchmarks/CoreImageBenchmark"),
        // Release-build PNG encoder benchmark on a real photo, run by tools/bench-png.sh; not a test.
        .executableTarget(name: "PNGBenchmark", dependencies: ["Imaging"], path: "Benchmarks/PNGBenchmark"),

        // Release-build photo-file benchmark (JPEG, HEIC, PNG bytes of a 12 MP photo), run by
        // tools/bench-photo-files.sh; not a test.
        .executableTarget(
            name: "PhotoFileBenchmark", dependencies: ["AVFoundation"], path: "Benchmarks/PhotoFileBenchmark"),

        // Release-build streaming benchmark, run by tools/bench-streaming.sh; not a test.
        .executableTarget(
            name: "StreamingBenchmark", dependencies: ["AVFoundation"], path: "Benchmarks/StreamingBenchmark"),
        // Release-build 12 MP photo benchmark through the capture API, run by tools/bench-photo.sh; not a test.
        .executableTarget(name: "PhotoBenchmark", dependencies: ["AVFoundation"], path: "Benchmarks/PhotoBenchmark"),
        // Memory over time under parallel session lifecycles, run by tools/soak.sh; not a test.
        .executableTarget(name: "SoakTest", dependencies: ["AVFoundation"], path: "Benchmarks/SoakTest"),

        // The tests' check for optional programs and libraries (exiftool, FFmpeg, …), shared by the test
        // targets that need one: skip naming the package, or fail under OBSCURA_REQUIRE_TOOLS=1.
        .target(name: "ExternalTools", path: "Tests/ExternalTools"),
        .testTarget(name: "SpectraTests", dependencies: ["Spectra"]),
        .testTarget(name: "ImagingTests", dependencies: ["ExternalTools", "Imaging"], resources: [.copy("Corpus")]),
        .testTarget(name: "DevicesTests", dependencies: ["Devices", "ObscuraSupport"], resources: [.copy("Broken")]),
        .testTarget(
            name: "ScenesTests", dependencies: ["ExternalTools", "Scenes", "ObscuraSupport", "Spectra", "Imaging"],
            resources: [.copy("Broken")]),
        .testTarget(name: "SensorTests", dependencies: ["Sensor", "Scenes"]),
        .testTarget(name: "ISPTests", dependencies: ["ISP", "Sensor", "Scenes"]),
        .testTarget(
            name: "ObscuraAVTests",
            dependencies: [
                "ExternalTools", "AVFoundation", "ObscuraAV", "Obscura", "ObscuraTesting", "Devices", "Imaging", "Scenes",
                "Sensor", "Spectra", "Photos",
            ]),
        .testTarget(name: "ScenariosTests", dependencies: ["ExternalTools", "Scenarios", "Obscura", "Devices"]),
        .testTarget(
            name: "DropInTests",
            dependencies: [
                "ExternalTools", "AVFoundation", "CoreMedia", "CoreVideo", "QuartzCore", "simd", "Vision", "ImageIO",
                "UniformTypeIdentifiers", "MobileCoreServices", "AVKit", "AVFAudio", "CoreGraphics", "Photos", "CoreImage",
            ]),
        .testTarget(
            name: "CoreImageTests", dependencies: ["CoreImage", "AVFoundation", "ObscuraTesting", "VideoToolbox", "Spectra"]),
        // Vision as apps use it: `import Vision` and `import AVFoundation`, with ObscuraTesting's world per test.
        .testTarget(
            name: "VisionTests",
            dependencies: ["ExternalTools", "Vision", "CoreImage", "AVFoundation", "Obscura", "ObscuraTesting"]),
        .testTarget(name: "ObscuraCLITests", dependencies: ["ExternalTools", "ObscuraCLI", "obscura"]),
        // Reads the sources and the documentation as text: every spec citation must resolve, every YAML
        // example runs as a scenario, and the Swift examples below are the documents' text.
        .testTarget(name: "DocumentationTests", dependencies: ["ExternalTools", "Scenarios"]),
        // The documentation's Swift examples, copied verbatim from the documents by DocumentationTests
        // (which fails when a copy is stale), built as a user's test target is, against the products a user
        // names; their tests run with the suite.
        .testTarget(name: "DocumentationExamples", dependencies: ["AVFoundation", "Obscura", "ObscuraTesting"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
