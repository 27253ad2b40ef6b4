// swift-tools-version:6.0
// Obscura: AVFoundation camera capture on Linux, with physics behind the pixels.
// The targets follow the layers of DESIGN.md; dependencies point down only.
import PackageDescription

let package = Package(
    name: "Obscura",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "obscura", targets: ["obscura"]),
        .library(name: "Spectra", targets: ["Spectra"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "Devices", targets: ["Devices"]),
        .library(name: "ObscuraAV", targets: ["ObscuraAV"]),
        .library(name: "AVFoundation", targets: ["AVFoundation", "CoreMedia", "CoreVideo", "simd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // C shim over libpng: setjmp/longjmp stay inside C, errors come back as codes.
        .target(
            name: "CPNG",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
        ),
        .target(name: "Spectra", exclude: ["Data/PROVENANCE.md"]),
        .target(name: "Imaging", dependencies: ["CPNG"]),
        .target(name: "Devices", dependencies: ["Spectra", .product(name: "Yams", package: "Yams")]),
        // The mirrored capture API. Photo pixels come from Sensor and ISP once those land.
        .target(name: "ObscuraAV", dependencies: ["Spectra", "Imaging", "Devices"]),
        // Drop-in modules so iOS capture code compiles unchanged on Linux: each re-exports ObscuraAV.
        .target(name: "AVFoundation", dependencies: ["ObscuraAV"]),
        .target(name: "CoreMedia", dependencies: ["ObscuraAV"]),
        .target(name: "CoreVideo", dependencies: ["ObscuraAV"]),
        .target(name: "simd", dependencies: ["ObscuraAV"]),
        .target(
            name: "ObscuraCLI",
            dependencies: [
                "Spectra", "Imaging", "Devices",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "obscura", dependencies: ["ObscuraCLI"]),

        .testTarget(name: "SpectraTests", dependencies: ["Spectra"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"], resources: [.copy("Corpus")]),
        .testTarget(name: "DevicesTests", dependencies: ["Devices"], resources: [.copy("Broken")]),
        .testTarget(name: "ObscuraAVTests", dependencies: ["ObscuraAV"]),
        .testTarget(name: "DropInTests", dependencies: ["AVFoundation", "CoreMedia", "CoreVideo", "simd"]),
        .testTarget(name: "ObscuraCLITests", dependencies: ["ObscuraCLI", "obscura"]),
    ],
    swiftLanguageModes: [.v6]
)
