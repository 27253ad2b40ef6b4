// swift-tools-version:6.0
// libFuzzer targets for Obscura's loaders. A package of its own, so the fuzzer-only executables (they link only
// with `-sanitize=fuzzer`) never enter the main package's build. Build and run them with tools/fuzz.sh.
import PackageDescription

let package = Package(
    name: "ObscuraFuzz",
    products: [
        .executable(name: "FuzzDeviceProfile", targets: ["FuzzDeviceProfile"]),
        .executable(name: "FuzzScene", targets: ["FuzzScene"]),
        .executable(name: "FuzzScenario", targets: ["FuzzScenario"]),
        .executable(name: "FuzzPNG", targets: ["FuzzPNG"]),
        .executable(name: "FuzzOutput", targets: ["FuzzOutput"]),
    ],
    dependencies: [.package(name: "Obscura", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzDeviceProfile", dependencies: ["FuzzDriver", .product(name: "Devices", package: "Obscura")]),
        .executableTarget(
            name: "FuzzScene", dependencies: ["FuzzDriver", .product(name: "Scenes", package: "Obscura")]),
        .executableTarget(
            name: "FuzzScenario", dependencies: ["FuzzDriver", .product(name: "Scenarios", package: "Obscura")]),
        .executableTarget(
            name: "FuzzPNG", dependencies: ["FuzzDriver", .product(name: "Imaging", package: "Obscura")]),
        .executableTarget(
            name: "FuzzOutput", dependencies: ["FuzzDriver", .product(name: "Scenarios", package: "Obscura")]),
    ],
    swiftLanguageModes: [.v6]
)
