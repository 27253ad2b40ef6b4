// swift-tools-version:6.0
// A small camera written as iOS apps write it, and its tests, run on Linux through Obscura.
import PackageDescription

// Obscura stands in for Apple's frameworks on Linux only; on Apple platforms `import AVFoundation` is
// the real framework.
let linux = TargetDependencyCondition.when(platforms: [.linux])

let package = Package(
    name: "CameraApp",
    platforms: [.macOS(.v14)],
    dependencies: [
        // In your own package: .package(url: "https://github.com/<owner>/obscura.git", branch: "main")
        .package(path: "../obscura")
    ],
    targets: [
        .target(
            name: "CameraKit",
            dependencies: [
                .product(name: "AVFoundation", package: "obscura", condition: linux),
                .product(name: "CoreImage", package: "obscura", condition: linux),
                .product(name: "Vision", package: "obscura", condition: linux),
            ]),
        .testTarget(
            name: "CameraKitTests",
            dependencies: [
                "CameraKit",
                .product(name: "AVFoundation", package: "obscura", condition: linux),
                .product(name: "CoreImage", package: "obscura", condition: linux),
                .product(name: "Vision", package: "obscura", condition: linux),
                .product(name: "ObscuraTesting", package: "obscura", condition: linux),
            ]),
    ]
)
